extension StoreSchema {
    /// `CREATE TABLE` statements for the schema: each entity's table (primary
    /// key, attributes, to-one key columns and the key columns of to-many
    /// relationships pointing at it, with their order columns) and each join
    /// table, with an index on every key column. For new databases and tests; an existing database
    /// keeps its own tables.
    public func createStatements(dialect: Dialect) -> [String] {
        let q = dialect.quote
        let hooks = dialect.hooks
        var tables: [(name: String, columns: [(String, String)])] = []
        var indexes: [(table: String, column: String)] = []
        func add(_ table: String, _ column: String, _ type: String) {
            guard let i = tables.firstIndex(where: { $0.name == table }) else { return }
            if !tables[i].columns.contains(where: { $0.0 == column }) { tables[i].columns.append((column, type)) }
        }
        let key = hooks.keyType
        for e in entities where !tables.contains(where: { $0.name == e.table }) {
            tables.append((e.table, [(e.primaryKey, key + " PRIMARY KEY")]))
        }
        for e in entities {
            if let d = e.discriminator { add(e.table, d.column, key) }
            for a in e.attributes { add(e.table, a.column, hooks.columnType(a.type)) }
            for c in e.composites {
                for a in c.elements { add(e.table, a.column, hooks.columnType(a.type)) }
            }
            for r in e.relationships {
                switch r.kind {
                case .toOne(let column):
                    add(e.table, column, key)
                    indexes.append((e.table, column))
                case .toMany(let inverse):
                    if let d = entity(named: r.destination) {
                        add(d.table, inverse, key)
                        indexes.append((d.table, inverse))
                        if let order = r.orderColumn { add(d.table, order, hooks.columnType(.integer)) }
                    }
                case .manyToMany(let table, let s, let d):
                    if !tables.contains(where: { $0.name == table }) {
                        tables.append((table, [(s, key + " NOT NULL"), (d, key + " NOT NULL")]))
                        indexes.append((table, s))
                        indexes.append((table, d))
                    }
                    if let order = r.orderColumn { add(table, order, hooks.columnType(.integer)) }
                }
            }
        }
        var out = tables.map { t in
            "CREATE TABLE \(q(t.name)) (" + t.columns.map { "\(q($0.0)) \($0.1)" }.joined(separator: ", ") + ")"
        }
        var seen: Set<String> = []
        for (table, column) in indexes where seen.insert(table + "." + column).inserted {
            out.append("CREATE INDEX \(q(table + "_" + column)) ON \(q(table)) (\(q(column)))")
        }
        return out
    }
}
