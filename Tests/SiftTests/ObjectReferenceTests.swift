import Foundation
import Sift
import Testing

/// ``ObjectReference`` in memory: the object ID URI it reads and prints,
/// and what it equals (a dictionary or an object of the user's type by its
/// primary key) through every operator that compares objects.
struct ObjectReferenceTests {
    static func ref(_ key: Int64, _ entity: String? = nil) -> Value { .reference(ObjectReference(entity: entity, primaryKey: key)) }

    static func matches(_ format: String, _ object: Value, _ arguments: [any FormatArgumentConvertible]) throws -> Bool {
        try Filter(format, arguments: arguments).compiled().evaluate(with: object)
    }

    @Test func testURIsReadAndPrintByOneRule() throws {
        let text = "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/SportCar/p75"
        let r = try #require(ObjectReference(uri: text))
        #expect(r.entity == "SportCar" && r.primaryKey == 75 && r.storeIdentifier == "753753D3-A961-4901-AB05-8CC48B1D3853")
        #expect(r.uri == text)
        #expect(r.description == text)
        #expect(ObjectReference(entity: "Author", primaryKey: 3).description == "Author/p3")
        #expect(ObjectReference(entity: "Author", primaryKey: 3).uri == nil)
        for bad in [
            "x-coredata:///Author/p3", "x-coredata://S//p3", "x-coredata://S/Author/t0A1B", "x-coredata://S/Author/p",
            "x-coredata://S/Author/p3/x", "x-coredata://S/Author/p-3", "x-coredata://S/Author/p+3",
            "x-coredata://S/Author/p99999999999999999999", "coredata://S/Author/p3", "x-coredata://S/Author/p٣",
        ] {
            #expect(ObjectReference(uri: bad) == nil, "\(bad)")
        }
    }

    /// A filter holding references goes through its JSON form and back.
    @Test func testReferencesInJSON() throws {
        let uri = try #require(ObjectReference(uri: "x-coredata://S/Author/p3"))
        let filter = try Filter("author == %@ OR SELF IN %@", Value.reference(uri), Value.array([Self.ref(4)]))
        let json = try JSONEncoder().encode(filter.predicate)
        #expect(try JSONDecoder().decode(PredicateNode.self, from: json) == filter.predicate)
        #expect(String(decoding: json, as: UTF8.self).contains(#""reference":{"#))
        let written = try JSONDecoder().decode(Value.self, from: Data(#"{"reference": {"primaryKey": 7}}"#.utf8))
        #expect(written.objectReference == ObjectReference(primaryKey: 7))
    }

    @Test func testDictionariesByTheirID() throws {
        let ann: Value = ["id": 3, "name": "Ann"]
        let book: Value = ["id": 1, "author": ann, "tags": [["id": 1], ["id": 2]]]
        let orphan: Value = ["id": 2, "author": nil, "tags": []]
        #expect(try Self.matches("author == %@", book, [Self.ref(3)]))
        #expect(try Self.matches("author == %@", book, [Self.ref(3, "Author")]))
        #expect(try !Self.matches("author == %@", book, [Self.ref(4)]))
        #expect(try Self.matches("%@ == author", book, [Self.ref(3)]))
        #expect(try !Self.matches("author != %@", book, [Self.ref(3)]))
        // nil is not the object: != holds, == and IN do not.
        #expect(try Self.matches("author != %@", orphan, [Self.ref(3)]))
        #expect(try !Self.matches("author == %@", orphan, [Self.ref(3)]))
        #expect(try !Self.matches("author IN %@", orphan, [Value.array([Self.ref(3), .null])]))
        #expect(try Self.matches("author IN %@", book, [Value.array([Self.ref(5), Self.ref(3)])]))
        #expect(try Self.matches("author IN %@", book, [Value.set([Self.ref(5), Self.ref(3)])]))
        #expect(try Self.matches("ANY tags == %@", book, [Self.ref(2)]))
        #expect(try Self.matches("tags CONTAINS %@", book, [Self.ref(2)]))
        #expect(try Self.matches("%@ IN tags", book, [Self.ref(2)]))
        #expect(try !Self.matches("ANY tags == %@", orphan, [Self.ref(2)]))
        #expect(try Self.matches("ALL tags != %@", orphan, [Self.ref(2)]))
        #expect(try Self.matches("SELF == %@", book, [Self.ref(1)]))
        #expect(try Self.matches("SELF IN %@", book, [Value.set([Self.ref(1, "Book")])]))
        #expect(try Self.matches("author == nil", orphan, []))
        // The key is a number: the text "3" and a missing key are not it.
        #expect(try !Self.matches("author == %@", ["author": ["id": "3"]], [Self.ref(3)]))
        #expect(try !Self.matches("author == %@", ["author": ["name": "Ann"]], [Self.ref(3)]))
        #expect(try !Self.matches("author == %@", ["author": 3], [Self.ref(3)]))
        // Another key name, as rows read from a Core Data store hold it.
        let zpk = Value.reference(ObjectReference(primaryKey: 3, keyName: "Z_PK"))
        #expect(try Self.matches("author == %@", ["author": ["Z_PK": 3]], [zpk]))
        #expect(try !Self.matches("author == %@", ["author": ["id": 3]], [zpk]))
    }

    @Test func testReferencesAndObjectsOfTheUsersTypes() throws {
        struct Author: KeyValueReadable, Identifiable, Hashable {
            var id: Int
            static let keyTable = KeyTable<Author>([:])
        }
        struct Keyed: KeyValueReadable {
            var key: Int
            static let keyTable = KeyTable<Keyed>(["id": { .int($0.key) }])
        }
        #expect(try Self.matches("SELF == %@", Author(id: 3).predicateValue, [Self.ref(3)]))
        #expect(try Self.matches("SELF == %@", Author(id: 3).predicateValue, [Self.ref(3, "Author")]))
        #expect(try !Self.matches("SELF == %@", Author(id: 3).predicateValue, [Self.ref(3, "Book")]))
        #expect(try Self.matches("SELF == %@", Keyed(key: 7).predicateValue, [Self.ref(7)]))
        #expect(try !Self.matches("SELF == %@", Keyed(key: 7).predicateValue, [Self.ref(3)]))
        // Two references: the same key, and the same entity and store where both say one.
        let store = try #require(ObjectReference(uri: "x-coredata://S/Author/p3"))
        let other = try #require(ObjectReference(uri: "x-coredata://T/Author/p3"))
        #expect(try Self.matches("SELF == %@", .reference(store), [Self.ref(3)]))
        #expect(try Self.matches("SELF == %@", .reference(store), [Self.ref(3, "Author")]))
        #expect(try !Self.matches("SELF == %@", .reference(store), [Self.ref(3, "Book")]))
        #expect(try !Self.matches("SELF == %@", .reference(store), [Value.reference(other)]))
        // The references' own keys read as any object's.
        #expect(try Self.matches("entity == 'Author' AND primaryKey == 3", .reference(store), []))
    }
}
