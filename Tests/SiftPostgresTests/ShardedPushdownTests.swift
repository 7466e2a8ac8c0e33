import Foundation
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// What of each lowered shape runs on the shards of the sharded profile
/// (`scripts/postgres.sh run-sharded`): the `Remote SQL` that
/// `EXPLAIN (VERBOSE)` shows for the foreign partitions of the sharded
/// tables, summed up shape by shape and held to a table, so that a change in
/// what `postgres_fdw` is sent fails here. Skipped without
/// `SIFT_POSTGRES_SHARDED`, unless `SIFT_REQUIRE_SHARDED=1`.
@Suite(.serialized)
struct ShardedPushdownTests {
    /// The `Library` tables in a schema of their own, the fact tables
    /// (books, chapters, the books' tags) on the shards, with enough rows
    /// for the planner to choose as on a real table: 20,000 books with
    /// `md5` titles, 40,000 chapters, 20,000 tag links; 2,000 authors and
    /// 200 tags stay on the coordinator.
    private func makeLibrary() async throws -> PostgresConnection {
        guard let db = try await ShardedPostgres.connect(schema: "sift_pushdown") else {
            try Test.cancel("SIFT_POSTGRES_SHARDED is not set (run the tests with scripts/postgres.sh run-sharded …)")
        }
        try await PostgresServer.setUp(db, Library.schema.createStatements(dialect: .postgreSQL) + [
            "INSERT INTO authors (id, name, age) SELECT g, 'author ' || g, 20 + g % 60 FROM generate_series(1, 2000) g",
            "INSERT INTO books (id, title, year, price, author_id) "
                + "SELECT g, md5(g::text), 1800 + g % 220, (g % 100) / 4.0, 1 + g % 2000 FROM generate_series(1, 20000) g",
            "INSERT INTO tags (id, name) SELECT g, 'tag ' || g FROM generate_series(1, 200) g",
            "INSERT INTO book_tags (book_id, tag_id, position) SELECT g, 1 + g % 200, 0 FROM generate_series(1, 20000) g",
            "INSERT INTO chapters (id, name, pages, book_id, position) "
                + "SELECT g, 'chapter ' || g, g % 300, 1 + g % 20000, g / 20000 FROM generate_series(1, 40000) g",
            "ANALYZE authors", "ANALYZE tags",
        ])
        try await ShardedPostgres.distribute(db, ShardedPostgres.libraryDistribution)
        return db
    }

    /// Each shape and what its plan sends the shards, table by table
    /// (``shipped(_:)``): `WHERE` when the condition on that table runs
    /// there, `all rows` when every row of its columns comes to the
    /// coordinator, then `ORDER BY` and `LIMIT` when they run there too, and
    /// `filtered on the coordinator` when some condition stays behind.
    static let shapes: [(name: String, format: String, sort: [SortKey], limit: Int?, shipped: String)] = [
        ("comparison", "year > 1950", [], nil, "books WHERE"),
        ("=, two conditions", "year == 1950 AND price < 10", [], nil, "books WHERE"),
        ("IN (= ANY)", "year IN {1950, 1999, 2001}", [], nil, "books WHERE"),
        ("range (BETWEEN)", "year BETWEEN {1900, 1950}", [], nil, "books WHERE"),
        ("nil test", "price == nil OR year != 1950", [], nil, "books WHERE"),
        ("ORDER BY … LIMIT", "year > 1900", [.descending("year")], 10, "books WHERE ORDER BY"),
        ("string ==", "title == 'abc'", [], nil, "books WHERE"),
        ("string IN", "title IN {'abc', 'def'}", [], nil, "books WHERE"),
        ("string <", "title < 'abc'", [], nil, "books all rows, filtered on the coordinator"),
        ("BEGINSWITH", "title BEGINSWITH 'ab'", [], nil, "books all rows, filtered on the coordinator"),
        ("BEGINSWITH[n]", "title BEGINSWITH[n] 'ab'", [], nil, "books all rows, filtered on the coordinator"),
        ("CONTAINS", "title CONTAINS 'ab'", [], nil, "books all rows, filtered on the coordinator"),
        ("LIKE", "title LIKE 'ab*'", [], nil, "books all rows, filtered on the coordinator"),
        ("==[c]", "title ==[c] 'ABC'", [], nil, "books WHERE"),
        ("==[cd]", "title ==[cd] 'ÀBC'", [], nil, "books WHERE"),
        ("BEGINSWITH[c]", "title BEGINSWITH[c] 'AB'", [], nil, "books WHERE"),
        ("CONTAINS[d]", "title CONTAINS[d] 'àb'", [], nil, "books WHERE"),
        ("ENDSWITH[cd]", "title ENDSWITH[cd] 'À'", [], nil, "books WHERE"),
        ("LIKE[c]", "title LIKE[c] 'AB*'", [], nil, "books WHERE"),
        ("<[c]", "title <[c] 'AB'", [], nil, "books WHERE"),
        (">=[cd]", "title >=[cd] 'À'", [], nil, "books WHERE"),
        ("sort by a string", "year > 2000", [.ascending("title")], 10, "books WHERE"),
        ("to-one path", "author.name == 'author 17'", [], nil, "books WHERE"),
        ("ANY over a many-to-many", "ANY tags.name == 'tag 5'", [], nil, "book_tags all rows, books all rows"),
        ("to-many count", "chapters.@count > 2", [], nil, "books all rows, filtered on the coordinator, chapters WHERE"),
        ("SUBQUERY", "SUBQUERY(chapters, $c, $c.pages > 250).@count > 0", [], nil, "books all rows, filtered on the coordinator, chapters WHERE"),
    ]

