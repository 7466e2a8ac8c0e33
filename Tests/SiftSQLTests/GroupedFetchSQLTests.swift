import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Each rule of the grouped lowering (`GroupedLowering`) on a few rows
/// whose answers are worked out by hand: memory, SQLite and PostgreSQL
/// must all give them.
@Suite(.serialized)
struct GroupedFetchSQLTests {
    /// Authors 1 "b" (30), 2 "B" (nil age); books:
    ///
    /// | id | title | year | price | author |
    /// |----|-------|------|-------|--------|
    /// | 1  | x     | 2000 | 1.5   | 1      |
    /// | 2  | é     | 2000 | NaN   | 1      |
    /// | 3  | Z     | nil  | -0.0  | 2      |
    /// | 4  | a     | 2001 | 0.0   | nil    |
    static func tables(years: [Int?] = [2000, 2000, nil, 2001]) -> (rows: [Library.Row], books: [Value]) {
        var rows: [Library.Row] = []
        var authors: [Int: Value] = [:]
        for (id, name, age) in [(1, "b", 30 as Int?), (2, "B", nil)] {
            rows.append(Library.Row(table: "authors", values: [
                "id": .integer(Int64(id)), "name": .text(name), "age": age.map { .integer(Int64($0)) } ?? .null,
            ]))
            authors[id] = .dictionary(["id": .int(id), "name": .string(name), "age": age.map(Value.int) ?? .null])
        }
        let books: [(String, Double, Int?)] = [("x", 1.5, 1), ("é", .nan, 1), ("Z", -0.0, 2), ("a", 0.0, nil)]
        var values: [Value] = []
        for (i, (title, price, author)) in books.enumerated() {
            let year = i < years.count ? years[i] : nil
            rows.append(Library.Row(table: "books", values: [
                "id": .integer(Int64(i + 1)), "title": .text(title), "year": year.map { .integer(Int64($0)) } ?? .null,
                "price": .real(price), "author_id": author.map { .integer(Int64($0)) } ?? .null,
            ]))
            values.append(.dictionary([
                "id": .int(i + 1), "title": .string(title), "year": year.map(Value.int) ?? .null, "price": .double(price),
                "author": author.flatMap { authors[$0] } ?? .null, "chapters": .array([]), "tags": .array([]),
            ]))
        }
        return (rows, values)
    }

    static func engines(years: [Int?] = [2000, 2000, nil, 2001]) async throws -> GroupedDifferentialTests.Engines {
        let (rows, books) = tables(years: years)
        return try await GroupedDifferentialTests.engines(rows, books, schema: "sift_grouped_rules")
    }

    static func request(
        groupBy: [String]?, _ expressions: [(String, String)], filter: String? = nil, having: String? = nil,
        sort: [SortKey] = [], limit: Int? = nil
    ) throws -> FetchSpecification {
        FetchSpecification(
            entity: "Book", filter: try filter.map { try Filter($0) }, sort: sort, limit: limit, groupBy: groupBy,
            expressions: try expressions.map { try ExpressionDescription(name: $0.0, format: $0.1) },
            having: try having.map { try Filter($0) })
    }

    /// `request`'s answer from memory, SQLite and (when there) PostgreSQL,
    /// each as ``GroupedDifferentialTests/strict(_:)`` writes them, sorted
    /// unless `ordered`, all equal to `expected`.
    static func check(
        _ request: FetchSpecification, _ expected: [Value], _ e: GroupedDifferentialTests.Engines, ordered: Bool = false,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        func form(_ values: [Value]) -> [String] {
            let s = values.map(GroupedDifferentialTests.strict)
            return ordered ? s : s.sorted()
        }
        #expect(form(try request.execute(on: e.books)) == form(expected), "memory", sourceLocation: sourceLocation)
        let sqlite = try await e.sqlite.read { try request.fetchValues($0, schema: Library.schema) }
        #expect(form(sqlite) == form(expected), "SQLite", sourceLocation: sourceLocation)
        #expect(try await e.sqlite.read { try request.fetchCount($0, schema: Library.schema) } == expected.count, sourceLocation: sourceLocation)
        if let pg = e.postgres {
            #expect(form(try await request.fetchValues(pg, schema: Library.schema)) == form(expected), "PostgreSQL", sourceLocation: sourceLocation)
            #expect(try await request.fetchCount(pg, schema: Library.schema) == expected.count, sourceLocation: sourceLocation)
        }
    }

