import Foundation
import GRDB
import SiftCatalog
import SiftSQL

extension StoreSchema {
    /// The schema of an existing SQLite database, inferred from its tables,
    /// so that fetch requests run against a file nobody described.
    ///
    /// ```swift
    /// let db = try ReadOnlyDatabase.open(path: "library.sqlite")
    /// let schema = try db.read { try StoreSchema.read(from: $0) }
    /// let rows = try db.read { try FetchSpecification(entity: "books", filter: try Filter("author.name == 'Ann'"))
    ///     .fetchValues($0, schema: schema) }
    /// ```
    ///
    /// Inference is a guess. To correct it, write the result out with
    /// `StoreSchema.jsonData()`, edit it, and load it with `StoreSchema(json:)`:
    /// a schema file always overrides inference (`sift query --schema FILE`;
    /// `sift schema DB.sqlite` prints the inferred one).
    ///
    /// **Plain databases.** Every table except `sqlite_*`, virtual tables and
    /// their shadow tables (`docs_content` of `docs`), and pure join tables is
    /// an entity named like the table (`books`).
    ///
    /// - Primary key: the single primary-key column; a table without one (no
    ///   primary key, or a composite one) uses SQLite's implicit `rowid`,
    ///   which is then not an attribute; a `WITHOUT ROWID` table without a
    ///   single-column key is left out.
    /// - Attributes: every column under its own name, the primary key
    ///   included, optional unless `NOT NULL`. Declared types map by SQLite's
    ///   affinity rules, with three additions checked first: a type containing
    ///   `BOOL` is `.boolean`; `DATE` or `TIMESTAMP` (so `DATETIME` too) is a
    ///   date; `UUID` or `GUID` is `.uuid(.text)`, or `.uuid(.bytes)` when
    ///   its first value is 16 bytes (as GRDB stores UUIDs). Then `INT` is `.integer`; `CHAR`,
    ///   `CLOB`, `TEXT` are `.string`; `BLOB` is `.blob`; `REAL`, `FLOA`,
    ///   `DOUB` and the numeric types (`NUMERIC`, `DECIMAL`…) are `.double`. A
    ///   column without a declared type takes the storage class of its first
    ///   non-NULL value (`.string` when it has none); a numeric type whose
    ///   stored value is text is `.string`.
    /// - Dates: the encoding is read from the first non-NULL value. Numbers
    ///   are `.unixSeconds` (magnitudes of 10¹¹ and more look like
    ///   milliseconds, which no encoding reads: such a column stays a number);
    ///   text in the `.iso8601` form (`2024-05-01T12:00:00.000Z`) is
    ///   `.iso8601`; other text (GRDB's and SQLite's `2024-05-01 12:00:00`) is
    ///   a `.string`, compared as text (`created >= '2024-05'`). An empty
    ///   column is `.iso8601`.
    /// - Foreign keys (single-column, to the parent's primary key): a to-one
    ///   relationship on the child named after the column without a trailing
    ///   `_id`, `Id` or `ID` (`author_id` → `author`), the column staying an
    ///   attribute too; a column without such a suffix, or whose shortened name
    ///   is taken, becomes the relationship under its own name and is no
    ///   longer an attribute. The parent gets the inverse to-many named after
    ///   the child table (`books`), or `books_editor` when that is taken.
    /// - Join tables: a table of exactly two such foreign-key columns and
    ///   nothing else but, optionally, its own primary key is a many-to-many
    ///   relationship on both sides, each named after the other side's table
    ///   (`book_tags(book_id, tag_id)` gives `books.tags` and `tags.books`); on
    ///   a clash (a table joined to itself) the join table's name, then that
    ///   name with the column's (`friendships_friend`).
    ///
    /// **Core Data stores** (tables `Z_PRIMARYKEY` and `Z_METADATA`). Entities
    /// and their numbers come from `Z_PRIMARYKEY`; entity `Book` is table
    /// `ZBOOK`, with primary key `Z_PK`.
    ///
    /// - Attributes are named by their column without the `Z`, lower-cased
    ///   (`ZPUBLISHEDAT` → `publishedat`), since the column has lost the
    ///   camel case: key paths find them ignoring case (`publishedAt` works),
    ///   and fetched rows use the lower-cased names. `Z_PK`, `Z_ENT`, `Z_OPT`,
    ///   the other `Z_…` columns and `Z<n>…` columns (the entity numbers of
    ///   to-one destinations) are bookkeeping, not attributes; a column not
    ///   starting with `Z` (added by hand) keeps its name.
    /// - Types: `TIMESTAMP` is `.date(.referenceSeconds)` (seconds since 2001);
    ///   `VARCHAR` is `.string`, `FLOAT` and `DECIMAL` `.double`, `BLOB`
    ///   `.blob` (UUID attributes too). Booleans are declared `INTEGER` like
    ///   integers, so they read as `.integer` (`flag == YES` still works: YES
    ///   is 1). Core Data declares no `NOT NULL`: every attribute is optional.
    /// - To-one relationships: an integer column `Z<NAME>` whose table has
    ///   the entity column `Z<n>_<NAME>` Core Data adds when the destination
    ///   has sub-entities (`ZFILE` with `Z7_FILE`: to entity 7); else whose
    ///   name without the `Z`, ignoring case, is an entity's name (`ZAUTHOR`
    ///   → `author`, to `Author`; also without a trailing number, which Core
    ///   Data appends when sub-entities share a name), the table's entity's
    ///   name followed by it (`ZSERVERDATA` in `SFNote`'s table, to
    ///   `SFNoteServerData`), or the one entity so named after a class prefix
    ///   of two or more capitals (`ZNOTE`, to `SFNote`). Core Data stores no
    ///   foreign-key declarations, so a relationship named otherwise
    ///   (`writer`, to `Author`) reads as an integer attribute: declare it in
    ///   a schema file. The destination gets the inverse to-many named after
    ///   the source entity, lower-cased, with an `s` (`books`), except in a
    ///   one-to-one: where each of two tables holds one key to the other,
    ///   the two to-ones are each other's inverse and no to-many is added.
    /// - Many-to-many: join tables `Z_<n><REL>` with columns `Z_<n><REL1>` and
    ///   `Z_<m><REL2>`, where `n`, `m` are entity numbers and a column holds
    ///   the keys of its entity (`Z_2TAGS(Z_2BOOKS, Z_3TAGS)`: `Book.tags`
    ///   and `Tag.books`). A relationship that is its own inverse (a
    ///   `REFLEXIVE` column) is not read.
    /// - Sub-entities share their root entity's table; each entity of such a
    ///   table gets a `Discriminator` on `Z_ENT` with its number and its
    ///   sub-entities', and all the table's attributes and to-one
    ///   relationships, since the store does not say which entity declared a
    ///   column.
    ///
    /// **Core Data stores with a model.** A store whose `Z_MODELCACHE` holds
    /// the compiled model (Core Data writes it since macOS 10.13 / iOS 11,
    /// SwiftData always) is read through it, as ``read(from:model:)-(_,CoreDataModel?)`` reads
    /// it with a model given; the rules above are then not used.
    public static func read(from db: Database) throws -> StoreSchema {
        try read(from: db, model: nil as CoreDataModel?)
    }

