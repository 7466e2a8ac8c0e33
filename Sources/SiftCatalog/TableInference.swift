import SiftSQL

/// A table as a database's catalog describes it: SQLite's `table_info`
/// and `foreign_key_list` pragmas, PostgreSQL's `pg_attribute` and
/// `pg_constraint`.
package struct TableDescription: Sendable {
    package struct Column: Sendable {
        package var name: String
        package var declaredType: String
        package var notNull: Bool
        /// 1-based position in the primary key, 0 when not part of it.
        package var primaryKeyIndex: Int

        package init(name: String, declaredType: String, notNull: Bool, primaryKeyIndex: Int) {
            self.name = name
            self.declaredType = declaredType
            self.notNull = notNull
            self.primaryKeyIndex = primaryKeyIndex
        }
    }

    package struct ForeignKey: Sendable {
        package var column: String
        package var table: String
        /// The parent column; nil means the parent's primary key.
        package var parentColumn: String?

        package init(column: String, table: String, parentColumn: String?) {
            self.column = column
            self.table = table
            self.parentColumn = parentColumn
        }
    }

    package var name: String
    package var columns: [Column] = []
    /// Single-column foreign keys, in column order.
    package var foreignKeys: [ForeignKey] = []
    /// The name under which the implicit rowid can be selected, if the table
    /// has one.
    package var rowID: String?

    package init(name: String) {
        self.name = name
    }

    package func column(_ name: String) -> Column? {
        columns.first { $0.name.lowercased() == name.lowercased() }
    }
}

/// Names already used in one entity, compared as key paths compare them:
/// ignoring case.
package struct NameSet {
    private var names: Set<String> = []

    package init(_ names: [String] = []) {
        for n in names { insert(n) }
    }

    package func contains(_ name: String) -> Bool { names.contains(name.lowercased()) }
    package mutating func insert(_ name: String) { names.insert(name.lowercased()) }

    /// The first candidate not taken, now taken.
    package mutating func claim(_ candidates: [String]) -> String? {
        guard let free = candidates.first(where: { !$0.isEmpty && !contains($0) }) else { return nil }
        insert(free)
        return free
    }
}

