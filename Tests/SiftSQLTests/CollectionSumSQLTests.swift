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
    static func engines(_ books: [(Int, [Int])] = [(1, [big, 1]), (3, [3, 4]), (4, [])], schema: String = "sift_collection_sums")
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

    /// What each engine answers for `request`, nil where the statement
    /// failed.
    static func answers(_ request: FetchSpecification, _ e: GroupedDifferentialTests.Engines) async throws -> [String: [Value]?] {
        var out: [String: [Value]?] = [:]
        out.updateValue(try? await e.sqlite.read { try request.fetchValues($0, schema: Library.schema) }, forKey: "SQLite")
        if let pg = e.postgres { out.updateValue(try? await request.fetchValues(pg, schema: Library.schema), forKey: "PostgreSQL") }
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
            #expect(answer == [["title": "b1"]], "\(engine)")
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
            #expect(answer?.map(GroupedDifferentialTests.strict) == expected.map(GroupedDifferentialTests.strict), "\(engine)")
        }
    }

    /// Past 64 bits memory's sum is a double whose value depends on the
    /// order of the terms, and an average past 2^53 too: SQL fails the
    /// statement rather than answer otherwise (for a table that holds such
    /// a collection, whatever the other conditions). Within the bounds it
    /// answers.
    @Test func testSumsPastTheBoundsFail() async throws {
        let e = try await Self.engines([(2, [Int.max, 1])], schema: "sift_collection_sums_over")
        defer { e.close() }
        let over = FetchSpecification(entity: "Book", filter: try Filter("chapters.@sum.pages > 0"))
        #expect(try over.execute(on: e.books).count == 1)
        let big = try await Self.engines([(1, [Self.big, 1])], schema: "sift_collection_sums_big")
        defer { big.close() }
        let averaged = FetchSpecification(entity: "Book", filter: try Filter("chapters.@avg.pages > 0"))
        #expect(try averaged.execute(on: big.books).count == 1)
        for (request, e) in [(over, e), (averaged, big)] {
            let answers = try await Self.answers(request, e)
            #expect(!answers.isEmpty)
            for (engine, answer) in answers {
                #expect(answer == nil, "\(engine) answered \(String(describing: answer)) for \(request.filter?.format ?? "")")
            }
        }
        let small = try await Self.engines([(3, [3, 4]), (4, [])], schema: "sift_collection_sums_small")
        defer { small.close() }
        let within = FetchSpecification(
            entity: "Book", filter: try Filter("chapters.@avg.pages == 3.5 AND chapters.@sum.pages == 7"), properties: ["title"])
        #expect(try within.execute(on: small.books) == [["title": "b3"]])
        for (engine, answer) in try await Self.answers(within, small) {
            #expect(answer == [["title": "b3"]], "\(engine)")
        }
    }
}
