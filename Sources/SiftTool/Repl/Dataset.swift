import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// What the REPL works on: one or more named collections of objects, and,
/// for data from SQLite, the schema and the database the same rows live in.
struct Dataset {
    /// The objects of one entity (or one JSON file).
    struct Collection {
        var name: String
        /// The objects, decoded: for the sample and a database (a JSON
        /// file's are in ``records``).
        var rows: [Value]
        /// The keys shown as table columns, in order.
        var columns: [String]
        /// The key paths offered by completion.
        var keyPaths: [String]
        /// For rows read from a database: each row's primary key.
        var primaryKeys: [DatabaseValue]?
        /// For a JSON or JSON Lines file: its records as bytes, decoded
        /// when needed.
        var records: JSONRecords? = nil

        /// How many objects there are.
        var count: Int { records?.count ?? rows.count }

        /// Object `index` (from 0).
        func row(_ index: Int) -> Value { records?.value(at: index) ?? rows[index] }
    }

    /// Where the data came from (`the sample`, a file name).
    var origin: String
    var collections: [Collection]
    var schema: StoreSchema?
    var database: DatabaseQueue?
    /// For a PostgreSQL database: the connection predicates run on. Its
    /// collections hold no rows; each predicate is a fetch on the server.
    var server: PostgresDatabase?

    /// How many relationships deep the objects of a database are built:
    /// `book.authors.books.title` follows three.
    static let relationshipDepth = 3

    func collection(named name: String) -> Int? {
        collections.firstIndex { $0.name == name }
            ?? collections.firstIndex { $0.name.lowercased() == name.lowercased() }
    }

    /// The built-in sample: books, authors, tags and memos.
    static func sample() throws -> Dataset {
        let queue = try SampleData.database()
        return try Dataset(origin: "the sample data", database: queue, schema: SampleData.schema)
    }

