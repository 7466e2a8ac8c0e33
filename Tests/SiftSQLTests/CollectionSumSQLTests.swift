import Foundation
import GRDB
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// A collection's `@sum` and `@avg` of integers in SQL: memory's sum of
/// integers is an integer, exact while no partial sum leaves 64 bits, so
/// SQL's is the exact integer `SUM` where no order of adding can overflow,
/// and the statement fails elsewhere; an average, whose doubles add
/// exactly in any order only while the sum stays within 2^53, fails past
/// that. (SQL's `TOTAL`, a double, gave 2^53 for 2^53 + 1, and a double
/// where memory's grouped `max:(chapters.@sum.pages)` is an integer.)
@Suite(.serialized)
struct CollectionSumSQLTests {
    static let big = 1 << 53

    /// Books with chapters of these pages: by default 2^53 and 1 (a sum a
    /// double cannot hold), 3 and 4, and none.
    static func engines(_ books: [(Int, [Int])] = [(1, [big, 1]), (3, [3, 4]), (4, [])], schema: String = "sift_collection_sums_exact")
        async throws -> GroupedDifferentialTests.Engines
    {
        var rows: [Library.Row] = []
        var values: [Value] = []
        var chapterID = 0
        for (id, pages) in books {
            var chapters: [Value] = []
            for (position, p) in pages.enumerated() {
                chapterID += 1
                rows.append(Library.Row(table: "chapters", values: [
                    "id": .integer(Int64(chapterID)), "name": .text("c\(chapterID)"), "pages": .integer(Int64(p)),
                    "book_id": .integer(Int64(id)), "position": .integer(Int64(position)),
                ]))
                chapters.append(["id": .int(chapterID), "name": .string("c\(chapterID)"), "pages": .int(p)])
            }
            rows.append(Library.Row(table: "books", values: [
                "id": .integer(Int64(id)), "title": .text("b\(id)"), "year": .integer(2000),
            ]))
            values.append([
                "id": .int(id), "title": .string("b\(id)"), "year": .int(2000), "author": .null, "chapters": .array(chapters),
                "tags": .array([]),
            ])
        }
        return try await GroupedDifferentialTests.engines(rows, values, schema: schema)
    }

    /// What each engine answers for `request`, or the error that failed
    /// the statement.
    static func answers(_ request: FetchSpecification, _ e: GroupedDifferentialTests.Engines, schema: StoreSchema = Library.schema)
        async throws -> [String: Result<[Value], any Error>]
    {
        var out: [String: Result<[Value], any Error>] = [:]
        do {
            out["SQLite"] = .success(try await e.sqlite.read { try request.fetchValues($0, schema: schema) })
        } catch {
            out["SQLite"] = .failure(error)
        }
        if let pg = e.postgres {
            do {
                out["PostgreSQL"] = .success(try await request.fetchValues(pg, schema: schema))
            } catch {
                out["PostgreSQL"] = .failure(error)
            }
        }
        return out
    }

    @Test func testIntegerSumsAreExactIntegers() async throws {
        let e = try await Self.engines()
        defer { e.close() }
        // A filter: 2^53 + 1 is found, as in memory.
        let exact = FetchSpecification(
            entity: "Book", filter: try Filter("chapters.@sum.pages == %@", Self.big + 1), properties: ["title"])
        #expect(try exact.execute(on: e.books) == [["title": "b1"]])
        for (engine, answer) in try await Self.answers(exact, e) {
            #expect(try answer.get() == [["title": "b1"]], "\(engine)")
        }
        // A grouped fetch's value is memory's integer, not a double.
        let grouped = FetchSpecification(
            entity: "Book", groupBy: ["year"],
            expressions: [
                try ExpressionDescription(name: "most", format: "max:(chapters.@sum.pages)"),
                try ExpressionDescription(name: "least", format: "min:(chapters.@sum.pages)"),
            ])
        let expected: [Value] = [["year": 2000, "most": .int(Self.big + 1), "least": .int(0)]]
        #expect(try grouped.execute(on: e.books).map(GroupedDifferentialTests.strict) == expected.map(GroupedDifferentialTests.strict))
        for (engine, answer) in try await Self.answers(grouped, e) {
            #expect(try answer.get().map(GroupedDifferentialTests.strict) == expected.map(GroupedDifferentialTests.strict), "\(engine)")
        }
    }

