import Foundation
import Testing

/// SwiftData exists only on Apple's systems, so a file importing it with
/// Sift cannot be compiled here: Sift's public top-level names are checked
/// against SwiftData's documented top-level types, protocols and macros
/// (developer.apple.com/documentation/swiftdata) instead. (GRDB and
/// PostgresNIO are checked by compiling, in SiftSQLTests'
/// NeighbourNamesTests; SQLKit and FluentKit by the NeighbourCheck package,
/// which `make neighbours` builds.)
struct NeighbourNamesTests {
    /// SwiftData's top-level names. `Attribute` and `Relationship` are
    /// macros there and types here: a macro and a type of one name do not
    /// make a use ambiguous (`@Attribute(.unique)` is the macro,
    /// `Attribute("name", .string)` the type), so they are left out.
    static let swiftData: Set<String> = [
        "Model", "Transient", "Unique", "Index", "Query", "ModelActor", "PersistentModel",
        "PersistentIdentifier", "ModelContainer", "ModelContext", "ModelConfiguration", "ModelExecutor",
        "SerialModelExecutor", "DefaultSerialModelExecutor", "Schema", "VersionedSchema", "SchemaMigrationPlan",
        "MigrationStage", "FetchDescriptor", "FetchResultsCollection", "DataStore", "DataStoreConfiguration",
        "DataStoreSnapshot", "DataStoreBatching", "DataStoreFetchRequest", "DataStoreFetchResult",
        "DataStoreSaveChangesRequest", "DataStoreSaveChangesResult", "DataStoreBatchDeleteRequest",
        "DataStoreMigrationRequest", "DefaultStore", "DefaultSnapshot", "HistoryDescriptor", "HistoryTransaction",
        "HistoryChange", "HistoryInsert", "HistoryUpdate", "HistoryDelete", "HistoryToken", "DefaultHistoryToken",
        "DefaultHistoryTransaction", "DefaultHistoryInsert", "DefaultHistoryUpdate", "DefaultHistoryDelete",
        "HistoryProviding", "SwiftDataError", "BackingData", "RelationshipCollection", "PropertyMetadata",
        "RuntimeBackingData", "ModelIterableCollection", "FetchResultsIterator",
    ]

    @Test func noTopLevelNameIsSwiftDatas() throws {
        let names = try Self.publicTopLevelNames()
        #expect(names.contains("FetchSpecification") && names.contains("StoreSchema"), "the sources were not read")
        #expect(names.intersection(Self.swiftData).isEmpty)
    }

    /// The public top-level types, protocols, aliases and macros of the
    /// library targets, without the former names kept as unavailable aliases.
    static func publicTopLevelNames() throws -> Set<String> {
        let sources = ReadmeSnippetTests.root.appendingPathComponent("Sources")
        let regex = try NSRegularExpression(
            pattern: #"^public (?:final )?(?:struct|enum|class|protocol|typealias|actor|macro) ([A-Za-z_][A-Za-z0-9_]*)"#,
            options: .anchorsMatchLines)
        var names: Set<String> = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let url as URL in files where url.pathExtension == "swift" {
            guard !url.path.contains("/SiftTool/"), !url.path.contains("/sift/") else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let start = text.index(text.startIndex, offsetBy: max(0, match.range.location - 60))
                let before = text[start..<Range(match.range, in: text)!.lowerBound]
                if before.contains("unavailable") { continue }
                names.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        return names
    }
}
