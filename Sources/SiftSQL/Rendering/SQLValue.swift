import Foundation
import Sift

/// A value bound to a statement parameter, in the storage type of its
/// column. Values are always bound, never written into the SQL text.
public enum SQLValue: Sendable, Hashable {
    /// SQL `NULL`.
    case null
    /// An integer (`INTEGER`, `bigint`).
    case integer(Int64)
    /// A double (`REAL`, `double precision`).
    case real(Double)
    /// Text.
    case text(String)
    /// Bytes (`BLOB`, `bytea`).
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
public struct BoundStatement: Sendable, Hashable, CustomStringConvertible {
    /// The SQL text, with numbered placeholders.
    public var sql: String
    /// The values of the placeholders, in order: `bindings[0]` is `?1` or `$1`.
    public var bindings: [SQLValue]

    /// A statement of `sql` with `bindings`.
    public init(sql: String, bindings: [SQLValue]) {
        self.sql = sql
        self.bindings = bindings
    }

    /// The SQL, and the bound values on a comment line after it.
    public var description: String {
        bindings.isEmpty ? sql : sql + "\n-- bindings: " + bindings.map(\.literalDescription).joined(separator: ", ")
    }
}

extension SQLValue {
    /// Whether this is text (or a list holding text) with a NUL character.
    var containsNUL: Bool {
        switch self {
        case .text(let s): return s.utf8.contains(0)
        case .array(let items): return items.contains { $0.containsNUL }
        default: return false
        }
    }

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

extension SQLValue {
    /// The values as a JSON array, as SQLite's `json_each` reads a list bound
    /// as one parameter (booleans as 0 and 1). A value without a JSON form (a
    /// blob, a nested list, an infinite or NaN number) makes it nil, or is
    /// written as `null` when `unrepresentableAsNull`.
    public static func jsonArray(_ values: [SQLValue], unrepresentableAsNull: Bool = false) -> String? {
        var items: [JSONValue] = []
        items.reserveCapacity(values.count)
        for v in values {
            switch v {
            case .null: items.append(.null)
            case .integer(let i): items.append(.int(Int(i)))
            case .real(let d) where d.isFinite: items.append(.double(d))
            case .boolean(let b): items.append(.int(b ? 1 : 0))
            case .text(let s): items.append(.string(s))
            default:
                guard unrepresentableAsNull else { return nil }
                items.append(.null)
            }
        }
        return JSONValue.array(items).jsonText
    }
}

extension SQLValue {
    /// The value as SQLite stores it when bound, whatever the driver: a
    /// Boolean as 0 or 1, a list as its JSON text (for `json_each`; a
    /// member without a JSON form as `null`), any other value as itself.
    package var sqliteStorage: SQLValue {
        switch self {
        case .boolean(let b): return .integer(b ? 1 : 0)
        case .array(let items): return .text(SQLValue.jsonArray(items, unrepresentableAsNull: true) ?? "[]")
        default: return self
        }
    }
}