    /// The schema of a Core Data store as its model describes it: the
    /// model's entity and property names (camel case), attribute types and
    /// optionality, to-one, to-many, many-to-many and one-to-one
    /// relationships with their inverses, ordered relationships, abstract
    /// entities and sub-entities.
    ///
    /// - `model`: the model to use; nil reads the one the store caches in
    ///   `Z_MODELCACHE`, and without one infers the schema from the tables
    ///   (see ``read(from:)``).
    /// - Columns: `Z` + the upper-cased property name. Sub-entities share
    ///   their root entity's table; when two of them declare a property of
    ///   the same name, the one with the lower entity number (the order of
    ///   `Z_PRIMARYKEY`) keeps the name and the next gets `1`, `2`…
    ///   (`ZHEIGHT1`). A property whose column the table lacks is an error:
    ///   the model is not this store's.
    /// - Entities: each gets its ancestors' properties and its own, never a
    ///   sub-entity's; an entity sharing a table reads the rows whose `Z_ENT`
    ///   is its own number or a sub-entity's, so fetching a parent returns
    ///   its sub-entities' objects as Core Data does.
    /// - Types: Integer 16/32/64 `.integer`; Decimal `.decimal`; Double,
    ///   Float `.double`; String and URI `.string`; Boolean `.boolean`; Date
    ///   `.date(.referenceSeconds)`; Binary `.blob`; UUID `.uuid(.bytes)`;
    ///   Transformable, ObjectID and Undefined `.unsupported`, fetched as
    ///   stored and refused in predicates. Derived attributes are columns.
    /// - Relationships: a to-one is its column; a to-many is its inverse
    ///   to-one's column, else a join table `Z_<n><NAME>` (many-to-many);
    ///   a one-to-one is a to-one on each side.
    /// - Identity: each entity's `Z_ENT` number (`Entity.entityNumber`)
    ///   and the store's `Z_UUID` (`StoreSchema.storeIdentifier`), which
    ///   object IDs carry.
    /// - Fetched properties, transient properties, and a to-many the store
    ///   keeps nowhere are `Entity.unsupportedKeys`: a key path naming one
    ///   gets an error saying why. Tables of entities the model does not
    ///   have (persistent history: `ACHANGE`, `ATRANSACTION`) are not
    ///   entities.
    public static func read(from db: Database, model: CoreDataModel?) throws -> StoreSchema {
        let tables = try SchemaReading.tables(db)
        var schema: StoreSchema
        if SQLiteCatalog.isCoreDataStore(tables) {
            let hasCache = tables.contains { $0.name.uppercased() == "Z_MODELCACHE" }
            if let model = try model ?? cachedModel(db, hasCache: hasCache) {
                schema = try CoreDataModelMapping(db: db, tables: tables, model: model).read()
            } else {
                schema = try CoreDataSchemaReader(db: db, tables: tables).read()
            }
            schema.storeIdentifier = try storeIdentifier(db)
        } else {
            guard model == nil else {
                throw StoreSchemaError("a model describes a Core Data store (tables Z_PRIMARYKEY and Z_METADATA); this database is not one")
            }
            schema = try PlainSchemaReader(db: db, tables: tables).read()
        }
        try schema.validate()
        return schema
    }