/// The rules that turn a plain database's tables into entities and
/// relationships, whatever database they come from: each table with a key
/// is an entity, a single-column foreign key to another table's key is a
/// to-one with its inverse to-many, and a table of two such keys and
/// nothing else is a many-to-many. `StoreSchema.read(from:)` of SiftSQLite and
/// SiftPostgres document them in full.
package enum TableInference {
    /// The schema of `descriptions`, each column typed by `type`. A table
    /// without a single-column primary key is an entity only if it has a
    /// rowid (SQLite's), which is then its key.
    ///
    /// `namesIgnoreCase` says how the database compares the names of tables
    /// and columns: SQLite ignores (ASCII) case, so `Books` and `books` are
    /// one table; PostgreSQL compares quoted names exactly, so they are two.
    package static func schema(
        _ descriptions: [TableDescription], namesIgnoreCase: Bool,
        type: (TableDescription.Column, TableDescription) -> AttributeType
    ) -> StoreSchema {
        let fold: (String) -> String = namesIgnoreCase ? { $0.lowercased() } : { $0 }
        // Each table's key: its primary-key column, else its rowid.
        var keys: [String: String] = [:]
        var declared: Set<String> = []
        for t in descriptions {
            let pk = t.columns.filter { $0.primaryKeyIndex > 0 }
            if pk.count == 1 {
                keys[fold(t.name)] = pk[0].name
                declared.insert(fold(t.name))
            } else if let r = t.rowID {
                keys[fold(t.name)] = r
            }
        }

        /// Whether `fk` points at the key of one of `entities` (a foreign key
        /// naming no column points at a declared primary key, never a rowid).
        func references(_ fk: TableDescription.ForeignKey, among entities: Set<String>) -> Bool {
            let parent = fold(fk.table)
            guard entities.contains(parent), declared.contains(parent), let key = keys[parent] else { return false }
            return fk.parentColumn.map { fold($0) == fold(key) } ?? true
        }

        // Join tables: two foreign keys to other tables' keys, and nothing else
        // but the table's own key.
        func isJoinCandidate(_ t: TableDescription) -> Bool {
            let fkColumns = Set(t.foreignKeys.map { fold($0.column) })
            guard t.foreignKeys.count == 2, fkColumns.count == 2 else { return false }
            let own = keys[fold(t.name)].map(fold)
            return t.columns.allSatisfy { fkColumns.contains(fold($0.name)) || fold($0.name) == own }
        }
        let candidates = Set(descriptions.filter(isJoinCandidate).map { fold($0.name) })
        let others = Set(descriptions.map { fold($0.name) }).subtracting(candidates)
        let joins = descriptions.filter {
            candidates.contains(fold($0.name)) && $0.foreignKeys.allSatisfy { references($0, among: others) }
        }
        let joinNames = Set(joins.map { fold($0.name) })
        let entityTables = descriptions.filter { !joinNames.contains(fold($0.name)) && keys[fold($0.name)] != nil }
        let entityNames = Set(entityTables.map { fold($0.name) })

        var entities: [Entity] = []
        var taken: [NameSet] = []
        var index: [String: Int] = [:]
        for t in entityTables {
            let key = keys[fold(t.name)] ?? "rowid"
            let attributes = t.columns.map { c in Attribute(c.name, type(c, t), column: c.name, optional: !c.notNull) }
            index[fold(t.name)] = entities.count
            entities.append(Entity(t.name, table: t.name, primaryKey: key, attributes: attributes))
            taken.append(NameSet(attributes.map(\.name)))
        }

        // To-one relationships and their inverses.
        for t in entityTables {
            guard let child = index[fold(t.name)] else { continue }
            for fk in t.foreignKeys where references(fk, among: entityNames) {
                guard let parent = index[fold(fk.table)] else { continue }
                let short = Self.strippingIDSuffix(fk.column)
                let name: String
                if short != fk.column, let n = taken[child].claim([short]) {
                    name = n
                } else {
                    // The column itself becomes the relationship.
                    entities[child].attributes.removeAll { $0.name == fk.column }
                    name = fk.column
                }
                // Names first: child and parent may be one entity.
                let (childName, parentName) = (entities[child].name, entities[parent].name)
                entities[child].relationships.append(.toOne(name, parentName, column: fk.column))
                if let inverse = taken[parent].claim([t.name, t.name + "_" + name]) {
                    entities[parent].relationships.append(.toMany(inverse, childName, inverseColumn: fk.column))
                }
            }
        }

        // Many-to-many through join tables.
        for j in joins {
            let a = j.foreignKeys[0]
            let b = j.foreignKeys[1]
            guard let ia = index[fold(a.table)], let ib = index[fold(b.table)] else { continue }
            for (source, destination, from, to) in [(ia, ib, a, b), (ib, ia, b, a)] {
                var candidates = [j.name, j.name + "_" + Self.strippingIDSuffix(to.column)]
                if source != destination { candidates.insert(entities[destination].table, at: 0) }
                guard let name = taken[source].claim(candidates) else { continue }
                let relationship = Relationship.manyToMany(
                    name, entities[destination].name, joinTable: j.name, sourceColumn: from.column,
                    destinationColumn: to.column)
                entities[source].relationships.append(relationship)
            }
        }
        return StoreSchema(entities)
    }

    /// `author_id` → `author`, `authorId` and `authorID` → `author`; other
    /// names are returned unchanged.
    package static func strippingIDSuffix(_ column: String) -> String {
        if column.count > 3, column.lowercased().hasSuffix("_id") { return String(column.dropLast(3)) }
        if column.count > 2, column.hasSuffix("Id") || column.hasSuffix("ID") { return String(column.dropLast(2)) }
        return column
    }
}

