import SiftCatalog
import SiftSQL
import SQLKit

extension StoreSchema {
    /// The schema of an SQLKit database, read through it with the rules
    /// Sift's own readers use: on PostgreSQL, SiftPostgres's catalog query
    /// over the tables of `schemaName` (the connection's current schema,
    /// usually `public`, when nil); on SQLite, SiftSQLite's rules for a
    /// plain database (`StoreSchema.read(from:)` there says them). A Core
    /// Data store is refused: read its schema with SiftSQLite and pass it
    /// to the fetch. The keys of `postgres_fdw` foreign and sharded tables
    /// are not read on their servers here (SiftPostgres's reader does
    /// that, with a connection of its own to each): those tables are left
    /// out.
    ///
    /// ```swift
    /// let schema = try await StoreSchema.read(from: database)
    /// ```
    public static func read(from database: any SQLDatabase, schemaName: String? = nil) async throws(SiftSQLKitError) -> StoreSchema {
        try await Connection.run(database, regexLimits: .default) { runner throws(SiftSQLKitError) in
            let schema: StoreSchema
            do {
                if runner.dialect == .postgreSQL {
                    schema = try await PostgresCatalog.read(schemaName: schemaName) { statement in try await runner.rows(statement) }
                } else {
                    schema = try await sqlite(runner)
                }
                try schema.validate()
            } catch let error as StoreSchemaError {
                throw SiftSQLKitError(.schema, error.message)
            } catch let error as SiftSQLKitError {
                throw error
            } catch {
                throw SiftSQLKitError(.schema, "\(error)")
            }
            return schema
        }
    }

    /// A plain SQLite database's catalog (`SQLiteCatalog`) read through
    /// `runner`: each table's columns and foreign keys, whether it has a
    /// rowid, and a stored value of the columns whose declared type leaves
    /// their type open.
    private static func sqlite(_ runner: StatementRunner) async throws -> StoreSchema {
        let tables: [(name: String, sql: String)] = try await runner.rows(BoundStatement(sql: SQLiteCatalog.tables, bindings: []))
            .compactMap { row in
                guard row.count == 2, case .text(let name) = row[0] else { return nil }
                if case .text(let sql) = row[1] { return (name, sql) }
                return (name, "")
            }
        guard !SQLiteCatalog.isCoreDataStore(tables) else {
            throw SiftSQLKitError(
                .schema,
                "this SQLite database is a Core Data store, whose schema SiftSQLKit does not read: read it with "
                    + "SiftSQLite's StoreSchema.read(sqliteFile:) and pass it to the fetch")
        }
        var descriptions: [TableDescription] = []
        var types: [String: [String: AttributeType]] = [:]
        for table in SQLiteCatalog.plainTables(tables) {
            let name: [SQLValue] = [.text(table)]
            var description = SQLiteCatalog.describe(
                table, columns: try await runner.rows(BoundStatement(sql: SQLiteCatalog.columns, bindings: name)),
                foreignKeys: try await runner.rows(BoundStatement(sql: SQLiteCatalog.foreignKeys, bindings: name)))
            if let candidate = SQLiteCatalog.rowIDCandidate(description),
                (try? await runner.rows(BoundStatement(sql: SQLiteCatalog.rowIDProbe(candidate, table), bindings: []))) != nil
            {
                description.rowID = candidate
            }
            for column in description.columns {
                let rule = SQLiteCatalog.type(of: column, coreData: false)
                var sample: SQLValue?
                if case .bySample = rule {
                    sample = try await runner.rows(BoundStatement(sql: SQLiteCatalog.sample(table, column.name), bindings: [])).first?.first
                }
                types[table, default: [:]][column.name] = rule.type { sample }
            }
            descriptions.append(description)
        }
        return SQLiteCatalog.plainSchema(descriptions) { column, table in types[table.name]?[column.name] ?? .string }
    }
}
