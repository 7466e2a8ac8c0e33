// SIFT_POSTGRES: see PostgresServer.swift.
#if SIFT_POSTGRES
import PostgresNIO
import SiftPostgres
import SiftSQL

/// The sharded profile of `scripts/postgres.sh run-sharded`: a coordinator
/// whose fact tables are hash-partitioned over two shards through
/// `postgres_fdw`, the small tables local (Citus's "reference tables").
package enum ShardedPostgres {
    /// The `Library` tables that are sharded, with the column each is
    /// hash-partitioned on: the books and chapters on their primary keys,
    /// the join table on its book (a join table has no key of its own).
    /// Authors and tags stay on the coordinator.
    package static let libraryDistribution: [(table: String, key: String)] = [
        ("books", "id"), ("chapters", "id"), ("book_tags", "book_id"),
    ]

    /// The coordinator's connection with `search_path` set to a schema of
    /// its own, `name`, made anew (the shards' tables are in a schema of the
    /// same name there), or nil to skip.
    package static func connect(schema name: String) async throws -> PostgresConnection? {
        guard let connection = try await PostgresServer.connectSharded() else { return nil }
        let schema = Dialect.postgreSQL.quote(name)
        try await PostgresServer.setUp(connection, [
            "DROP SCHEMA IF EXISTS \(schema) CASCADE", "CREATE SCHEMA \(schema)", "SET search_path TO \(schema)",
        ])
        return connection
    }

    /// Distributes the tables of `distribution` (created and filled as on
    /// one server) over the shards with the coordinator's
    /// `sift_create_distributed_table` (`scripts/postgres-sharded.sql`),
    /// which moves their rows.
    package static func distribute(_ connection: PostgresConnection, _ distribution: [(table: String, key: String)]) async throws {
        try await PostgresServer.setUp(connection, distribution.map { table, key in
            BoundStatement(sql: "SELECT public.sift_create_distributed_table($1, $2)", bindings: [.text(table), .text(key)])
        })
    }

    /// The `DROP` that empties the coordinator of the tables of `tables`
    /// (and of any a failed distribution left aside).
    package static func drop(_ tables: [String]) -> String {
        let names = tables.flatMap { [$0, $0 + "_undistributed"] }
        return "DROP TABLE IF EXISTS " + names.map { Dialect.postgreSQL.quote($0) }.joined(separator: ", ")
    }
}
#endif
