import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Sorted, paged and grouped fetches on DuckDB, as `DuckDBDifferentialTests`
/// runs filters: the suite writes each generated request's DuckDB statement
/// (or the reason it is refused) with the generated rows and memory's
/// answer to a JSON document, and `scripts/duckdb-differential.py` runs it
/// with Python's pinned `duckdb`.
///
/// - Sorted and paged fetches are `DifferentialTests.testGeneratedFetches`'
///   (same seed, same count): the script compares the ids in order (the
///   statement sorts by the primary key last, as memory's stable sort
///   keeps the rows' order, so the order is total) and the counts.
/// - Grouped fetches are `GroupedDifferentialTests.testGeneratedGroupedFetches`'
///   (same seed, same count, same rows): the script compares the counts
///   and returns DuckDB's rows, which this suite compares with memory's
///   dictionaries by that suite's own rule (`GroupedDifferentialTests.difference`:
///   doubles by their bits, in order where the sort decides it, otherwise
///   in an order the sort allows).
///
/// The tests are not named `testGenerated…`: `make test`'s pass on the
/// general evaluation path (`GENERAL_SUITES`) would run them again.
@Suite struct DuckDBFetchDifferentialTests {
    /// A refusal's reason without the expression's name it starts with
    /// (`e1: sum:(price) of price has no exact SQL form: …`) or the key
    /// and expression a predicate's names, so that refusals count by reason.
    static func reason(_ message: String) -> String {
        let reason = DuckDBDifferentialTests.reason(message)
        if reason != message { return reason }
        guard let colon = message.range(of: ": "), message[..<colon.lowerBound].wholeMatch(of: /e[0-9]+/) != nil else {
            return message
        }
        return String(message[colon.upperBound...])
    }

    /// One generated request in the document: its statement and count
    /// statement with memory's count, or the reason it is refused.
    static func entry(
        _ n: Int, _ label: String, _ request: FetchSpecification, count: Int, expected: String = ""
    ) -> (json: String, query: SQLQuery?) {
        let head = "{\"case\": \(n), \"format\": " + DuckDBDifferentialTests.string(label)
        do {
            let query = try request.sql(in: Library.schema, dialect: .duckDB)
            let countStatement = try request.countSQL(in: Library.schema, dialect: .duckDB)
            return (
                head + ", \"statement\": " + query.statement.jsonText + expected + ", \"countStatement\": "
                    + countStatement.jsonText + ", \"count\": \(count)}", query
            )
        } catch {
            return (head + ", \"refused\": " + DuckDBDifferentialTests.string(Self.reason(error.message)) + "}", nil)
        }
    }

    /// A document of `section`'s entries over the tables holding `inserts`.
    static func document(seed: UInt64, cases: Int, inserts: [BoundStatement], _ section: String, _ entries: [String]) -> String {
        let setup = Library.schema.createStatements(dialect: .duckDB).map { BoundStatement(sql: $0, bindings: []) } + inserts
        return "{\"seed\": \(seed), \"cases\": \(cases),\n\"setup\": [\n" + setup.map(\.jsonText).joined(separator: ",\n")
            + "],\n\"\(section)\": [\n" + entries.joined(separator: ",\n") + "]}\n"
    }

