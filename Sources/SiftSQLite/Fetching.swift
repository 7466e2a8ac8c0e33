import Foundation
import GRDB
import Sift
import SiftSQL

extension SQLStatement {
    /// The bindings as GRDB statement arguments (lists as JSON text, for
    /// `json_each`).
    public var arguments: StatementArguments {
        StatementArguments(bindings.map { $0.databaseValue })
    }
}

extension SQLValue {
    /// The value as SQLite stores it.
    public var databaseValue: DatabaseValue {
        switch self {
        case .null: return .null
        case .integer(let i): return i.databaseValue
        case .real(let d): return d.databaseValue
        case .text(let s): return s.databaseValue
        case .blob(let d): return d.databaseValue
        case .boolean(let b): return (b ? 1 : 0).databaseValue
        case .array(let items):
            return (SQLValue.jsonArray(items, unrepresentableAsNull: true) ?? "[]").databaseValue
        }
    }
}

extension Sift.FetchRequest {
    /// Runs the request on a SQLite database (whose connection has
    /// ``GRDB/Database/registerSiftFunctions(regexLimits:)`` applied) and returns each
    /// row as a dictionary from attribute name (or fetched key path) to value.
    public func fetchValues(_ db: Database, schema: Schema) throws -> [Value] {
        let query = try sql(in: schema, dialect: .sqlite)
        let rows = try Row.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
        return rows.map { row in
            var d: [String: Value] = [:]
            for (i, column) in query.columns.enumerated() {
                d[column.name] = Value(row[i] as DatabaseValue, column.type)
            }
            return .dictionary(d)
        }
    }

    /// Runs the request and decodes each row as a GRDB record; the columns
    /// are named after the entity's attributes.
    public func fetch<Record: FetchableRecord>(_ db: Database, schema: Schema, as type: Record.Type) throws -> [Record] {
        let query = try sql(in: schema, dialect: .sqlite)
        return try Record.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
    }

    /// The primary keys of the matching rows, in order.
    public func fetchPrimaryKeys(_ db: Database, schema: Schema) throws -> [DatabaseValue] {
        var request = self
        request.properties = nil
        let query = try request.sql(in: schema, dialect: .sqlite)
        return try Row.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments).map { $0[0] }
    }

    /// How many rows the request fetches.
    public func fetchCount(_ db: Database, schema: Schema) throws -> Int {
        let statement = try countSQL(in: schema, dialect: .sqlite)
        return try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0
    }
}

extension Value {
    /// A stored value read back as the attribute's type: Booleans as
    /// `.bool`, decimals as the decimal their double stands for (its
    /// shortest form, `19.99`), UUIDs as `.uuid` (from 16 bytes or from
    /// their text). A value the type cannot hold (a BLOB of another length
    /// in a UUID column) is read as it is stored.
    public init(_ stored: DatabaseValue, _ type: AttributeType) {
        switch stored.storage {
        case .null:
            self = .null
        case .int64(let i):
            switch type {
            case .boolean: self = .bool(i != 0)
            case .double: self = .double(Double(i))
            case .decimal: self = .decimal(Decimal(i))
            case .date(let e): self = Value.date(Double(i), e)
            default: self = .int(Int(i))
            }
        case .double(let d):
            switch type {
            case .integer where d == d.rounded() && abs(d) < 9e18: self = .int(Int(d))
            case .date(let e): self = Value.date(d, e)
            case .decimal: self = Value.shortestDecimal(of: d).map(Value.decimal) ?? .double(d)
            default: self = .double(d)
            }
        case .string(let s):
            switch type {
            case .uuid: self = UUID(uuidString: s).map(Value.uuid) ?? .string(s)
            case .date(.iso8601):
                self = (try? Date(s, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))).map(Value.date)
                    ?? .string(s)
            default: self = .string(s)
            }
        case .blob(let data):
            if case .uuid = type, data.count == 16 {
                self = .uuid(UUID(uuid: data.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) }))
            } else {
                self = .data(data)
            }
        }
    }

    private static func date(_ seconds: Double, _ e: DateEncoding) -> Value {
        switch e {
        case .referenceSeconds: return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case .unixSeconds: return .date(Date(timeIntervalSince1970: seconds))
        case .iso8601: return .double(seconds)
        }
    }
}
