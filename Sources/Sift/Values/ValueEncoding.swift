import Foundation

// Values from `Encodable` types: the path for types that cannot be given a
// ``KeyTable`` (types of another module, generated types), at the cost of
// building a value of each object.

extension Value {
    /// The value of an `Encodable` object, made as `JSONEncoder` would make
    /// JSON of it: keyed containers become dictionaries, unkeyed ones
    /// arrays. Numbers keep their kind (integers stay integers; an unsigned
    /// integer past `Int.max` becomes a decimal), and `Date`, `Data`, `UUID`
    /// and `Decimal` are values of their kind, `URL` its string. A nil
    /// optional that is encoded is ``null``; one that is skipped
    /// (`encodeIfPresent`) is a missing key, which a predicate reads as nil
    /// all the same.
    ///
    /// ```swift
    /// struct Person: Codable { var name: String; var born: Date? }
    /// let value = try Value(encoding: Person(name: "Ann", born: nil))   // {name = "Ann"; }
    /// ```
    ///
    /// Throws what the object's `encode(to:)` throws.
    public init(encoding object: some Encodable) throws {
        self = try EncodingNode.make(object, codingPath: []).finished()
    }
}

/// One value being encoded: a finished value, or the container an encoder
/// is filling (by reference, as containers outlive the calls that made them).
private final class EncodingNode {
    enum Content {
        case value(Value)
        case keyed([String: EncodingNode])
        case unkeyed([EncodingNode])
    }

    var content: Content

    init(_ content: Content = .value(.null)) {
        self.content = content
    }

    func finished() -> Value {
        switch content {
        case .value(let v): return v
        case .keyed(let members): return .dictionary(members.mapValues { $0.finished() })
        case .unkeyed(let items): return .array(items.map { $0.finished() })
        }
    }

    /// The node of `object`: the types that are values of their own kind
    /// directly, anything else through its `encode(to:)`.
    static func make<T: Encodable>(_ object: T, codingPath: [any CodingKey]) throws -> EncodingNode {
        switch object {
        case let v as Value: return EncodingNode(.value(v))
        case let d as Date: return EncodingNode(.value(.date(d)))
        case let d as Data: return EncodingNode(.value(.data(d)))
        case let u as UUID: return EncodingNode(.value(.uuid(u)))
        case let d as Decimal: return EncodingNode(.value(.decimal(d)))
        case let u as URL: return EncodingNode(.value(.string(u.absoluteString)))
        default:
            let node = EncodingNode()
            try object.encode(to: NodeEncoder(node: node, codingPath: codingPath))
            return node
        }
    }

    /// A Swift number as a value: integers as `.int` while they fit, past
    /// that as exact decimals.
    static func number<I: BinaryInteger>(_ i: I) -> Value {
        if let exact = Int(exactly: i) { return .int(exact) }
        return .decimal(Decimal(string: String(i))!)
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .keyed = node.content {} else { node.content = .keyed([:]) }
        return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .unkeyed = node.content {} else { node.content = .unkeyed([]) }
        return Unkeyed(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { Single(node: node, codingPath: codingPath) }

    private struct Single: SingleValueEncodingContainer {
        let node: EncodingNode
        let codingPath: [any CodingKey]

        mutating func encodeNil() { node.content = .value(.null) }
        mutating func encode(_ value: Bool) { node.content = .value(.bool(value)) }
        mutating func encode(_ value: String) { node.content = .value(.string(value)) }
        mutating func encode(_ value: Double) { node.content = .value(.double(value)) }
        mutating func encode(_ value: Float) { node.content = .value(.double(Double(value))) }
        mutating func encode(_ value: Int) { node.content = .value(.int(value)) }
        mutating func encode(_ value: Int8) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: Int16) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: Int32) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: Int64) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: UInt) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: UInt8) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: UInt16) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: UInt32) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode(_ value: UInt64) { node.content = .value(EncodingNode.number(value)) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            node.content = try EncodingNode.make(value, codingPath: codingPath).content
        }
    }

    private struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: EncodingNode
        let codingPath: [any CodingKey]

        private func set(_ child: EncodingNode, _ key: Key) {
            guard case .keyed(var members) = node.content else { return }
            node.content = .value(.null)  // drop the reference, so that the dictionary is changed in place
            members[key.stringValue] = child
            node.content = .keyed(members)
        }

        private func child(_ key: Key) -> EncodingNode {
            if case .keyed(let members) = node.content, let existing = members[key.stringValue] { return existing }
            let child = EncodingNode()
            set(child, key)
            return child
        }

        mutating func encodeNil(forKey key: Key) { set(EncodingNode(.value(.null)), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            var single = Single(node: child(key), codingPath: codingPath + [key])
            try single.encode(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            NodeEncoder(node: child(key), codingPath: codingPath + [key]).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            NodeEncoder(node: child(key), codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            NodeEncoder(node: child(Key(stringValue: "super")!), codingPath: codingPath)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            NodeEncoder(node: child(key), codingPath: codingPath + [key])
        }
    }

    private struct Unkeyed: UnkeyedEncodingContainer {
        let node: EncodingNode
        let codingPath: [any CodingKey]
        var count: Int {
            if case .unkeyed(let items) = node.content { return items.count }
            return 0
        }

        private func append() -> EncodingNode {
            let child = EncodingNode()
            guard case .unkeyed(var items) = node.content else { return child }
            node.content = .value(.null)
            items.append(child)
            node.content = .unkeyed(items)
            return child
        }

        mutating func encodeNil() { append().content = .value(.null) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let path = codingPath + [IndexCodingKey(intValue: count)]
            var single = Single(node: append(), codingPath: path)
            try single.encode(value)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let path = codingPath + [IndexCodingKey(intValue: count)]
            return NodeEncoder(node: append(), codingPath: path).container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let path = codingPath + [IndexCodingKey(intValue: count)]
            return NodeEncoder(node: append(), codingPath: path).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            let path = codingPath + [IndexCodingKey(intValue: count)]
            return NodeEncoder(node: append(), codingPath: path)
        }
    }
}
