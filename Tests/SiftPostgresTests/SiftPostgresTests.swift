import Foundation
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import enum SiftTestSupport.PostgresServer
import struct SiftTestSupport.PublicSchemaTrait
import Testing

/// SiftPostgres against the server of `scripts/postgres.sh run`: fetches
/// as values, as a Decodable type, streamed and counted; the schema read
/// from the catalog; and the errors.
@Suite(.serialized)
struct SiftPostgresTests {
    /// Entities named and related as the catalog reader names them, so
    /// that the schema created from it reads back equal.
    static let schema = StoreSchema([
        Entity("authors", table: "authors", attributes: [
            Attribute("id", .integer, optional: false),
            Attribute("name", .string),
            Attribute("rating", .double),
        ], relationships: [
            .toMany("books", "books", inverseColumn: "author_id"),
        ]),
        Entity("books", table: "books", attributes: [
            Attribute("id", .integer, optional: false),
            // First: createStatements adds the key columns of the to-many
            // relationships pointing at a table (authors.books) before the
            // table's own attributes.
            Attribute("author_id", .integer),
            Attribute("title", .string),
            Attribute("year", .integer),
            Attribute("available", .boolean),
            Attribute("cover", .blob),
        ], relationships: [
            .toOne("author", "authors", column: "author_id"),
            .manyToMany("tags", "tags", joinTable: "book_tags", sourceColumn: "book_id", destinationColumn: "tag_id"),
        ]),
        Entity("tags", table: "tags", attributes: [
            Attribute("id", .integer, optional: false),
            Attribute("label", .string),
        ], relationships: [
            .manyToMany("books", "books", joinTable: "book_tags", sourceColumn: "tag_id", destinationColumn: "book_id"),
        ]),
    ])

    /// The tables of ``schema`` from `createStatements`, with the foreign
    /// keys its relationships stand for, and a few rows.
    private func makeLibrary(_ name: String) async throws -> PostgresConnection {
        guard let db = try await PostgresServer.connect(schema: name) else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        var statements = Self.schema.createStatements(dialect: .postgreSQL)
        statements += [
            #"ALTER TABLE "books" ADD FOREIGN KEY ("author_id") REFERENCES "authors""#,
            #"ALTER TABLE "book_tags" ADD FOREIGN KEY ("book_id") REFERENCES "books""#,
            #"ALTER TABLE "book_tags" ADD FOREIGN KEY ("tag_id") REFERENCES "tags""#,
            #"INSERT INTO "authors" VALUES (1, 'Ann', 4.5), (2, 'Bob', NULL)"#,
            #"INSERT INTO "books" ("id", "title", "year", "available", "cover", "author_id") VALUES "#
                + #"(10, 'Alpha', 1999, true, '\x0102', 1), (11, 'Beta', 2005, false, NULL, 2), "#
                + #"(12, 'Gamma', NULL, NULL, NULL, 1)"#,
            #"INSERT INTO "tags" VALUES (1, 'old'), (2, 'new')"#,
            #"INSERT INTO "book_tags" VALUES (10, 1), (11, 2), (12, 2)"#,
        ]
        try await PostgresServer.setUp(db, statements)
        return db
    }

    @Test func testSchemaFromCreateStatementsReadsBackEqual() async throws {
        let db = try await makeLibrary("sift_pg_schema")
        defer { PostgresServer.close(db) }
        let read = try await StoreSchema.read(from: db)
        let json = String(decoding: try read.jsonData(), as: UTF8.self)
        #expect(read == Self.schema, Comment(rawValue: json))
    }

