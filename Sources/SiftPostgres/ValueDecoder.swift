import Foundation
import Sift

/// Decodes a `Decodable` type from a fetched row (a `.dictionary` of
/// attribute values): keys are attribute names, and each value decodes as
/// the Swift type asked for when it holds one (an `.int` as `Int`,
/// `Int64`, `Double`…; a `.date` as `Date`; a `.uuid` as `UUID`; a `.data`
/// as `Data`; a `.decimal` as `Decimal` or `Double`). A value that does not
/// fit is a `DecodingError` naming the key.
struct ValueDecoder: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let d) = value else { throw mismatch([String: Value].self) }
        return KeyedDecodingContainer(Keyed<Key>(values: d, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = value else { throw mismatch([Value].self) }
        return Unkeyed(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { Single(decoder: self) }

    func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "the value is \(value)"))
    }

    /// `value` as `T`: the library's value types directly, anything else
    /// through its own `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let decoded: Any?
        switch value {
        case .int(let i):
            switch type {
            case is Int.Type: decoded = i
            case is Int64.Type: decoded = Int64(i)
            case is Int32.Type: decoded = Int32(exactly: i)
            case is Double.Type: decoded = Double(i)
            case is Decimal.Type: decoded = Decimal(i)
            case is Bool.Type: decoded = i == 0 ? false : i == 1 ? true : nil
            default: decoded = nil
            }
        case .double(let d):
            switch type {
            case is Double.Type: decoded = d
            case is Float.Type: decoded = Float(d)
            case is Decimal.Type: decoded = Decimal(d)
            case is Int.Type: decoded = Int(exactly: d)
            default: decoded = nil
            }
        case .decimal(let d):
            switch type {
            case is Decimal.Type: decoded = d
            case is Double.Type: decoded = Value.nearestDouble(to: d)
            default: decoded = nil
            }
        case .string(let s): decoded = type == String.self ? s : nil
        case .bool(let b): decoded = type == Bool.self ? b : nil
        case .date(let date): decoded = type == Date.self ? date : nil
        case .uuid(let uuid): decoded = type == UUID.self ? uuid : type == String.self ? uuid.uuidString : nil
        case .data(let data): decoded = type == Data.self ? data : nil
        default: decoded = nil
        }
        if let decoded = decoded as? T { return decoded }
        switch type {
        case is Int.Type, is Int64.Type, is Int32.Type, is Double.Type, is Float.Type, is Decimal.Type, is Bool.Type,
            is String.Type, is Date.Type, is UUID.Type, is Data.Type:
            throw mismatch(type)
        default:
            return try T(from: self)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [String: Value]
        let codingPath: [any CodingKey]
        var allKeys: [Key] { values.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { (values[key.stringValue] ?? .null).isNull }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let value = values[key.stringValue] else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "the row has no \(key.stringValue)"))
            }
            return try ValueDecoder(value: value, codingPath: codingPath + [key]).decode(type)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            try ValueDecoder(value: values[key.stringValue] ?? .null, codingPath: codingPath + [key])
                .container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try ValueDecoder(value: values[key.stringValue] ?? .null, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { ValueDecoder(value: .dictionary(values), codingPath: codingPath) }

        func superDecoder(forKey key: Key) throws -> any Decoder {
            ValueDecoder(value: values[key.stringValue] ?? .null, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let items: [Value]
        let codingPath: [any CodingKey]
        var currentIndex = 0
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        mutating func next() throws -> ValueDecoder {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(
                    Value.self, .init(codingPath: codingPath, debugDescription: "the list has no more values"))
            }
            defer { currentIndex += 1 }
            return ValueDecoder(value: items[currentIndex], codingPath: codingPath)
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

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }

    struct Single: SingleValueDecodingContainer {
        let decoder: ValueDecoder
        var codingPath: [any CodingKey] { decoder.codingPath }

        func decodeNil() -> Bool { decoder.value.isNull }

        func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(type) }
    }
}
