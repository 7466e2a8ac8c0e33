import Foundation
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// PostgreSQL at the edges: tables whose names differ only in case,
/// `numeric` and `double precision` NaN, ±Infinity and -0, and numerics
/// beyond a double's range. Expected answers are written from the rows
/// inserted, and memory's answer (NaN is neither greater nor less than
/// anything) is the evaluator's on the fetched values.
@Suite(.serialized)
struct EdgeValueTests {
    func connect(_ name: String, _ statements: [String]) async throws -> PostgresConnection {
        guard let db = try await PostgresServer.connect(schema: name) else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        try await PostgresServer.setUp(db, statements)
        return db
    }

    @Test func testTablesWhoseNamesDifferOnlyInCase() async throws {
        let db = try await connect("sift_pg_case", [
            "CREATE TABLE authors (id bigint PRIMARY KEY, name text)",
            "CREATE TABLE books (id bigint PRIMARY KEY, title text, author_id bigint REFERENCES authors(id))",
            "CREATE TABLE tags (id bigint PRIMARY KEY, name text)",
            "CREATE TABLE book_tags (book_id bigint REFERENCES books(id), tag_id bigint REFERENCES tags(id))",
            #"CREATE TABLE "Books" (id bigint PRIMARY KEY, t text)"#,
            "INSERT INTO authors VALUES (1, 'Herbert'), (2, 'Gibson')",
            "INSERT INTO books VALUES (1, 'Dune', 1), (2, 'Neuromancer', 2), (3, 'Emma', NULL)",
            "INSERT INTO tags VALUES (1, 'sf'), (2, 'classic')",
            "INSERT INTO book_tags VALUES (1, 1), (2, 1), (3, 2)",
            #"INSERT INTO "Books" VALUES (1, 'x'), (2, 'y'), (3, 'z')"#,
        ])
        defer { PostgresServer.close(db) }
        let schema = try await StoreSchema.read(from: db)
        #expect(schema.entity(named: "books")?.relationships.map(\.name).sorted() == ["author", "tags"])
        #expect(schema.entity(named: "Books")?.table == "Books")
        #expect(schema.entity(named: "Books")?.relationships.map(\.name) == [])
        let titles = try await FetchSpecification(entity: "books", filter: try Filter("ANY tags.name == 'sf'"))
            .fetchValues(db, schema: schema).map { $0.dictionaryValue?["title"] }
        #expect(titles == [.string("Dune"), .string("Neuromancer")])
        let unrelated = FetchSpecification(entity: "Books", filter: try Filter("ANY tags.name == 'sf'"))
        do {
            _ = try await unrelated.fetchValues(db, schema: schema)
            Issue.record("Books has no tags")
        } catch {
            #expect(error.kind == .lowering)
        }
    }

    @Test func testSpecialValuesAreReadAsTheyAre() async throws {
        let db = try await connect("sift_pg_special", [
            "CREATE TABLE special (id bigint PRIMARY KEY, n numeric, d double precision, i integer)",
            "INSERT INTO special VALUES (1, 'NaN', 'NaN', 1), (2, 'Infinity', '-Infinity', 2), (3, 0, '-0', 0), "
                + "(4, '-Infinity', 'Infinity', NULL), (5, 12.5, 0.0, 5), (6, 0.1, 1e-320, 0), "
                + "(7, -123456789.000001, -2.5, -3), (8, NULL, NULL, NULL)",
        ])
        defer { PostgresServer.close(db) }
        let schema = try await StoreSchema.read(from: db)
        let rows = try await FetchSpecification(entity: "special", sort: [SortKey("id")]).fetchValues(db, schema: schema)
        func column(_ name: String) -> [Double] {
            rows.map { if case .double(let d)? = $0.dictionaryValue?[name] { d } else { 42 } }
        }
        let n = column("n")
        #expect(n[0].isNaN)
        #expect(Array(n[1...]) == [.infinity, 0, -.infinity, 12.5, 0.1, -123456789.000001, 42])
        let d = column("d")
        #expect(d[0].isNaN)
        #expect(Array(d[1...]) == [-.infinity, 0, .infinity, 0, Double("1e-320")!, -2.5, 42])
        #expect(d[2].sign == .minus, "-0 keeps its sign")

        // SQL answers as memory does: NaN is neither > nor < anything.
        for format in [
            "d > 0", "d >= 0", "n > 0", "NOT (d > 0)", "d < 0", "d != 0", "NOT (n >= -1)", "d == n", "d != n", "d > n",
            "d <= n", "NOT (d < n)", "n == n", "d == d", "d > i", "i < d", "i <= d", "NOT (d >= i)", "d == i",
            "n BETWEEN {0, 1e300}", "NOT (d BETWEEN {-1, 1})", "d BETWEEN {-1e308, 1e308}",
        ] {
            let filter = try Filter(format)
            var memory: [Value] = []
            for row in rows where try filter.evaluate(with: row) { memory.append(row.dictionaryValue?["id"] ?? .null) }
            let sql = try await FetchSpecification(entity: "special", filter: filter, sort: [SortKey("id")])
                .fetchValues(db, schema: schema).map { $0.dictionaryValue?["id"] ?? .null }
            #expect(sql == memory, Comment(rawValue: format))
        }
    }

    @Test func testNumericsBeyondADoubleAreErrorsNamingTheColumnAndRow() async throws {
        let db = try await connect("sift_pg_numeric", [
            "CREATE TABLE num (id bigint PRIMARY KEY, n numeric)",
            "INSERT INTO num VALUES (1, 1), (2, 2), (3, 1e300::numeric * 1e300::numeric), (4, 1e-400::numeric)",
        ])
        defer { PostgresServer.close(db) }
        let schema = try await StoreSchema.read(from: db)
        for (id, magnitude) in [(3, "1e600"), (4, "1e-400")] {
            let request = FetchSpecification(entity: "num", filter: try Filter("id == 2 OR id == %d", id), sort: [SortKey("id")])
            do {
                _ = try await request.fetchValues(db, schema: schema)
                Issue.record("read numeric \(magnitude)")
            } catch {
                #expect(error.kind == .valueDoesNotFit)
                #expect(error.message.contains("column n (numeric) holds about \(magnitude)"), Comment(rawValue: error.description))
                #expect(error.message.contains("row 2 of the result"), Comment(rawValue: error.description))
            }
        }
    }
}

private extension Value {
    var dictionaryValue: [String: Value]? {
        if case .dictionary(let d) = self { return d }
        return nil
    }
}
