import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Sums and averages of doubles in SQL (`DialectHooks.orderedSum`): memory
/// adds doubles one after another in the order of its objects, so SQL adds
/// them in key order (a collection's in its order column, where it has
/// one), and memory given the objects in that order agrees to the last bit.
/// The rows are inserted in the reverse of key order, so that a sum in the
/// order the rows are stored would differ; every expected value is worked
/// out here, term by term.
@Suite(.serialized)
struct DoubleSumSQLTests {
    /// `(id, year, price)` as books: memory's array in id order, the tables
    /// filled in reverse.
    static func tables(_ books: [(Int, Int?, Double?)]) -> (rows: [Library.Row], books: [Value]) {
        var rows: [Library.Row] = []
        var values: [Value] = []
        for (id, year, price) in books {
            rows.append(Library.Row(table: "books", values: [
                "id": .integer(Int64(id)), "title": .text("t\(id)"), "year": year.map { .integer(Int64($0)) } ?? .null,
                "price": price.map(SQLValue.real) ?? .null,
            ]))
            values.append(.dictionary([
                "id": .int(id), "title": .string("t\(id)"), "year": year.map(Value.int) ?? .null,
                "price": price.map(Value.double) ?? .null, "author": .null, "chapters": .array([]), "tags": .array([]),
            ]))
        }
        return (rows.reversed(), values)
    }

    static func engines(_ books: [(Int, Int?, Double?)]) async throws -> GroupedDifferentialTests.Engines {
        let (rows, values) = tables(books)
        return try await GroupedDifferentialTests.engines(rows, values, schema: "sift_double_sums")
    }

    /// A group whose sum depends on the order of its terms, one of only
    /// nils (sum 0, an integer; average nil), and one over -0.0 alone (0.0).
    @Test func testGroupedSumsAddInKeyOrder() async throws {
        let e = try await Self.engines([
            (1, 2000, 1e16), (2, 2000, 0.1), (3, 2000, -1e16), (4, 2000, 0.3), (5, 2000, nil),
            (6, 2001, nil), (7, 2002, -0.0),
        ])
        defer { e.close() }
        // In key order: 1e16 + 0.1 rounds back to 1e16.
        let sum = (((0.0 + 1e16) + 0.1) + -1e16) + 0.3
        #expect(sum == 0.3)
        #expect(((0.1 + 0.3) + 1e16) + -1e16 != sum, "the terms must depend on their order")
        let request = try GroupedFetchSQLTests.request(groupBy: ["year"], [("s", "sum:(price)"), ("a", "average:(price)")])
        try await GroupedFetchSQLTests.check(request, [
            ["year": 2000, "s": .double(sum), "a": .double(sum / 4)],
            ["year": 2001, "s": 0],
            ["year": 2002, "s": 0.0, "a": 0.0],
        ], e)
        // `having` and the sort read the sum of nothing as 0.
        let sorted = try GroupedFetchSQLTests.request(
            groupBy: ["year"], [("s", "sum:(price)")], having: "s < 0.2", sort: [.descending("year")])
        try await GroupedFetchSQLTests.check(sorted, [["year": 2002, "s": 0.0], ["year": 2001, "s": 0]], e, ordered: true)
        // Ungrouped: one dictionary, the same order.
        let all = try GroupedFetchSQLTests.request(groupBy: nil, [("s", "sum:(price)")])
        try await GroupedFetchSQLTests.check(all, [["s": .double(sum + -0.0)]], e)
        let none = try GroupedFetchSQLTests.request(groupBy: nil, [("s", "sum:(price)"), ("a", "average:(price)")], filter: "year > 3000")
        try await GroupedFetchSQLTests.check(none, [["s": 0]], e)
    }