    /// Past 64 bits memory's sum is a double whose value depends on the
    /// order of the terms, and so is the average made from it: SQL fails
    /// the statement rather than answer otherwise (for a table that holds
    /// such a collection, whatever the other conditions). Within the bound
    /// it answers, an average of 2^53 and 1 included (the exact sum as a
    /// double, divided once, as memory divides it).
    @Test func testSumsPastTheBoundsFail() async throws {
        let e = try await Self.engines([(2, [Int.max, 1])], schema: "sift_collection_sums_over")
        defer { e.close() }
        let over = FetchSpecification(entity: "Book", filter: try Filter("chapters.@sum.pages > 0"))
        #expect(try over.execute(on: e.books).count == 1)
        let averaged = FetchSpecification(entity: "Book", filter: try Filter("chapters.@avg.pages > 0"))
        #expect(try averaged.execute(on: e.books).count == 1)
        for request in [over, averaged] {
            let answers = try await Self.answers(request, e)
            #expect(!answers.isEmpty)
            for (engine, answer) in answers {
                // The overflow the check raises, not another failure.
                guard case .failure(let error) = answer else {
                    Issue.record("\(engine) answered \(answer) for \(request.filter?.format ?? "")")
                    continue
                }
                let message = "\(error)"
                #expect(message.contains("integer overflow") || message.contains("bigint out of range"), "\(engine): \(message)")
            }
        }
        let small = try await Self.engines([(1, [Self.big, 1]), (3, [3, 4]), (4, [])], schema: "sift_collection_sums_small")
        defer { small.close() }
        let within = FetchSpecification(
            entity: "Book", filter: try Filter("chapters.@avg.pages == 3.5 AND chapters.@sum.pages == 7"), properties: ["title"])
        #expect(try within.execute(on: small.books) == [["title": "b3"]])
        for (engine, answer) in try await Self.answers(within, small) {
            #expect(try answer.get() == [["title": "b3"]], "\(engine)")
        }
        let half = FetchSpecification(
            entity: "Book", filter: try Filter("chapters.@avg.pages == %@", 4_503_599_627_370_496.0), properties: ["title"])
        #expect(try half.execute(on: small.books) == [["title": "b1"]])
        for (engine, answer) in try await Self.answers(half, small) {
            #expect(try answer.get() == [["title": "b1"]], "\(engine)")
        }
        // A collection whose terms overflow in one order and not another
        // (Int.max, 1, -1: memory adds Int.max + 1 first, past 64 bits): the
        // check fails it, whichever order SQL's SUM would take.
        let ordered = try await Self.engines([(5, [Int.max, 1, -1])], schema: "sift_collection_sums_order")
        defer { ordered.close() }
        let any = FetchSpecification(entity: "Book", filter: try Filter("chapters.@sum.pages > 0"))
        #expect(try any.execute(on: ordered.books).count == 1)
        for (engine, answer) in try await Self.answers(any, ordered) {
            guard case .failure(let error) = answer else {
                Issue.record("\(engine) answered \(answer) for a sum that leaves 64 bits in memory's order")
                continue
            }
            let message = "\(error)"
            #expect(message.contains("integer overflow") || message.contains("bigint out of range"), "\(engine): \(message)")
        }
    }