    /// The schema of a Core Data store described by the model file or folder
    /// at `model` (see ``CoreDataModel/init(contentsOf:maximumSize:maximumCompositeElements:)`` and
    /// ``read(from:model:)-(_,CoreDataModel?)``).
    public static func read(from db: Database, model: URL) throws -> StoreSchema {
        try read(from: db, model: try CoreDataModel(contentsOf: model))
    }

    /// The schema of the SQLite file at `path`, opened with
    /// ``ReadOnlyDatabase/open(path:configuration:limits:)`` (nothing next to it is
    /// written); see ``read(from:)``, and ``read(from:model:)-(_,CoreDataModel?)`` for `model`.
    public static func read(sqliteFile path: String, model: URL? = nil) throws -> StoreSchema {
        guard FileManager.default.fileExists(atPath: path) else { throw StoreSchemaError("no such file: \(path)") }
        let coreDataModel = try model.map { url throws(StoreSchemaError) in try CoreDataModel(contentsOf: url) }
        let queue = try ReadOnlyDatabase.open(path: path, configuration: Configuration())
        return try queue.read { try read(from: $0, model: coreDataModel) }
    }

    /// The store's identifier, the `Z_UUID` of `Z_METADATA` (nil when it
    /// has no such column or row).
    private static func storeIdentifier(_ db: Database) throws -> String? {
        guard try db.columns(in: "Z_METADATA").contains(where: { $0.name.uppercased() == "Z_UUID" }) else { return nil }
        return try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA WHERE Z_UUID IS NOT NULL LIMIT 1")
    }

