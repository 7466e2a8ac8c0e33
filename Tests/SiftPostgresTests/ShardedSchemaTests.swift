import Foundation
import PostgresNIO
import Synchronization
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

        let noted = Mutex<[String]>([])
        let schema = try await StoreSchema.read(from: db, note: { note in noted.withLock { $0.append(note) } })
        let notes = noted.withLock { $0 }
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

    /// A foreign server that takes the connection and never answers: the
    /// reading gives up after `foreignServerTimeout` and says so, instead of
    /// waiting.
    @Test func testASilentServerIsGivenUpOn() async throws {
        guard let db = try await ShardedPostgres.connect(schema: "sift_silent_server") else {
            try Test.cancel("SIFT_POSTGRES_SHARDED is not set (run the tests with scripts/postgres.sh run-sharded …)")
        }
        defer { PostgresServer.close(db) }
        let listener = try SilentListener()
        defer { listener.close() }
        try await PostgresServer.setUp(db, [
            "DROP SERVER IF EXISTS sift_silent CASCADE",
            "CREATE SERVER sift_silent FOREIGN DATA WRAPPER postgres_fdw "
                + "OPTIONS (host '127.0.0.1', port '\(listener.port)', dbname 'x', sslmode 'disable')",
            "CREATE USER MAPPING FOR PUBLIC SERVER sift_silent OPTIONS (user 'postgres')",
            "CREATE FOREIGN TABLE quiet (id bigint) SERVER sift_silent",
        ])
        let noted = Mutex<[String]>([])
        let clock = ContinuousClock()
        let start = clock.now
        let schema = try await StoreSchema.read(
            from: db, foreignServerTimeout: .seconds(2), note: { note in noted.withLock { $0.append(note) } })
        let took = clock.now - start
        try await PostgresServer.setUp(db, ["DROP SERVER IF EXISTS sift_silent CASCADE"])
        #expect(!schema.entities.contains { $0.table == "quiet" })
        let notes = noted.withLock { $0 }
        #expect(notes.count == 1 && notes[0].hasPrefix("quiet is left out: its key could not be read"), "\(notes)")
        // Bounded, not timed: the reading ended rather than waiting for the
        // server (a generous bound, for a loaded machine).
        #expect(took < .seconds(60), "\(took)")
    }
}

/// A TCP socket on loopback that takes connections (the kernel's backlog)
/// and never reads or answers.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, bound == 0, listen(fd, 16) == 0 else {
            if fd >= 0 { _ = Glibc.close(fd) }
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        descriptor = fd
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}
