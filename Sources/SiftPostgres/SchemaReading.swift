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
    ///   PostgreSQL declares no key on a foreign table, nor on a table
    ///   partitioned over foreign tables (`postgres_fdw` shards), so those
    ///   are left out: give their keys in a schema of your own (`sift query
    ///   --schema`);
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
    public static func read(from runner: some SiftPostgresQueryRunner, schemaName: String? = nil)
        async throws(SiftPostgresError) -> StoreSchema
    {
        do {
            return try await PostgresCatalog.read(schemaName: schemaName) { statement in try await runner.rows(statement) }
        } catch let error as SiftPostgresError {
            throw error
        } catch let error as StoreSchemaError {
            throw SiftPostgresError(.server, error.message)
        } catch {
            throw SiftPostgresError(.server, "\(error)")
        }
    }
}