    /// The model a store caches in `Z_MODELCACHE`, if it has one.
    private static func cachedModel(_ db: Database, hasCache: Bool) throws -> CoreDataModel? {
        guard hasCache else { return nil }
        let size = try Int.fetchOne(db, sql: "SELECT max(length(Z_CONTENT)) FROM Z_MODELCACHE") ?? 0
        guard size > 0 else { return nil }
        guard size <= CoreDataModel.maximumSize else {
            throw StoreSchemaError("Z_MODELCACHE: \(size) bytes, over the model size limit of \(CoreDataModel.maximumSize)")
        }
        guard let data = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE WHERE length(Z_CONTENT) > 0 LIMIT 1")
        else { return nil }
        do {
            return try CoreDataModel(modelCache: data, source: "Z_MODELCACHE")
        } catch {
            throw StoreSchemaError(error.message + " (pass the model file with --model, or a schema file with --schema)")
        }
    }
}

// MARK: - Reading the catalog

/// SQLiteCatalog's queries run through GRDB.
enum SchemaReading {
    /// The tables of the main database, in creation order, with their SQL.
    static func tables(_ db: Database) throws -> [(name: String, sql: String)] {
        try Row.fetchAll(db, sql: SQLiteCatalog.tables).compactMap { row in
            guard let name = row.text("name") else { return nil }
            return (name, row.text("sql") ?? "")
        }
    }

    static func describe(_ db: Database, _ table: String) throws -> TableDescription {
        func rows(_ sql: String) throws -> [[SQLValue]] {
            try Row.fetchAll(db, sql: sql, arguments: [table]).map { row in row.databaseValues.map(SQLValue.init) }
        }
        var t = SQLiteCatalog.describe(
            table, columns: try rows(SQLiteCatalog.columns), foreignKeys: try rows(SQLiteCatalog.foreignKeys))
        if let candidate = SQLiteCatalog.rowIDCandidate(t),
            (try? db.makeStatement(sql: SQLiteCatalog.rowIDProbe(candidate, table))) != nil
        {
            t.rowID = candidate
        }
        return t
    }

    static func quote(_ identifier: String) -> String {
        SQLiteCatalog.quote(identifier)
    }

    /// The attribute type of a column (``SQLiteCatalog/type(of:coreData:)``),
    /// sampling a stored value only where the declared type leaves it open.
    static func type(
        of column: TableDescription.Column, in table: String, _ db: Database, coreData: Bool
    ) -> AttributeType {
        SQLiteCatalog.type(of: column, coreData: coreData).type {
            ((try? DatabaseValue.fetchOne(db, sql: SQLiteCatalog.sample(table, column.name))) ?? nil).map(SQLValue.init)
        }
    }
}

extension Row {
    /// A column as text; nil when NULL, missing, or not text. (The
    /// subscripts of GRDB trap on values they cannot convert.)
    fileprivate func text(_ column: String) -> String? {
        (self[column] as DatabaseValue?).flatMap { String.fromDatabaseValue($0) }
    }

    /// A column as an integer; nil when NULL, missing, or not a number.
    fileprivate func integer(_ column: String) -> Int? {
        (self[column] as DatabaseValue?).flatMap { Int.fromDatabaseValue($0) }
    }
}

// MARK: - Plain databases

struct PlainSchemaReader {
    let db: Database
    let tables: [(name: String, sql: String)]

    func read() throws -> StoreSchema {
        let descriptions = try SQLiteCatalog.plainTables(tables).map { try SchemaReading.describe(db, $0) }
        return SQLiteCatalog.plainSchema(descriptions) { c, t in SchemaReading.type(of: c, in: t.name, db, coreData: false) }
    }
}

// MARK: - Core Data stores

struct CoreDataSchemaReader {
    let db: Database
    let tables: [(name: String, sql: String)]

