// SIFT_POSTGRES: SiftTestSupport is built with SiftPostgres only when the
// package is (not for make tsan, see Package.swift).
#if SIFT_POSTGRES
import Foundation
import PostgresNIO
import SiftPostgres
import SiftSQL

/// The throwaway server of `scripts/postgres.sh run` (`SIFT_POSTGRES`, a
/// libpq connection string), reached through SiftPostgres.
package enum PostgresServer {
    package struct Missing: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) {
            self.description = description
        }
    }

    /// A connection to the server, or nil when `SIFT_POSTGRES` is not set
    /// (the caller skips). With `SIFT_REQUIRE_POSTGRES=1` a missing
    /// variable or a failed connection throws instead.
    package static func connect() async throws -> PostgresConnection? {
        try await connect(variable: "SIFT_POSTGRES", requiredBy: "SIFT_REQUIRE_POSTGRES")
    }

    /// A connection to the sharded profile's coordinator
    /// (`scripts/postgres.sh run-sharded`: `SIFT_POSTGRES_SHARDED`), or nil
    /// when it is not set; with `SIFT_REQUIRE_SHARDED=1` a missing variable
    /// or a failed connection throws instead.
    package static func connectSharded() async throws -> PostgresConnection? {
        try await connect(variable: "SIFT_POSTGRES_SHARDED", requiredBy: "SIFT_REQUIRE_SHARDED")
    }

    /// A connection to the server whose connection string is the
    /// environment's `variable`, or nil when it is not set; required when
    /// the environment's `requiredBy` is `1`.
    static func connect(variable: String, requiredBy: String) async throws -> PostgresConnection? {
        let environment = ProcessInfo.processInfo.environment
        let required = environment[requiredBy] == "1"
        guard let conninfo = environment[variable], !conninfo.isEmpty else {
            if required { throw Missing(description: "\(requiredBy)=1 but \(variable) is not set") }
            return nil
        }
        do {
            return try await connect(PostgresConnection.Configuration(connectionString: conninfo))
        } catch {
            if required { throw error }
            FileHandle.standardError.write(Data("skipping PostgreSQL: \(error)\n".utf8))
            return nil
        }
    }

    /// A connection with `configuration`, its errors as SiftPostgres says them.
    package static func connect(_ configuration: PostgresConnection.Configuration) async throws(SiftPostgresError)
        -> PostgresConnection
    {
        let connection: PostgresConnection
        do {
            connection = try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: Logger(label: "tests"))
        } catch {
            throw SiftPostgresError(error, sql: "")
        }
        do {
            try await connection.checkServerVersion()
        } catch {
            try? await connection.close()
            throw error
        }
        return connection
    }

    /// The server's connection with its tables in a schema of their own,
    /// `name`, emptied first, so that tests running at the same time keep
    /// apart. `public` (for tests that hold ``PublicSchemaTrait``) is
    /// emptied of its tables only: it also holds the `citext` extension
    /// that other tests, running meanwhile, create there and use, and
    /// dropping the schema would drop their `citext` columns with it.
    package static func connect(schema name: String) async throws -> PostgresConnection? {
        guard let connection = try await connect() else { return nil }
        let schema = Dialect.postgreSQL.quote(name)
        if name == "public" {
            try await setUp(connection, [
                """
                DO $$DECLARE t record; BEGIN FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = 'public' \
                LOOP EXECUTE format('DROP TABLE IF EXISTS public.%I CASCADE', t.tablename); END LOOP; END$$
                """,
                "SET search_path TO public",
            ])
        } else {
            try await setUp(connection, ["DROP SCHEMA IF EXISTS \(schema) CASCADE", "CREATE SCHEMA \(schema)", "SET search_path TO \(schema)"])
        }
        return connection
    }

    /// The server's connection with the tables of `tables` in a schema of
    /// their own, `name` (see ``connect(schema:)``), holding `rows`.
    package static func connect(schema name: String, tables: StoreSchema, rows: [Library.Row]) async throws
        -> PostgresConnection?
    {
        guard let connection = try await connect(schema: name) else { return nil }
        try await setUp(connection, tables.createStatements(dialect: .postgreSQL))
        try await setUp(connection, Library.inserts(rows, .postgreSQL))
        return connection
    }

    /// Runs `statements` (with their bindings) on `connection`, and closes
    /// it if one fails: a connection must be closed before it goes away.
    /// Tests close theirs with `defer { close(connection) }`.
    package static func setUp(_ connection: PostgresConnection, _ statements: [BoundStatement]) async throws {
        do {
            for statement in statements { _ = try await connection.rows(statement) }
        } catch {
            try? await connection.close()
            throw error
        }
    }

    package static func setUp(_ connection: PostgresConnection, _ statements: [String]) async throws {
        try await setUp(connection, statements.map { BoundStatement(sql: $0, bindings: []) })
    }

    /// Closes `connection` (if any) from a `defer`.
    package static func close(_ connection: PostgresConnection?) {
        guard let connection else { return }
        Task { try await connection.close() }
    }
}
#endif
