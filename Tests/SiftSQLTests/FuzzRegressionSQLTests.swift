import Sift
import SiftSQL
import Testing

/// Inputs found by the SQL fuzz target in `Fuzz/` (minimised).
struct FuzzRegressionSQLTests {
    static let schema = StoreSchema([
        Entity("Record", table: "records", attributes: [Attribute("name", .string)]),
    ])

    /// GRDB binds text, and SQLite's functions read it, up to the first NUL:
    /// `name == "Alice\0"` matched `Alice` in SQL but not in memory. Such
    /// strings are refused, pointing at the constant.
    @Test(arguments: [
        #"name == "Alice\u0000""#,
        #"name BEGINSWITH "A\u0000x""#,
        #""lic\u0000" IN name"#,
        #"name IN {"x", "A\u0000"}"#,
        #"name LIKE[c] "*\u0000*""#,
    ])
    func stringsWithNULAreRefused(format: String) throws {
        let filter = try Filter(format)
        let request = FetchSpecification(entity: "Record", filter: filter)
        for dialect in Dialect.allCases {
            let error = #expect(throws: SQLLoweringError.self) { try request.sql(in: Self.schema, dialect: dialect) }
            #expect(error?.code == .unsupported)
            #expect(error?.message.contains("NUL") == true)
            // The error points at the string (or the list holding it).
            let start = error.map { format.utf8.index(format.utf8.startIndex, offsetBy: $0.range.lowerBound) }
            #expect(start.map { format[$0] == "\"" || format[$0] == "{" } == true, "\(error?.rendered() ?? "")")
        }
    }
}