    @Test func testWhatEachShapeRunsOnTheShards() async throws {
        let db = try await makeLibrary()
        defer { PostgresServer.close(db) }
        var report = ["| shape | sent to the shards | rows shipped | bytes shipped (rows × width) |", "|---|---|---|---|"]
        for shape in Self.shapes {
            let request = FetchSpecification(entity: "Book", filter: try Filter(shape.format), sort: shape.sort, limit: shape.limit)
            let statement = try request.sql(in: Library.schema, dialect: .postgreSQL).statement
            let plan = try await PostgresServer.explain(statement, options: "ANALYZE, VERBOSE", on: db)
            let shipped = Self.shipped(plan, sorted: !shape.sort.isEmpty)
            #expect(shipped == shape.shipped, "\(shape.name): \(shipped)\n  \(statement.sql)\n  \(Self.remoteSQL(plan))")
            let (rows, bytes) = Self.traffic(plan)
            report.append("| \(shape.name) `\(shape.format)` | \(shipped) | \(rows) | \(bytes) |")
        }
        print(report.joined(separator: "\n"))
    }

    /// The foreign scans of the plan: those of the shards' tables
    /// (`<table>_shard_<n>`), by the table they are part of.
    static func foreignScans(_ plan: [String: Any]) -> [(table: String, node: [String: Any])] {
        PostgresServer.nodes(of: plan).compactMap { node in
            guard (node["Node Type"] as? String) == "Foreign Scan", let relation = node["Relation Name"] as? String,
                let cut = relation.range(of: "_shard_")
            else { return nil }
            return (String(relation[..<cut.lowerBound]), node)
        }
    }

    /// What the plan sends the shards, as ``shapes`` writes it: for each
    /// sharded table (in name order), `WHERE` if every foreign scan of it
    /// sends a condition, else `all rows`; `ORDER BY` (for a request with a
    /// sort: every statement is ordered by the primary key last, which the
    /// planner may or may not send) and `LIMIT` if they are sent too; and `filtered on the coordinator` if a foreign scan
    /// keeps a condition (`Filter`) to check on the coordinator.
    static func shipped(_ plan: [String: Any], sorted: Bool) -> String {
        let scans = foreignScans(plan)
        let tables = Set(scans.map(\.table)).sorted()
        return tables.map { table in
            let remote = scans.filter { $0.table == table }.map { ($0.node["Remote SQL"] as? String) ?? "" }
            var words = [table, remote.allSatisfy { $0.contains(" WHERE ") } ? "WHERE" : "all rows"]
            if sorted && remote.allSatisfy({ $0.contains(" ORDER BY ") }) { words.append("ORDER BY") }
            if remote.allSatisfy({ $0.contains(" LIMIT ") }) { words.append("LIMIT") }
            var text = words.joined(separator: " ")
            if scans.contains(where: { $0.table == table && $0.node["Filter"] != nil }) { text += ", filtered on the coordinator" }
            return text
        }.joined(separator: ", ")
    }

    /// The rows the shards sent (over every loop, those the coordinator then
    /// filtered out included), and their size as the planner reckons it:
    /// rows × the scan's average width in bytes.
    static func traffic(_ plan: [String: Any]) -> (rows: Int, bytes: Int) {
        foreignScans(plan).reduce((0, 0)) { sum, scan in
            let perLoop = (scan.node["Actual Rows"] as? Int ?? 0) + (scan.node["Rows Removed by Filter"] as? Int ?? 0)
            let rows = perLoop * (scan.node["Actual Loops"] as? Int ?? 1)
            return (sum.0 + rows, sum.1 + rows * (scan.node["Plan Width"] as? Int ?? 0))
        }
    }

    static func remoteSQL(_ plan: [String: Any]) -> String {
        foreignScans(plan).map { ($0.node["Remote SQL"] as? String) ?? "" }.joined(separator: "\n  ")
    }
}