    /// Sort keys of every sortable attribute and comparison (strings'
    /// sorts other than `swiftCompare:` are refused, by reason), nils
    /// first ascending, offsets, limits and their counts.
    @Test func testSortedAndPagedFetchesOnDuckDB() throws {
        let seed = DifferentialTests.seed &+ 1
        let cases = DifferentialTests.cases / 3
        let library = Library(seed: seed)
        var generator = PredicateGenerator(seed: seed)
        var entries: [String] = []
        var lowered = 0, stringSorts = 0
        for n in 0..<cases {
            let request = try GeneratedFetches.fetch(&generator)
            guard let expected = DifferentialTests.memoryIDs(request, library.books) else { continue }
            let ids = ", \"expected\": [" + expected.map(String.init).joined(separator: ", ") + "]"
            let entry = Self.entry(n, GeneratedFetches.label(n, request), request, count: try request.count(on: library.books), expected: ids)
            entries.append(entry.json)
            guard let query = entry.query else { continue }
            lowered += 1
            if request.sort.contains(where: { ["title", "author.name", "code"].contains($0.keyPath.joined(separator: ".")) }) {
                stringSorts += 1
                #expect(query.statement.sql.contains("nfc_normalize"), "a sort by a string on DuckDB is swiftCompare:'s")
            }
        }
        let json = Self.document(seed: seed, cases: cases, inserts: library.inserts(.duckDB), "fetches", entries)
        let summary = "sorted and paged fetches: \(lowered) of \(entries.count) lowered (\(stringSorts) sorting by a string)"
        _ = try DuckDBDifferentialTests.runScript(json, summary)
        #expect(lowered > entries.count / 5, "too few sorted fetches have a DuckDB form to prove anything")
        #expect(stringSorts > 10, "too few sorts by a string have a DuckDB form")
    }

    /// A grouped request to run on DuckDB: whether its sort decides the
    /// order of its results (``GroupedDifferentialTests/decided(_:on:)``),
    /// and whether DuckDB must fail it (memory's sum past 64 bits, a double).
    struct GroupedRequest {
        var label: String
        var request: FetchSpecification
        var total: Bool
        var raises = false
    }

    /// `requests` over the Library's tables holding `rows` (memory's
    /// `books`) on DuckDB: the lowered ones compared with memory's
    /// dictionaries, the refused ones given back with their reasons.
    static func compareGrouped(
        _ requests: [GroupedRequest], rows: [Library.Row], books: [Value], seed: UInt64, _ title: String
    ) throws -> (compared: Int, lowered: Int, failures: [String]) {
        struct Pending {
            var request: GroupedRequest
            var query: SQLQuery
            var expected: [Value]
        }
        var pending: [Int: Pending] = [:]
        var entries: [String] = []
        var paged = 0
        for (n, r) in requests.enumerated() {
            let count = r.raises ? 0 : try r.request.count(on: books)
            let entry = Self.entry(n, r.label, r.request, count: count, expected: r.raises ? ", \"raises\": true" : "")
            entries.append(entry.json)
            guard let query = entry.query else { continue }
            if r.request.limit != nil || r.request.offset > 0 { paged += 1 }
            pending[n] = Pending(request: r, query: query, expected: r.raises ? [] : try r.request.execute(on: books))
        }
        let json = Self.document(seed: seed, cases: requests.count, inserts: Library.inserts(rows, .duckDB), "grouped", entries)
        let summary = "\(title): \(pending.count) of \(entries.count) lowered (\(paged) paged)"
        guard let data = try DuckDBDifferentialTests.runScript(json, summary, rows: true) else { return (0, pending.count, []) }
        struct Result: Decodable {
            var `case`: Int
            var rows: [[String?]]
        }
        var failures: [String] = []
        var compared = pending.values.filter(\.request.raises).count
        for result in try JSONDecoder().decode([Result].self, from: data) {
            guard let p = pending[result.case] else { continue }
            let label = p.request.label
            do {
                let got = try result.rows.map { cells in
                    Value.dictionary(p.query.object(try zip(p.query.columns, cells).map { Value(try Self.stored($1), $0.type) }))
                }
                let request = p.request.request
                if let d = try GroupedDifferentialTests.difference(
                    p.expected, got, sort: request.sort, total: p.request.total, fetchesSortKeys: request.properties == nil)
                {
                    failures.append("\(label)\n  DuckDB differs \(d)\n  memory \(p.expected)\n  duckdb \(got)\n  \(p.query.statement.sql)")
                }
                compared += 1
            } catch {
                failures.append("\(label): \(error)")
            }
        }
        print("DuckDB \(title): \(compared) compared with memory's dictionaries, \(failures.count) differ")
        return (compared, pending.count, failures)
    }

