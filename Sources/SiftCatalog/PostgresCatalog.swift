import Foundation
import SiftSQL

/// Reading a schema from PostgreSQL's catalog, whatever client runs the
/// queries: run ``columns`` and ``foreignKeys`` (each binds the schema name
/// as `$1`) and pass their rows to ``schema(columns:foreignKeys:)``.
package enum PostgresCatalog {
    /// The connection's current schema (usually `public`), as text.
    package static let currentSchema = "SELECT current_schema()::text"

    /// One row a column of every ordinary, partitioned or foreign table of
    /// schema `$1` that is not a partition, in the order the tables were created
    /// (their oids) and the columns declared: table, column, type name
    /// (`format_type`; of a domain, the type it is over, through domains
    /// over domains, whose values and operators it has), NOT NULL, the
    /// 1-based position in the primary key (0 when not part of it), and
    /// the column's collation when it is
    /// not the database's default (else an empty string). A partitioned
    /// table stands for its partitions, which are left out: their rows are
    /// its rows. A foreign table (or one partitioned over foreign tables)
    /// has no key here: ``ForeignTableKeys`` reads it where its rows are.
    package static let columns = """
        SELECT c.relname::text, a.attname::text, \
        (WITH RECURSIVE chain(oid, typmod, depth) AS (SELECT a.atttypid, a.atttypmod, 0 \
        UNION ALL SELECT ty.typbasetype, ty.typtypmod, chain.depth + 1 FROM pg_catalog.pg_type ty \
        JOIN chain ON ty.oid = chain.oid WHERE ty.typtype = 'd' AND chain.depth < 32) \
        SELECT format_type(chain.oid, chain.typmod) FROM chain ORDER BY chain.depth DESC LIMIT 1) AS type, \
        a.attnotnull, \
        COALESCE(array_position(pk.conkey, a.attnum), 0)::bigint, \
        COALESCE((SELECT co.collname::text FROM pg_catalog.pg_collation co \
        WHERE co.oid = a.attcollation AND co.collname <> 'default'), '') AS collation \
        FROM pg_catalog.pg_class c \
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
        JOIN pg_catalog.pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped \
        LEFT JOIN pg_catalog.pg_constraint pk ON pk.conrelid = c.oid AND pk.contype = 'p' \
        WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'f') AND NOT c.relispartition \
        ORDER BY c.oid, a.attnum
        """

    /// One row a single-column foreign key of the tables of schema `$1`:
    /// table, column, parent table, parent column. A foreign key of a
    /// partitioned table, or to one, is read once, as declared: the copies
    /// PostgreSQL makes for each partition (`conparentid` set) are left out.
    package static let foreignKeys = """
        SELECT c.relname::text, a.attname::text, p.relname::text, pa.attname::text \
        FROM pg_catalog.pg_constraint f \
        JOIN pg_catalog.pg_class c ON c.oid = f.conrelid \
        JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace \
        JOIN pg_catalog.pg_attribute a ON a.attrelid = f.conrelid AND a.attnum = f.conkey[1] \
        JOIN pg_catalog.pg_class p ON p.oid = f.confrelid \
        JOIN pg_catalog.pg_attribute pa ON pa.attrelid = f.confrelid AND pa.attnum = f.confkey[1] \
        WHERE f.contype = 'f' AND n.nspname = $1 AND cardinality(f.conkey) = 1 AND f.conparentid = 0 \
        ORDER BY c.oid, a.attnum, f.conname
        """

    /// The schema of the tables of `schemaName` (the connection's current
    /// one when nil), whatever client runs the catalog queries: `rows`
    /// runs a statement and returns its cells. A missing current schema or
    /// rows of another shape are a ``StoreSchemaError``; `rows`'s own
    /// errors pass through. With `remote`, which runs a statement on a
    /// foreign server, the keys of foreign and sharded tables are read on
    /// their servers (``ForeignTableKeys``); `reasons` gets why a table
    /// standing for foreign tables has none.
    package static func read(
        schemaName: String?, rows: (BoundStatement) async throws -> [[SQLValue]],
        remote: ((ForeignTableKeys.Server, BoundStatement) async throws -> [[SQLValue]])? = nil,
        reasons: ((String, String) -> Void)? = nil
    ) async throws -> StoreSchema {
        let name: String
        if let schemaName {
            name = schemaName
        } else {
            guard case .text(let current)? = try await rows(BoundStatement(sql: currentSchema, bindings: [])).first?.first
            else { throw StoreSchemaError("the connection has no current schema (search_path is empty)") }
            name = current
        }
        let columns = try await rows(BoundStatement(sql: Self.columns, bindings: [.text(name)]))
        var foreignKeys = try await rows(BoundStatement(sql: Self.foreignKeys, bindings: [.text(name)]))
        var keys: [String: String] = [:]
        if let remote {
            let parts = try ForeignTableKeys.parts(try await rows(BoundStatement(sql: ForeignTableKeys.query, bindings: [.text(name)])))
            // The coordinator's ordinary tables, to which a shard's copy of
            // a reference table stands.
            let standIns = Set(parts.map(\.table))
            var local = Set<String>()
            var tableColumns = Set<[String]>()
            for row in columns {
                guard row.count > 1, case .text(let t) = row[0], case .text(let c) = row[1] else { continue }
                tableColumns.insert([t, c])
                if !standIns.contains(t) { local.insert(t) }
            }
            let found = await ForeignTableKeys.resolve(parts, localTables: local) { part in
                ForeignTableKeys.Remote(rows: try await remote(part.server, BoundStatement(
                    sql: ForeignTableKeys.remoteQuery, bindings: [.text(part.remoteSchema), .text(part.remoteTable)])))
            }
            keys = found.keys
            // A foreign table may leave out the remote's key column.
            foreignKeys += found.foreignKeys.filter { tableColumns.contains([$0.table, $0.column]) }.map { fk -> [SQLValue] in
                [.text(fk.table), .text(fk.column), .text(fk.parent), .text(fk.parentColumn)]
            }
            for (table, reason) in found.reasons.sorted(by: { $0.key < $1.key }) { reasons?(table, reason) }
        }
        var read: StoreSchema
        do {
            read = try schema(columns: columns, foreignKeys: foreignKeys, keys: keys)
        } catch {
            throw StoreSchemaError("schema \(name): \(error.message)")
        }
        read.caseFoldingRefusal = try await caseFoldingRefusal(rows: rows)
        return read
    }

    /// The database's default `LC_CTYPE`, which `lower` and `upper` fold by.
    package static let characterType =
        "SELECT datctype::text FROM pg_catalog.pg_database WHERE datname = current_database()"

    /// Why `[c]` has no exact form on this server (its case tables fold
    /// some scalar otherwise than the evaluator), or nil: one statement
    /// folds every scalar whose case Swift maps, with `[c]`'s own SQL.
    package static func caseFoldingRefusal(rows: (BoundStatement) async throws -> [[SQLValue]]) async throws -> String? {
        // The check's `chr` of a scalar beyond the encoding would fail the
        // schema's reading; `[c]` (with `normalize`) needs UTF8 anyway.
        let encoding = try await rows(BoundStatement(sql: "SELECT current_setting('server_encoding')", bindings: []))
        if case .text(let e)? = encoding.first?.first, e != "UTF8" {
            return "this database's encoding is \(e), and the fold of Unicode text needs UTF8"
        }
        let differing = try await rows(PostgreSQLCaseFold.check()).compactMap { row -> Int64? in
            if case .integer(let n)? = row.first { return n }
            return nil
        }
        guard !differing.isEmpty else { return nil }
        let ctype = try await rows(BoundStatement(sql: characterType, bindings: [])).first?.first
        let name: String
        if case .text(let t)? = ctype { name = t } else { name = "unknown" }
        return PostgreSQLCaseFold.refusal(differing: differing, collation: name)
    }

    /// The schema of the rows of ``columns`` and ``foreignKeys``, by the
    /// rules of ``TableInference``. PostgreSQL has no rowid: a table without
    /// a single-column primary key is not an entity (unless it is a join
    /// table). Rows of another shape are a ``StoreSchemaError``.
    /// `keys` gives the key column of tables whose key is not declared on
    /// them (``ForeignTableKeys``).
    package static func schema(columns: [[SQLValue]], foreignKeys: [[SQLValue]], keys: [String: String] = [:])
        throws(StoreSchemaError) -> StoreSchema
    {
        var tables: [TableDescription] = []
        var index: [String: Int] = [:]
        var textForms: [String: [String: PostgreSQLTextForm]] = [:]
        for row in columns {
            guard row.count == 6, case .text(let table) = row[0], case .text(let name) = row[1],
                case .text(let type) = row[2], case .boolean(let notNull) = row[3], case .integer(let position) = row[4],
                case .text(let collation) = row[5]
            else {
                throw StoreSchemaError("the catalog's column rows are not (table, column, type, not null, key position, collation)")
            }
            let i: Int
            if let known = index[table] {
                i = known
            } else {
                i = tables.count
                index[table] = i
                tables.append(TableDescription(name: table))
            }
            let keyPosition = keys[table].map { $0 == name ? 1 : 0 } ?? Int(position)
            tables[i].columns.append(.init(name: name, declaredType: type, notNull: notNull, primaryKeyIndex: keyPosition))
            if let form = textForm(type: type, collation: collation) { textForms[table, default: [:]][name] = form }
        }
        for row in foreignKeys {
            guard row.count == 4, case .text(let table) = row[0], case .text(let column) = row[1],
                case .text(let parent) = row[2], case .text(let parentColumn) = row[3]
            else { throw StoreSchemaError("the catalog's foreign-key rows are not (table, column, parent, parent column)") }
            guard let i = index[table] else { continue }
            tables[i].foreignKeys.append(.init(column: column, table: parent, parentColumn: parentColumn))
        }
        var schema = TableInference.schema(tables, namesIgnoreCase: false) { column, _ in type(column.declaredType) }
        for e in schema.entities.indices {
            guard let forms = textForms[schema.entities[e].table] else { continue }
            for a in schema.entities[e].attributes.indices where schema.entities[e].attributes[a].type == .string {
                schema.entities[e].attributes[a].textForm = forms[schema.entities[e].attributes[a].column]
            }
        }
        try schema.validate()
        return schema
    }

    /// How a string column of PostgreSQL type `type` (as `format_type`
    /// writes it) in `collation` (empty for the default) compares
    /// otherwise than `text`, or nil.
    package static func textForm(type: String, collation: String) -> PostgreSQLTextForm? {
        let base = baseName(type)
        // An extension's type is written with its schema when that schema
        // is not on the search path.
        if base == "citext" || base.hasSuffix(".citext") { return .citext }
        if base == "character" || base == "bpchar" { return .character }
        return collation.isEmpty ? nil : .collation
    }

    /// The attribute type of a column of PostgreSQL type `name` (as
    /// `format_type` writes it, with any length or precision): the integer
    /// types are `.integer`; `real`, `double precision` and `numeric` are
    /// `.double`; `boolean` is `.boolean`; `bytea` is `.blob`; the character
    /// types and any other type are `.string` (a comparison with a type of
    /// its own, such as `timestamp` or `uuid`, is then refused by the
    /// server: `operator does not exist: uuid = text`).
    package static func type(_ name: String) -> AttributeType {
        switch baseName(name) {
        case "smallint", "integer", "bigint": return .integer
        case "real", "double precision", "numeric": return .double
        case "boolean": return .boolean
        case "bytea": return .blob
        default: return .string
        }
    }

    /// A type name as `format_type` writes it, without its length or
    /// precision (`character varying(40)` → `character varying`).
    private static func baseName(_ name: String) -> String {
        name.split(separator: "(", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? name
    }
}
