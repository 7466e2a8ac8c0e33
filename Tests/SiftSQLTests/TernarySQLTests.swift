import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

// TERNARY operands of comparisons (distributed over their branches) and
// [FIRST]/[LAST] of an ordered to-many (a scalar subquery ordered by the
// order column) in SQL; what neither reaches is refused.

extension LoweringTests {
    @Test func testTernaryOperandsAreDistributed() throws {
        // `(year ?? 0) > 1995`: the branch `0 > 1995` is answered now, and
        // leaves nothing behind.
        #expect(try where_("TERNARY(year != nil, year, 0) > 1995") == #"(t0."year" IS NOT NULL AND t0."year" > ?1)"#)
        // NOT goes down to the leaves: the test, and the comparison with
        // its nil rows kept.
        #expect(try where_("NOT TERNARY(year != nil, year, 0) > 1995")
            == #"(t0."year" IS NULL OR NOT COALESCE(t0."year" > ?1, 0))"#)
        // On the right, with both branches read from the row.
        #expect(try where_("1995 < TERNARY(year > 2000, author.age, price)", dialect: .postgreSQL)
            == #"((t0."year" > $1 AND t1."age" > $2) OR (NOT COALESCE(t0."year" > $3, FALSE) AND (t0."price" > $4 AND t0."price" IS DISTINCT FROM 'NaN')))"#)
    }

    @Test func testFirstAndLastOfAnOrderedToManyAreOrderedSubqueries() throws {
        let first = try sql("chapters[FIRST].pages > 10").sql
        #expect(first.contains(#" WHERE (SELECT t1."pages" FROM "chapters" t1 WHERE t1."book_id" = t0."id" ORDER BY t1."position", t1."id" LIMIT 1) > ?1 ORDER BY"#), Comment(rawValue: first))
        let last = try sql("tags[LAST].name == 'Ann'", dialect: .postgreSQL).sql
        #expect(last.contains(#" WHERE (SELECT t1."name" FROM "book_tags" t2 JOIN "tags" t1 ON t1."id" = t2."tag_id" WHERE t2."book_id" = t0."id" ORDER BY t2."position" DESC NULLS LAST, t1."id" DESC LIMIT 1) = $1 ORDER BY"#), Comment(rawValue: last))
    }

    @Test func testWhatNeitherReachesIsRefused() throws {
        let unordered = StoreSchema([
            Entity("Shelf", table: "shelves", attributes: [Attribute("name", .string)], relationships: [
                .toMany("books", "Book", inverseColumn: "shelf_id"),
                .toOne("owner", "Shelf", column: "owner_id"),
                Relationship("kept", "Book", .toMany(inverseColumn: "kept_id"), ordered: true),
            ]),
            Entity("Book", table: "books", attributes: [Attribute("title", .string)]),
        ])
        func refusal(_ format: String, _ schema: StoreSchema? = nil, entity: String = "Book") -> String? {
            do {
                _ = try Filter(format).sqlCondition(in: schema ?? self.schema, entity: entity, dialect: .sqlite)
                return nil
            } catch let error as SQLLoweringError {
                return error.code == .unsupported ? error.message : "\(error.code): \(error.message)"
            } catch {
                return "\(error)"
            }
        }
        let onlyAfter = "has a SQL form only after a to-many relationship of the object or of a SUBQUERY variable"
        for (format, schema, message) in [
            ("books[FIRST].title == 'x'", unordered, "books has no order in the store: [FIRST] has a SQL form only for an ordered relationship with an order column"),
            ("kept[LAST].title == 'x'", unordered, "kept has no order in the store (the schema names no order column): [LAST] has a SQL form only for an ordered relationship with an order column"),
            ("owner.books[FIRST].title == 'x'", unordered, "[FIRST] \(onlyAfter) (chapters[FIRST].name): through a to-one, memory raises an error when it is nil"),
            ("chapters[1].pages == 3", nil, "an index [n] has no SQL form: memory raises an error for an index beyond the end, which SQL cannot"),
            ("chapters[SIZE] == 3", nil, "[SIZE] has no SQL form: count with @count"),
            ("chapters[FIRST] == nil", nil, "chapters[FIRST] is an object: compare one of its keys, as in chapters[FIRST].name"),
            ("chapters[LAST].@count == 1", nil, "@count after chapters[LAST] has no SQL form"),
            ("SUBQUERY(TERNARY(year > 2000, chapters, chapters), $c, $c.pages > 1).@count > 0", nil,
             "TERNARY has a SQL form only as an operand of a comparison, or inside a key path, subscript, function or CAST that is one"),
        ] as [(String, StoreSchema?, String)] {
            #expect(refusal(format, schema, entity: schema == nil ? "Book" : "Shelf")?.hasPrefix(message) == true,
                    Comment(rawValue: "\(format): \(refusal(format, schema, entity: schema == nil ? "Book" : "Shelf") ?? "lowered")"))
        }
        // Nested tests double the SQL at each level: bounded.
        var nested = "year > 2000"
        for _ in 0..<8 { nested = "TERNARY(\(nested), year, 0) > 1990" }
        #expect(refusal(nested) == nil, "255 distributions are within the bound")
        nested = "TERNARY(\(nested), year, 0) > 1990"
        #expect(refusal(nested)?.hasPrefix("limit: the predicate needs more than 256 TERNARY operands") == true)
    }
}

