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
    public var predicateValue: Value { .object(ObjectValue(self)) }
}

/// The readers of a ``KeyValueReadable`` type's keys.
public struct KeyTable<Root>: Sendable {
    public typealias Reader = @Sendable (Root) -> Value

    let readers: [String: Reader]

    public init(_ readers: [String: Reader]) {
        self.readers = readers
    }

    /// The reader for `key`, or nil if the type has no such key.
    public func reader(forKey key: String) -> Reader? {
        readers[key]
    }

    public var keys: [String] { readers.keys.sorted() }
}

/// An object of a ``KeyValueReadable`` type inside a ``Value``.
///
/// Equality is the type's own `==` when it is `Hashable` (as `isEqual:`
/// is for value objects), identity for class instances, and never true
/// otherwise. Nothing is computed when the object is wrapped: reading a key
/// goes straight to the type's ``KeyTable``.
public struct ObjectValue: Sendable, Hashable, CustomStringConvertible {
    public let base: any KeyValueReadable

    public init<T: KeyValueReadable>(_ base: T) {
        self.base = base
    }

    /// The value for `key`, or nil if the type has no such key.
    public func value(forKey key: String) -> Value? { base.predicateValue(forKey: key) }

    public var typeName: String { String(describing: type(of: base)) }

    public var description: String { String(describing: base) }

    private var identity: AnyHashable? {
        if let h = base as? any Hashable { return AnyHashable(h) }
        if type(of: base) is AnyClass { return AnyHashable(ObjectIdentifier(base as AnyObject)) }
        return nil
    }

    public static func == (a: ObjectValue, b: ObjectValue) -> Bool {
        guard let x = a.identity, let y = b.identity else { return false }
        return x == y
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}

extension KeyValueReadable {
    /// The value for `key` through the type's ``KeyTable``, or nil.
    func predicateValue(forKey key: String) -> Value? {
        Self.keyTable.reader(forKey: key).map { read in read(self) }
    }
}

extension Value {
    /// A value for an object of a ``KeyValueReadable`` type.
    public static func object<T: KeyValueReadable>(_ base: T) -> Value { .object(ObjectValue(base)) }
}
