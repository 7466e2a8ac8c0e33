// SIFT_POSTGRES: the suites that include this file are built with SiftPostgres
// (SiftToolTests only when it is, see Package.swift).
#if SIFT_POSTGRES
import Foundation
import PostgresNIO
import SiftPostgres
import SiftSQL

/// The throwaway server of `scripts/postgres.sh run` (`SIFT_POSTGRES`, a
/// libpq connection string), reached through SiftPostgres.
enum PostgresServer {
    struct Missing: Error, CustomStringConvertible {
        var description: String
    }

    /// A connection to the server, or nil when `SIFT_POSTGRES` is not set
    /// (the caller skips). With `SIFT_REQUIRE_POSTGRES=1` a missing
    /// variable or a failed connection throws instead.
    static func connect() async throws -> PostgresConnection? {
        let environment = ProcessInfo.processInfo.environment
        let required = environment["SIFT_REQUIRE_POSTGRES"] == "1"
        guard let conninfo = environment["SIFT_POSTGRES"], !conninfo.isEmpty else {
            if required { throw Missing(description: "SIFT_REQUIRE_POSTGRES=1 but SIFT_POSTGRES is not set") }
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
    static func connect(_ configuration: PostgresConnection.Configuration) async throws(SiftPostgresError)
        -> PostgresConnection
    {
        do {
            return try await PostgresConnection.connect(
                configuration: configuration, id: 1, logger: Logger(label: "tests"))
        } catch {
            throw SiftPostgresError(error, sql: "")
        }
    }

    /// The server's connection with its tables in a schema of their own,
    /// `name`, emptied first, so that tests running at the same time keep
    /// apart.
    static func connect(schema name: String) async throws -> PostgresConnection? {
        guard let connection = try await connect() else { return nil }
        let schema = Dialect.postgreSQL.quote(name)
        try await setUp(connection, ["DROP SCHEMA IF EXISTS \(schema) CASCADE", "CREATE SCHEMA \(schema)", "SET search_path TO \(schema)"])
        return connection
    }

    /// Runs `statements` (with their bindings) on `connection`, and closes
    /// it if one fails: a connection must be closed before it goes away.
    /// Tests close theirs with `defer { close(connection) }`.
    static func setUp(_ connection: PostgresConnection, _ statements: [BoundStatement]) async throws {
        do {
            for statement in statements { _ = try await connection.rows(statement) }
        } catch {
            try? await connection.close()
            throw error
        }
    }

    static func setUp(_ connection: PostgresConnection, _ statements: [String]) async throws {
        try await setUp(connection, statements.map { BoundStatement(sql: $0, bindings: []) })
    }

    /// Closes `connection` (if any) from a `defer`.
    static func close(_ connection: PostgresConnection?) {
        guard let connection else { return }
        Task { try await connection.close() }
    }
}
#endif