    @Test func testFetchValuesDecodableStreamAndCount() async throws {
        let db = try await makeLibrary("sift_pg_fetch")
        defer { PostgresServer.close(db) }
        let request = FetchSpecification(
            entity: "books", filter: try Filter("author.name BEGINSWITH %@ OR ANY tags.label == 'new'", "A"),
            sort: [SortKey("title", ascending: false)])
        let values = try await request.fetchValues(db, schema: Self.schema)
        #expect(values.count == 3)
        guard case .dictionary(let first)? = values.first else { Issue.record("\(values)"); return }
        #expect(first["title"] == .string("Gamma"))
        #expect(first["year"] == .null)
        guard case .dictionary(let last)? = values.last else { Issue.record("\(values)"); return }
        #expect(last["available"] == .bool(true))
        #expect(last["cover"] == .data(Data([1, 2])))
        #expect(last["author_id"] == .int(1))

        struct Book: Decodable, Equatable {
            var id: Int
            var title: String
            var year: Int?
            var available: Bool?
        }
        let books = try await request.fetch(db, schema: Self.schema, as: Book.self)
        #expect(books == [
            Book(id: 12, title: "Gamma", year: nil, available: nil),
            Book(id: 11, title: "Beta", year: 2005, available: false),
            Book(id: 10, title: "Alpha", year: 1999, available: true),
        ])

        var streamed: [Value] = []
        for try await row in try await request.stream(db, schema: Self.schema) { streamed.append(row) }
        #expect(streamed == values)

        let count = try await request.fetchCount(db, schema: Self.schema)
        #expect(count == 3)
        let inList = FetchSpecification(entity: "books", filter: try Filter("year IN %@ AND title IN {'Alpha', 'Beta'}", [1999, 2005.0]))
        let inListCount = try await inList.fetchCount(db, schema: Self.schema)
        #expect(inListCount == 2)

        // Identifiers: the primary keys as text, in the request's order; on
        // a Core Data store's schema, object ID URIs naming each row's entity.
        let ids = try await request.fetchObjectIDs(db, schema: Self.schema)
        #expect(ids == ["12", "11", "10"])
        var coreData = Self.schema
        coreData.storeIdentifier = "S"
        coreData.entities = coreData.entities.enumerated().map { var e = $1; e.entityNumber = $0 + 1; return e }
        let uris = try await request.fetchObjectIDs(db, schema: coreData)
        #expect(uris == ["x-coredata://S/books/p12", "x-coredata://S/books/p11", "x-coredata://S/books/p10"])
        let paged = FetchSpecification(entity: "books", sort: [SortKey("id")], offset: 1, limit: 1)
        #expect(try await paged.fetchObjectIDs(db, schema: Self.schema) == ["11"])
    }

    /// The example of SiftPostgres' DocC, as written there (but for the connection
    /// string, the throwaway server's, and the checks).
    @Test(.publicSchema) func testReadmeExample() async throws {
        let db = try await makeLibrary("public")
        PostgresServer.close(db)
        guard let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"] else { return }

        let connection = try await PostgresConnection.connect(
            configuration: .init(connectionString: conninfo), id: 1, logger: Logger(label: "app"))
        let schema = try await StoreSchema.read(from: connection)
        let request = FetchSpecification(entity: "books", filter: try Filter("author.name BEGINSWITH %@", "A"),
                                   sort: [.descending("year")], limit: 20)

        struct Book: Decodable { var id: Int; var title: String; var year: Int? }
        let books = try await request.fetch(connection, schema: schema, as: Book.self)
        let count = try await request.fetchCount(connection, schema: schema)
        for try await row in try await request.stream(connection, schema: schema) { print(row) }
        var streamed = 0
        for try await _ in try await request.stream(connection, schema: schema) { streamed += 1 }
        try await connection.close()

        #expect(books.map(\.title) == ["Alpha", "Gamma"])  // NULLs last, descending
        #expect(count == 2)
        #expect(streamed == 2)
    }

    /// Lists go as arrays of their elements' type; integers among doubles
    /// as doubles; a list PostgreSQL cannot hold is refused before sending.
    @Test func testArrayParameters() async throws {
        let db = try await makeLibrary("sift_pg_arrays")
        defer { PostgresServer.close(db) }
        let mixed = try await db.rows(BoundStatement(
            sql: "SELECT 2.5 = ANY($1), pg_typeof($1)::text", bindings: [.array([.integer(2), .real(2.5)])]))
        #expect(mixed == [[.boolean(true), .text("double precision[]")]])
        let texts = try await db.rows(BoundStatement(
            sql: "SELECT 'b' = ANY($1), pg_typeof($1)::text", bindings: [.array([.text("a"), .text("b")])]))
        #expect(texts == [[.boolean(true), .text("text[]")]])
        do {
            _ = try await db.rows(BoundStatement(sql: "SELECT $1", bindings: [.array([.integer(1), .text("a")])]))
            Issue.record("bound a list of an integer and a text")
        } catch {
            #expect(error.kind == .valueDoesNotFit)
            #expect(error.message.contains("mixes types"), Comment(rawValue: error.description))
        }
    }

    @Test func testUnknownTable() async throws {
        let db = try await makeLibrary("sift_pg_unknown")
        defer { PostgresServer.close(db) }
        var schema = Self.schema
        schema.entities[1].table = "volumes"
        do {
            _ = try await FetchSpecification(entity: "books").fetchValues(db, schema: schema)
            Issue.record("fetched from a missing table")
        } catch {
            #expect(error.kind == .unknownTable)
            #expect(error.sqlState == "42P01")
            #expect(error.description.contains(#"relation "volumes" does not exist"#), Comment(rawValue: error.description))
        }
    }

    @Test func testValueThatDoesNotFit() async throws {
        let db = try await makeLibrary("sift_pg_fit")
        defer { PostgresServer.close(db) }
        // NUL: refused by the lowering in a predicate, and by the binding
        // in a statement of one's own, before the server sees it.
        let nul = FetchSpecification(entity: "books", filter: try Filter("title == %@", "a\u{0}b"))
        do {
            _ = try await nul.fetchValues(db, schema: Self.schema)
            Issue.record("lowered a text with NUL")
        } catch {
            #expect(error.kind == .lowering)
            #expect(error.message.contains("NUL"), Comment(rawValue: error.description))
        }
        do {
            _ = try await db.rows(BoundStatement(sql: "SELECT $1::text", bindings: [.text("a\u{0}b")]))
            Issue.record("bound a text with NUL")
        } catch {
            #expect(error.kind == .valueDoesNotFit)
            #expect(error.message.contains("NUL"), Comment(rawValue: error.description))
        }
        // A row that does not decode as the type asked for.
        struct Misread: Decodable { var title: Int }
        do {
            _ = try await FetchSpecification(entity: "books").fetch(db, schema: Self.schema, as: Misread.self)
            Issue.record("decoded a title as an Int")
        } catch {
            #expect(error.kind == .valueDoesNotFit)
            #expect(error.message.contains("Misread"), Comment(rawValue: error.description))
        }
        // A value out of the range of its type, said by the server.
        do {
            _ = try await db.rows(BoundStatement(sql: "SELECT CAST($1 AS integer)", bindings: [.integer(1 << 40)]))
            Issue.record("cast 2^40 to integer")
        } catch {
            #expect(error.kind == .valueDoesNotFit)
            #expect(error.sqlState == "22003")
        }
        // A column of a type no attribute reads.
        _ = try await db.rows(BoundStatement(sql: #"ALTER TABLE "books" ADD COLUMN "seen" interval"#, bindings: []))
        _ = try await db.rows(BoundStatement(sql: #"UPDATE "books" SET "seen" = '1 day'"#, bindings: []))
        var schema = Self.schema
        schema.entities[1].attributes.append(Attribute("seen", .string))
        do {
            _ = try await FetchSpecification(entity: "books").fetchValues(db, schema: schema)
            Issue.record("read an interval")
        } catch {
            #expect(error.kind == .valueDoesNotFit)
            #expect(error.message.contains("seen"), Comment(rawValue: error.description))
        }
    }

    /// The server's address, with `change` applied.
    private func configuration(_ change: (inout PostgresConnection.Configuration) -> Void) throws
        -> PostgresConnection.Configuration
    {
        let environment = ProcessInfo.processInfo.environment
        guard let conninfo = environment["SIFT_POSTGRES"], !conninfo.isEmpty else {
            if environment["SIFT_REQUIRE_POSTGRES"] == "1" {
                throw PostgresServer.Missing(description: "SIFT_REQUIRE_POSTGRES=1 but SIFT_POSTGRES is not set")
            }
            try Test.cancel("SIFT_POSTGRES is not set")
        }
        var configuration = try PostgresConnection.Configuration(connectionString: conninfo)
        change(&configuration)
        return configuration
    }

    @Test func testAuthenticationErrorSaysWhat() async throws {
        let refusals: [(PostgresConnection.Configuration, String)] = [
            (try configuration { $0.username = "nobody_here" }, #"role "nobody_here" does not exist"#),
            (try configuration { $0.database = "no_such_db" }, #"database "no_such_db" does not exist"#),
        ]
        for (configuration, message) in refusals {
            do {
                _ = try await PostgresServer.connect(configuration)
                Issue.record("connected: \(message)")
            } catch {
                #expect(error.kind == .authentication)
                #expect(error.description.contains(message), Comment(rawValue: error.description))
            }
        }
    }

    @Test func testConnectionErrorSaysWhat() async throws {
        // Port 1 on loopback: nothing listens there.
        let configuration = try PostgresConnection.Configuration(
            connectionString: "postgresql://postgres@127.0.0.1:1/sift_test", environment: [:])
        do {
            _ = try await PostgresServer.connect(configuration)
            Issue.record("connected to port 1")
        } catch {
            #expect(error.kind == .connection)
            #expect(error.description.contains("cannot reach the server"), Comment(rawValue: error.description))
        }
    }

    /// A running `PostgresClient` (a pool) runs statements as a
    /// connection does.
    @Test func testPool() async throws {
        guard let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !conninfo.isEmpty else {
            _ = try await PostgresServer.connect()  // fails under SIFT_REQUIRE_POSTGRES=1
            try Test.cancel("SIFT_POSTGRES is not set")
        }
        let client = PostgresClient(
            configuration: try .init(connectionString: conninfo), backgroundLogger: Logger(label: "tests"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let rows = try await client.rows(BoundStatement(sql: "SELECT $1::bigint + 1", bindings: [.integer(41)]))
            #expect(rows == [[.integer(42)]])
            group.cancelAll()
        }
    }

    @Test func testErrorsOfOtherKinds() {
        #expect(SiftPostgresError(CancellationError()).kind == .server)
        let decoding = DecodingError.typeMismatch(Int.self, .init(codingPath: [], debugDescription: "text"))
        #expect(SiftPostgresError(decoding).kind == .valueDoesNotFit)
        let kept = SiftPostgresError(.unknownTable, "gone")
        #expect(SiftPostgresError(kept, sql: "SELECT 1") == SiftPostgresError(.unknownTable, "gone", sql: "SELECT 1"))
    }

    @Test func testConnectionStrings() throws {
        let url = try PostgresConnection.Configuration(
            connectionString: "postgresql://ann:s%40cret@db.example:6543/shop", environment: [:])
        #expect(url.host == "db.example")
        #expect(url.port == 6543)
        #expect(url.username == "ann")
        #expect(url.password == "s@cret")
        #expect(url.database == "shop")
        let pairs = try PostgresConnection.Configuration(
            connectionString: "host=127.0.0.1 user=bob", environment: ["PGPORT": "5433", "PGDATABASE": "lib"])
        #expect(pairs.host == "127.0.0.1")
        #expect(pairs.port == 5433)
        #expect(pairs.username == "bob")
        #expect(pairs.database == "lib")
        #expect(throws: (any Error).self, performing: { try PostgresConnection.Configuration(connectionString: "host", environment: [:]) })
        #expect(throws: (any Error).self, performing: { try PostgresConnection.Configuration(connectionString: "port=99999", environment: [:]) })
        for unread in ["postgresql://h/db?sslmode=require", "host=h sslmode=require"] {
            if let error = #expect(throws: (any Error).self, performing: { try PostgresConnection.Configuration(connectionString: unread, environment: [:]) }) {
                #expect("\(error)".contains("sslmode in the connection string is not supported"), "\(error)")
            }
        }
        // Shown with the password hidden, in either form.
        for (string, shown) in [
            ("postgresql://ann:s%40cret@db.example:6543/shop", "postgresql://ann:***@db.example:6543/shop"),
            ("postgresql://ann:pa?ss@h/db", "postgresql://ann:***@h/db"),
            ("postgres://u@h/db?sslmode=x&password=p", "postgres://u@h/db?sslmode=x&password=***"),
            ("host=h password='a b' dbname=x", "host=h password=*** dbname=x"),
            ("password=p", "password=***"),
        ] {
            #expect(PostgresConnectionString.redacted(string) == shown)
        }
    }
}
