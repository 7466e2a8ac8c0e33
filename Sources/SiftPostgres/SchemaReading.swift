import PostgresNIO
import SiftCatalog
import SiftSQL

extension StoreSchema {
    /// The schema of the tables of a PostgreSQL schema (the connection's
    /// current one, usually `public`, when `schemaName` is nil), read from
    /// the catalog with the rules SiftSQLite's `StoreSchema.read(from:)` uses
    /// for a plain SQLite database:
    ///
    /// - every ordinary or partitioned table with a single-column primary
    ///   key is an entity named like the table; PostgreSQL has no rowid, so
    ///   a table without one is left out, unless it is a join table;
    /// - a partitioned table is one entity, with the primary key and foreign
    ///   keys declared on it; its partitions are not entities of their own.
    ///   PostgreSQL declares no key on a `postgres_fdw` foreign table, nor
    ///   on a table partitioned over such foreign tables (shards): with
    ///   `readingForeignServers` (the default), their keys are read where
    ///   their rows are, on the remote tables, through a connection to each
    ///   foreign server made as `postgres_fdw` makes it (the server's
    ///   `host`, `port` and `dbname`, the user mapping's `user` and
    ///   `password`, with TLS as its `sslmode` asks: `prefer` unless it
    ///   says otherwise, `verify-ca` and `verify-full` against the system's
    ///   trusted roots), one connection a server, each answer within
    ///   `foreignServerTimeout` (10 seconds, the connection's too). A
    ///   server on the coordinator's own machine (a loopback address, a
    ///   socket) is reached only when the coordinator was reached there
    ///   too. A sharded table's key is the remote
    ///   tables' primary key when the table is partitioned on it, so that
    ///   each key is on one shard. A table whose key cannot be read so is
    ///   left out, and `note` is told why: give its key in a schema of your
    ///   own (`sift query --schema`). A foreign key that every remote table
    ///   declares to its server's copy of a table that this schema holds
    ///   as an ordinary table (Citus's reference tables) is read as the
    ///   table's own;
    /// - attributes: every column under its own name, optional unless
    ///   `NOT NULL`; `smallint`, `integer`, `bigint` are `.integer`; `real`,
    ///   `double precision`, `numeric` `.double`; `boolean` `.boolean`;
    ///   `bytea` `.blob`; the character types and any other type `.string`;
    /// - a single-column foreign key to another table's key is a to-one
    ///   named after the column without `_id`, `Id` or `ID` (`author_id` →
    ///   `author`), with the inverse to-many on the parent named after the
    ///   child table (`books`);
    /// - a table of two such keys and nothing else is a many-to-many on
    ///   both sides, each named after the other table.
    ///
    /// ```swift
    /// let schema = try await StoreSchema.read(from: client)
    /// print(String(decoding: try schema.jsonData(), as: UTF8.self))
    /// ```
    public static func read(
        from runner: some SiftPostgresQueryRunner, schemaName: String? = nil, readingForeignServers: Bool = true,
        foreignServerTimeout: Duration = .seconds(10), note: (@Sendable (String) -> Void)? = nil
    ) async throws(SiftPostgresError) -> StoreSchema {
        let sessions = ForeignServerSessions(timeout: foreignServerTimeout)
        let read: Result<StoreSchema, any Error>
        do {
            read = .success(try await PostgresCatalog.read(
                schemaName: schemaName, rows: { statement in try await runner.rows(statement) },
                remote: readingForeignServers ? { server, statement in try await sessions.rows(statement, on: server) } : nil,
                reasons: { table, reason in note?("\(table) is left out: \(reason)") }))
        } catch {
            read = .failure(error)
        }
        await sessions.close()
        switch read {
        case .success(let schema): return schema
        case .failure(let error as SiftPostgresError): throw error
        case .failure(let error as StoreSchemaError): throw SiftPostgresError(.server, error.message)
        case .failure(let error): throw SiftPostgresError(.server, "\(error)")
        }
    }
}
