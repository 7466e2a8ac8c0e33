import Foundation
import Sift
import SiftSQL
import SiftTestSupport
import Testing

/// The differential suite's generated predicates on DuckDB, without a Swift
/// DuckDB driver: this suite writes the DuckDB SQL of each predicate (or
/// the reason it is refused) with memory's rows to a JSON file, and
/// `scripts/duckdb-differential.py` (Python's pinned `duckdb` wheel) runs
/// it on the same generated rows: no predicate may disagree.
@Suite struct DuckDBDifferentialTests {
    /// The predicates of `DifferentialTests.testGeneratedPredicates` (same
    /// seed, same count), as a JSON document the script reads: the tables'
    /// statements, the rows' inserts, and for each predicate its statement
    /// and memory's ids, or why DuckDB has no form for it.
    ///
    /// `ternaries` and `objects` draw the leaves of
    /// `testGeneratedTernaryPredicates` and `testGeneratedObjectPredicates`
    /// instead; each document is one library's rows, so one per set.
    static func document(seed: UInt64, cases: Int, ternaries: Bool = false, objects: Bool = false) throws
        -> (json: String, lowered: Int, refused: Int)
    {
        let library = Library(seed: seed)
        var generator = PredicateGenerator(seed: seed, ternaries: ternaries, objects: objects ? library : nil)
        // Object predicates name objects by URI too, of this store.
        let schema = objects ? Library.schemaOfAStore : Library.schema
        let setup = Library.schema.createStatements(dialect: .duckDB).map { BoundStatement(sql: $0, bindings: []) }
            + library.inserts(.duckDB)
        var predicates: [String] = []
        var lowered = 0, refused = 0
        for n in 0..<cases {
            let (format, args) = generator.predicate()
            let request = FetchSpecification(entity: "Book", filter: try Filter(format, arguments: args))
            // Memory raising is compared by the suites with a database driver.
            guard let expected = DifferentialTests.memoryIDs(request, library.books) else { continue }
            let head = "{\"case\": \(n), \"format\": " + Self.string(request.filter?.format ?? "")
            do {
                let statement = try request.sql(in: schema, dialect: .duckDB).statement
                predicates.append(
                    head + ", \"statement\": " + statement.jsonText + ", \"expected\": ["
                        + expected.map(String.init).joined(separator: ", ") + "]}")
                lowered += 1
            } catch {
                predicates.append(head + ", \"refused\": " + Self.string(Self.reason(error.message)) + "}")
                refused += 1
            }
        }
        let json = "{\"seed\": \(seed), \"cases\": \(cases),\n\"setup\": [\n" + setup.map(\.jsonText).joined(separator: ",\n")
            + "],\n\"predicates\": [\n" + predicates.joined(separator: ",\n") + "]}\n"
        return (json, lowered, refused)
    }

    /// A refusal's reason without the key and the expression it names, so
    /// that the script counts refusals by reason.
    static func reason(_ message: String) -> String {
        guard let r = message.range(of: "duckdb: ") else { return message }
        return String(message[r.upperBound...])
    }

    /// `s` as a JSON string.
    static func string(_ s: String) -> String { SQLValue.text(s).jsonText }

    @Test func testGeneratedPredicatesOnDuckDB() throws {
        try Self.compare(try Self.document(seed: DifferentialTests.seed, cases: DifferentialTests.cases), "generated")
    }

    /// `TERNARY` operands and `[FIRST]`/`[LAST]` in half the leaves.
    @Test func testGeneratedTernaryPredicatesOnDuckDB() throws {
        let cases = DifferentialTests.cases / 3
        try Self.compare(try Self.document(seed: DifferentialTests.seed &+ 3, cases: cases, ternaries: true), "TERNARY, [FIRST], [LAST]")
    }

    /// Relationships and `SELF` compared with the library's objects in
    /// half the leaves.
    @Test func testGeneratedObjectPredicatesOnDuckDB() throws {
        let cases = DifferentialTests.cases / 6
        try Self.compare(try Self.document(seed: DifferentialTests.seed &+ 5, cases: cases, objects: true), "objects")
    }

    /// `document` run by the script: no disagreement, and enough lowered
    /// to prove something.
    static func compare(_ document: (json: String, lowered: Int, refused: Int), _ title: String) throws {
        let (json, lowered, refused) = document
        #expect(lowered > (lowered + refused) / 4, "too few \(title) predicates have a DuckDB form to prove anything")
        _ = try runScript(json, "\(title): \(lowered) predicates lowered, \(refused) refused")
    }

    /// Runs `scripts/duckdb-differential.py` on the document `json` and
    /// expects it to find no disagreement; with `rows`, returns DuckDB's
    /// rows of the document's grouped fetches as the script writes them
    /// (`--rows`), nil when the script wrote none. Skips (or, with
    /// `SIFT_REQUIRE_DUCKDB=1`, fails) when Python's `duckdb` is missing.
    static func runScript(_ json: String, _ summary: String, rows: Bool = false) throws -> Data? {
        let folder = FileManager.default.temporaryDirectory
        let id = UUID().uuidString
        let file = folder.appendingPathComponent("sift-duckdb-\(id).json")
        let rowsFile = folder.appendingPathComponent("sift-duckdb-\(id)-rows.json")
        try Data(json.utf8).write(to: file)
        defer {
            try? FileManager.default.removeItem(at: file)
            try? FileManager.default.removeItem(at: rowsFile)
        }
        print("DuckDB \(summary), written to \(file.path)")

        let environment = ProcessInfo.processInfo.environment
        let python = environment["PYTHON"] ?? "python3"
        let required = environment["SIFT_REQUIRE_DUCKDB"] == "1"
        let probe = try Self.run([python, "-c", "import duckdb"])
        guard probe.status == 0 else {
            if required { Issue.record("SIFT_REQUIRE_DUCKDB=1, but Python's duckdb is missing (make python-deps)") }
            try Test.cancel("Python's duckdb is not installed (make python-deps); SIFT_REQUIRE_DUCKDB=1 makes this a failure")
        }
        let script = PackageFolder.url.appendingPathComponent("scripts/duckdb-differential.py").path
        let result = try Self.run([python, script, file.path] + (rows ? ["--rows", rowsFile.path] : []))
        print(result.output)
        #expect(result.status == 0, Comment(rawValue: result.output))
        return rows ? try? Data(contentsOf: rowsFile) : nil
    }

    /// `arguments` run through `env`, with standard output and error together.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
