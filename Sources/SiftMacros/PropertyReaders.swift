import Foundation
import Sift

/// The reader of a property, chosen by the property's type.
///
/// `@KeyValueReadable` writes `.property(\Book.year)` for each key and the
/// compiler picks the overload here for the property's type; the most
/// specific one wins (`Int` over any integer, a `KeyValueReadable` type over
/// any `ValueConvertible` one). Tables written by hand can use them too.
extension KeyReader {
    // Read in place, at the property's offset, when it is stored inline.

    /// An `Int`, compared as one.
    public static func property(_ path: KeyPath<Root, Int> & Sendable) -> KeyReader { .int(path) }
    /// A `Double`, compared as one.
    public static func property(_ path: KeyPath<Root, Double> & Sendable) -> KeyReader { .double(path) }
    /// A `String`, compared as one.
    public static func property(_ path: KeyPath<Root, String> & Sendable) -> KeyReader { .string(path) }
    /// A `Bool`, compared as one.
    public static func property(_ path: KeyPath<Root, Bool> & Sendable) -> KeyReader { .bool(path) }
    /// An array of strings: a to-many attribute (`ANY tags == 'x'`).
    public static func property(_ path: KeyPath<Root, [String]> & Sendable) -> KeyReader { .strings(path) }
    /// A `Value`, as it is.
    public static func property(_ path: KeyPath<Root, Value> & Sendable) -> KeyReader { .value(path) }

    /// A to-one relationship: key paths through it (`editor.name`) are
    /// resolved through `T`'s table when a filter is compiled.
    public static func property<T: KeyValueReadable>(_ path: KeyPath<Root, T> & Sendable) -> KeyReader {
        .object(path)
    }

    /// A to-many relationship (`ANY authors.name == 'Ann'`).
    public static func property<T: KeyValueReadable>(_ path: KeyPath<Root, [T]> & Sendable) -> KeyReader {
        .objects(path)
    }

    // Converted when read.

    /// A `Float`, compared as a `Double`.
    public static func property(_ path: KeyPath<Root, Float> & Sendable) -> KeyReader {
        .double { Double($0[keyPath: path]) }.reads(path)
    }

    /// Another integer type: compared as an `Int` when every value of the
    /// type is one (`Int32`, `UInt16`, ...), otherwise as the value it makes
    /// (`UInt64` past `Int.max` is a decimal).
    public static func property<T: FixedWidthInteger & ValueConvertible & Sendable>(_ path: KeyPath<Root, T> & Sendable)
        -> KeyReader
    {
        if T.bitWidth < Int.bitWidth || (T.isSigned && T.bitWidth == Int.bitWidth) {
            return .int { Int($0[keyPath: path]) }.reads(path)
        }
        return .value { $0[keyPath: path].predicateValue }.reads(path)
    }

    /// Any other type with a value: `Date`, `Decimal`, `UUID`, `Data`,
    /// optionals (nil when absent), arrays, sets and dictionaries.
    public static func property<T: ValueConvertible & Sendable>(_ path: KeyPath<Root, T> & Sendable) -> KeyReader {
        .value { $0[keyPath: path].predicateValue }.reads(path)
    }

    /// An enum with raw values, read as its raw value.
    public static func property<T: RawRepresentable & Sendable>(_ path: KeyPath<Root, T> & Sendable) -> KeyReader
    where T.RawValue: ValueConvertible & Sendable {
        .value { $0[keyPath: path].rawValue.predicateValue }.reads(path)
    }

    /// An optional enum with raw values: its raw value, nil when absent.
    public static func property<T: RawRepresentable & Sendable>(_ path: KeyPath<Root, T?> & Sendable) -> KeyReader
    where T.RawValue: ValueConvertible & Sendable {
        .value { $0[keyPath: path]?.rawValue.predicateValue ?? .null }.reads(path)
    }

    /// An array of enums with raw values: the array of their raw values.
    public static func property<T: RawRepresentable & Sendable>(_ path: KeyPath<Root, [T]> & Sendable) -> KeyReader
    where T.RawValue: ValueConvertible & Sendable {
        .value { .array($0[keyPath: path].map { $0.rawValue.predicateValue }) }.reads(path)
    }

    /// A set of enums with raw values: the set of their raw values.
    public static func property<T: RawRepresentable & Hashable & Sendable>(_ path: KeyPath<Root, Set<T>> & Sendable) -> KeyReader
    where T.RawValue: ValueConvertible & Sendable {
        .value { .set(Set($0[keyPath: path].map { $0.rawValue.predicateValue })) }.reads(path)
    }

    /// A type that has both a raw value and a value of its own: its own.
    public static func property<T: RawRepresentable & ValueConvertible & Sendable>(_ path: KeyPath<Root, T> & Sendable)
        -> KeyReader
    where T.RawValue: ValueConvertible & Sendable {
        .value { $0[keyPath: path].predicateValue }.reads(path)
    }

    /// A property whose type predicates cannot read.
    @available(
        *, unavailable,
        message: "predicates cannot read this property's type: conform it to ValueConvertible or KeyValueReadable, or mark the property @SiftIgnored"
    )
    public static func property<T>(_ path: KeyPath<Root, T> & Sendable) -> KeyReader {
        fatalError("unavailable")
    }
}
