import Sift

/// ``Library``'s objects as objects of a type of the user's, for the
/// typed-object differential: each object one instance (or one value),
/// which every book that holds it holds, so that memory compares them as
/// the type does and SQL by their `id`.
///
/// - ``LibraryInstance`` is a final class: memory compares instances by
///   identity, as Core Data compares managed objects.
/// - ``LibraryRecord`` is a `Hashable` struct: memory compares records by
///   `==`, every stored property.
///
/// Either reads every key of every entity through one key table (a key
/// the entity lacks reads nil; the generated predicates name none).
package struct TypedLibrary<Object: KeyValueReadable> {
    /// The books, in primary-key order.
    package var books: [Object] = []
    /// Every object as a value (``Value/object(_:)-enum.case``), by entity and key.
    package var objects: [String: [Int: Value]] = [:]
    /// An object of `entity` with key `id` and these values.
    let make: @Sendable (String, Int, [String: Value]) -> Object

    package init(_ library: Library, make: @escaping @Sendable (String, Int, [String: Value]) -> Object) {
        self.make = make
        for entity in ["Author", "Tag", "Chapter"] {
            for (id, value) in library.objects[entity] ?? [:] {
                guard case .dictionary(let fields) = value else { continue }
                objects[entity, default: [:]][id] = make(entity, id, fields).predicateValue
            }
        }
        for case .dictionary(var fields) in library.books {
            guard case .int(let id)? = fields["id"] else { continue }
            fields["author"] = shared("Author", fields["author"])
            for key in ["chapters", "tags"] {
                if case .array(let items)? = fields[key] { fields[key] = .array(items.map { shared(key == "tags" ? "Tag" : "Chapter", $0) }) }
            }
            let book = make("Book", id, fields)
            books.append(book)
            objects["Book", default: [:]][id] = book.predicateValue
        }
    }

    /// The object of `entity` that `value` (a dictionary of ``Library``)
    /// stands for.
    private func shared(_ entity: String, _ value: Value?) -> Value {
        guard case .dictionary(let d)? = value, case .int(let id)? = d["id"], let object = objects[entity]?[id] else {
            return .null
        }
        return object
    }

    /// An object of `entity` with key `id` that no book holds: a new
    /// instance of an object's key compares unequal to it in memory, while
    /// SQL, which knows only keys, finds its row. So only keys no object
    /// has (0, 999) make one.
    package func stranger(_ entity: String, _ id: Int) -> Value {
        make(entity, id, ["id": .int(id)]).predicateValue
    }

    /// An object of `entity`, drawn as the generator draws one: mostly one
    /// the books hold, sometimes a stranger.
    package func draw(_ entity: String, _ g: inout PredicateGenerator) -> Value {
        let pool = objects[entity] ?? [:]
        if g.chance(0.1) { return stranger(entity, g.pick([0, 999])) }
        return pool[g.pick(pool.keys.sorted())] ?? .null
    }
}

extension TypedLibrary where Object == LibraryInstance {
    /// The objects as instances of a final class.
    package init(instancesOf library: Library) {
        self.init(library) { LibraryInstance(entity: $0, id: $1, fields: $2) }
    }
}

extension TypedLibrary where Object == LibraryRecord {
    /// The objects as `Hashable` structs.
    package init(recordsOf library: Library) {
        self.init(library) { LibraryRecord(entity: $0, id: $1, fields: $2) }
    }
}

/// An object of ``Library`` as an instance: compared by identity.
package final class LibraryInstance: KeyValueReadable, Identifiable, CustomStringConvertible {
    package let entity: String
    package let id: Int
    let fields: [String: Value]

    init(entity: String, id: Int, fields: [String: Value]) {
        self.entity = entity
        self.id = id
        self.fields = fields
    }

    package static let keyTable = KeyTable<LibraryInstance>(Library.readers { $0.fields })

    package var description: String { "\(entity) \(id) (instance)" }
}

/// An object of ``Library`` as a value: compared by `==`.
package struct LibraryRecord: KeyValueReadable, Identifiable, Hashable, CustomStringConvertible {
    package let entity: String
    package let id: Int
    let fields: [String: Value]

    package static let keyTable = KeyTable<LibraryRecord>(Library.readers { $0.fields })

    package var description: String { "\(entity) \(id) (record)" }
}

extension Library {
    /// A reader for every key of every entity of ``schema`` and `id`, each
    /// reading the object's values (nil where it has none).
    static func readers<Root>(_ fields: @escaping @Sendable (Root) -> [String: Value]) -> [String: KeyTable<Root>.Reader] {
        var keys: Set<String> = ["id"]
        for entity in schema.entities {
            keys.formUnion(entity.attributes.map(\.name))
            keys.formUnion(entity.relationships.map(\.name))
        }
        var readers: [String: KeyTable<Root>.Reader] = [:]
        for key in keys {
            readers[key] = { (root: Root) -> Value in fields(root)[key] ?? .null }
        }
        return readers
    }
}
