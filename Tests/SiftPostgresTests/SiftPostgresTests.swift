import Foundation
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import enum SiftTestSupport.PostgresServer
import XCTest

/// SiftPostgres against the server of `scripts/postgres.sh run`: fetches
/// as values, as a Decodable type, streamed and counted; the schema read
/// from the catalog; and the errors.
final class SiftPostgresTests: XCTestCase {
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
            throw XCTSkip("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
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

    func testSchemaFromCreateStatementsReadsBackEqual() async throws {
        let db = try await makeLibrary("sift_pg_schema")
        defer { PostgresServer.close(db) }
        let read = try await StoreSchema.read(from: db)
        let json = String(decoding: try read.jsonData(), as: UTF8.self)
        XCTAssertEqual(read, Self.schema, json)
    }

    func testFetchValuesDecodableStreamAndCount() async throws {
        let db = try await makeLibrary("sift_pg_fetch")
        defer { PostgresServer.close(db) }
        let request = FetchSpecification(
            entity: "books", filter: try Filter("author.name BEGINSWITH %@ OR ANY tags.label == 'new'", "A"),
            sort: [SortKey("title", ascending: false)])
        let values = try await request.fetchValues(db, schema: Self.schema)
        XCTAssertEqual(values.count, 3)
        guard case .dictionary(let first)? = values.first else { return XCTFail("\(values)") }
        XCTAssertEqual(first["title"], .string("Gamma"))
        XCTAssertEqual(first["year"], .null)
        guard case .dictionary(let last)? = values.last else { return XCTFail("\(values)") }
        XCTAssertEqual(last["available"], .bool(true))
        XCTAssertEqual(last["cover"], .data(Data([1, 2])))
        XCTAssertEqual(last["author_id"], .int(1))

        struct Book: Decodable, Equatable {
            var id: Int
            var title: String
            var year: Int?
            var available: Bool?
        }
        let books = try await request.fetch(Book.self, db, schema: Self.schema)
        XCTAssertEqual(books, [
            Book(id: 12, title: "Gamma", year: nil, available: nil),
            Book(id: 11, title: "Beta", year: 2005, available: false),
            Book(id: 10, title: "Alpha", year: 1999, available: true),
        ])

        var streamed: [Value] = []
        for try await row in try await request.stream(db, schema: Self.schema) { streamed.append(row) }
        XCTAssertEqual(streamed, values)

        let count = try await request.fetchCount(db, schema: Self.schema)
        XCTAssertEqual(count, 3)
        let inList = FetchSpecification(entity: "books", filter: try Filter("year IN %@ AND title IN {'Alpha', 'Beta'}", [1999, 2005.0]))
        let inListCount = try await inList.fetchCount(db, schema: Self.schema)
        XCTAssertEqual(inListCount, 2)
    }

    /// The example of SiftPostgres' DocC, as written there (but for the connection
    /// string, the throwaway server's, and the checks).
    func testReadmeExample() async throws {
        let db = try await makeLibrary("public")
        PostgresServer.close(db)
        guard let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"] else { return }

        let connection = try await PostgresConnection.connect(
            configuration: .init(connectionString: conninfo), id: 1, logger: Logger(label: "app"))
        let schema = try await StoreSchema.read(from: connection)
        let request = FetchSpecification(entity: "books", filter: try Filter("author.name BEGINSWITH %@", "A"),
                                   sort: [.descending("year")], limit: 20)

        struct Book: Decodable { var id: Int; var title: String; var year: Int? }
        let books = try await request.fetch(Book.self, connection, schema: schema)
        let count = try await request.fetchCount(connection, schema: schema)
        for try await row in try await request.stream(connection, schema: schema) { print(row) }
        var streamed = 0
        for try await _ in try await request.stream(connection, schema: schema) { streamed += 1 }
        try await connection.close()

        XCTAssertEqual(books.map(\.title), ["Alpha", "Gamma"])  // NULLs last, descending
        XCTAssertEqual(count, 2)
        XCTAssertEqual(streamed, 2)
    }

    /// Lists go as arrays of their elements' type; integers among doubles
    /// as doubles; a list PostgreSQL cannot hold is refused before sending.
    func testArrayParameters() async throws {
        let db = try await makeLibrary("sift_pg_arrays")
        defer { PostgresServer.close(db) }
        let mixed = try await db.rows(BoundStatement(
            sql: "SELECT 2.5 = ANY($1), pg_typeof($1)::text", bindings: [.array([.integer(2), .real(2.5)])]))
        XCTAssertEqual(mixed, [[.boolean(true), .text("double precision[]")]])
        let texts = try await db.rows(BoundStatement(
            sql: "SELECT 'b' = ANY($1), pg_typeof($1)::text", bindings: [.array([.text("a"), .text("b")])]))
        XCTAssertEqual(texts, [[.boolean(true), .text("text[]")]])
        do {
            _ = try await db.rows(BoundStatement(sql: "SELECT $1", bindings: [.array([.integer(1), .text("a")])]))
            XCTFail("bound a list of an integer and a text")
        } catch {
            XCTAssertEqual(error.kind, .valueDoesNotFit)
            XCTAssertTrue(error.message.contains("mixes types"), error.description)
        }
    }

    func testUnknownTable() async throws {
        let db = try await makeLibrary("sift_pg_unknown")
        defer { PostgresServer.close(db) }
        var schema = Self.schema
        schema.entities[1].table = "volumes"
        do {
            _ = try await FetchSpecification(entity: "books").fetchValues(db, schema: schema)
            XCTFail("fetched from a missing table")
        } catch {
            XCTAssertEqual(error.kind, .unknownTable)
            XCTAssertEqual(error.sqlState, "42P01")
            XCTAssertTrue(error.description.contains(#"relation "volumes" does not exist"#), error.description)
        }
    }

    func testValueThatDoesNotFit() async throws {
        let db = try await makeLibrary("sift_pg_fit")
        defer { PostgresServer.close(db) }
        // NUL: refused by the lowering in a predicate, and by the binding
        // in a statement of one's own, before the server sees it.
        let nul = FetchSpecification(entity: "books", filter: try Filter("title == %@", "a\u{0}b"))
        do {
            _ = try await nul.fetchValues(db, schema: Self.schema)
            XCTFail("lowered a text with NUL")
        } catch {
            XCTAssertEqual(error.kind, .lowering)
            XCTAssertTrue(error.message.contains("NUL"), error.description)
        }
        do {
            _ = try await db.rows(BoundStatement(sql: "SELECT $1::text", bindings: [.text("a\u{0}b")]))
            XCTFail("bound a text with NUL")
        } catch {
            XCTAssertEqual(error.kind, .valueDoesNotFit)
            XCTAssertTrue(error.message.contains("NUL"), error.description)
        }
        // A row that does not decode as the type asked for.
        struct Misread: Decodable { var title: Int }
        do {
            _ = try await FetchSpecification(entity: "books").fetch(Misread.self, db, schema: Self.schema)
            XCTFail("decoded a title as an Int")
        } catch {
            XCTAssertEqual(error.kind, .valueDoesNotFit)
            XCTAssertTrue(error.message.contains("Misread"), error.description)
        }
        // A value out of the range of its type, said by the server.
        do {
            _ = try await db.rows(BoundStatement(sql: "SELECT CAST($1 AS integer)", bindings: [.integer(1 << 40)]))
            XCTFail("cast 2^40 to integer")
        } catch {
            XCTAssertEqual(error.kind, .valueDoesNotFit)
            XCTAssertEqual(error.sqlState, "22003")
        }
        // A column of a type no attribute reads.
        _ = try await db.rows(BoundStatement(sql: #"ALTER TABLE "books" ADD COLUMN "seen" interval"#, bindings: []))
        _ = try await db.rows(BoundStatement(sql: #"UPDATE "books" SET "seen" = '1 day'"#, bindings: []))
        var schema = Self.schema
        schema.entities[1].attributes.append(Attribute("seen", .string))
        do {
            _ = try await FetchSpecification(entity: "books").fetchValues(db, schema: schema)
            XCTFail("read an interval")
        } catch {
            XCTAssertEqual(error.kind, .valueDoesNotFit)
            XCTAssertTrue(error.message.contains("seen"), error.description)
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
            throw XCTSkip("SIFT_POSTGRES is not set")
        }
        var configuration = try PostgresConnection.Configuration(connectionString: conninfo)
        change(&configuration)
        return configuration
    }

    func testAuthenticationErrorSaysWhat() async throws {
        let refusals: [(PostgresConnection.Configuration, String)] = [
            (try configuration { $0.username = "nobody_here" }, #"role "nobody_here" does not exist"#),
            (try configuration { $0.database = "no_such_db" }, #"database "no_such_db" does not exist"#),
        ]
        for (configuration, message) in refusals {
            do {
                _ = try await PostgresServer.connect(configuration)
                XCTFail("connected: \(message)")
            } catch {
                XCTAssertEqual(error.kind, .authentication)
                XCTAssertTrue(error.description.contains(message), error.description)
            }
        }
    }

    func testConnectionErrorSaysWhat() async throws {
        // Port 1 on loopback: nothing listens there.
        let configuration = try PostgresConnection.Configuration(
            connectionString: "postgresql://postgres@127.0.0.1:1/sift_test", environment: [:])
        do {
            _ = try await PostgresServer.connect(configuration)
            XCTFail("connected to port 1")
        } catch {
            XCTAssertEqual(error.kind, .connection)
            XCTAssertTrue(error.description.contains("cannot reach the server"), error.description)
        }
    }

    /// A running `PostgresClient` (a pool) runs statements as a
    /// connection does.
    func testPool() async throws {
        guard let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"], !conninfo.isEmpty else {
            _ = try await PostgresServer.connect()  // fails under SIFT_REQUIRE_POSTGRES=1
            throw XCTSkip("SIFT_POSTGRES is not set")
        }
        let client = PostgresClient(
            configuration: try .init(connectionString: conninfo), backgroundLogger: Logger(label: "tests"))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            let rows = try await client.rows(BoundStatement(sql: "SELECT $1::bigint + 1", bindings: [.integer(41)]))
            XCTAssertEqual(rows, [[.integer(42)]])
            group.cancelAll()
        }
    }

    func testErrorsOfOtherKinds() {
        XCTAssertEqual(SiftPostgresError(CancellationError()).kind, .server)
        let decoding = DecodingError.typeMismatch(Int.self, .init(codingPath: [], debugDescription: "text"))
        XCTAssertEqual(SiftPostgresError(decoding).kind, .valueDoesNotFit)
        let kept = SiftPostgresError(.unknownTable, "gone")
        XCTAssertEqual(SiftPostgresError(kept, sql: "SELECT 1"), SiftPostgresError(.unknownTable, "gone", sql: "SELECT 1"))
    }

    func testConnectionStrings() throws {
        let url = try PostgresConnection.Configuration(
            connectionString: "postgresql://ann:s%40cret@db.example:6543/shop", environment: [:])
        XCTAssertEqual(url.host, "db.example")
        XCTAssertEqual(url.port, 6543)
        XCTAssertEqual(url.username, "ann")
        XCTAssertEqual(url.password, "s@cret")
        XCTAssertEqual(url.database, "shop")
        let pairs = try PostgresConnection.Configuration(
            connectionString: "host=127.0.0.1 user=bob", environment: ["PGPORT": "5433", "PGDATABASE": "lib"])
        XCTAssertEqual(pairs.host, "127.0.0.1")
        XCTAssertEqual(pairs.port, 5433)
        XCTAssertEqual(pairs.username, "bob")
        XCTAssertEqual(pairs.database, "lib")
        XCTAssertThrowsError(try PostgresConnection.Configuration(connectionString: "host", environment: [:]))
        XCTAssertThrowsError(try PostgresConnection.Configuration(connectionString: "port=99999", environment: [:]))
        for unread in ["postgresql://h/db?sslmode=require", "host=h sslmode=require"] {
            XCTAssertThrowsError(try PostgresConnection.Configuration(connectionString: unread, environment: [:])) {
                XCTAssertTrue("\($0)".contains("sslmode in the connection string is not supported"), "\($0)")
            }
        }
    }
}
