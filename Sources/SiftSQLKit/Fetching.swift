import Sift
import SiftCatalog
import SiftSQL
import SQLKit

extension FetchSpecification {
    /// Runs the request on an SQLKit database and returns each row as a
    /// dictionary from attribute name (or fetched key path) to value, read
    /// back by the attribute's type as SiftSQLite and SiftPostgres read it.
    ///
    /// The dialect is the database's (`database.dialect.name`): SQLite or
    /// PostgreSQL; any other is refused with ``SiftSQLKitError/Kind/unsupportedDialect``.
    /// A SQLite database must also be sqlite-nio's `SQLiteDatabase`, as
    /// Fluent's is, so that Sift's SQL functions can be installed on the
    /// connection; sqlite-nio has no custom collations, so a sort by a
    /// string orders by `sift_sort_key` there, and a localized one is
    /// refused (``SiftSQLKitError/Kind/lowering``).
    ///
    /// ```swift
    /// let schema = try await StoreSchema.read(from: database)
    /// let request = try FetchSpecification(entity: "books", query: "filter=year > 1980&sort=year DESC&limit=5")
    /// let rows = try await request.fetchValues(database, schema: schema)
    /// ```
    public func fetchValues(_ database: any SQLDatabase, schema: StoreSchema, options: SQLLoweringOptions = .default)
        async throws(SiftSQLKitError) -> [Value]
    {
        let request = self
        return try await Connection.run(database, regexLimits: options.regexLimits) { runner throws(SiftSQLKitError) in
            let query = try request.lowered(schema, runner.dialect, options)
            return try await runner.rows(query.statement).map { cells in
                .dictionary(query.object(query.values(cells)))
            }
        }
    }

    /// Runs the request and decodes each row as `type`, whose coding keys
    /// are the attribute names (and the primary key's column), as
    /// `Value.decoded(as:)` decodes (see ``fetchValues(_:schema:options:)``).
    public func fetch<Row: Decodable>(
        _ database: any SQLDatabase, schema: StoreSchema, as type: Row.Type, options: SQLLoweringOptions = .default
    ) async throws(SiftSQLKitError) -> [Row] {
        var rows: [Row] = []
        for value in try await fetchValues(database, schema: schema, options: options) {
            do {
                rows.append(try value.decoded(as: Row.self))
            } catch {
                throw SiftSQLKitError(.valueDoesNotFit, "a row does not decode as \(Row.self): \(error)")
            }
        }
        return rows
    }

    /// How many rows the request fetches (its offset and limit apply).
    public func fetchCount(_ database: any SQLDatabase, schema: StoreSchema, options: SQLLoweringOptions = .default)
        async throws(SiftSQLKitError) -> Int
    {
        let request = self
        return try await Connection.run(database, regexLimits: options.regexLimits) { runner throws(SiftSQLKitError) in
            let statement: BoundStatement
            do throws(SQLLoweringError) {
                statement = try request.countSQL(in: schema, dialect: runner.dialect, options: Connection.options(options, runner.dialect))
            } catch {
                throw SiftSQLKitError(.lowering, error.description)
            }
            guard case .integer(let count)? = try await runner.rows(statement).first?.first else {
                throw SiftSQLKitError(.database, "the count statement returned no count", sql: statement.sql)
            }
            return Int(count)
        }
    }

    /// The request lowered for `dialect` on a SiftSQLKit connection.
    func lowered(_ schema: StoreSchema, _ dialect: Dialect, _ options: SQLLoweringOptions) throws(SiftSQLKitError) -> SQLQuery {
        do throws(SQLLoweringError) {
            return try sql(in: schema, dialect: dialect, options: Connection.options(options, dialect))
        } catch {
            throw SiftSQLKitError(.lowering, error.description)
        }
    }
}