    /// Infinities add as memory adds them; a finite sum past the largest
    /// double is an infinity in memory and SQLite, and fails PostgreSQL's
    /// statement (`float8pl` raises); ∞ − ∞ is NaN in memory and
    /// PostgreSQL, and fails SQLite's statement (SQLite holds no NaN).
    @Test func testInfinitiesAndOverflow() async throws {
        let e = try await Self.engines([
            (1, 1, .infinity), (2, 1, 1.0), (3, 2, .greatestFiniteMagnitude), (4, 2, .greatestFiniteMagnitude),
            (5, 3, .infinity), (6, 3, -.infinity),
        ])
        defer { e.close() }
        let sum = try GroupedFetchSQLTests.request(groupBy: ["year"], [("s", "sum:(price)")], filter: "year == 1")
        try await GroupedFetchSQLTests.check(sum, [["year": 1, "s": .double(.infinity)]], e)

        let over = try GroupedFetchSQLTests.request(groupBy: ["year"], [("s", "sum:(price)")], filter: "year == 2")
        #expect(try over.execute(on: e.books).map(GroupedDifferentialTests.strict) == [
            GroupedDifferentialTests.strict(["year": 2, "s": .double(.infinity)])
        ])
        let sqlite = try await e.sqlite.read { try over.fetchValues($0, schema: Library.schema) }
        #expect(sqlite.map(GroupedDifferentialTests.strict) == [GroupedDifferentialTests.strict(["year": 2, "s": .double(.infinity)])])
        if let pg = e.postgres {
            await #expect(throws: (any Error).self) { try await over.fetchValues(pg, schema: Library.schema) }
        }

        let nan = try GroupedFetchSQLTests.request(groupBy: ["year"], [("s", "sum:(price)")], filter: "year == 3")
        let memory = try nan.execute(on: e.books)
        guard case .dictionary(let d)? = memory.first, case .double(let s)? = d["s"] else {
            Issue.record("memory: \(memory)")
            return
        }
        #expect(s.isNaN)
        let error = await #expect(throws: (any Error).self) {
            try await e.sqlite.read { try nan.fetchValues($0, schema: Library.schema) }
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("NaN"))
        if let pg = e.postgres {
            let got = try await nan.fetchValues(pg, schema: Library.schema)
            #expect(got.map(GroupedDifferentialTests.strict) == memory.map(GroupedDifferentialTests.strict))
        }
    }

    /// PostgreSQL columns that memory reads as doubles but the server adds
    /// otherwise: `numeric` (exactly) and `real` (in single precision).
    /// Each term is the double memory reads: the rows fetched through Sift,
    /// grouped in memory, give the grouped fetch's sums.
    @Test func testPostgreSQLNumericAndRealColumnsAddAsDoubles() async throws {
        guard let pg = try await PostgresServer.connect(schema: "sift_double_columns") else { return }
        defer { PostgresServer.close(pg) }
        try await PostgresServer.setUp(pg, [
            "CREATE TABLE items (id bigint PRIMARY KEY, kind integer NOT NULL, exact numeric, single real)",
            // Stored in reverse key order; 0.1 and 1e16 make the order matter.
            "INSERT INTO items SELECT 41 - g, g % 3, (CASE g % 4 WHEN 0 THEN 1e16 WHEN 1 THEN 0.1 WHEN 2 THEN -1e16 ELSE 0.7 END) "
                + "+ g / 1000.0, (g % 7) / 3.0 + 0.1 FROM generate_series(1, 40) g",
        ])
        let schema = try await StoreSchema.read(from: pg)
        let entity = try #require(schema.entities.first { $0.table == "items" })
        #expect(entity.attributes.filter { ["exact", "single"].contains($0.name) }.allSatisfy { $0.type == .double })
        let objects = try await FetchSpecification(entity: entity.name, sort: [.ascending("id")]).fetchValues(pg, schema: schema)
        #expect(objects.count == 40)
        for column in ["exact", "single"] {
            let grouped = FetchSpecification(
                entity: entity.name, groupBy: ["kind"],
                expressions: [try ExpressionDescription(name: "s", format: "sum:(\(column))"),
                              try ExpressionDescription(name: "a", format: "average:(\(column))")])
            var memory = grouped
            memory.entity = nil
            let expected = try memory.execute(on: objects).map(GroupedDifferentialTests.strict).sorted()
            let got = try await grouped.fetchValues(pg, schema: schema).map(GroupedDifferentialTests.strict).sorted()
            #expect(got == expected, "\(column)")
        }
    }

    /// Text keys order the terms by code point: a `citext` key by its
    /// text, not by its lower case (`B`, `C`, `a`, not `a`, `B`, `C`); a
    /// `uuid` key by its text, which the catalog reads as a string.
    @Test func testPostgreSQLTextKeysOrderByCodePoint() async throws {
        guard let pg = try await PostgresServer.connect(schema: "sift_text_keys") else { return }
        defer { PostgresServer.close(pg) }
        try await PostgresServer.setUp(pg, [
            "CREATE EXTENSION IF NOT EXISTS citext SCHEMA public",
            "CREATE TABLE coded (code public.citext PRIMARY KEY, kind integer NOT NULL, v double precision)",
            "INSERT INTO coded VALUES ('a', 1, 0.1), ('C', 1, -1e16), ('B', 1, 1e16)",
            "CREATE TABLE stamped (id uuid PRIMARY KEY, kind integer NOT NULL, v double precision)",
            "INSERT INTO stamped VALUES ('ffffffff-0000-0000-0000-000000000000', 1, 0.1), "
                + "('00000000-0000-0000-0000-000000000001', 1, 1e16), ('80000000-0000-0000-0000-000000000000', 1, -1e16)",
        ])
        let schema = try await StoreSchema.read(from: pg)
        let inKeyOrder = ((0.0 + 1e16) + -1e16) + 0.1
        #expect(inKeyOrder == 0.1 && ((0.0 + 0.1) + 1e16) + -1e16 == 0)
        for (table, key) in [("coded", "code"), ("stamped", "id")] {
            let entity = try #require(schema.entities.first { $0.table == table })
            let grouped = FetchSpecification(
                entity: entity.name, groupBy: ["kind"], expressions: [try ExpressionDescription(name: "s", format: "sum:(v)")])
            let got = try await grouped.fetchValues(pg, schema: schema)
            #expect(got == [["kind": 1, "s": .double(inKeyOrder)]], "\(table)")
            // Memory, given the rows in the code points' order of the key.
            let rows = try await FetchSpecification(entity: entity.name).fetchValues(pg, schema: schema)
            let sorted = rows.sorted { a, b in
                guard case .dictionary(let x) = a, case .dictionary(let y) = b, case .string(let p)? = x[key], case .string(let q)? = y[key]
                else { return false }
                return p.unicodeScalars.lexicographicallyPrecedes(q.unicodeScalars)
            }
            var memory = grouped
            memory.entity = nil
            #expect(try memory.execute(on: sorted) == got, "\(table)")
        }
    }

    /// A real Core Data store's doubles: cdp_sample2's 444 feedback
    /// ratings (5.8, 2.4, 4.6, …), summed and averaged by author alias.
    /// Expected: the raw table's ratings added here, one after another in
    /// key order (`Z_PK`); in the reverse order Andrea's 441 ratings add to
    /// another double, so the order is what is tested. SQL and memory
    /// (given the objects in key order) must both give it.
    @Test func testRealStoreRatingsAddInKeyOrder() throws {
        let db = try RealStores.open("cdp_sample2/SampleModel2_V1.sqlite")
        let schema = try db.read { try StoreSchema.read(from: $0) }
        let raw = try db.read { try Row.fetchAll($0, sql: "SELECT ZAUTHORALIAS, ZRATING FROM ZFEEDBACK ORDER BY Z_PK") }
        var ratings: [String: [Double]] = [:]
        for row in raw {
            let alias: String = try #require(row[0])
            let rating: Double = try #require(row[1])
            ratings[alias, default: []].append(rating)
        }
        #expect(raw.count == 444)
        var expected: [String] = []
        var orderMatters = false
        for (alias, terms) in ratings {
            var sum = 0.0
            for t in terms { sum += t }
            var reversed = 0.0
            for t in terms.reversed() { reversed += t }
            if reversed != sum { orderMatters = true }
            expected.append(GroupedDifferentialTests.strict([
                "authorAlias": .string(alias), "s": .double(sum), "a": .double(sum / Double(terms.count)),
            ]))
        }
        #expect(orderMatters, "some group's sum must depend on the order of its terms")
        let request = FetchSpecification(
            entity: "Feedback", groupBy: ["authorAlias"],
            expressions: [try ExpressionDescription(name: "s", format: "sum:(rating)"),
                          try ExpressionDescription(name: "a", format: "average:(rating)")])
        let sql = try db.read { try request.fetchValues($0, schema: schema) }.map(GroupedDifferentialTests.strict)
        #expect(sql.sorted() == expected.sorted())
        // A fetch without a sort comes in key order (the primary key ends every sort).
        let objects = try db.read { try FetchSpecification(entity: "Feedback").fetchValues($0, schema: schema) }
        var memory = request
        memory.entity = nil
        #expect(try memory.execute(on: objects).map(GroupedDifferentialTests.strict).sorted() == expected.sorted())
    }

    /// DuckDB adds doubles in no fixed order: refused, for a group and
    /// for a collection alike.
    @Test func testDuckDBRefusesSumsOfDoubles() throws {
        let grouped = try GroupedFetchSQLTests.request(groupBy: ["year"], [("s", "sum:(price)")])
        #expect(throws: SQLLoweringError.self) { try grouped.sql(in: Library.schema, dialect: .duckDB) }
        let filter = FetchSpecification(entity: "Box", filter: try Filter("items.@sum.price > 0"))
        do {
            _ = try filter.sql(in: Self.boxes, dialect: .duckDB)
            Issue.record("DuckDB lowered a sum of doubles")
        } catch {
            #expect(error.message.contains("order"), "\(error)")
        }
        // Integers add exactly in any order: lowered.
        let integers = try GroupedFetchSQLTests.request(groupBy: ["year"], [("s", "sum:(year)")])
        _ = try integers.sql(in: Library.schema, dialect: .duckDB)
    }

    /// Boxes with items: `items` ordered by `position`, `loose` the same
    /// items unordered (key order).
    static let boxes = StoreSchema([
        Entity("Box", table: "boxes", attributes: [Attribute("label", .string)], relationships: [
            Relationship("items", "Item", .toMany(inverseColumn: "box_id"), ordered: true, orderColumn: "position"),
            Relationship("loose", "Item", .toMany(inverseColumn: "box_id")),
        ]),
        Entity("Item", table: "items", attributes: [Attribute("price", .double)]),
    ])

    /// `@sum` and `@avg` of a collection's doubles: in the collection's
    /// order (its position column) for an ordered one, in key order for
    /// another, whichever order the rows are stored in.
    @Test func testCollectionSumsAddInTheCollectionsOrder() async throws {
        // Box 1's items by id: 0.1, 1e16, -1e16; by position: 1e16, -1e16, 0.1.
        let items: [(id: Int, box: Int, position: Int, price: Double?)] = [
            (3, 1, 1, -1e16), (2, 1, 0, 1e16), (1, 1, 2, 0.1), (4, 2, 0, 0.5), (5, 2, 1, nil),
        ]
        var rows = [Library.Row(table: "boxes", values: ["id": .integer(1), "label": .text("a")]),
                    Library.Row(table: "boxes", values: ["id": .integer(2), "label": .text("b")]),
                    Library.Row(table: "boxes", values: ["id": .integer(3), "label": .text("c")])]
        for i in items {
            rows.append(Library.Row(table: "items", values: [
                "id": .integer(Int64(i.id)), "box_id": .integer(Int64(i.box)), "position": .integer(Int64(i.position)),
                "price": i.price.map(SQLValue.real) ?? .null,
            ]))
        }
        func item(_ i: (id: Int, box: Int, position: Int, price: Double?)) -> Value {
            .dictionary(["id": .int(i.id), "price": i.price.map(Value.double) ?? .null])
        }
        let boxes: [Value] = [1, 2, 3].map { box in
            let mine = items.filter { $0.box == box }
            return .dictionary([
                "id": .int(box), "label": .string(["a", "b", "c"][box - 1]),
                "items": .array(mine.sorted { $0.position < $1.position }.map(item)),
                "loose": .array(mine.sorted { $0.id < $1.id }.map(item)),
            ])
        }
        let ordered = ((0.0 + 1e16) + -1e16) + 0.1
        let byKey = ((0.0 + 0.1) + 1e16) + -1e16
        #expect(ordered == 0.1 && byKey == 0.0)
        let cases: [(String, [Int])] = [
            ("items.@sum.price == 0.1", [1]),
            ("loose.@sum.price == 0", [1, 3]),
            ("items.@avg.price > 0.03", [1, 2]),
            ("loose.@avg.price > 0.03", [2]),
            ("loose.@avg.price == 0.25", [2]),
            ("items.@sum.price > loose.@sum.price", [1]),
        ]
        let db = try DifferentialTests.sqliteDatabase(Self.boxes, Library.inserts(rows.reversed(), .sqlite))
        let pg = try await PostgresServer.connect(schema: "sift_collection_sums", tables: Self.boxes, rows: rows.reversed())
        defer { PostgresServer.close(pg) }
        func ids(_ values: [Value]) -> [Int] {
            values.compactMap { v -> Int? in
                guard case .dictionary(let d) = v, case .int(let id)? = d["id"] else { return nil }
                return id
            }.sorted()
        }
        for (format, expected) in cases {
            let request = FetchSpecification(entity: "Box", filter: try Filter(format))
            #expect(ids(try request.execute(on: boxes)) == expected, "memory: \(format)")
            #expect(ids(try await db.read { try request.fetchValues($0, schema: Self.boxes) }) == expected, "SQLite: \(format)")
            if let pg {
                #expect(ids(try await request.fetchValues(pg, schema: Self.boxes)) == expected, "PostgreSQL: \(format)")
            }
        }
    }
}
