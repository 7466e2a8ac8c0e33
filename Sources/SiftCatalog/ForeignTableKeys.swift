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
///   `column_name` option maps it back to the local name);
/// - for a partitioned table, every partition is such a foreign table, and
///   the table is partitioned on that very column: each key value then
///   lives in one partition, where it is unique, so it is unique in the
///   whole table. A table partitioned on another column could hold a key
///   twice (once per shard): it stays without a key.
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
        /// Local column names by remote name, for columns renamed with the
        /// `column_name` option.
        package var localNames: [String: String]

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
                } else if case .text(let schema) = row[2], case .text(let table) = row[3], case .text(let parent) = row[4] {
                    foreignKeys.append((column, schema, table, parent))
                }
            }
        }
    }
    /// Why each other table standing for foreign tables has no key.
    package var reasons: [String: String] = [:]

    /// One row per `postgres_fdw` foreign table of schema `$1` that is a
    /// table of its own or a partition of a table that is not a partition:
    /// the table it stands for, its partition column ('' when none), its
    /// number of partitions, the foreign table, the remote schema and
    /// table (the `schema_name` and `table_name` options, else the local
    /// names), the server's name, its options and the user mapping's (the
    /// current user's, else PUBLIC's; hidden ones are none), both as JSON
    /// arrays of `key=value`, the renamed columns as a JSON object, and the
    /// current user.
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
        COALESCE((SELECT array_to_json(um.umoptions)::text FROM pg_catalog.pg_user_mappings um \
        WHERE um.srvid = s.oid AND um.usename IN (current_user, 'public') ORDER BY um.usename = 'public' LIMIT 1), '[]'), \
        COALESCE((SELECT json_object_agg(substr(o, 13), a.attname)::text FROM pg_catalog.pg_attribute a, \
        unnest(a.attfdwoptions) o WHERE a.attrelid = f.oid AND o LIKE 'column\\_name=%'), '{}'), \
        current_user::text \
        FROM pg_catalog.pg_foreign_table ft \
        JOIN pg_catalog.pg_class f ON f.oid = ft.ftrelid \
        JOIN pg_catalog.pg_namespace fn ON fn.oid = f.relnamespace \
        JOIN pg_catalog.pg_foreign_server s ON s.oid = ft.ftserver \
        JOIN pg_catalog.pg_foreign_data_wrapper w ON w.oid = s.srvfdw \
        LEFT JOIN pg_catalog.pg_inherits i ON i.inhrelid = f.oid \
        JOIN pg_catalog.pg_class top ON top.oid = COALESCE(i.inhparent, f.oid) \
        JOIN pg_catalog.pg_namespace n ON n.oid = top.relnamespace \
        WHERE n.nspname = $1 AND NOT top.relispartition AND w.fdwname = 'postgres_fdw' \
        ORDER BY top.oid, f.relname
        """

    /// A remote table's primary-key columns, in key order (rows `p`,
    /// column), then its single-column foreign keys (rows `f`, column,
    /// parent schema, parent table, parent column): `$1` its schema, `$2`
    /// its name.
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
        ORDER BY c.contype DESC, array_position(c.conkey, a.attnum), a.attnum, c.conname
        """

    /// The server options a connection takes; the others are
    /// `postgres_fdw`'s own (`fetch_size`, `async_capable`, …).
    static let connectionOptions: Set<String> = ["host", "port", "dbname"]
    static let mappingOptions: Set<String> = ["user", "password"]

    /// The parts of the rows of ``query``.
    package static func parts(_ rows: [[SQLValue]]) throws(StoreSchemaError) -> [Part] {
        try rows.map { row throws(StoreSchemaError) -> Part in
            guard row.count == 11, case .text(let table) = row[0], case .text(let partitionColumn) = row[1],
                case .integer(let partitions) = row[2], case .text(let foreign) = row[3], case .text(let schema) = row[4],
                case .text(let remote) = row[5], case .text(let server) = row[6], case .text(let serverOptions) = row[7],
                case .text(let mappingOptions) = row[8], case .text(let renamed) = row[9], case .text(let user) = row[10]
            else { throw StoreSchemaError("the catalog's foreign-table rows are not of the expected shape") }
            var options = ["user": user]
            for (key, value) in try pairs(serverOptions) where connectionOptions.contains(key) { options[key] = value }
            for (key, value) in try pairs(mappingOptions) where Self.mappingOptions.contains(key) { options[key] = value }
            guard let names = try? JSONSerialization.jsonObject(with: Data(renamed.utf8)) as? [String: String] else {
                throw StoreSchemaError("the catalog's renamed columns of \(foreign) are not a JSON object")
            }
            return Part(
                table: table, partitionColumn: partitionColumn.isEmpty ? nil : partitionColumn, partitions: Int(partitions),
                foreignTable: foreign, remoteSchema: schema, remoteTable: remote,
                server: Server(name: server, options: options), localNames: names)
        }
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
            let mine = byTable[table] ?? []
            guard let first = mine.first else { continue }
            if mine.count != first.partitions {
                result.reasons[table] =
                    "\(mine.count) of its \(first.partitions) partitions are postgres_fdw foreign tables: the others' keys are not read"
                continue
            }
            var key: String?
            var reason: String?
            // Each part's foreign keys to the coordinator's tables, as
            // (column, parent, parent column); kept when every part has it.
            var shared: [(column: String, parent: String, parentColumn: String)]?
            for part in mine {
                let columns: [String]
                do {
                    let declared = try await remote(part)
                    columns = declared.key.map { part.localNames[$0] ?? $0 }
                    let mapped = declared.foreignKeys.compactMap { fk -> (column: String, parent: String, parentColumn: String)? in
                        guard localTables.contains(fk.table) else { return nil }
                        return (part.localNames[fk.column] ?? fk.column, fk.table, fk.parentColumn)
                    }
                    shared = shared.map { kept in kept.filter { k in mapped.contains { $0 == k } } } ?? mapped
                } catch {
                    reason = "its key could not be read from \(part.remoteSchema).\(part.remoteTable) on server \(part.server.name): \(error)"
                    break
                }
                guard columns.count == 1 else {
                    reason = columns.isEmpty
                        ? "\(part.remoteSchema).\(part.remoteTable) on server \(part.server.name) has no primary key"
                        : "\(part.remoteSchema).\(part.remoteTable) on server \(part.server.name) has a primary key of "
                            + "\(columns.count) columns"
                    break
                }
                if let key, key != columns[0] {
                    reason = "its partitions are keyed by different columns (\(key), \(columns[0]))"
                    break
                }
                key = columns[0]
            }
            if let reason {
                result.reasons[table] = reason
            } else if let key {
                if first.partitions > 1 || first.foreignTable != table, first.partitionColumn != key {
                    result.reasons[table] =
                        "it is partitioned on \(first.partitionColumn ?? "an expression"), and keyed by \(key) on its "
                        + "partitions: a key is unique within its partition only"
                } else {
                    result.keys[table] = key
                    for fk in shared ?? [] {
                        result.foreignKeys.append((table, fk.column, fk.parent, fk.parentColumn))
                    }
                }
            }
        }
        return result
    }
}
