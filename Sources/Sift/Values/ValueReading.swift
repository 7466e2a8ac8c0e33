import Foundation

// Looking at values, and moving them into the program's own types: a
// description in the predicate language's literal syntax, subscripts by key
// and by key path, and decoding into `Decodable` types.

extension Value: CustomStringConvertible {
    /// The value as a predicate's literal: `"Ann"`, `42`, `2.5`, `nil`,
    /// `{1, 2}`, `CAST(700000000, "NSDate")`, with `true` and `false` for
    /// Booleans (which a canonical predicate prints as 1 and 0) so that their
    /// kind shows. Dictionaries print as `{age = 30; name = "Ann"; }`, keys
    /// in order, and objects as `<description>`; neither parses back, as in
    /// Apple's `predicateFormat`.
    ///
    /// `print([Value])` shows each element this way: `["Ann", 42]`.
    public var description: String {
        var out = ""
        FormatPrinter.write(self, into: &out, booleans: .words)
        return out
    }
}

extension Value {
    /// The value for `key` of a dictionary or an object of a
    /// ``KeyValueReadable`` type; nil for a key the dictionary or the type
    /// does not have, and for every other kind of value.
    ///
    /// ```swift
    /// let book: Value = ["title": "Dune", "year": 1965]
    /// book["title"]   // "Dune"
    /// book["price"]   // nil
    /// ```
    public subscript(key: String) -> Value? {
        switch self {
        case .dictionary(let d): return d[key]
        case .object(let o): return o.value(forKey: key)
        default: return nil
        }
    }

    /// The value at a dotted key path, read as a predicate reads it
    /// (`valueForKeyPath:`): through dictionaries and objects, over each
    /// element of an array or set, with collection operators
    /// (`books.@count`, `books.@avg.price`). A missing dictionary entry is
    /// ``null``. Nil when the path cannot be read: a key an object's type
    /// does not have, or a collection operator on values it does not take.
    ///
    /// ```swift
    /// let author: Value = ["name": "Le Guin", "books": [["year": 1969], ["year": 1974]]]
    /// author[keyPath: "books.year"]       // {1969, 1974}
    /// author[keyPath: "books.@max.year"]  // 1974
    /// ```
    public subscript(keyPath keyPath: String) -> Value? {
        let path = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !path.contains(where: \.isEmpty) else { return nil }
        do {
            return try KeyValueAccess.value(self, path: path)
        } catch {
            return nil
        }
    }

    /// This value as a `T`, decoded the way `JSONDecoder` decodes JSON:
    /// dictionaries and objects of ``KeyValueReadable`` types as keyed
    /// containers, arrays and sets as unkeyed ones.
    ///
    /// - Numbers decode as any numeric type that holds them exactly (`3.0`
    ///   as an `Int`, not `3.5`), and as `Bool` only when they are 0 or 1
    ///   (stores keep Booleans as integers).
    /// - ``null`` and ``nsNull`` are nil for optionals; a missing key is
    ///   nil for `decodeIfPresent`.
    /// - `Date`, `Data`, `UUID` and `Decimal` decode from values of their
    ///   kind (a UUID also from its string, a decimal from any number), and
    ///   `URL` from a string; a `String` also from a UUID (its
    ///   `uuidString`), as a row's UUID column reads into a string.
    ///
    /// ```swift
    /// struct Book: Decodable { var title: String; var year: Int }
    /// let book = try Value(["title": "Dune", "year": 1965]).decoded(as: Book.self)
    /// ```
    ///
    /// Throws `DecodingError`, with the coding path of the value that does
    /// not fit.
    public func decoded<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try ValueDecoding(value: self, codingPath: []).decode(T.self)
    }
}

extension Value {
    /// A value made from `value`, for literals spelled in Swift
    /// (`Value(["title": "Dune"])`).
    public init(_ value: Value) {
        self = value
    }
}

/// Decodes one ``Value`` at a coding path: the `Decoder` and the
/// single-value container at once, as Foundation's decoders are built.
private struct ValueDecoding: Decoder, SingleValueDecodingContainer {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: Decoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        switch value {
        case .dictionary(let d):
            return KeyedDecodingContainer(Keyed<Key>(entries: .dictionary(d), codingPath: codingPath))
        case .object(let o):
            return KeyedDecodingContainer(Keyed<Key>(entries: .object(o), codingPath: codingPath))
        default:
            throw mismatch([String: Value].self, "a dictionary or an object")
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let items): return Unkeyed(items: items, codingPath: codingPath)
        case .set(let items): return Unkeyed(items: Array(items), codingPath: codingPath)
        default: throw mismatch([Value].self, "an array or a set")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    // MARK: Single value

    func decodeNil() -> Bool { value.isNull }

    func decode(_ type: Bool.Type) throws -> Bool {
        // A Boolean is a number too (NSNumber): 0 and 1 are false and true.
        guard let n = NumericValue(value), let i = n.exactInt, i == 0 || i == 1 else {
            throw mismatch(type, "a Boolean (or the number 0 or 1)")
        }
        return i == 1
    }