    /// A JSON array, JSON Lines, or a SQLite file (its schema read from it).
    static func load(path: String, model: CoreDataModel? = nil) throws -> Dataset {
        if PostgresURL.matches(path) {
            if model != nil { throw PostgresURL.modelGiven }
            return Dataset(server: try PostgresDatabase.open(path))
        }
        try InputFile.requireRegular(path)
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw CommandFailure(
                FileManager.default.fileExists(atPath: path) ? "cannot read \(path)" : "no such file: \(path)")
        }
        let header = handle.readData(ofLength: 16)
        try? handle.close()
        if header == Data("SQLite format 3\0".utf8) {
            let limits = try ReadOnlyDatabase.Limits.fromEnvironment()
            do {
                let queue = try ReadOnlyDatabase.open(path: path, limits: limits)
                let schema = try queue.read { try StoreSchema.read(from: $0, model: model) }
                return try Dataset(origin: path, database: queue, schema: schema)
            } catch {
                throw CommandFailure("\(path): " + SchemaFile.describe(error))
            }
        }
        let loaded: JSONRecords.Loaded
        do {
            loaded = try JSONRecords.load(path: path)
        } catch let e as CommandFailure {
            throw CommandFailure("\(path): \(e.message)")
        }
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        let collection = Collection(
            name: name, rows: [], columns: loaded.keys, keyPaths: Self.keyPaths(loaded.sample), primaryKeys: nil,
            records: loaded.records)
        return Dataset(origin: path, collections: [collection], schema: nil, database: nil)
    }

    init(origin: String, collections: [Collection], schema: StoreSchema?, database: DatabaseQueue?) {
        self.origin = origin
        self.collections = collections
        self.schema = schema
        self.database = database
    }

    /// The entities of a PostgreSQL database, whose rows stay on the server.
    init(server: PostgresDatabase) {
        origin = server.name
        schema = server.schema
        self.server = server
        collections = server.schema.entities.map { entity in
            Collection(
                name: entity.name, rows: [], columns: entity.attributes.map(\.name) + entity.composites.map(\.name),
                keyPaths: Self.keyPaths(entity, in: server.schema), primaryKeys: nil)
        }
    }

    /// The key paths completion offers for `entity`: its attributes, its
    /// relationships (and `@count` of the to-many ones), and their
    /// destinations' attributes.
    private static func keyPaths(_ entity: Entity, in schema: StoreSchema) -> [String] {
        var paths: [String] = []
        for a in entity.attributes { paths.append(a.name) }
        for c in entity.composites { paths += c.elements.map { c.name + "." + $0.name } }
        for r in entity.relationships {
            paths.append(r.name)
            if r.isToMany { paths.append(r.name + ".@count") }
            for a in schema.entity(named: r.destination)?.attributes ?? [] { paths.append(r.name + "." + a.name) }
        }
        return paths
    }

    /// Reads every entity's rows, building the objects' relationships
    /// ``relationshipDepth`` levels deep (rows are shared between levels,
    /// so memory grows with rows and links, not with paths).
    init(origin: String, database: DatabaseQueue, schema: StoreSchema) throws {
        let q = Dialect.sqlite.quote
        var keys: [String: [DatabaseValue]] = [:]
        var attributes: [String: [DatabaseValue: [String: Value]]] = [:]
        var links: [String: [String: [DatabaseValue: [DatabaseValue]]]] = [:]
        try database.read { db in
            for entity in schema.entities {
                let rows = try FetchSpecification(entity: entity.name).fetchValues(db, schema: schema)
                var order: [DatabaseValue] = []
                var byKey: [DatabaseValue: [String: Value]] = [:]
                // The primary key is a key of the objects only where the
                // schema makes it an attribute (as plain tables' `id`).
                let keyAttribute = entity.attributes.first { $0.column == entity.primaryKey }?.name
                for case .dictionary(var row) in rows {
                    let stored = row.removeValue(forKey: entity.primaryKey)
                    if let keyAttribute { row[keyAttribute] = stored }
                    let key = stored.map(Self.databaseValue) ?? .null
                    order.append(key)
                    byKey[key] = row
                }
                keys[entity.name] = order
                attributes[entity.name] = byKey
                for r in entity.relationships {
                    guard let destination = schema.entity(named: r.destination) else { continue }
                    // To-manys list their objects in the relationship's
                    // order where it is ordered, else by key.
                    let order = r.orderColumn.map { q($0) + ", " } ?? ""
                    let sql: String
                    switch r.kind {
                    case .toOne(let column):
                        sql = "SELECT \(q(entity.primaryKey)), \(q(column)) FROM \(q(entity.table)) WHERE \(q(column)) IS NOT NULL"
                    case .toMany(let inverse):
                        sql = "SELECT \(q(inverse)), \(q(destination.primaryKey)) FROM \(q(destination.table)) "
                            + "WHERE \(q(inverse)) IS NOT NULL ORDER BY \(order)\(q(destination.primaryKey))"
                    case .manyToMany(let table, let source, let target):
                        sql = "SELECT \(q(source)), \(q(target)) FROM \(q(table)) ORDER BY \(order)\(q(target))"
                    }
                    var map: [DatabaseValue: [DatabaseValue]] = [:]
                    for row in try Row.fetchAll(db, sql: sql) { map[row[0] as DatabaseValue, default: []].append(row[1]) }
                    links[entity.name, default: [:]][r.name] = map
                }
            }
        }
        // Level 0 holds attributes only; level n adds relationships to level n-1.
        var level: [String: [DatabaseValue: Value]] = attributes.mapValues { $0.mapValues { Value.dictionary($0) } }
        for _ in 0..<Self.relationshipDepth {
            var next: [String: [DatabaseValue: Value]] = [:]
            for entity in schema.entities {
                var objects: [DatabaseValue: Value] = [:]
                for (key, row) in attributes[entity.name] ?? [:] {
                    var object = row
                    for r in entity.relationships {
                        let targets = links[entity.name]?[r.name]?[key] ?? []
                        let lookup = level[r.destination] ?? [:]
                        if r.isToMany {
                            object[r.name] = .array(targets.compactMap { lookup[$0] })
                        } else if let target = targets.first {
                            // A key whose row is not in the store (or not of
                            // the destination entity) is an object all the
                            // same, with no keys: SQL tests the key column
                            // for `x == nil`, and its outer join reads nil
                            // for `x.name`.
                            object[r.name] = lookup[target] ?? .dictionary([:])
                        } else {
                            object[r.name] = .null
                        }
                    }
                    objects[key] = .dictionary(object)
                }
                next[entity.name] = objects
            }
            level = next
        }
        self.origin = origin
        self.schema = schema
        self.database = database
        collections = schema.entities.map { entity in
            let order = keys[entity.name] ?? []
            let objects = level[entity.name] ?? [:]
            return Collection(
                name: entity.name, rows: order.map { objects[$0] ?? .null },
                columns: entity.attributes.map(\.name) + entity.composites.map(\.name) + entity.relationships.map(\.name),
                keyPaths: Self.keyPaths(entity, in: schema), primaryKeys: order)
        }
    }

    /// A collection of JSON objects: columns are the keys in first-seen order.
    static func collection(name: String, records: [JSONValue]) -> Collection {
        let rows = records.map(\.predicateValue)
        var columns = KeyOrder()
        for case .object(let o) in records { columns.add(o.keys) }
        return Collection(
            name: name, rows: rows, columns: columns.names, keyPaths: keyPaths(rows.prefix(JSONRecords.sampleSize)),
            primaryKeys: nil)
    }

    /// The key paths completion offers for JSON objects: their keys, and
    /// those of the objects inside them, three levels deep (an array's
    /// `@count` and the keys of its first 20 elements), from `rows`.
    static func keyPaths(_ rows: some Sequence<Value>) -> [String] {
        var paths: Set<String> = []
        func walk(_ value: Value, _ prefix: String, _ depth: Int) {
            guard depth < 3 else { return }
            switch value {
            case .dictionary(let d):
                for (k, v) in d {
                    let path = prefix.isEmpty ? k : prefix + "." + k
                    paths.insert(path)
                    walk(v, path, depth + 1)
                }
            case .array(let items):
                if !prefix.isEmpty { paths.insert(prefix + ".@count") }
                for item in items.prefix(20) { walk(item, prefix, depth) }
            default: break
            }
        }
        for row in rows { walk(row, "", 0) }
        return paths.sorted()
    }

    private static func databaseValue(_ value: Value) -> DatabaseValue {
        switch value {
        case .int(let i): return i.databaseValue
        case .string(let s): return s.databaseValue
        case .double(let d): return d.databaseValue
        default: return .null
        }
    }
}
