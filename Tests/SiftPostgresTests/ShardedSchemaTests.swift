import Foundation
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// Reading the schema of the sharded profile's coordinator: tables
/// partitioned over `postgres_fdw` foreign tables, and foreign tables of
/// their own, are read as the tables they stand for, with the key their
/// remote tables declare (`ForeignTableKeys`), or left out with the
/// reason. Skipped without `SIFT_POSTGRES_SHARDED`, unless
/// `SIFT_REQUIRE_SHARDED=1`.
@Suite(.serialized)
struct ShardedSchemaTests {
    static let schemaName = "sift_sharded_schema"
    /// A foreign server nothing listens on (port 1 of loopback).
    static let nowhere = "sift_nowhere"

    @Test func testShardedAndForeignTablesAreReadWithTheirRemoteKeys() async throws {
        guard let db = try await ShardedPostgres.connect(schema: Self.schemaName) else {
            try Test.cancel("SIFT_POSTGRES_SHARDED is not set (run the tests with scripts/postgres.sh run-sharded …)")
        }
        defer { PostgresServer.close(db) }
        let library = Library(seed: 7)
        try await PostgresServer.setUp(db, Library.schema.createStatements(dialect: .postgreSQL))
        try await PostgresServer.setUp(db, library.inserts(.postgreSQL))
        try await PostgresServer.setUp(db, [
            "CREATE TABLE reviews (id bigint PRIMARY KEY, book_id bigint NOT NULL, stars integer)",
            "INSERT INTO reviews SELECT g, g % 7, g % 5 FROM generate_series(1, 20) g",
        ])
        try await ShardedPostgres.distribute(db, ShardedPostgres.libraryDistribution + [("reviews", "book_id")])
        try await PostgresServer.setUp(db, [
            "DROP SERVER IF EXISTS \(Self.nowhere) CASCADE",
            "CREATE SERVER \(Self.nowhere) FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '127.0.0.1', port '1', dbname 'x')",
            "CREATE USER MAPPING FOR PUBLIC SERVER \(Self.nowhere) OPTIONS (user 'postgres')",
            // A foreign table of its own, on one shard's part of the books.
            "CREATE FOREIGN TABLE lone_books (id bigint NOT NULL, title text) SERVER sift_shard_0 "
                + "OPTIONS (schema_name '\(Self.schemaName)', table_name 'books_shard_0')",
            // The same with the key renamed (column_name).
            "CREATE FOREIGN TABLE renamed_books (ident bigint OPTIONS (column_name 'id'), title text) SERVER sift_shard_1 "
                + "OPTIONS (schema_name '\(Self.schemaName)', table_name 'books_shard_1')",
            // A remote table without a primary key: the join table's part.
            "CREATE FOREIGN TABLE lone_tags (book_id bigint, tag_id bigint) SERVER sift_shard_0 "
                + "OPTIONS (schema_name '\(Self.schemaName)', table_name 'book_tags_shard_0')",
            "CREATE FOREIGN TABLE unreachable (id bigint) SERVER \(Self.nowhere)",
        ])
        // The authors as Citus keeps a reference table: whole on the
        // coordinator, and a copy beside each shard's books, which declare
        // their foreign key to it there.
        for shard in ["sift_shard_0", "sift_shard_1"] {
            let authors = "\(Self.schemaName).authors"
            let books = "\(Self.schemaName).books_\(shard.replacingOccurrences(of: "sift_", with: ""))"
            try await PostgresServer.setUp(db, [
                "DROP TABLE IF EXISTS \(authors) CASCADE", "CREATE TABLE \(authors) (id bigint PRIMARY KEY, name text)",
                "INSERT INTO \(authors) SELECT g, 'a' || g FROM generate_series(1, 20) g",
                "ALTER TABLE \(books) ADD FOREIGN KEY (author_id) REFERENCES \(authors) (id)",
            ].map { BoundStatement(sql: "SELECT public.dblink_exec($1, $2)", bindings: [.text(shard), .text($0)]) })
        }

        var notes: [String] = []
        let schema = try await StoreSchema.read(from: db, note: { notes.append($0) })
        for note in notes { print("sharded schema note: \(note)") }
        func key(_ table: String) -> String? { schema.entities.first { $0.table == table }?.primaryKey }
        #expect(key("books") == "id")
        #expect(key("chapters") == "id")
        #expect(key("lone_books") == "id")
        #expect(key("renamed_books") == "ident")
        #expect(key("authors") == "id" && key("tags") == "id")
        // The foreign key every shard's books declare to the copy of a
        // coordinator's table is the sharded books' relationship.
        let books = try #require(schema.entities.first { $0.table == "books" })
        #expect(books.relationships.map(\.name) == ["author"])
        #expect(schema.entities.first { $0.table == "authors" }?.relationships.map(\.name) == ["books"])
        #expect(schema.entities.first { $0.table == "chapters" }?.relationships.isEmpty == true)
        for table in ["reviews", "book_tags", "lone_tags", "unreachable"] {
            #expect(key(table) == nil, "\(table) has no key that holds for the whole table")
        }
        #expect(notes.contains { $0.hasPrefix("reviews is left out") && $0.contains("partitioned on book_id") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("lone_tags is left out") && $0.contains("has no primary key") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("unreachable is left out") && $0.contains("server \(Self.nowhere)") }, "\(notes)")
        #expect(notes.contains { $0.hasPrefix("book_tags is left out") }, "\(notes)")
        #expect(notes.count == 4, "\(notes)")

        // Without reading the foreign servers, as before: left out.
        let local = try await StoreSchema.read(from: db, readingForeignServers: false)
        #expect(!local.entities.contains { $0.table == "books" })

        // The sharded table as read answers as memory does.
        let request = FetchSpecification(
            entity: "books", filter: try Filter("year > 2000 OR price < 2 OR author.age > 40"), sort: [.ascending("id")])
        let memory = try FetchSpecification(filter: request.filter, sort: request.sort).execute(on: library.books)
        func ids(_ values: [Value]) -> [Int] {
            values.compactMap { v -> Int? in
                guard case .dictionary(let d) = v, case .int(let id)? = d["id"] else { return nil }
                return id
            }
        }
        let got = try await request.fetchValues(db, schema: schema)
        #expect(!ids(memory).isEmpty)
        #expect(ids(got) == ids(memory))
    }
}
