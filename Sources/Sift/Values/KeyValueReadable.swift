/// A type whose properties predicates can read by key, the way key-value
/// coding reads Objective-C objects.
///
/// Conform by listing the keys once, in a ``KeyTable``; each key's reader
/// is looked up once per compiled key path and type, not per object:
///
/// ```swift
/// struct Book: KeyValueReadable {
///     var title: String
///     var year: Int
///     var author: Author          // also KeyValueReadable
///     var tags: [String]
///
///     static let keyTable = KeyTable<Book>([
///         "title": { .string($0.title) },
///         "year": { .int($0.year) },
///         "author": { $0.author.predicateValue },
///         "tags": { $0.tags.predicateValue },
///     ])
/// }
/// ```
///
/// A key that is not in the table is an error when evaluated (as
/// `valueForUndefinedKey:` raises), except `self`, which is the object.
public protocol KeyValueReadable: ValueConvertible, Sendable {
    /// The keys of the type and how to read them.
    static var keyTable: KeyTable<Self> { get }
}

extension KeyValueReadable {
    /// The object, as ``Value/object(_:)-enum.case``: keys are read through its ``KeyTable``.
    public var predicateValue: Value { .object(ObjectValue(self)) }
}

/// The readers of a ``KeyValueReadable`` type's keys.
///
/// Readers can return a ``Value`` (`{ .int($0.year) }`), or say the
/// property's type (`.int { $0.year }`, `.string { $0.title }`,
/// `.strings { $0.tags }`, `.object { $0.author }`). Typed readers let a
/// ``TypedFilter`` compare without building values: `year > 1980` becomes a
/// direct integer comparison, and `author.name` reads through the nested
/// type's table when compiling.
public struct KeyTable<Root>: Sendable {
    /// A reader that returns the key's value as a ``Value``.
    public typealias Reader = @Sendable (Root) -> Value

    let readers: [String: KeyReader<Root>]

    /// A table of readers that return values.
    public init(_ readers: [String: Reader]) {
        self.init(typed: readers.mapValues { KeyReader.value($0) })
    }

    /// A table of typed readers.
    public init(typed readers: [String: KeyReader<Root>]) {
        self.readers = readers
    }

    /// The key whose reader reads `keyPath`, or nil when no reader of the
    /// table records it: readers given by key path (`.int(\.year)`,
    /// `.property(\Book.year)`, as `@KeyValueReadable` writes them) record
    /// theirs, a closure records one through ``KeyReader/reads(_:)``.
    ///
    /// Looked up by a scan, when a Swift predicate is converted, rather
    /// than kept in the table: a generic type builds its table each time it
    /// is asked (``KeyValueReadable``), which reading a key does.
    public func key(for keyPath: PartialKeyPath<Root>) -> String? {
        key(forAnyKeyPath: keyPath)
    }

    /// The key whose reader records `keyPath`; of two such keys, the first
    /// in order, the same on every run.
    private func key(forAnyKeyPath keyPath: AnyKeyPath) -> String? {
        let target = RecordedKeyPath(keyPath)
        return readers.lazy.filter { $0.value.keyPath == target }.map(\.key).min()
    }

    /// The keys a key path of several steps reads (`\Book.author.name` is
    /// `["author", "name"]`): each step through a to-one relationship given
    /// by key path, at most `depth` steps. Nil when a step is not in a table.
    public func keys(for keyPath: PartialKeyPath<Root>, depth: Int = 4) -> [String]? {
        keys(forAnyKeyPath: keyPath, depth: depth)
    }

    func keys(forAnyKeyPath keyPath: AnyKeyPath, depth: Int) -> [String]? {
        if let key = key(forAnyKeyPath: keyPath) { return [key] }
        guard depth > 1 else { return nil }
        for (key, reader) in readers.sorted(by: { $0.key < $1.key }) {
            guard let first = reader.keyPath?.path, let type = reader.relationshipType else { continue }
            if let rest = type.keys(after: first, reaching: keyPath, depth: depth - 1) { return [key] + rest }
        }
        return nil
    }

    /// The reader for `key`, or nil if the type has no such key.
    public func reader(forKey key: String) -> Reader? {
        readers[key]?.valueReader
    }

