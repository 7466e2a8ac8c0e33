import Foundation
import GRDB
import Sift
import SiftCatalog
import SiftSQL
import SiftSQLite
import Testing

/// SiftCatalog's rules that turn tables, keys and foreign keys into
/// entities and relationships (`TableInference`): as SQLite's reader feeds
/// them a file's tables, and from rows of PostgreSQL's catalog queries
/// (`PostgresCatalog`), which need no server to be read.
struct TableInferenceTests {
    @Test func testNamingRules() throws {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT, boss_id INTEGER REFERENCES users(id), guid UUID, v, token UUID);
                CREATE TABLE friendships (id INTEGER PRIMARY KEY, user_id INTEGER REFERENCES users, friend_id INTEGER REFERENCES users);
                CREATE TABLE posts (id TEXT PRIMARY KEY, user TEXT, user_id INTEGER REFERENCES users, created TIMESTAMP, score NUMERIC);
                INSERT INTO users VALUES (1, 'a', NULL, 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F', 2.5, X'E621E1F8C36C495A93FC0C247A3E6E5F');
                INSERT INTO posts VALUES ('p', 'x', 1, '2024-05-01 12:00:00', 'n/a');
                CREATE VIRTUAL TABLE search USING rtree(id, x0, x1);
                """)
        }
        let schema = try queue.read { try StoreSchema.read(from: $0) }
        #expect(schema.entities.map(\.name) == ["users", "posts"], "no join table, no virtual table or its shadow tables")
        let users = try #require(schema.entity(named: "users"))
        #expect(users.attribute(named: "guid")?.type == .uuid(.text))
        #expect(users.attribute(named: "token")?.type == .uuid(.bytes), "16 bytes, as GRDB stores a UUID")
        #expect(users.attribute(named: "v")?.type == .double, "no declared type: the stored value's")
        #expect(users.relationships.map(\.name) == ["boss", "users", "posts", "friendships", "friendships_user"])
        #expect(users.relationship(named: "friendships")?.kind == .manyToMany(table: "friendships", sourceColumn: "user_id", destinationColumn: "friend_id"))
        let posts = try #require(schema.entity(named: "posts"))
        #expect(posts.primaryKey == "id")
        #expect(posts.attribute(named: "created")?.type == .string, "dates as GRDB writes them compare as text")
        #expect(posts.attribute(named: "score")?.type == .string)
        #expect(posts.attributes.map(\.name) == ["id", "user", "created", "score"], "user is taken: user_id is the relationship")
        #expect(posts.relationships == [.toOne("user_id", "users", column: "user_id")])
    }

    /// The rows of `PostgresCatalog.columns` and `.foreignKeys` as a
    /// schema: names compared exactly (`Books` and `books` are two tables),
    /// a table of two foreign keys and nothing else is a many-to-many, a
    /// table without a single-column key is no entity (PostgreSQL has no
    /// rowid), types read from `format_type`.
    @Test func testPostgresCatalogRows() throws {
        func column(
            _ table: String, _ name: String, _ type: String, notNull: Bool = false, key: Int64 = 0, collation: String = ""
        ) -> [SQLValue] {
            [.text(table), .text(name), .text(type), .boolean(notNull), .integer(key), .text(collation)]
        }
        let columns = [
            column("authors", "id", "bigint", notNull: true, key: 1), column("authors", "name", "text"),
            column("books", "id", "bigint", notNull: true, key: 1), column("books", "title", "character varying(200)", notNull: true),
            column("books", "price", "numeric(10,2)"), column("books", "author_id", "bigint"), column("books", "cover", "bytea"),
            column("books", "available", "boolean"), column("books", "published", "timestamp without time zone"),
            column("tags", "id", "integer", notNull: true, key: 1), column("tags", "name", "text", collation: "C"),
            column("book_tags", "book_id", "bigint", notNull: true, key: 1),
            column("book_tags", "tag_id", "bigint", notNull: true, key: 2),
            column("Books", "id", "smallint", notNull: true, key: 1), column("Books", "t", "text"),
            column("log", "line", "text"),
        ]
        let foreignKeys: [[SQLValue]] = [
            [.text("books"), .text("author_id"), .text("authors"), .text("id")],
            [.text("book_tags"), .text("book_id"), .text("books"), .text("id")],
            [.text("book_tags"), .text("tag_id"), .text("tags"), .text("id")],
        ]
        let schema = try PostgresCatalog.schema(columns: columns, foreignKeys: foreignKeys)
        #expect(schema.entities.map(\.name) == ["authors", "books", "tags", "Books"], "no join table, no table without a key")
        let books = try #require(schema.entity(named: "books"))
        #expect(books.attributes.map(\.name) == ["id", "title", "price", "author_id", "cover", "available", "published"])
        #expect(books.attributes.map(\.type) == [.integer, .string, .double, .integer, .blob, .boolean, .string])
        #expect(books.attributes.map(\.isOptional) == [false, false, true, true, true, true, true])
        #expect(books.relationships == [
            .toOne("author", "authors", column: "author_id"),
            .manyToMany("tags", "tags", joinTable: "book_tags", sourceColumn: "book_id", destinationColumn: "tag_id"),
        ])
        #expect(schema.entity(named: "authors")?.relationships == [.toMany("books", "books", inverseColumn: "author_id")])
        #expect(schema.entity(named: "tags")?.relationships == [
            .manyToMany("books", "books", joinTable: "book_tags", sourceColumn: "tag_id", destinationColumn: "book_id")
        ])
        #expect(schema.entities.map(\.table) == ["authors", "books", "tags", "Books"])
        #expect(schema.entity(named: "tags")?.attributes.map(\.textForm) == [nil, .collation], "a collation of its own")
        #expect(books.attributes.allSatisfy { $0.textForm == nil })
        #expect(schema.entities[3].relationships == [], "Books is not books")

        for (columns, foreignKeys, message) in [
            ([[SQLValue.text("books")]], [[SQLValue]](), "the catalog's column rows are not (table, column, type, not null, key position, collation)"),
            ([column("books", "id", "bigint", notNull: true, key: 1)], [[.text("books"), .integer(1)]],
             "the catalog's foreign-key rows are not (table, column, parent, parent column)"),
        ] {
            #expect(throws: StoreSchemaError(message)) { try PostgresCatalog.schema(columns: columns, foreignKeys: foreignKeys) }
        }
    }

    /// The catalog's forms: `citext` with or without its schema, `character`
    /// with or without a length, and any type in a collation of its own.
    @Test func testFormsOfCatalogTypes() {
        #expect(PostgresCatalog.textForm(type: "citext", collation: "") == .citext)
        #expect(PostgresCatalog.textForm(type: "public.citext", collation: "") == .citext)
        #expect(PostgresCatalog.textForm(type: "character(12)", collation: "") == .character)
        #expect(PostgresCatalog.textForm(type: "bpchar", collation: "") == .character)
        #expect(PostgresCatalog.textForm(type: "character varying(40)", collation: "C") == .collation)
        #expect(PostgresCatalog.textForm(type: "text", collation: "") == nil)
        #expect(PostgresCatalog.textForm(type: "character varying", collation: "") == nil)
    }

    /// A foreign key's column named for its relationship: `_id`, `Id` and
    /// `ID` come off, when something is left.
    @Test func testStrippingIDSuffix() {
        let names = ["author_id", "authorId", "authorID", "AUTHOR_ID", "_id", "xid", "Id", "ID", "paid", "id", "author"]
        #expect(names.map(TableInference.strippingIDSuffix)
            == ["author", "author", "author", "AUTHOR", "_id", "xid", "Id", "ID", "paid", "id", "author"])
    }
}