extension DifferentialTests {
    /// TERNARY operands and [FIRST]/[LAST] give the rows memory gives, on
    /// SQLite and (when it runs) PostgreSQL: nil tests and branches, NOT,
    /// nesting, both sides, ANY/ALL and membership, SUBQUERY variables,
    /// empty relationships.
    @Test func testTernaryAndOrderedElements() async throws {
        try await Self.compareFixed("TERNARY and [FIRST]/[LAST]", [
            "TERNARY(year != nil, year, 0) > 1995",
            "NOT TERNARY(year != nil, year, 0) > 1995",
            "TERNARY(year != nil, year, 2000) == 2000",
            "TERNARY(year != nil, year, nil) == nil",
            "TERNARY(author == nil, 0, chapters.@count) >= 2",
            "NOT TERNARY(price > 5, title, code) BEGINSWITH[c] 'a'",
            "TERNARY(author.age != nil, author.age, TERNARY(year != nil, year, 0)) < 50",
            "TERNARY(year > 2000, price, 0) < TERNARY(author != nil, author.rating, 3)",
            "TERNARY(TERNARY(price != nil, price, 0) > 5, year, 1990) > 1999",
            "SUBQUERY(chapters, $c, TERNARY($c.pages != nil, $c.pages, 0) < 10).@count > 0",
            "SUBQUERY(chapters, $c, NOT TERNARY($c.name == nil, title, $c.name) ==[cd] 'ann').@count == 0",
            "ANY TERNARY(year > 2000, chapters.name, tags.name) ==[c] 'ann'",
            "ALL TERNARY(price > 5, chapters.pages, tags.name) != nil",
            "'Ann' IN TERNARY(year > 2000, tags.name, chapters.name)",
            "year IN TERNARY(price > 5, {1990, 2000}, {2005})",
            "chapters[FIRST].pages > 10",
            "NOT chapters[FIRST].pages > 10",
            "chapters[FIRST].pages == nil",
            "chapters[LAST].pages != nil",
            "chapters[LAST].name ==[c] 'ann'",
            "tags[FIRST].name == 'Ann'",
            "NOT tags[LAST].name BEGINSWITH[c] 'a'",
            "chapters[FIRST].name == tags[LAST].name",
            "TERNARY(chapters[FIRST].pages != nil, chapters[FIRST].pages, 0) >= 20",
            "SUBQUERY(chapters, $c, $c.pages < chapters[LAST].pages).@count > 0",
        ], informative: true)
    }
}