    /// The typed reader for `key`, or nil if the type has no such key.
    public func typedReader(forKey key: String) -> KeyReader<Root>? {
        readers[key]
    }

    /// The keys of the table, sorted.
    public var keys: [String] { readers.keys.sorted() }
}

/// How to read one key of a type: as a ``Value``, or as the property's own
/// type so that compiled filters can skip building values.
///
/// Give a stored property by its key path (`.int(\.year)`) where you can: a
/// ``TypedFilter`` then reads the property straight from the object's memory,
/// at the property's offset, instead of calling a closure with a copy of the
/// object. Closures (`.int { $0.year }`) work for anything else (computed
/// properties, classes), as do key paths that are not stored in the type.
public struct KeyReader<Root>: Sendable {
    enum Kind: Sendable {
        case value(@Sendable (Root) -> Value)
        case int(@Sendable (Root) -> Int)
        case double(@Sendable (Root) -> Double)
        case string(@Sendable (Root) -> String)
        case bool(@Sendable (Root) -> Bool)
        case strings(@Sendable (Root) -> [String])
        case object(value: @Sendable (Root) -> Value, nested: @Sendable (String) -> KeyReader<Root>?)
    }

    let kind: Kind
    /// Where the property is in a `Root`'s memory, when it is stored inline
    /// in it (a stored property of a struct, through stored structs).
    let offset: Int?
    /// The key path the reader reads, when it is known: Swift predicates
    /// (`#Predicate`) name properties by key path, and the table maps them
    /// back to keys through it.
    let keyPath: RecordedKeyPath?
    /// The type a to-one relationship reads, whose table names the keys
    /// after it.
    let relationshipType: (any KeyValueReadable.Type)?

    init(
        kind: Kind, offset: Int? = nil, keyPath: RecordedKeyPath? = nil,
        relationshipType: (any KeyValueReadable.Type)? = nil
    ) {
        self.kind = kind
        self.offset = offset
        self.keyPath = keyPath
        self.relationshipType = relationshipType
    }

    /// The same reader, recorded as reading `path`, so that a Swift
    /// predicate that reads `path` converts to this reader's key:
    /// `"age": .int { 2026 - $0.year }.reads(\.age)`. Readers given by key
    /// path record it themselves.
    public func reads(_ path: PartialKeyPath<Root> & Sendable) -> KeyReader {
        KeyReader(kind: kind, offset: offset, keyPath: RecordedKeyPath(path), relationshipType: relationshipType)
    }

    /// A key read by a closure that returns a ``Value`` (for optionals:
    /// `{ $0.subtitle.predicateValue }`).
    public static func value(_ read: @escaping @Sendable (Root) -> Value) -> KeyReader { KeyReader(kind: .value(read)) }
    /// An integer read by a closure: `.int { $0.pages.count }`.
    public static func int(_ read: @escaping @Sendable (Root) -> Int) -> KeyReader { KeyReader(kind: .int(read)) }
    /// A double read by a closure.
    public static func double(_ read: @escaping @Sendable (Root) -> Double) -> KeyReader { KeyReader(kind: .double(read)) }
    /// A string read by a closure.
    public static func string(_ read: @escaping @Sendable (Root) -> String) -> KeyReader { KeyReader(kind: .string(read)) }
    /// A Boolean read by a closure.
    public static func bool(_ read: @escaping @Sendable (Root) -> Bool) -> KeyReader { KeyReader(kind: .bool(read)) }
    /// A to-many attribute of strings (`tags`).
    public static func strings(_ read: @escaping @Sendable (Root) -> [String]) -> KeyReader {
        KeyReader(kind: .strings(read))
    }

    /// A to-one relationship: key paths through it (`author.name`) are
    /// resolved through `T`'s table when a filter is compiled.
    public static func object<T: KeyValueReadable>(_ read: @escaping @Sendable (Root) -> T) -> KeyReader {
        object(read, offset: nil)
    }

    /// A to-many relationship (`authors`), read as an array of objects.
    public static func objects<T: KeyValueReadable>(_ read: @escaping @Sendable (Root) -> [T]) -> KeyReader {
        KeyReader(kind: .value({ root in .array(read(root).map { .object(ObjectValue($0)) }) }))
    }