    struct Model {
        var number: Int
        var name: String
        var parent: Int
    }

    func read() throws -> StoreSchema {
        var models: [Int: Model] = [:]
        var order: [Int] = []
        let primaryKeyTable = tables.first { $0.name.uppercased() == "Z_PRIMARYKEY" }?.name ?? "Z_PRIMARYKEY"
        for row in try Row.fetchAll(db, sql: "SELECT * FROM \(SchemaReading.quote(primaryKeyTable))") {
            guard let number = row.integer("Z_ENT"), let name = row.text("Z_NAME"), models[number] == nil else { continue }
            models[number] = Model(number: number, name: name, parent: row.integer("Z_SUPER") ?? 0)
            order.append(number)
        }
        order.sort()
        let hierarchy = Hierarchy(models, order: order)
        let tableNames = Dictionary(tables.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
        var tableOf: [Int: String] = [:]
        var entitiesIn: [String: Int] = [:]
        for n in order {
            guard let r = hierarchy.root[n].flatMap({ models[$0] }), let table = tableNames["Z" + r.name.uppercased()]
            else { continue }
            tableOf[n] = table
            entitiesIn[table, default: 0] += 1
        }
        let byName = Dictionary(
            order.compactMap { n in models[n].map { ($0.name.lowercased(), n) } }, uniquingKeysWith: { a, _ in a })

        var unprefixed: [String: Int?] = [:]
        for n in order {
            guard let name = models[n].flatMap({ Self.unprefixed($0.name) }) else { continue }
            unprefixed[name] = unprefixed[name] == nil ? .some(n) : .some(nil)
        }

        var entities: [Entity] = []
        var taken: [NameSet] = []
        var index: [Int: Int] = [:]
        // Every entity of a table gets all its columns: read them once a table.
        var columnsOf: [String: (attributes: [Attribute], toOne: [Relationship])] = [:]
        for n in order {
            guard let model = models[n], let table = tableOf[n] else { continue }
            if columnsOf[table] == nil {
                let owner = hierarchy.root[n].flatMap { models[$0]?.name } ?? model.name
                columnsOf[table] = try readColumns(
                    table, owner: owner, byName: byName, unprefixed: unprefixed, tableOf: tableOf, models)
            }
            let (attributes, toOne) = columnsOf[table] ?? ([], [])
            let discriminator = (entitiesIn[table] ?? 0) > 1
                ? Discriminator(column: "Z_ENT", values: hierarchy.family(n)) : nil
            index[n] = entities.count
            entities.append(Entity(
                model.name, table: table, primaryKey: "Z_PK", attributes: attributes, relationships: toOne,
                discriminator: discriminator, entityNumber: n))
            taken.append(NameSet(attributes.map(\.name) + toOne.map(\.name)))
        }

        pairOneToOnes(&entities)

        // Inverses of the to-one relationships, from the root entity of the
        // table holding the key column; a one-to-one has its inverse.
        for n in order where tableOf[n] != nil && hierarchy.root[n] == n {
            guard let source = index[n] else { continue }
            for r in entities[source].relationships where r.inverse == nil {
                guard case .toOne(let column) = r.kind, let destination = byName[r.destination.lowercased()] else { continue }
                let base = entities[source].name.lowercased() + "s"
                for member in hierarchy.family(destination) {
                    guard let i = index[member], let name = taken[i].claim([base, base + "_" + r.name]) else { continue }
                    let inverse = Relationship.toMany(name, entities[source].name, inverseColumn: column)
                    entities[i].relationships.append(inverse)
                }
            }
        }

        // Many-to-many: Z_2TAGS(Z_2BOOKS, Z_3TAGS).
        for (table, _) in tables where Self.numbered(table) != nil {
            let columns = try SchemaReading.describe(db, table).columns.filter { !$0.name.uppercased().hasPrefix("Z_FOK_") }
            guard columns.count == 2, let first = Self.numbered(columns[0].name), let second = Self.numbered(columns[1].name)
            else { continue }
            let sides = [(first, columns[0].name, second, columns[1].name), (second, columns[1].name, first, columns[0].name)]
            for (from, fromColumn, to, toColumn) in sides {
                guard let destination = models[to.number], tableOf[to.number] != nil else { continue }
                for member in hierarchy.family(from.number) {
                    guard let i = index[member], let name = taken[i].claim([to.name.lowercased()]) else { continue }
                    entities[i].relationships.append(
                        .manyToMany(name, destination.name, joinTable: table, sourceColumn: fromColumn,
                                    destinationColumn: toColumn))
                }
            }
        }
        return StoreSchema(entities)
    }

    /// One-to-one relationships: where each of two tables holds a key to the
    /// other, and only one, the two to-ones are each other's inverse (and no
    /// to-many is invented for either).
    private func pairOneToOnes(_ entities: inout [Entity]) {
        func toOnes(_ e: Entity, to destination: String) -> [Relationship] {
            e.relationships.filter { r in
                if case .toOne = r.kind { return r.destination.lowercased() == destination.lowercased() }
                return false
            }
        }
        var byName: [String: Int] = [:]
        for (i, e) in entities.enumerated() where byName[e.name.lowercased()] == nil { byName[e.name.lowercased()] = i }
        var inverses: [String: [String: String]] = [:]  // table → relationship → inverse
        for source in entities {
            for r in source.relationships {
                guard case .toOne = r.kind, let d = byName[r.destination.lowercased()] else { continue }
                let destination = entities[d]
                let back = toOnes(destination, to: source.name)
                guard destination.table != source.table, back.count == 1, toOnes(source, to: destination.name).count == 1
                else { continue }
                inverses[source.table, default: [:]][r.name] = back[0].name
            }
        }
        for i in entities.indices {
            guard let names = inverses[entities[i].table] else { continue }
            for j in entities[i].relationships.indices {
                entities[i].relationships[j].inverse = names[entities[i].relationships[j].name]
            }
        }
    }

    /// The attributes and to-one relationships of a table's columns (see
    /// ``StoreSchema/read(from:)``). `owner` is the table's root entity.
    private func readColumns(
        _ table: String, owner: String, byName: [String: Int], unprefixed: [String: Int?], tableOf: [Int: String],
        _ models: [Int: Model]
    ) throws -> (attributes: [Attribute], toOne: [Relationship]) {
        var attributes: [Attribute] = []
        var toOne: [Relationship] = []
        let columns = try SchemaReading.describe(db, table).columns
        // `Z7_FILE`: the entity number of the destination of to-one `ZFILE`,
        // written when the destination has sub-entities.
        var numbered: [String: Int] = [:]
        for c in columns {
            let upper = c.name.uppercased()
            guard upper.hasPrefix("Z"), let underscore = upper.firstIndex(of: "_") else { continue }
            let digits = upper[upper.index(after: upper.startIndex)..<underscore]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(digits) else { continue }
            numbered[String(upper[upper.index(after: underscore)...])] = n
        }
        for c in columns {
            let upper = c.name.uppercased()
            let name: String
            if upper.hasPrefix("Z") {
                // Z_PK, Z_ENT, Z_OPT, Z_FOK_…, and Z3AUTHOR or Z6_FOLDER (entity numbers).
                guard let second = upper.dropFirst().first, second.isLetter else { continue }
                name = String(c.name.dropFirst()).lowercased()
            } else {
                name = c.name
            }
            let type = SchemaReading.type(of: c, in: table, db, coreData: true)
            if type == .integer, let destination = numbered[String(upper.dropFirst())]
                ?? Self.destination(of: name, owner: owner, byName, unprefixed: unprefixed),
                let d = models[destination], tableOf[destination] != nil
            {
                toOne.append(.toOne(name, d.name, column: c.name))
            } else {
                attributes.append(Attribute(name, type, column: c.name, optional: !c.notNull))
            }
        }
        return (attributes, toOne)
    }

    /// The entities as a forest, from their `Z_SUPER` links: each entity's
    /// root and its family (itself and its sub-entities), found in time
    /// linear in the number of entities however deep the chains of
    /// sub-entities are; each family is then a slice of the depth-first
    /// order, sorted. A link that would close a loop (a damaged store) is
    /// left out, so its entity is a root.
    struct Hierarchy {
        /// Each entity's root entity.
        private(set) var root: [Int: Int] = [:]
        /// The entities, each root followed by the families of its
        /// sub-entities, depth first.
        private var preorder: [Int] = []
        /// Where each entity's family lies in `preorder`.
        private var span: [Int: Range<Int>] = [:]

        init(_ models: [Int: Model], order: [Int]) {
            var parent: [Int: Int] = [:]
            // Each entity is walked once: a walk stops at an entity whose
            // root an earlier walk found.
            for start in order where root[start] == nil {
                var path: [Int] = []
                var onPath: Set<Int> = []
                var current = start
                var top = start
                while true {
                    path.append(current)
                    onPath.insert(current)
                    guard let p = models[current]?.parent, p != 0, models[p] != nil, !onPath.contains(p) else {
                        top = current
                        break
                    }
                    parent[current] = p
                    if let r = root[p] {
                        top = r
                        break
                    }
                    current = p
                }
                for n in path { root[n] = top }
            }
            var children: [Int: [Int]] = [:]
            for n in order {
                if let p = parent[n] { children[p, default: []].append(n) }
            }
            for r in order where root[r] == r {
                // Depth first without recursion: a chain may be thousands deep.
                var pending = [(entity: r, leaving: false)]
                var first: [Int: Int] = [:]
                while let (n, leaving) = pending.popLast() {
                    if leaving {
                        span[n] = (first[n] ?? 0)..<preorder.count
                        continue
                    }
                    first[n] = preorder.count
                    preorder.append(n)
                    pending.append((n, true))
                    for c in (children[n] ?? []).reversed() { pending.append((c, false)) }
                }
            }
        }

        /// `n` and the entities below it, in ascending order.
        func family(_ n: Int) -> [Int] {
            guard let span = span[n] else { return [] }
            return preorder[span].sorted()
        }
    }

    /// The entity an integer column `name` (its column without the `Z`)
    /// refers to, by its name: the entity of that name (`author` →
    /// `Author`, also with a trailing number dropped: `author2`); else the
    /// table's entity's name followed by it (`serverdata` in `SFNote`'s
    /// table → `SFNoteServerData`); else the one entity named so after a
    /// class prefix of capitals (`note` → `SFNote`; `unprefixed` holds these
    /// names, nil where two entities share one).
    static func destination(
        of name: String, owner: String, _ byName: [String: Int], unprefixed: [String: Int?]
    ) -> Int? {
        let lower = name.lowercased()
        return byName[lower] ?? byName[droppingNumber(lower)] ?? byName[owner.lowercased() + lower]
            ?? unprefixed[lower] ?? nil
    }

    /// `SFNote` → `note`: the name after a class prefix of two or more
    /// capitals, lower-cased; nil without one.
    static func unprefixed(_ name: String) -> String? {
        let capitals = name.prefix { $0.isASCII && $0.isUppercase }.count
        guard capitals >= 2, capitals < name.count else { return nil }
        return name.dropFirst(capitals - 1).lowercased()
    }

    /// `author2` → `author`: Core Data numbers columns of sub-entities'
    /// properties that share a name.
    static func droppingNumber(_ name: String) -> String {
        var s = Substring(name)
        while let last = s.last, last.isASCII, last.isNumber { s = s.dropLast() }
        return String(s)
    }

    /// `Z_2TAGS` → (2, `TAGS`).
    static func numbered(_ name: String) -> (number: Int, name: String)? {
        guard name.uppercased().hasPrefix("Z_") else { return nil }
        let rest = name.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let relationship = rest.dropFirst(digits.count)
        guard let first = relationship.first, first.isLetter else { return nil }
        return (number, String(relationship))
    }
}