    /// A collection reached through a to-one that may be nil
    /// (`author.books`): memory's `@count` and `@sum` of it are nil, where a
    /// subquery over no rows would count 0.
    @Test func testCollectionsThroughANilToOneAreNil() async throws {
        let schema = StoreSchema([
            Entity("Author", table: "authors", attributes: [Attribute("name", .string)], relationships: [
                .toMany("books", "Book", inverseColumn: "author_id"),
            ]),
            Entity("Book", table: "books", attributes: [Attribute("pages", .integer)], relationships: [
                .toOne("author", "Author", column: "author_id"),
            ]),
        ])
        let rows = [
            Library.Row(table: "authors", values: ["id": .integer(1), "name": .text("Ann")]),
            Library.Row(table: "books", values: ["id": .integer(1), "pages": .integer(10), "author_id": .integer(1)]),
            Library.Row(table: "books", values: ["id": .integer(2), "pages": .integer(20), "author_id": .null]),
        ]
        let ann: Value = ["id": 1, "name": "Ann", "books": [["id": 1, "pages": 10]]]
        let books: [Value] = [["id": 1, "pages": 10, "author": ann], ["id": 2, "pages": 20, "author": .null]]
        let sqlite = try DifferentialTests.sqliteDatabase(schema, Library.inserts(rows, .sqlite))
        let pg = try await PostgresServer.connect(schema: "sift_collection_through_to_one", tables: schema, rows: rows)
        let e = GroupedDifferentialTests.Engines(books: books, sqlite: sqlite, postgres: pg)
        defer { e.close() }
        for (format, ids) in [
            ("author.books.@count == 0", [Int]()), ("author.books.@count != 1", [2]), ("author.books.@sum.pages == 0", []),
            ("author.books.@sum.pages == nil", [2]), ("author.books.@count == nil", [2]), ("author.books.@sum.pages > 5", [1]),
        ] {
            let request = FetchSpecification(entity: "Book", filter: try Filter(format), properties: ["pages"])
            let expected: [Value] = ids.map { ["pages": .int($0 * 10)] }
            #expect(try request.execute(on: books) == expected, "memory: \(format)")
            for (engine, answer) in try await Self.answers(request, e, schema: schema) {
                #expect(try answer.get() == expected, "\(engine): \(format)")
            }
        }
        // In arithmetic it may be nil, so it is refused, as an optional attribute is.
        #expect(throws: SQLLoweringError.self) {
            try FetchSpecification(entity: "Book", filter: try Filter("author.books.@sum.pages + 1 > 0")).sql(in: schema, dialect: .sqlite)
        }
        // A grouped fetch's aggregate of it skips the nil.
        let grouped = FetchSpecification(
            entity: "Book", groupBy: ["pages"], expressions: [try ExpressionDescription(name: "n", format: "max:(author.books.@count)")])
        let groups: [Value] = [["pages": 10, "n": 1], ["pages": 20]]
        #expect(try grouped.execute(on: books).map(GroupedDifferentialTests.strict).sorted() == groups.map(GroupedDifferentialTests.strict).sorted())
        for (engine, answer) in try await Self.answers(grouped, e, schema: schema) {
            #expect(try answer.get().map(GroupedDifferentialTests.strict).sorted() == groups.map(GroupedDifferentialTests.strict).sorted(), "\(engine)")
        }
    }

    /// `@sum` of doubles in arithmetic: the sum added in the collection's
    /// order (0 for none, as memory's integer 0), then computed as any
    /// double; PostgreSQL has a form only for a change of sign.
    @Test func testSumsOfDoublesInArithmetic() async throws {
        let schema = StoreSchema([
            Entity("Box", table: "boxes", attributes: [Attribute("name", .string)], relationships: [
                .toMany("items", "Item", inverseColumn: "box_id"),
            ]),
            Entity("Item", table: "items", attributes: [Attribute("w", .double, optional: false)]),
        ])
        // Box 1 sums to 0.1 only in key order (1e16, -1e16, 0.1); box 2 has none.
        let weights: [(Int, Int, Double)] = [(3, 1, 0.1), (1, 1, 1e16), (2, 1, -1e16)]
        var rows = [1, 2].map { Library.Row(table: "boxes", values: ["id": .integer(Int64($0)), "name": .text("b\($0)")]) }
        rows += weights.map { id, box, w in
            Library.Row(table: "items", values: ["id": .integer(Int64(id)), "box_id": .integer(Int64(box)), "w": .real(w)])
        }
        let items: [Value] = weights.sorted { $0.0 < $1.0 }.map { ["id": .int($0.0), "w": .double($0.2)] }
        let boxes: [Value] = [["id": 1, "name": "b1", "items": .array(items)], ["id": 2, "name": "b2", "items": []]]
        let sqlite = try DifferentialTests.sqliteDatabase(schema, Library.inserts(rows, .sqlite))
        let pg = try await PostgresServer.connect(schema: "sift_collection_double_sums", tables: schema, rows: rows)
        let e = GroupedDifferentialTests.Engines(books: boxes, sqlite: sqlite, postgres: pg)
        defer { e.close() }
        for (format, names, postgres) in [
            ("items.@sum.w * -1 == -0.1", ["b1"], true), ("items.@sum.w * -1 == 0", ["b2"], true),
            ("items.@sum.w * 10 == 1.0", ["b1"], false), ("items.@sum.w + 1 == 1", ["b2"], false),
        ] {
            let request = FetchSpecification(entity: "Box", filter: try Filter(format), properties: ["name"])
            let expected: [Value] = names.map { ["name": .string($0)] }
            #expect(try request.execute(on: boxes) == expected, "memory: \(format)")
            for (engine, answer) in try await Self.answers(request, e, schema: schema) {
                if engine == "PostgreSQL" && !postgres {
                    guard case .failure(let error) = answer else { Issue.record("PostgreSQL lowered \(format)"); continue }
                    #expect("\(error)".contains("has no PostgreSQL form"), "\(error)")
                    continue
                }
                #expect(try answer.get() == expected, "\(engine): \(format)")
            }
        }
    }
}
