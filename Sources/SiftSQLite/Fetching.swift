import Foundation
import GRDB
import SiftCatalog
import Sift
import SiftSQL

extension BoundStatement {
    /// The bindings as GRDB statement arguments (lists as JSON text, for
    /// `json_each`).
    public var arguments: StatementArguments {
        StatementArguments(bindings.map { $0.databaseValue })
    }
}

extension SQLValue {
    /// The value as SQLite stores it.
    public var databaseValue: DatabaseValue {
        switch sqliteStorage {
        case .null, .boolean, .array: return .null  // sqliteStorage has none of the last two
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let d): return d.databaseValue
        }
    }
}

extension FetchSpecification {
    /// Runs the request on a SQLite database (whose connection has
    /// ``GRDB/Database/registerSiftFunctions(regexLimits:)`` applied) and returns each
    /// row as a dictionary from attribute name (or fetched key path) to value.
    public func fetchValues(_ db: Database, schema: StoreSchema) throws -> [Value] {
        let query = try sql(in: schema, dialect: .sqlite)
        let rows = try Row.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
        return rows.map { row in
            .dictionary(query.object(query.values(row)))
        }
    }

    /// Runs the request and decodes each row as a GRDB record; the columns
    /// are named after the entity's attributes.
    public func fetch<Record: FetchableRecord>(_ db: Database, schema: StoreSchema, as type: Record.Type) throws -> [Record] {
        let query = try sql(in: schema, dialect: .sqlite)
        return try Record.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
    }

    /// The primary keys of the matching rows, in order.
    public func fetchPrimaryKeys(_ db: Database, schema: StoreSchema) throws -> [DatabaseValue] {
        var request = self
        request.properties = nil
        let query = try request.sql(in: schema, dialect: .sqlite)
        return try Row.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments).map { $0[0] }
    }

    /// The identifiers of the matching rows, in order: Core Data's object ID
    /// URIs on a Core Data store, else the primary keys as text (see
    /// `StoreSchema.objectID(of:in:)`).
    public func fetchObjectIDs(_ db: Database, schema: StoreSchema) throws -> [String] {
        let query = try objectIDSQL(in: schema, dialect: .sqlite)
        return try Row.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments).map { row in
            schema.objectID(of: query.values(row), in: query)
        }
    }

    /// How many rows the request fetches.
    public func fetchCount(_ db: Database, schema: StoreSchema) throws -> Int {
        let statement = try countSQL(in: schema, dialect: .sqlite)
        return try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0
    }
}

extension SQLQuery {
    /// A fetched row's values, each read back as its column's type (as
    /// `Value(_:_:)` reads a stored value), and a NULL as the value it
    /// stands for where its column says (`SQLQuery.ResultColumn.whenNull`).
    public func values(_ row: Row) -> [Value] {
        values(columns.indices.map { SQLValue(row[$0] as DatabaseValue) })
    }
}

extension Value {
    /// A stored value read back as the attribute's type: Booleans as
    /// `.bool`, decimals as the decimal their double stands for (its
    /// shortest form, `19.99`), UUIDs as `.uuid` (from 16 bytes or from
    /// their text). A value the type cannot hold (a BLOB of another length
    /// in a UUID column) is read as it is stored.
    public init(_ stored: DatabaseValue, _ type: AttributeType) {
        self.init(stored: SQLValue(stored), type)
    }
}

extension SQLValue {
    /// A SQLite value as it is stored.
    init(_ stored: DatabaseValue) {
        switch stored.storage {
        case .null: self = .null
        case .int64(let i): self = .integer(i)
        case .double(let d): self = .real(d)
        case .string(let s): self = .text(s)
        case .blob(let data): self = .blob(data)
        }
    }
}