    // Stored properties by key path.

    /// A ``Value`` property, read in place when `path` is stored.
    public static func value(_ path: KeyPath<Root, Value> & Sendable) -> KeyReader { stored(path, Kind.value) }
    /// An `Int` property: `.int(\\.year)`, read in place when stored.
    public static func int(_ path: KeyPath<Root, Int> & Sendable) -> KeyReader { stored(path, Kind.int) }
    /// A `Double` property, read in place when stored.
    public static func double(_ path: KeyPath<Root, Double> & Sendable) -> KeyReader { stored(path, Kind.double) }
    /// A `String` property, read in place when stored.
    public static func string(_ path: KeyPath<Root, String> & Sendable) -> KeyReader { stored(path, Kind.string) }
    /// A `Bool` property, read in place when stored.
    public static func bool(_ path: KeyPath<Root, Bool> & Sendable) -> KeyReader { stored(path, Kind.bool) }
    /// A to-many attribute of strings (`tags`).
    public static func strings(_ path: KeyPath<Root, [String]> & Sendable) -> KeyReader { stored(path, Kind.strings) }

    /// The reader of `path` as `kind`, with the property's offset when it is
    /// stored inline.
    private static func stored<V>(
        _ path: KeyPath<Root, V> & Sendable, _ kind: (@escaping @Sendable (Root) -> V) -> Kind
    ) -> KeyReader {
        KeyReader(kind: kind { $0[keyPath: path] }, offset: MemoryLayout<Root>.offset(of: path), keyPath: RecordedKeyPath(path))
    }

    /// A to-one relationship: key paths through it (`author.name`) are
    /// resolved through `T`'s table when a filter is compiled. When `T` is a
    /// struct stored in `Root`, its stored properties are read in place too.
    public static func object<T: KeyValueReadable>(_ path: KeyPath<Root, T> & Sendable) -> KeyReader {
        object({ $0[keyPath: path] }, offset: MemoryLayout<Root>.offset(of: path)).reads(path)
    }

    /// A to-many relationship (`authors`), read as an array of objects.
    public static func objects<T: KeyValueReadable>(_ path: KeyPath<Root, [T]> & Sendable) -> KeyReader {
        objects { $0[keyPath: path] }.reads(path)
    }

    private static func object<T: KeyValueReadable>(_ read: @escaping @Sendable (Root) -> T, offset: Int?)
        -> KeyReader
    {
        KeyReader(
            kind: .object(
                value: { .object(ObjectValue(read($0))) },
                nested: { key in T.keyTable.typedReader(forKey: key)?.composed(after: read, at: offset) }),
            offset: offset, relationshipType: T.self)
    }

    /// The reader as one that returns a ``Value``.
    public var valueReader: @Sendable (Root) -> Value {
        switch kind {
        case .value(let f): return f
        case .int(let f): return { .int(f($0)) }
        case .double(let f): return { .double(f($0)) }
        case .string(let f): return { .string(f($0)) }
        case .bool(let f): return { .bool(f($0)) }
        case .strings(let f): return { .array(f($0).map { .string($0) }) }
        case .object(let f, _): return f
        }
    }

    /// This reader applied to what `outer` reads; `base` is where that is
    /// stored in an `Outer`, if it is stored inline.
    func composed<Outer>(after outer: @escaping @Sendable (Outer) -> Root, at base: Int?) -> KeyReader<Outer> {
        let offset = base.flatMap { b in self.offset.map { b + $0 } }
        switch kind {
        case .value(let f): return KeyReader<Outer>(kind: .value { f(outer($0)) }, offset: offset)
        case .int(let f): return KeyReader<Outer>(kind: .int { f(outer($0)) }, offset: offset)
        case .double(let f): return KeyReader<Outer>(kind: .double { f(outer($0)) }, offset: offset)
        case .string(let f): return KeyReader<Outer>(kind: .string { f(outer($0)) }, offset: offset)
        case .bool(let f): return KeyReader<Outer>(kind: .bool { f(outer($0)) }, offset: offset)
        case .strings(let f): return KeyReader<Outer>(kind: .strings { f(outer($0)) }, offset: offset)
        case .object(let f, let nested):
            return KeyReader<Outer>(
                kind: .object(
                    value: { f(outer($0)) },
                    nested: { key in nested(key)?.composed(after: outer, at: base) }),
                offset: offset)
        }
    }

