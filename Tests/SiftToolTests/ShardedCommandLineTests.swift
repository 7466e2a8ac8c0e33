#if SIFT_POSTGRES
import Foundation
import PostgresNIO
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// `sift schema` and `sift query` on the coordinator of the sharded profile
/// (`scripts/postgres.sh run-sharded`), whose `public` schema holds
/// partitioned tables and a table sharded over `postgres_fdw`: a partitioned
/// table is read as the table it stands for, with its keys (a sharded
/// table's read on its shards); its partitions are not entities. Skipped without `SIFT_POSTGRES_SHARDED`, unless
/// `SIFT_REQUIRE_SHARDED=1`.
@Suite(.serialized, .publicSchema)
struct ShardedCommandLineTests {
    /// Publishers hash-partitioned over two local partitions, writers (an
    /// ordinary table with a foreign key to them), editions range-partitioned
    /// with a foreign key to the writers, and reviews sharded (hash over
    /// foreign partitions, on which PostgreSQL declares no key: it is read
    /// on the shards).
    static let tables = ["reviews", "reviews_undistributed", "editions", "writers", "publishers"]

    static func library() async throws -> (url: String, connection: PostgresConnection)? {
        guard let db = try await PostgresServer.connectSharded() else { return nil }
        try await PostgresServer.setUp(db, [
            "DROP TABLE IF EXISTS " + tables.joined(separator: ", ") + " CASCADE",
            "CREATE TABLE publishers (id bigint PRIMARY KEY, name text NOT NULL) PARTITION BY HASH (id)",
            "CREATE TABLE publishers_p0 PARTITION OF publishers FOR VALUES WITH (MODULUS 2, REMAINDER 0)",
            "CREATE TABLE publishers_p1 PARTITION OF publishers FOR VALUES WITH (MODULUS 2, REMAINDER 1)",
            "CREATE TABLE writers (id bigint PRIMARY KEY, name text NOT NULL, publisher_id bigint REFERENCES publishers)",
            "CREATE TABLE editions (id bigint PRIMARY KEY, year integer, writer_id bigint REFERENCES writers) "
                + "PARTITION BY RANGE (id)",
            "CREATE TABLE editions_old PARTITION OF editions FOR VALUES FROM (MINVALUE) TO (100)",
            "CREATE TABLE editions_new PARTITION OF editions FOR VALUES FROM (100) TO (MAXVALUE)",
            "CREATE TABLE reviews (id bigint PRIMARY KEY, stars integer, writer_id bigint)",
            "INSERT INTO publishers VALUES (1, 'Ace'), (2, 'Gollancz'), (3, 'Tor')",
            "INSERT INTO writers VALUES (1, 'Le Guin', 1), (2, 'Lem', 2), (3, 'Banks', 2), (4, 'Jemisin', NULL)",
            "INSERT INTO editions VALUES (1, 1969, 1), (2, 1974, 1), (150, 2001, 2), (151, 1987, 3), (152, NULL, NULL)",
            "INSERT INTO reviews SELECT g, g % 5 + 1, 1 + g % 4 FROM generate_series(1, 40) g",
            "SELECT sift_create_distributed_table('reviews', 'id')",
        ])
        let conninfo = try #require(ProcessInfo.processInfo.environment["SIFT_POSTGRES_SHARDED"])
        let configuration = try PostgresConnection.Configuration(connectionString: conninfo)
        let url = "postgresql://postgres@\(configuration.host ?? "127.0.0.1"):\(configuration.port ?? 5432)/\(configuration.database ?? "sift_test")"
        return (url, db)
    }

    let command = CommandLineTests()

    @Test func schemaAndQuery() async throws {
        guard let (url, connection) = try await Self.library() else {
            try Test.cancel("SIFT_POSTGRES_SHARDED is not set (run the tests with scripts/postgres.sh run-sharded …)")
        }
        defer { PostgresServer.close(connection) }

        let run = try command.sift(["schema", url], timeout: 60)
        #expect(run.status == 0, "\(run.stderr)")
        let schema = try StoreSchema(json: Data(run.stdout.utf8))
        let names = Set(schema.entities.map(\.name))
        #expect(names.isSuperset(of: ["publishers", "writers", "editions", "reviews"]), "\(names)")
        // No partitions, local or on the shards.
        #expect(names.isDisjoint(with: [
            "publishers_p0", "publishers_p1", "editions_old", "editions_new", "reviews_shard_0", "reviews_shard_1",
        ]), "\(names)")
        // The sharded table's key is its shards' primary key, on which it
        // is partitioned.
        #expect(try #require(schema.entity(named: "reviews")).primaryKey == "id")
        let editions = try #require(schema.entity(named: "editions"))
        #expect(editions.primaryKey == "id")
        #expect(editions.relationships.map(\.name) == ["writer"])
        #expect(try #require(schema.entity(named: "writers")).relationships.map(\.name).sorted() == ["editions", "publisher"])
        #expect(try #require(schema.entity(named: "publishers")).relationships.map(\.name) == ["writers"])

        // Through the partitioned tables' keys, both ways.
        let byPublisher = try command.sift(
            ["query", url, "editions", "writer.publisher.name == 'Gollancz'", "--sort", "id", "--ids"], timeout: 60)
        #expect(byPublisher.status == 0 && byPublisher.stdout == "150\n151\n", "\(byPublisher)")
        let publishers = try command.sift(
            ["query", url, "publishers", "ANY writers.name == 'Lem'", "--sort", "name", "--ids"], timeout: 60)
        #expect(publishers.status == 0 && publishers.stdout == "2\n", "\(publishers)")

        // The sharded table as read, and with its key given in a schema of
        // one's own.
        let read = try command.sift(["query", url, "reviews", "stars == 5 AND writer_id == 1", "--sort", "stars", "--ids"], timeout: 60)
        #expect(read.status == 0 && read.stdout == "4\n24\n", "\(read)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sharded-\(UUID().uuidString).json")
        try Data(#"""
            {"entities": [{"name": "Review", "table": "reviews",
              "attributes": [{"name": "stars", "type": "integer"}, {"name": "writer_id", "type": "integer"}]}]}
            """#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let reviews = try command.sift(
            ["query", url, "Review", "stars == 5 AND writer_id == 1", "--schema", file.path, "--sort", "stars", "--ids"], timeout: 60)
        #expect(reviews.status == 0 && reviews.stdout == "4\n24\n", "\(reviews)")
    }
}
#endif