    func decode(_ type: String.Type) throws -> String {
        if case .uuid(let u) = value { return u.uuidString }
        guard case .string(let s) = value else { throw mismatch(type, "a string") }
        return s
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let n = NumericValue(value), !value.isBool else { throw mismatch(type, "a number") }
        // A decimal's nearest double, correctly rounded (NSDecimalNumber's
        // doubleValue is not, on Linux).
        if case .decimal(let d) = n { return Value.nearestDouble(to: d) }
        return n.doubleValue
    }

    func decode(_ type: Float.Type) throws -> Float {
        let d = try decode(Double.self)
        let f = Float(d)
        guard f.isFinite || !d.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(d) does not fit a Float"))
        }
        return f
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    /// A whole number that `I` holds exactly: an integer in range, or a
    /// double or decimal with no fraction.
    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard let n = NumericValue(value), !value.isBool else { throw mismatch(type, "a number") }
        if let i = n.exactInt {
            guard let fitted = I(exactly: i) else { throw doesNotFit(type) }
            return fitted
        }
        switch value {
        case .double(let x):
            guard x == x.rounded() else { throw notWhole(type) }
            guard let fitted = I(exactly: x) else { throw doesNotFit(type) }
            return fitted
        case .decimal(let d):
            var whole = Decimal()
            var copy = d
            NSDecimalRound(&whole, &copy, 0, .plain)
            guard whole == d else { throw notWhole(type) }
            // Past Int's range a whole decimal may still fit (UInt64).
            guard let fitted = I(d.description) else { throw doesNotFit(type) }
            return fitted
        default:
            throw doesNotFit(type)
        }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // The types JSONDecoder also decodes by themselves.
        switch type {
        case is Date.Type:
            guard case .date(let d) = value else { throw mismatch(type, "a date") }
            return d as! T
        case is Data.Type:
            guard case .data(let d) = value else { throw mismatch(type, "data") }
            return d as! T
        case is UUID.Type:
            if case .uuid(let u) = value { return u as! T }
            if case .string(let s) = value, let u = UUID(uuidString: s) { return u as! T }
            throw mismatch(type, "a UUID or its string")
        case is Decimal.Type:
            guard let n = NumericValue(value), !value.isBool else { throw mismatch(type, "a number") }
            if case .decimal(let d) = n { return d as! T }
            if let i = n.exactInt { return Decimal(i) as! T }
            guard let d = Value.shortestDecimal(of: n.doubleValue) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: codingPath, debugDescription: "\(n.doubleValue) is not a decimal number"))
            }
            return d as! T
        case is URL.Type:
            guard case .string(let s) = value, let url = URL(string: s) else { throw mismatch(type, "a URL's string") }
            return url as! T
        case is Value.Type:
            return value as! T
        default:
            return try T(from: self)
        }
    }

    // MARK: Errors

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let found = value.isNull ? "\(value)" : "\(value.typeName) \(value)"
        return DecodingError.typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(found)"))
    }

    private func doesNotFit(_ type: Any.Type) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(value) does not fit \(type)"))
    }

    private func notWhole(_ type: Any.Type) -> DecodingError {
        DecodingError.dataCorrupted(
            .init(codingPath: codingPath, debugDescription: "\(value) is not a whole number, as \(type) needs"))
    }

    // MARK: Containers

    private enum Entries {
        case dictionary([String: Value])
        case object(ObjectValue)

        func value(forKey key: String) -> Value? {
            switch self {
            case .dictionary(let d): return d[key]
            case .object(let o): return o.value(forKey: key)
            }
        }

        var keys: [String] {
            switch self {
            case .dictionary(let d): return Array(d.keys)
            case .object(let o): return Self.keys(of: o.base)
            }
        }

        private static func keys<T: KeyValueReadable>(of object: T) -> [String] { T.keyTable.keys }
    }

    private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: Entries
        let codingPath: [any CodingKey]

        var allKeys: [Key] { entries.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { entries.value(forKey: key.stringValue) != nil }

        private func child(_ key: Key) throws -> ValueDecoding {
            guard let v = entries.value(forKey: key.stringValue) else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no value for the key '\(key.stringValue)'"))
            }
            return ValueDecoding(value: v, codingPath: codingPath + [key])
        }

        func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try child(key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try child(key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder {
            guard let key = Key(stringValue: "super") else {
                throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "no 'super' key"))
            }
            return try child(key)
        }

        func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
    }

    private struct Unkeyed: UnkeyedDecodingContainer {
        let items: [Value]
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(items: [Value], codingPath: [any CodingKey]) {
            self.items = items
            self.codingPath = codingPath
        }

        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        private mutating func next() throws -> ValueDecoding {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Value.self,
                    .init(codingPath: codingPath + [IndexCodingKey(intValue: currentIndex)], debugDescription: "no more elements"))
            }
            defer { currentIndex += 1 }
            return ValueDecoding(value: items[currentIndex], codingPath: codingPath + [IndexCodingKey(intValue: currentIndex)])
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd, items[currentIndex].isNull else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decode(type) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            try next().unkeyedContainer()
        }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}

extension Value {
    fileprivate var isBool: Bool {
        if case .bool = self { return true }
        return false
    }
}

/// The coding key of an element of an unkeyed container (`Index 3`), as
/// Foundation's coders name it in coding paths.
struct IndexCodingKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}
