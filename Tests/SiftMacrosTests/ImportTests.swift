import SiftMacros
import Testing

// Only SiftMacros is imported here: it brings Sift with it, so that the
// generated code and the filters need no second import.

@KeyValueReadable
struct ImportedOnly {
    var name: String
}

/// Saying the conformance as well is allowed: the macro then adds only the
/// table.
@KeyValueReadable
struct SaidConforming: KeyValueReadable {
    var name: String
}

struct ImportTests {
    @Test func siftMacrosAloneIsEnough() throws {
        let filter = try Filter("name == 'a'").compiled(for: ImportedOnly.self)
        #expect(try [ImportedOnly(name: "a"), ImportedOnly(name: "b")].count(where: filter) == 1)
        let said = try Filter("name == 'b'").compiled(for: SaidConforming.self)
        #expect(try [SaidConforming(name: "a"), SaidConforming(name: "b")].count(where: said) == 1)
    }
}
