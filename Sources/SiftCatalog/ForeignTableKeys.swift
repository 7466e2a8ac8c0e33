import Foundation
import SiftSQL

/// The keys of tables whose rows live on other servers: a `postgres_fdw`
/// foreign table, and a table partitioned over such foreign tables (the
/// sharded layout, Citus's distributed tables built from PostgreSQL's own
/// parts). PostgreSQL declares no key on either: a foreign table can have
/// no index, and a partitioned table no unique index over foreign
/// partitions. The key is declared where the rows are, on the remote
/// tables, and is read there, through the servers the coordinator itself
/// connects to (their `host`, `port` and `dbname`, and the user mapping's
/// `user` and `password`).
///
/// A table's key is the remote tables' single-column primary key when:
/// - every remote table has one, on the same column (a foreign column's
///   `column_name` option maps it back to the local name), and none has
///   inheritance children (`postgres_fdw` reads them too, outside the key);
/// - for a partitioned table, every partition is such a foreign table,
///   no two read the same remote table, and the table is partitioned on
///   that very column: each key value then belongs to one partition,
///   where it is unique, so it is unique in the whole table. A table
///   partitioned on another column could hold a key twice (once per
///   shard): it stays without a key. PostgreSQL does not check that a
///   foreign partition's remote rows keep to its bounds: a row written to
///   the wrong shard by hand, or one copied and not yet removed while
///   shards are rebalanced, is read all the same; the key holds as long as
///   the shards keep the partitioning's rule, which this reading trusts.
/// - its server is reachable from here: a user mapping this user may read
///   (by `pg_user_mappings`' rule), and a host that means this machine only
///   when the coordinator is on it too (a loopback address or a socket on
///   a remote coordinator names the coordinator's machine).
///
/// A table partitioned in several levels, whose partitions are partitioned
/// again, is not read this way.
///
/// A table whose key cannot be read this way (a server that cannot be
/// reached, a remote table without a primary key) stays without one, as
/// before: give its key in a schema of your own (`sift query --schema`).
/// ``ForeignTableKeys/reasons`` says why, table by table.
///
/// Foreign keys are read there too, for the layout Citus calls reference
/// tables: a small table kept whole on the coordinator and copied, under
/// its own name, beside each shard's rows. A single-column foreign key
/// that every remote table of a table declares, to a table that the
/// coordinator holds as an ordinary table of the same name, is that
/// table's foreign key on the coordinator. One to another sharded table's
/// rows on the same shard is not read (its name differs from shard to
/// shard), nor is anything PostgreSQL would declare on the coordinator
/// (it declares no foreign key on a foreign table).
package struct ForeignTableKeys: Sendable {
    /// A foreign server as a remote table is reached through it.
    package struct Server: Hashable, Sendable {
        /// Its name on the coordinator (`sift_shard_0`).
        package var name: String
        /// `host`, `port` and `dbname` from the server's options (the
        /// `postgres_fdw` options of its own, `fetch_size` and the like,
        /// left out), `user` and `password` from the user mapping; `user`
        /// defaults to the coordinator's user, as `postgres_fdw`'s does.
        package var options: [String: String]

        package init(name: String, options: [String: String]) {
            self.name = name
            self.options = options
        }
    }

    /// One foreign table: the table it stands for (itself, or the
    /// partitioned table it is a partition of) and where its rows are.
    package struct Part: Sendable {
        package var table: String
        /// The partitioned table's partition column, nil for a table that
        /// is not partitioned (or partitioned on an expression or on
        /// several columns).
        package var partitionColumn: String?
        /// How many partitions the partitioned table has (1 for a foreign
        /// table of its own).
        package var partitions: Int
        package var foreignTable: String
        package var remoteSchema: String
        package var remoteTable: String
        package var server: Server
        /// The foreign table's local column names by remote name (a
        /// column's `column_name` option, else its own name).
        package var localNames: [String: String]
        /// Why the remote table cannot be reached from here (no user
        /// mapping, one whose options are hidden, a server on the
        /// coordinator's machine when this is another), or nil.
        package var unusable: String?

        package init(
            table: String, partitionColumn: String?, partitions: Int, foreignTable: String, remoteSchema: String,
            remoteTable: String, server: Server, localNames: [String: String]
        ) {
            self.table = table
            self.partitionColumn = partitionColumn
            self.partitions = partitions
            self.foreignTable = foreignTable
            self.remoteSchema = remoteSchema
            self.remoteTable = remoteTable
            self.server = server
            self.localNames = localNames
        }
    }

    /// Each table's key column, for the tables whose key was read.
    package var keys: [String: String] = [:]
    /// The foreign keys of those tables that every remote table declares,
    /// to an ordinary table of the coordinator's: table, column, parent
    /// table, parent column, in the catalog's foreign-key rows' order.
    package var foreignKeys: [(table: String, column: String, parent: String, parentColumn: String)] = []

    /// What a remote table declares: its primary key's columns (in key
    /// order) and its single-column foreign keys, by their remote names.
    package struct Remote: Sendable {
        package var key: [String]
        package var foreignKeys: [(column: String, schema: String, table: String, parentColumn: String)]
        /// Whether it is an ordinary table with inheritance children.
        package var hasChildren = false

        package init(key: [String], foreignKeys: [(column: String, schema: String, table: String, parentColumn: String)] = []) {
            self.key = key
            self.foreignKeys = foreignKeys
        }

        /// The rows of ``ForeignTableKeys/remoteQuery``.
        package init(rows: [[SQLValue]]) {
            key = []
            foreignKeys = []
            for row in rows {
                guard row.count == 5, case .text(let kind) = row[0], case .text(let column) = row[1] else { continue }
                if kind == "p" {
                    key.append(column)
                } else if kind == "i" {
                    hasChildren = true
                } else if case .text(let schema) = row[2], case .text(let table) = row[3], case .text(let parent) = row[4] {
                    foreignKeys.append((column, schema, table, parent))
                }
            }
        }
    }
    /// Why each other table standing for foreign tables has no key.
    package var reasons: [String: String] = [:]

    /// One row per `postgres_fdw` foreign table of schema `$1` that is a
    /// table of its own or a partition of a partitioned table that is not
    /// a partition itself: the table it stands for, its partition column
    /// ('' when none), its number of partitions, the foreign table, the
    /// remote schema and table (the `schema_name` and `table_name` options,
    /// else the local names), the server's name and options (a JSON array
    /// of `key=value`), the user mapping's options (the current user's,
    /// else PUBLIC's: a JSON array; '' when there is no mapping, `hidden`
    /// when `pg_user_mappings` does not show them to this user, by that
    /// view's own rule), the foreign table's live columns as a JSON object
    /// from remote name (its `column_name` option, else its own) to local
    /// name, the current user, and the coordinator's address as this
    /// connection reached it ('' for a Unix socket).
    package static let query = """
        SELECT top.relname::text, \
        COALESCE((SELECT a.attname::text FROM pg_catalog.pg_partitioned_table pt \
        JOIN pg_catalog.pg_attribute a ON a.attrelid = pt.partrelid AND a.attnum = pt.partattrs[0] \
        WHERE pt.partrelid = top.oid AND pt.partnatts = 1), '') AS partition_column, \
        CASE WHEN top.oid = f.oid THEN 1 ELSE (SELECT count(*) FROM pg_catalog.pg_inherits p WHERE p.inhparent = top.oid) END::bigint, \
        f.relname::text, \
        COALESCE((SELECT substr(o, 13) FROM unnest(ft.ftoptions) o WHERE o LIKE 'schema\\_name=%'), fn.nspname)::text, \
        COALESCE((SELECT substr(o, 12) FROM unnest(ft.ftoptions) o WHERE o LIKE 'table\\_name=%'), f.relname)::text, \
        s.srvname::text, \
        COALESCE(array_to_json(s.srvoptions)::text, '[]'), \
        COALESCE((SELECT CASE WHEN (um.umuser <> 0 AND r.rolname = current_user \
        AND (pg_catalog.pg_has_role(s.srvowner, 'USAGE') OR pg_catalog.has_server_privilege(s.oid, 'USAGE'))) \
        OR (um.umuser = 0 AND pg_catalog.pg_has_role(s.srvowner, 'USAGE')) \
        OR (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname = current_user) \
        THEN COALESCE(array_to_json(um.umoptions)::text, '[]') ELSE 'hidden' END \
        FROM pg_catalog.pg_user_mapping um LEFT JOIN pg_catalog.pg_roles r ON r.oid = um.umuser \
        WHERE um.umserver = s.oid AND (um.umuser = 0 OR r.rolname = current_user) \
        ORDER BY um.umuser = 0 LIMIT 1), ''), \
        (SELECT json_object_agg(COALESCE((SELECT substr(o, 13) FROM unnest(a.attfdwoptions) o \
        WHERE o LIKE 'column\\_name=%'), a.attname), a.attname)::text \
        FROM pg_catalog.pg_attribute a WHERE a.attrelid = f.oid AND a.attnum > 0 AND NOT a.attisdropped), \
        current_user::text, \
        COALESCE(host(inet_server_addr()), '') \
        FROM pg_catalog.pg_foreign_table ft \
        JOIN pg_catalog.pg_class f ON f.oid = ft.ftrelid \
        JOIN pg_catalog.pg_namespace fn ON fn.oid = f.relnamespace \
        JOIN pg_catalog.pg_foreign_server s ON s.oid = ft.ftserver \
        JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw \
        LEFT JOIN pg_catalog.pg_inherits i ON i.inhrelid = f.oid AND f.relispartition \
        JOIN pg_catalog.pg_class top ON top.oid = COALESCE(i.inhparent, f.oid) \
        JOIN pg_catalog.pg_namespace n ON n.oid = top.relnamespace \
        WHERE n.nspname = $1 AND NOT top.relispartition AND w.fdwname = 'postgres_fdw' \
        ORDER BY top.oid, f.relname
        """

    /// What a remote table declares, `$1` its schema and `$2` its name:
    /// its primary key's columns in key order (rows `p`, column), its
    /// single-column foreign keys (rows `f`, column, parent schema, parent
    /// table, parent column), and a row `i` when it is an ordinary table
    /// with inheritance children, whose rows a scan of it (`postgres_fdw`
    /// reads without `ONLY`) returns outside its key.
    package static let remoteQuery = """
        SELECT c.contype::text, a.attname::text, rn.nspname::text, r.relname::text, ra.attname::text \
        FROM pg_catalog.pg_constraint c \
        JOIN pg_catalog.pg_class t ON t.oid = c.conrelid \
        JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace \
        JOIN pg_catalog.pg_attribute a ON a.attrelid = t.oid AND a.attnum = ANY (c.conkey) \
        LEFT JOIN pg_catalog.pg_class r ON r.oid = c.confrelid \
        LEFT JOIN pg_catalog.pg_namespace rn ON rn.oid = r.relnamespace \
        LEFT JOIN pg_catalog.pg_attribute ra ON ra.attrelid = c.confrelid AND ra.attnum = c.confkey[1] \
        WHERE n.nspname = $1 AND t.relname = $2 \
        AND (c.contype = 'p' OR (c.contype = 'f' AND cardinality(c.conkey) = 1)) \
        UNION ALL SELECT 'i', t.relname::text, NULL, NULL, NULL FROM pg_catalog.pg_class t \
        JOIN pg_catalog.pg_namespace n ON n.oid = t.relnamespace \
        WHERE n.nspname = $1 AND t.relname = $2 AND t.relkind = 'r' AND t.relhassubclass
        """

    /// The server options a connection takes; the others are
    /// `postgres_fdw`'s own (`fetch_size`, `async_capable`, …).
    static let connectionOptions: Set<String> = ["host", "port", "dbname", "sslmode"]
    static let mappingOptions: Set<String> = ["user", "password"]

    /// The parts of the rows of ``query``.
    package static func parts(_ rows: [[SQLValue]]) throws(StoreSchemaError) -> [Part] {
        try rows.map { row throws(StoreSchemaError) -> Part in
            guard row.count == 12, case .text(let table) = row[0], case .text(let partitionColumn) = row[1],
                case .integer(let partitions) = row[2], case .text(let foreign) = row[3], case .text(let schema) = row[4],
                case .text(let remote) = row[5], case .text(let server) = row[6], case .text(let serverOptions) = row[7],
                case .text(let mapping) = row[8], case .text(let columns) = row[9], case .text(let user) = row[10],
                case .text(let coordinator) = row[11]
            else { throw StoreSchemaError("the catalog's foreign-table rows are not of the expected shape") }
            var options = ["user": user]
            for (key, value) in try pairs(serverOptions) where connectionOptions.contains(key) { options[key] = value }
            var unusable: String?
            switch mapping {
            case "": unusable = "there is no user mapping for \(user) on server \(server)"
            case "hidden": unusable = "the user mapping's options on server \(server) are not shown to \(user)"
            default:
                for (key, value) in try pairs(mapping) where mappingOptions.contains(key) { options[key] = value }
            }
            if unusable == nil, let why = elsewhere(options["host"], coordinator: coordinator) {
                unusable = "server \(server) is at \(why)"
            }
            guard let names = try? JSONSerialization.jsonObject(with: Data(columns.utf8)) as? [String: String] else {
                throw StoreSchemaError("the catalog's columns of \(foreign) are not a JSON object")
            }
            var part = Part(
                table: table, partitionColumn: partitionColumn.isEmpty ? nil : partitionColumn, partitions: Int(partitions),
                foreignTable: foreign, remoteSchema: schema, remoteTable: remote,
                server: Server(name: server, options: options), localNames: names)
            part.unusable = unusable
            return part
        }
    }

    /// Why a foreign server's `host` names a machine that is not the one
    /// this reader runs on, or nil: a loopback address, a socket directory
    /// or no host mean the coordinator's own machine, which is this one
    /// only when the coordinator was reached there too (its address
    /// `coordinator` is loopback, or '' for a Unix socket).
    static func elsewhere(_ host: String?, coordinator: String) -> String? {
        func isLocal(_ h: String) -> Bool {
            h.isEmpty || h.hasPrefix("/") || h == "localhost" || h.hasPrefix("127.") || h == "::1"
        }
        guard isLocal(host ?? "") else { return nil }
        guard !isLocal(coordinator) else { return nil }
        return "\(host.map { $0.isEmpty ? "the default socket" : $0 } ?? "the default socket") on the coordinator's own machine "
            + "(\(coordinator)), which is not this one"
    }

    /// `key=value` options, given as a JSON array of strings.
    static func pairs(_ json: String) throws(StoreSchemaError) -> [(String, String)] {
        guard let items = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String] else {
            throw StoreSchemaError("the catalog's options are not a JSON array of strings")
        }
        return items.compactMap { item in
            guard let equals = item.firstIndex(of: "=") else { return nil }
            return (String(item[..<equals]), String(item[item.index(after: equals)...]))
        }
    }

    /// The keys of the tables `parts` stand for, and their foreign keys to
    /// `localTables` (the coordinator's ordinary tables): `remote(part)`
    /// reads what a part's remote table declares (by remote names, mapped
    /// back here), or throws why it cannot.
    package static func resolve(
        _ parts: [Part], localTables: Set<String> = [], remote: (Part) async throws -> Remote
    ) async -> ForeignTableKeys {
        var result = ForeignTableKeys()
        var order: [String] = []
        var byTable: [String: [Part]] = [:]
        for p in parts {
            if byTable[p.table] == nil { order.append(p.table) }
            byTable[p.table, default: []].append(p)
        }
        for table in order {
            guard let mine = byTable[table], !mine.isEmpty else { continue }
            switch await keyAndForeignKeys(mine, localTables: localTables, remote: remote) {
            case .key(let key, let foreignKeys):
                result.keys[table] = key
                for fk in foreignKeys { result.foreignKeys.append((table, fk.column, fk.parent, fk.parentColumn)) }
            case .reason(let reason):
                result.reasons[table] = reason
            }
        }
        return result
    }

    private enum Outcome {
        case key(String, [(column: String, parent: String, parentColumn: String)])
        case reason(String)
    }

    /// The key of the table `parts` (all of one table) stand for, with the
    /// foreign keys every part declares, or why there is none.
    private static func keyAndForeignKeys(
        _ parts: [Part], localTables: Set<String>, remote: (Part) async throws -> Remote
    ) async -> Outcome {
        let first = parts[0]
        if parts.count != first.partitions {
            return .reason(
                "\(parts.count) of its \(first.partitions) partitions are postgres_fdw foreign tables: the others' keys are not read")
        }
        // Two partitions over one remote table would hold its rows twice.
        var seen: [String: String] = [:]
        for part in parts {
            let o = part.server.options
            let place = [o["host"] ?? "", o["port"] ?? "", o["dbname"] ?? "", part.remoteSchema, part.remoteTable]
                .joined(separator: "\u{0}")
            if let other = seen[place] {
                return .reason("\(other) and \(part.foreignTable) read the same remote table, \(part.remoteSchema).\(part.remoteTable)")
            }
            seen[place] = part.foreignTable
        }
        var key: String?
        // Each part's foreign keys to the coordinator's tables, as (column,
        // parent, parent column); kept when every part has it.
        var shared: [(column: String, parent: String, parentColumn: String)]?
        for part in parts {
            let remoteName = "\(part.remoteSchema).\(part.remoteTable) on server \(part.server.name)"
            if let why = part.unusable { return .reason("its key could not be read from \(remoteName): \(why)") }
            let declared: Remote
            do {
                declared = try await remote(part)
            } catch {
                return .reason("its key could not be read from \(remoteName): \(error)")
            }
            if declared.hasChildren {
                return .reason("\(remoteName) has inheritance children, whose rows postgres_fdw reads outside its key")
            }
            guard declared.key.count == 1 else {
                return .reason(
                    declared.key.isEmpty ? "\(remoteName) has no primary key"
                        : "\(remoteName) has a primary key of \(declared.key.count) columns")
            }
            guard let column = part.localNames[declared.key[0]] else {
                return .reason("\(part.foreignTable) has no column for \(remoteName)'s key \(declared.key[0])")
            }
            if let key, key != column { return .reason("its partitions are keyed by different columns (\(key), \(column))") }
            key = column
            let mapped = declared.foreignKeys.compactMap { fk -> (column: String, parent: String, parentColumn: String)? in
                // A copy of a coordinator's table beside the shard's table.
                guard fk.schema == part.remoteSchema, localTables.contains(fk.table), let local = part.localNames[fk.column]
                else { return nil }
                return (local, fk.table, fk.parentColumn)
            }
            shared = shared.map { kept in kept.filter { k in mapped.contains { $0 == k } } } ?? mapped
        }
        guard let key else { return .reason("it has no partitions") }
        if first.partitions > 1 || first.foreignTable != first.table, first.partitionColumn != key {
            return .reason(
                "it is partitioned on \(first.partitionColumn ?? "an expression"), and keyed by \(key) on its partitions: "
                    + "a key is unique within its partition only")
        }
        return .key(key, shared ?? [])
    }
}
