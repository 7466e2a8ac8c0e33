import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import Testing

/// The SQL example of SiftSQL's DocC landing page and of SiftSQLite's, as
/// written there.
struct ReadmeSQLTests {
    @Test func testReadmeExample() throws {
        let schema = StoreSchema([
            Entity("Author", table: "authors", attributes: [
                Attribute("name", .string),
            ], relationships: [
                .toMany("books", "Book", inverseColumn: "author_id"),
            ]),
            Entity("Book", table: "books", attributes: [
                Attribute("title", .string, optional: false),
                Attribute("year", .integer),
                Attribute("published", .date(.unixSeconds)),
            ], relationships: [
                .toOne("author", "Author", column: "author_id"),
                .manyToMany("tags", "Tag", joinTable: "book_tags", sourceColumn: "book_id", destinationColumn: "tag_id"),
            ]),
            Entity("Tag", table: "tags", attributes: [Attribute("name", .string)]),
        ])
        let request = FetchSpecification(
            entity: "Book", filter: try Filter("author.name BEGINSWITH[c] %@ AND ANY tags.name == %@", "ste", "horror"),
            sort: [.descending("year")], limit: 20)
        let query = try request.sql(in: schema, dialect: .sqlite)
        #expect(query.statement.sql == """
            SELECT t0."id", t0."title", t0."year", t0."published" FROM "books" t0 \
            WHERE (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 \
            WHERE (CASE WHEN typeof(t1."name") = 'text' AND length(t1."name") = length(CAST(t1."name" AS BLOB)) \
            AND 'a' LIKE 'A' THEN t1."name" LIKE ?1 ESCAPE '\\' ELSE sift_search(t1."name", ?2, 0, 1) END))) \
            AND t0."id" IN (SELECT t3."book_id" FROM "book_tags" t3 \
            JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE t2."name" = ?3) \
            ORDER BY t0."year" DESC, t0."id" LIMIT ?4
            """)
        #expect(query.statement.bindings == [.text("ste%"), .text("ste"), .text("horror"), .integer(20)])

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try DatabaseQueue(path: path, configuration: .sift)
        try db.write { db in
            for s in schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            try db.execute(sql: "INSERT INTO authors (id, name) VALUES (1, 'Stephen King'), (2, 'Ann Leckie')")
            try db.execute(sql: """
                INSERT INTO books (id, title, year, published, author_id) VALUES
                  (1, 'It', 1986, 0, 1), (2, 'Carrie', 1974, 0, 1), (3, 'Ancillary Justice', 2013, 0, 2)
                """)
            try db.execute(sql: "INSERT INTO tags (id, name) VALUES (1, 'horror'), (2, 'space')")
            try db.execute(sql: "INSERT INTO book_tags (book_id, tag_id) VALUES (1, 1), (2, 1), (3, 2)")
        }
        let rows = try db.read { try request.fetchValues($0, schema: schema) }
        #expect(rows.compactMap { row -> String? in
            if case .dictionary(let d) = row { return d["title"]?.stringValue }
            return nil
        } == ["It", "Carrie"])
        let count = try db.read { try request.fetchCount($0, schema: schema) }
        #expect(count == 2)
    }
}
