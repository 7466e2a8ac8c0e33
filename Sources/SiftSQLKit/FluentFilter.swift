import FluentKit
import Sift
import SiftSQL
import SQLKit
import SQLiteNIO

extension QueryBuilder {
    /// Keeps the models that `filter` matches, as memory would: the filter
    /// is lowered for the query's database (SQLite or PostgreSQL) against
    /// `schema` (`StoreSchema.read(from:schemaName:)` reads it), on the
    /// entity whose table is the model's, and added as one SQL condition
    /// with its values bound: `id IN (SELECT t0.id FROM table t0 … WHERE …)`,
    /// a subquery of its own, so that its joins and names never meet the
    /// query's.
    ///
    /// On SQLite the condition may call Sift's SQL functions: they are
    /// installed first on the database's connection (Fluent's SQLite driver
    /// keeps one connection an event loop). A query run on a connection
    /// without them fails (`no such function`); it never answers otherwise.
    ///
    /// ```swift
    /// let recent = try await Book.query(on: database).filter(sift: try Filter("year > 1980"), schema: schema).all()
    /// ```
    public func filter(sift filter: Filter, schema: StoreSchema, options: SQLLoweringOptions = .default)
        async throws(SiftSQLKitError) -> Self
    {
        guard let database = self.database as? any SQLDatabase else {
            throw SiftSQLKitError(.unsupportedDialect, "the query's database is not an SQL database (SQLKit)")
        }
        let dialect = try DatabaseDialect.of(database)
        let table = Model.schema
        guard let entity = schema.entities.first(where: { $0.table == table }) else {
            throw SiftSQLKitError(.schema, "the schema has no entity on table \(table), the model's")
        }
        let condition: LoweredCondition
        do throws(SQLLoweringError) {
            condition = try filter.sqlCondition(in: schema, entity: entity.name, dialect: dialect, options: options)
        } catch {
            throw SiftSQLKitError(.lowering, error.description)
        }
        let sql = condition.joins + " WHERE " + condition.condition
        let binds = try condition.bindings.map { value throws(SiftSQLKitError) in
            try LoweredStatement.bind(value, dialect: dialect, sql: sql)
        }
        if dialect == .sqlite {
            guard let sqlite = database as? any SQLiteDatabase else {
                throw SiftSQLKitError(.database, "the query's SQLite database is not sqlite-nio's SQLiteDatabase")
            }
            do {
                try await sqlite.withConnection { connection in
                    try await SQLiteConnectionFunctions.install(on: connection, regexLimits: options.regexLimits)
                }
            } catch {
                throw SiftSQLKitError(.database, "\(error)")
            }
        }
        let expression = SiftCondition(
            column: SQLColumn(SQLIdentifier(entity.primaryKey), table: SQLIdentifier(Model.schemaOrAlias)),
            table: entity.table, primaryKey: entity.primaryKey, condition: condition, binds: binds)
        return self.filter(.custom(expression))
    }
}

/// A lowered condition as a Fluent filter: the model's key in the keys of
/// the rows that the condition matches, each value bound where it stands
/// (SQLKit numbers the placeholders in the whole query).
struct SiftCondition: SQLExpression {
    let column: SQLColumn
    let table: String
    let primaryKey: String
    let condition: LoweredCondition
    let binds: [any Encodable & Sendable]

    func serialize(to serializer: inout SQLSerializer) {
        column.serialize(to: &serializer)
        serializer.write(" IN (SELECT t0.")
        SQLIdentifier(primaryKey).serialize(to: &serializer)
        serializer.write(" FROM ")
        SQLIdentifier(table).serialize(to: &serializer)
        serializer.write(" t0")
        write(condition.joinPieces, to: &serializer)
        serializer.write(" WHERE ")
        write(condition.conditionPieces, to: &serializer)
        serializer.write(")")
    }

    private func write(_ pieces: [SQLPiece], to serializer: inout SQLSerializer) {
        for piece in pieces {
            switch piece {
            case .sql(let text): serializer.write(text)
            case .binding(let index): serializer.write(bind: binds[index])
            }
        }
    }
}
