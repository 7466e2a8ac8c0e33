import Foundation
import SiftSQL

/// Reading a plain SQLite database's schema, whatever driver runs the
/// queries (SiftSQLite through GRDB, SiftSQLKit through sqlite-nio): the
/// catalog queries, and the rules that turn their rows into
/// ``TableDescription``s and attribute types. The rules of entities and
/// relationships are ``TableInference``'s; `StoreSchema.read(from:)` in
/// SiftSQLite documents them all.
package enum SQLiteCatalog {
    /// The tables of the main database, in creation order: name, SQL.
    package static let tables = "SELECT name, sql FROM sqlite_master WHERE type = 'table'"

    /// The columns of table `?1`: name, declared type, NOT NULL, 1-based
    /// position in the primary key (0 when not part of it).
    package static let columns = "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)"

    /// The foreign keys of table `?1`: id, column, parent table, parent
    /// column (NULL for the parent's primary key).
    package static let foreignKeys = "SELECT id, \"from\", \"table\", \"to\" FROM pragma_foreign_key_list(?1)"

    /// Whether the tables (``tables``'s rows) are a Core Data store's.
    package static func isCoreDataStore(_ tables: [(name: String, sql: String)]) -> Bool {
        let names = Set(tables.map { $0.name.uppercased() })
        return names.contains("Z_PRIMARYKEY") && names.contains("Z_METADATA")
    }

    /// The tables of a plain database that can be entities: not SQLite's
    /// own, not virtual tables nor their shadow tables.
    package static func plainTables(_ tables: [(name: String, sql: String)]) -> [String] {
        let virtual = tables.filter { $0.sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") }.map { $0.name.lowercased() }
        return tables.compactMap { name, sql in
            let lower = name.lowercased()
            if lower.hasPrefix("sqlite_") || sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") { return nil }
            if virtual.contains(where: { lower.hasPrefix($0 + "_") }) { return nil }
            return name
        }
    }

    /// Table `name` from the rows of ``columns`` and ``foreignKeys``:
    /// only single-column foreign keys, in column order. Its rowid is
    /// ``rowIDCandidate(_:)`` when ``rowIDProbe(_:_:)`` prepares.
    package static func describe(_ name: String, columns: [[SQLValue]], foreignKeys: [[SQLValue]]) -> TableDescription {
        var t = TableDescription(name: name)
        for row in columns where row.count == 4 {
            guard let column = text(row[0]) else { continue }
            t.columns.append(.init(
                name: column, declaredType: text(row[1]) ?? "", notNull: (integer(row[2]) ?? 0) != 0,
                primaryKeyIndex: integer(row[3]) ?? 0))
        }
        var groups: [Int: [[SQLValue]]] = [:]
        for row in foreignKeys where row.count == 4 { groups[integer(row[0]) ?? 0, default: []].append(row) }
        for rows in groups.values where rows.count == 1 {
            guard let from = text(rows[0][1]), let parent = text(rows[0][2]) else { continue }
            t.foreignKeys.append(.init(column: from, table: parent, parentColumn: text(rows[0][3])))
        }
        let names = t.columns.map { $0.name.lowercased() }
        let position = { (name: String) in names.firstIndex(of: name.lowercased()) ?? 0 }
        t.foreignKeys.sort { position($0.column) < position($1.column) }
        return t
    }

    /// The name to try the table's rowid under: the first of `rowid`,
    /// `_rowid_` and `oid` when no column has it, else nil.
    package static func rowIDCandidate(_ t: TableDescription) -> String? {
        ["rowid", "_rowid_", "oid"].first { t.column($0) == nil }
    }

    /// A statement that prepares only when the table has a rowid under
    /// `candidate` (a `WITHOUT ROWID` table refuses it).
    package static func rowIDProbe(_ candidate: String, _ table: String) -> String {
        "SELECT \(quote(candidate)) FROM \(quote(table)) LIMIT 0"
    }

    /// The first non-NULL value of a column.
    package static func sample(_ table: String, _ column: String) -> String {
        "SELECT \(quote(column)) FROM \(quote(table)) WHERE \(quote(column)) IS NOT NULL LIMIT 1"
    }

    /// The schema of a plain database's tables, by ``TableInference``'s
    /// rules; `type` is each column's attribute type (``type(of:coreData:)``).
    package static func plainSchema(
        _ tables: [TableDescription], type: (TableDescription.Column, TableDescription) -> AttributeType
    ) -> StoreSchema {
        var descriptions = tables
        // SQLite's INTEGER PRIMARY KEY is the rowid, which is never NULL
        // whether or not the column says so.
        for d in descriptions.indices where descriptions[d].columns.filter({ $0.primaryKeyIndex > 0 }).count == 1 {
            for c in descriptions[d].columns.indices {
                let column = descriptions[d].columns[c]
                if column.primaryKeyIndex > 0, column.declaredType.uppercased() == "INTEGER" {
                    descriptions[d].columns[c].notNull = true
                }
            }
        }
        return TableInference.schema(descriptions, namesIgnoreCase: true, type: type)
    }

    /// How a column's attribute type is found: from its declared type
    /// alone, or from a stored value (``sample(_:_:)``, nil when the
    /// column holds none) where the declared type leaves it open.
    package enum TypeRule {
        case type(AttributeType)
        case bySample((SQLValue?) -> AttributeType)

        /// The type, given the column's sample.
        package func type(sample: () -> SQLValue?) -> AttributeType {
            switch self {
            case .type(let t): return t
            case .bySample(let rule): return rule(sample())
            }
        }
    }

    /// The attribute type of a column from its declared type (see
    /// `StoreSchema.read(from:)` in SiftSQLite). `coreData` reads
    /// `TIMESTAMP` as Core Data does.
    package static func type(of column: TableDescription.Column, coreData: Bool) -> TypeRule {
        let t = column.declaredType.uppercased()
        if t.contains("BOOL") { return .type(.boolean) }
        if t.contains("DATE") || t.contains("TIMESTAMP") {
            if coreData { return .type(.date(.referenceSeconds)) }
            return .bySample { sample in
                switch sample {
                case .integer(let i)?: return i.magnitude < 100_000_000_000 ? .date(.unixSeconds) : .integer
                case .real(let d)?: return d.magnitude < 1e11 ? .date(.unixSeconds) : .double
                case .text(let s)?: return isISO8601(s) ? .date(.iso8601) : .string
                case .blob?: return .blob
                case .null?, .boolean?, .array?, nil: return .date(.iso8601)
                }
            }
        }
        if t.contains("UUID") || t.contains("GUID") {
            // GRDB stores a UUID as its 16 bytes.
            return .bySample { sample in
                if case .blob(let d)? = sample { return d.count == 16 ? .uuid(.bytes) : .blob }
                return .uuid(.text)
            }
        }
        if t.contains("INT") { return .type(.integer) }
        if t.contains("CHAR") || t.contains("CLOB") || t.contains("TEXT") { return .type(.string) }
        if t.contains("BLOB") { return .type(.blob) }
        if t.isEmpty {
            return .bySample { sample in
                switch sample {
                case .integer?: return .integer
                case .real?: return .double
                case .blob?: return .blob
                case .text?, .null?, .boolean?, .array?, nil: return .string
                }
            }
        }
        if t.contains("REAL") || t.contains("FLOA") || t.contains("DOUB") { return .type(.double) }
        // NUMERIC affinity.
        return .bySample { sample in
            if case .text? = sample { return .string }
            return .double
        }
    }

    /// `2024-05-01T12:00:00.000Z`, the form `DateEncoding.iso8601` compares.
    package static func isISO8601(_ s: String) -> Bool {
        let digits = Array(s.utf8)
        guard digits.count == 24 else { return false }
        let shape = Array("dddd-dd-ddTdd:dd:dd.dddZ".utf8)
        for (c, p) in zip(digits, shape) {
            if p == UInt8(ascii: "d") {
                guard c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") else { return false }
            } else if c != p {
                return false
            }
        }
        return true
    }

    /// An identifier in double quotes.
    package static func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// A catalog cell as text; nil when NULL or not text.
    private static func text(_ v: SQLValue) -> String? {
        if case .text(let s) = v { return s }
        return nil
    }

    /// A catalog cell as an integer; nil when NULL or not a number.
    private static func integer(_ v: SQLValue) -> Int? {
        switch v {
        case .integer(let i): return Int(exactly: i)
        case .real(let d): return Int(exactly: d.rounded(.towardZero))
        default: return nil
        }
    }
}
