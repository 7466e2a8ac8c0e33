import Foundation
import Testing

/// `sift sql --dialect duckdb`, `--output json` in every dialect, and a
/// dialect name that does not exist.
extension CommandLineTests {
    @Test func sqlDialectsAndJSON() throws {
        let schema = Self.temporaryPath("schema.json")
        try Data(Self.schemaJSON.utf8).write(to: URL(fileURLWithPath: schema))
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let base = ["sql", "year > %d AND title ==[n] %@", "--arg", "2000", "--arg", #""it's \"x\"""#, "--schema", schema, "--entity", "Book"]

        let duck = try sift(base + ["--dialect", "duckdb"])
        #expect(duck.status == 0)
        #expect(duck.stdout == """
            SELECT t0."id", t0."title", t0."year" FROM "books" t0 WHERE t0."year" > $1 AND t0."title" = $2 ORDER BY t0."id"
            -- $1 = 2000
            -- $2 = 'it''s "x"'

            """)

        // The same statement as JSON in each dialect: the bindings as JSON
        // values, in order.
        for (dialect, placeholder) in [("sqlite", "?"), ("postgres", "$"), ("duckdb", "$")] {
            let run = try sift(base + ["--dialect", dialect, "--output", "json"])
            #expect(run.status == 0)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
            let sql = try #require(object["sql"] as? String)
            #expect(sql.contains("\(placeholder)1") && sql.contains("\(placeholder)2"), "\(dialect): \(sql)")
            let bindings = try #require(object["bindings"] as? [Any])
            #expect(bindings.count == 2)
            #expect(bindings.first as? Int == 2000)
            #expect(bindings.last as? String == #"it's "x""#)
        }

        // A construct with no exact DuckDB form: refused with a caret.
        let refused = try sift(["sql", "title BEGINSWITH[c] 'a'", "--schema", schema, "--entity", "Book", "--dialect", "duckdb"])
        #expect(refused.status == 2)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("duckdb: [c] compares Swift's case folding"))
        #expect(refused.stderr.contains("^~"))

        // An unknown dialect lists the dialects.
        let unknown = try sift(base + ["--dialect", "mysql"])
        #expect(unknown.status == 2)
        for name in ["sqlite", "postgres", "duckdb"] { #expect(unknown.stderr.contains("'\(name)'"), "\(unknown.stderr)") }
    }
}
