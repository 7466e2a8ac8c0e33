import Foundation

/// A value bound to a statement parameter, in the storage type of its
/// column. Values are always bound, never written into the SQL text.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)
    /// A boolean: PostgreSQL's `boolean`; SQLite stores it as 0 or 1.
    case boolean(Bool)
    /// A list bound as one parameter: on PostgreSQL an array (`= ANY($1)`),
    /// on SQLite a JSON array read with `json_each`.
    case array([SQLValue])
}

/// SQL text with its bound values, ready for any client.
///
/// SQLite statements use `?1`, `?2`, … and PostgreSQL statements `$1`,
/// `$2`, …: the numbers index ``bindings``.
public struct SQLStatement: Sendable, Hashable, CustomStringConvertible {
    public var sql: String
    public var bindings: [SQLValue]

    public init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }

    public var description: String {
        bindings.isEmpty ? sql : sql + "\n-- bindings: " + bindings.map(\.literalDescription).joined(separator: ", ")
    }
}

extension SQLValue {
    /// A readable rendering for logs and the command line (never sent to a
    /// database).
    public var literalDescription: String {
        switch self {
        case .null: return "NULL"
        case .integer(let i): return String(i)
        case .real(let d): return String(d)
        case .text(let s): return "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let d): return "X'" + d.map { String(format: "%02X", $0) }.joined() + "'"
        case .boolean(let b): return b ? "TRUE" : "FALSE"
        case .array(let items): return "[" + items.map(\.literalDescription).joined(separator: ", ") + "]"
        }
    }
}