    /// The reader of a key path through to-one relationships, if every step
    /// but the last is a typed relationship.
    static func path(_ keys: [String], from first: KeyReader<Root>?) -> KeyReader<Root>? {
        guard var reader = first else { return nil }
        for key in keys.dropFirst() {
            guard case .object(_, let nested) = reader.kind, let next = nested(key) else { return nil }
            reader = next
        }
        return reader
    }
}

/// A key path as a dictionary key: key paths are immutable, so sharing one
/// across threads is safe although `AnyKeyPath` is not declared `Sendable`.
struct RecordedKeyPath: Hashable, @unchecked Sendable {
    let path: AnyKeyPath

    init(_ path: AnyKeyPath) {
        self.path = path
    }
}

/// An object of a ``KeyValueReadable`` type inside a ``Value``.
///
/// Equality is the type's own `==` when it is `Hashable` (as `isEqual:`
/// is for value objects), identity for class instances, and never true
/// otherwise. Nothing is computed when the object is wrapped: reading a key
/// goes straight to the type's ``KeyTable``.
public struct ObjectValue: Sendable, Hashable, CustomStringConvertible {
    /// The wrapped object.
    public let base: any KeyValueReadable

    /// Wraps `base`; nothing is read until a key is.
    public init<T: KeyValueReadable>(_ base: T) {
        self.base = base
    }

    /// The value for `key`, or nil if the type has no such key.
    public func value(forKey key: String) -> Value? { base.predicateValue(forKey: key) }

    /// The name of the object's type, which a ``FetchSpecification``'s entity is compared with.
    public var typeName: String { String(describing: type(of: base)) }

    /// Whether the object is of the type named `entity` or, when
    /// `includingSubentities`, of a subclass of the class so named, as a
    /// Core Data fetch of an entity includes its sub-entities' objects.
    /// Superclasses are found through the object's mirror (a class that
    /// makes its own `customMirror` decides what they are).
    public func isOfEntity(_ entity: String, includingSubentities: Bool) -> Bool {
        if typeName == entity { return true }
        guard includingSubentities, type(of: base) is AnyClass else { return false }
        var mirror = Mirror(reflecting: base).superclassMirror
        while let m = mirror {
            if String(describing: m.subjectType) == entity { return true }
            mirror = m.superclassMirror
        }
        return false
    }

    /// The object's own description.
    public var description: String { String(describing: base) }

    private var identity: AnyHashable? {
        if let h = base as? any Hashable { return AnyHashable(h) }
        if type(of: base) is AnyClass { return AnyHashable(ObjectIdentifier(base as AnyObject)) }
        return nil
    }

    /// The object's own `==` when it is `Hashable`, identity for class instances, otherwise false.
    public static func == (a: ObjectValue, b: ObjectValue) -> Bool {
        guard let x = a.identity, let y = b.identity else { return false }
        return x == y
    }

    /// Hashes what ``==(_:_:)`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}

extension KeyValueReadable {
    /// The keys of this type that `first` followed by them reaches `target`.
    static func keys(after first: AnyKeyPath, reaching target: AnyKeyPath, depth: Int) -> [String]? {
        for (key, reader) in keyTable.readers.sorted(by: { $0.key < $1.key }) {
            guard let step = reader.keyPath?.path, let joined = first.appending(path: step) else { continue }
            if joined == target { return [key] }
            if depth > 1, let type = reader.relationshipType,
                let rest = type.keys(after: joined, reaching: target, depth: depth - 1)
            {
                return [key] + rest
            }
        }
        return nil
    }

    /// The value for `key` through the type's ``KeyTable``, or nil.
    func predicateValue(forKey key: String) -> Value? {
        Self.keyTable.reader(forKey: key).map { read in read(self) }
    }
}

extension Value {
    /// A value for an object of a ``KeyValueReadable`` type.
    public static func object<T: KeyValueReadable>(_ base: T) -> Value { .object(ObjectValue(base)) }
}