    /// Group keys of every attribute type and through `author` (nil among
    /// them), `count:`, `sum:`, `average:`, `min:` and `max:`, `having`,
    /// sorts over keys and names, pages where the sort decides them. Sums
    /// and averages of doubles must be refused (DuckDB adds them in no
    /// fixed order; SQLite and PostgreSQL add them in key order), here for
    /// that reason or an earlier one.
    @Test func testGroupedFetchesOnDuckDB() throws {
        let seed = GroupedDifferentialTests.seed
        let (rows, books) = GroupedDifferentialTests.library(seed: seed)
        var generator = PredicateGenerator(seed: seed)
        var requests: [GroupedRequest] = []
        var failures: [String] = []
        for n in 0..<GroupedDifferentialTests.cases {
            let generated = try GroupedDifferentialTests.generate(&generator)
            let (request, total) = try GroupedDifferentialTests.decided(generated.request, on: books)
            let label = GroupedDifferentialTests.label(n, request)
            requests.append(GroupedRequest(label: label, request: request, total: total))
            // Refused for this reason or an earlier one (arithmetic, a
            // string comparison), never lowered.
            if generated.sumsDoubles, (try? request.sql(in: Library.schema, dialect: .duckDB)) != nil {
                failures.append("\(label): DuckDB lowered a sum or average of doubles")
            }
        }
        let (compared, lowered, differ) = try Self.compareGrouped(requests, rows: rows, books: books, seed: seed, "grouped fetches")
        failures += differ
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.prefix(10).joined(separator: "\n")))
        #expect(compared == lowered, "the script ran \(compared) of the \(lowered) lowered grouped fetches")
        #expect(compared > requests.count / 4, "too few grouped fetches have a DuckDB form to prove anything")
    }

    /// DuckDB sums integers as 128-bit HUGEINTs: a sum past 64 bits, where
    /// memory's becomes a double, must fail the statement (the sum is cast
    /// back to BIGINT), and a partial sum past 64 bits that comes back is
    /// memory's exact integer.
    @Test func testIntegerSumPast64BitsFailsOnDuckDB() throws {
        let (rows, books) = GroupedFetchSQLTests.tables(years: [Int.max, 1, -1, nil])
        let sum = try GroupedFetchSQLTests.request(groupBy: nil, [("s", "sum:(year)")])
        var over = sum
        over.filter = try Filter("year >= 0")
        #expect(try over.execute(on: books) == [["s": Value.double(Double(Int.max) + 1)]])
        #expect(try sum.execute(on: books) == [["s": Value.int(Int.max)]])
        let requests = [
            GroupedRequest(label: "sum past 64 bits", request: over, total: false, raises: true),
            GroupedRequest(label: "partial sum past 64 bits", request: sum, total: false),
        ]
        let (compared, lowered, failures) = try Self.compareGrouped(requests, rows: rows, books: books, seed: 0, "sums past 64 bits")
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
        #expect(compared == 2 && lowered == 2)
    }

    struct BadCell: Error, CustomStringConvertible {
        var description: String
    }

    /// A cell as the script writes it (see `scripts/duckdb-differential.py`),
    /// as the value SQLite would hand back: a double by its bits.
    static func stored(_ cell: String?) throws -> DatabaseValue {
        guard let cell, let tag = cell.first else { return .null }
        let rest = String(cell.dropFirst())
        switch tag {
        case "s": return rest.databaseValue
        case "b": return Int64(rest == "1" ? 1 : 0).databaseValue
        case "i":
            guard let i = Int64(rest) else { throw BadCell(description: "\(rest) is no 64-bit integer") }
            return i.databaseValue
        case "d":
            guard let bits = UInt64(rest) else { throw BadCell(description: "\(cell) is no double") }
            return Double(bitPattern: bits).databaseValue
        default: throw BadCell(description: "unknown cell \(cell)")
        }
    }
}