    /// Counts (`count:(SELF)` all objects, `count:(x)` the non-nil, non-NaN
    /// values), a sum of no values (0, an integer), strings' min and max by
    /// scalars (`x` < `é`), nil as one group left out of its dictionary,
    /// NaN as nil, -0.0 and 0.0 as one value.
    @Test func testCountsSumsAndExtremes() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        let request = try Self.request(groupBy: ["year"], [
            ("n", "count:(SELF)"), ("c", "count:(price)"), ("s", "sum:(year)"), ("lo", "min:(title)"), ("hi", "max:(title)"),
            ("mp", "max:(price)"),
        ])
        try await Self.check(request, [
            ["year": 2000, "n": 2, "c": 1, "s": 4000, "lo": "x", "hi": "é", "mp": 1.5],
            ["n": 1, "c": 1, "s": 0, "lo": "Z", "hi": "Z", "mp": 0.0],
            ["year": 2001, "n": 1, "c": 1, "s": 2001, "lo": "a", "hi": "a", "mp": 0.0],
        ], e)
    }

    /// An expression's name is only the key of its value, never a SQL
    /// name: quotes, and names PostgreSQL would cut at 63 bytes to one.
    @Test func testNamesAreKeysOnly() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        let long = String(repeating: "x", count: 70)
        let request = try Self.request(
            groupBy: ["year"], [(long + "1", "count:(SELF)"), (long + "2", "max:(title)"), ("a\"b", "min:(title)")],
            having: "$\(long)1 > 1")
        try await Self.check(request, [["year": 2000, .init(stringLiteral: long + "1"): 2, .init(stringLiteral: long + "2"): "é", "a\"b": "x"]], e)
    }

    /// Grouped by a double: NaN joins the nils, -0.0 and 0.0 are one group.
    @Test func testGroupingByDoubles() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        let request = try Self.request(groupBy: ["price"], [("n", "count:(SELF)"), ("t", "min:(title)")])
        try await Self.check(request, [["price": 1.5, "n": 1, "t": "x"], ["n": 1, "t": "é"], ["price": 0.0, "n": 2, "t": "Z"]], e)
    }

    /// An average is a double; of no values, nil (left out); grouped by a
    /// to-one key path, the objects without one are the nil group.
    @Test func testAveragesThroughToOne() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        let request = try Self.request(groupBy: ["author.name"], [("a", "average:(year)"), ("m", "min:(author.age)")])
        try await Self.check(request, [["author.name": "b", "a": 2000.0, "m": 30], ["author.name": "B"], ["a": 2001.0]], e)
    }

    /// Without groupBy, one dictionary even when nothing matches (a sum is
    /// then 0, a maximum nil); with `groupBy: []`, none.
    @Test func testAggregatesOfNothing() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        let expressions = [("n", "count:(SELF)"), ("s", "sum:(year)"), ("m", "max:(title)")]
        try await Self.check(try Self.request(groupBy: nil, expressions, filter: "year > 3000"), [["n": 0, "s": 0]], e)
        try await Self.check(try Self.request(groupBy: [], expressions, filter: "year > 3000"), [], e)
        try await Self.check(try Self.request(groupBy: [], expressions), [["n": 4, "s": 6001, "m": "é"]], e)
    }

    /// `having` reads `$name`, `name` and grouped key paths; the sort reads
    /// names and keys (nil first ascending), then the page.
    @Test func testHavingSortAndPage() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        let n = [("n", "count:(SELF)")]
        try await Self.check(try Self.request(groupBy: ["year"], n, having: "$n > 1"), [["year": 2000, "n": 2]], e)
        try await Self.check(try Self.request(groupBy: ["year"], n, having: "n == 1 AND year == nil"), [["n": 1]], e)
        try await Self.check(
            try Self.request(groupBy: ["author.name"], n, having: "author.name ==[c] 'b'"), [["author.name": "b", "n": 2], ["author.name": "B", "n": 1]], e)
        let sorted = try Self.request(groupBy: ["year"], n, sort: [.descending("n"), .ascending("year")], limit: 2)
        try await Self.check(sorted, [["year": 2000, "n": 2], ["n": 1]], e, ordered: true)
    }

    /// An integer sum is exact or fails the statement: past 64 bits
    /// (memory's sum is then a double), and on SQLite when a partial sum
    /// overflows (PostgreSQL's numeric sum does not). Averages are exact
    /// while count × the largest magnitude stays within 2^53; beyond,
    /// memory's answer depends on the order of the objects, and SQL fails.
    @Test func testIntegerOverflowGuards() async throws {
        let half = Int.max / 2
        let e = try await Self.engines(years: [half, half, nil, nil])
        defer { PostgresServer.close(e.postgres) }
        try await Self.check(try Self.request(groupBy: nil, [("s", "sum:(year)")]), [["s": Value.int(half * 2)]], e)
        let over = try await Self.engines(years: [Int.max, 1, nil, nil])
        defer { PostgresServer.close(over.postgres) }
        let sum = try Self.request(groupBy: nil, [("s", "sum:(year)")])
        // Memory goes on in doubles; SQL fails the statement.
        #expect(try sum.execute(on: over.books) == [["s": Value.double(Double(Int.max) + 1)]])
        await #expect(throws: (any Error).self) { try await over.sqlite.read { try sum.fetchValues($0, schema: Library.schema) } }
        if let pg = over.postgres { await #expect(throws: (any Error).self) { try await sum.fetchValues(pg, schema: Library.schema) } }
        // A partial sum past 64 bits that comes back: memory's exact
        // integer on PostgreSQL; on SQLite the same or a failure.
        let back = try await Self.engines(years: [Int.max, 1, -1, nil])
        defer { PostgresServer.close(back.postgres) }
        #expect(try sum.execute(on: back.books) == [["s": Value.int(Int.max)]])
        if let answer = try? await back.sqlite.read({ try sum.fetchValues($0, schema: Library.schema) }) {
            #expect(answer == [["s": Value.int(Int.max)]])
        }
        if let pg = back.postgres { #expect(try await sum.fetchValues(pg, schema: Library.schema) == [["s": Value.int(Int.max)]]) }
        let exact = try await Self.engines(years: [1 << 52, 1 << 52, nil, nil])
        defer { PostgresServer.close(exact.postgres) }
        let average = try Self.request(groupBy: nil, [("a", "average:(year)")])
        try await Self.check(average, [["a": Value.double(Double(1 << 52))]], exact)
        let inexact = try await Self.engines(years: [(1 << 52) + 1, (1 << 52) + 1, nil, nil])
        defer { PostgresServer.close(inexact.postgres) }
        await #expect(throws: (any Error).self) { try await inexact.sqlite.read { try average.fetchValues($0, schema: Library.schema) } }
        if let pg = inexact.postgres { await #expect(throws: (any Error).self) { try await average.fetchValues(pg, schema: Library.schema) } }
    }

    /// Strings' min and max are by Unicode scalars whatever the column's
    /// collation (PostgreSQL: `COLLATE "C"`); checked where the server
    /// has ICU's root collation, which puts `é` before `x`.
    @Test func testTextExtremesIgnoreTheColumnsCollation() async throws {
        let e = try await Self.engines()
        defer { PostgresServer.close(e.postgres) }
        guard let pg = e.postgres else { return }
        let icu = try await pg.rows(BoundStatement(sql: "SELECT 1 FROM pg_collation WHERE collname = 'und-x-icu'", bindings: []))
        guard !icu.isEmpty else { return }
        try await PostgresServer.setUp(pg, [BoundStatement(
            sql: #"ALTER TABLE "books" ALTER COLUMN "title" TYPE text COLLATE "und-x-icu""#, bindings: [])])
        let request = try Self.request(groupBy: nil, [("lo", "min:(title)"), ("hi", "max:(title)")])
        try await Self.check(request, [["lo": "Z", "hi": "é"]], e)
    }

    /// What has no exact SQL form is refused, naming it.
    @Test func testRefusals() throws {
        let refused: [(FetchSpecification, String)] = [
            (try Self.request(groupBy: ["year"], [("a", "average:(author.age * 2)")]), "may be nil"),
            (try Self.request(groupBy: ["author"], [("n", "count:(SELF)")]), "is a relationship"),
            (try Self.request(groupBy: ["year"], [("m", "min:(author)")]), "only count:"),
            (try Self.request(groupBy: ["year"], [("n", "count:(SELF)")], having: "title == 'x'"), "title is neither"),
            (try Self.request(groupBy: ["year"], [("n", "count:(SELF)")], having: "$m > 1"), "$m is not an expression"),
            (try Self.request(groupBy: ["year"], [("n", "count:(SELF)")], sort: [.ascending("title")]), "title is neither"),
            (try Self.request(groupBy: ["year"], [("n", "median:(price)")]), "count:, sum:, average:"),
            (try Self.request(groupBy: ["year"], [("s", "sum:(chapters)")]), "is a collection"),
            (try Self.request(groupBy: nil, [("n", "count:(SELF)")], having: "$n > 1"), "give the request a groupBy"),
            (FetchSpecification(entity: "Book", properties: ["title"], groupBy: ["year"]), "fetched but not grouped"),
            (try Self.request(groupBy: ["year"], [("year", "count:(SELF)")]), "names two fetched values"),
        ]
        for (request, message) in refused {
            for dialect in [Dialect.sqlite, .postgreSQL] {
                do {
                    _ = try request.sql(in: Library.schema, dialect: dialect)
                    Issue.record("\(dialect) lowered \(request)")
                } catch {
                    #expect(error.code == .unsupported, "\(error)")
                    #expect(error.message.contains(message), "\(error)")
                }
            }
        }
        let grouped = try Self.request(groupBy: ["year"], [("n", "count:(SELF)")])
        #expect(throws: SQLLoweringError.self) { try grouped.objectIDSQL(in: Library.schema, dialect: .sqlite) }
    }

    /// The statement's shape: groups in a derived table, `having` and the
    /// sort over its columns.
    @Test func testSQLText() throws {
        let request = try Self.request(
            groupBy: ["author.name"], [("n", "count:(SELF)"), ("hi", "max:(title)")], filter: "year > 2000",
            having: "$n > 1", sort: [.descending("n")])
        let sqlite = try request.sql(in: Library.schema, dialect: .sqlite)
        #expect(sqlite.statement.sql == #"SELECT g."k0", g."e0", g."e1" FROM (SELECT t1."name" AS "k0", COUNT(*) AS "e0", MAX(t0."title") AS "e1" FROM "books" t0 LEFT JOIN "authors" t1 ON t1."id" = t0."author_id" WHERE t0."year" > ?1 GROUP BY 1) g WHERE g."e0" > ?2 ORDER BY g."e0" DESC"#)
        #expect(sqlite.columns.map(\.name) == ["author.name", "n", "hi"])
        #expect(sqlite.columns.map(\.type) == [.string, .integer, .string])
        let pg = try request.sql(in: Library.schema, dialect: .postgreSQL)
        #expect(pg.statement.sql.contains(#"(MAX((t0."title" COLLATE "C")) COLLATE "default") AS "e1""#))
    }
}
