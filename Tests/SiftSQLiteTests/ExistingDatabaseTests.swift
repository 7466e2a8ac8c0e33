import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// The "Existing databases" example of README.md and the CoreDataStores
/// article (SiftSQLite's DocC), as written there, on a plain
/// SQLite file and on a real Core Data store, and the entity lookup that
/// lets one request serve both.
struct ExistingDatabaseTests {
    /// A plain database, as an application would have made it, with
    /// foreign keys.
    private func library() throws -> (path: String, remove: () -> Void) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("library-\(UUID().uuidString).sqlite").path
        let db = try DatabaseQueue(path: path)
        try db.write { db in
            try db.execute(sql: """
                CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, year INTEGER,
                  author_id INTEGER REFERENCES authors(id));
                CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book_tags (book_id INTEGER NOT NULL REFERENCES books(id),
                  tag_id INTEGER NOT NULL REFERENCES tags(id));
                """)
            try db.execute(sql: "INSERT INTO authors (id, name) VALUES (1, 'Ann Leckie'), (2, 'Frank Herbert')")
            try db.execute(sql: """
                INSERT INTO books (id, title, year, author_id) VALUES
                  (1, 'Ancillary Justice', 2013, 1), (2, 'Ancillary Sword', 2014, 1), (3, 'Dune', 1965, 2)
                """)
            try db.execute(sql: "INSERT INTO tags (id, name) VALUES (1, 'sf'), (2, 'space opera')")
            try db.execute(sql: "INSERT INTO book_tags (book_id, tag_id) VALUES (1, 1), (2, 2), (3, 1)")
        }
        try db.close()
        return (path, { try? FileManager.default.removeItem(atPath: path) })
    }

    @Test func testReadmeExampleOnAPlainDatabase() throws {
        let (path, remove) = try library()
        defer { remove() }
        // As in the README (with the file's path).
        let db = try DatabaseQueue(path: path, configuration: .sift)
        let schema = try db.read { try StoreSchema.read(from: $0) }
        let rows = try db.read { db in
            try FetchSpecification(entity: "Book", filter: try Filter("ANY tags.name == 'sf' AND author.books.@count > 1"))
                .fetchValues(db, schema: schema)
        }
        #expect(rows.map { $0["title"] } == ["Ancillary Justice"])
        // The entity inferred from the table is named like it.
        #expect(schema.entity(named: "Book")?.name == "books")
    }

    @Test func testReadmeExampleOnACoreDataStore() throws {
        let path = try RealStores.readable("coredatabooks/CoreDataBooks.sqlite")
        // As in the README (with the store's path).
        let store = try ReadOnlyDatabase.open(path: path)
        let model = try store.read { try StoreSchema.read(from: $0) }
        let books = try store.read { db in
            try FetchSpecification(entity: "Book", filter: try Filter("author BEGINSWITH 'J'"), sort: [.ascending("title")])
                .fetchValues(db, schema: model)
        }
        // Checked against the store's own columns.
        let expected = try store.read { db in
            try String.fetchAll(db, sql: "SELECT ZTITLE FROM ZBOOK WHERE ZAUTHOR LIKE 'J%' ORDER BY ZTITLE")
        }
        #expect(!expected.isEmpty)
        #expect(books.map { $0["title"]?.stringValue } == expected)
    }

    @Test func testEntityLookup() {
        let schema = StoreSchema([
            Entity("books", table: "books", attributes: []), Entity("categories", table: "categories", attributes: []),
            Entity("Box", table: "ZBOX", attributes: []), Entity("People", table: "person", attributes: []), Entity("status", table: "status", attributes: []),
            Entity("news", table: "n1", attributes: []), Entity("New", table: "n2", attributes: []),
        ])
        #expect(schema.entity(named: "Book")?.name == "books")
        #expect(schema.entity(named: "BOOKS")?.name == "books")
        #expect(schema.entity(named: "Category")?.name == "categories")
        #expect(schema.entity(named: "boxes")?.name == "Box")
        #expect(schema.entity(named: "zbox")?.name == "Box")
        #expect(schema.entity(named: "Person")?.name == "People")
        #expect(schema.entity(named: "status")?.name == "status")
        #expect(schema.entity(named: "New")?.name == "New")
        #expect(schema.entity(named: "news")?.name == "news")
        // `News` is news's name ignoring case, before any plural.
        #expect(schema.entity(named: "News")?.name == "news")
        #expect(schema.entity(named: "Bok") == nil)
        // Two entities fit `Author`: neither is taken.
        let two = StoreSchema([Entity("authors", table: "a1", attributes: []), Entity("Authors", table: "a2", attributes: []), Entity("x", table: "author", attributes: [])])
        #expect(two.entity(named: "author")?.name == "x")
        let ambiguous = StoreSchema([Entity("authors", table: "a1", attributes: []), Entity("AUTHORS", table: "a2", attributes: [])])
        #expect(ambiguous.entity(named: "authors")?.name == "authors")
        #expect(ambiguous.entity(named: "Author") == nil)
    }
}
