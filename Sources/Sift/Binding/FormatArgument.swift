import Foundation

/// A value for a format specifier (`%@`, `%K`, `%d`, …).
public enum FormatArgument: Sendable, Hashable {
    /// A value: `%@` inserts it as a constant, `%K` reads it as a key path
    /// (it must be a string), the numeric specifiers insert numbers.
    case value(Value)
    /// An expression spliced in by `%@` as an operand (like passing an
    /// `NSExpression`): `%@ == 'x'` with `.expression(.keyPath("name"))`.
    case expression(ExpressionNode)
    /// A predicate. `%@` cannot stand for a predicate; passing one is an error
    /// that says so (Apple's parser refuses it as well).
    case predicate(PredicateNode)
}

/// Types that can be passed as format arguments.
public protocol FormatArgumentConvertible {
    /// The argument this value stands for when it is passed for a format specifier.
    var formatArgument: FormatArgument { get }
}

/// Types with a ``Value`` representation: format arguments, substitution
/// variables and constants.
public protocol ValueConvertible: FormatArgumentConvertible {
    /// This value as a predicate ``Value``: what a filter compares it as.
    var predicateValue: Value { get }
}

extension ValueConvertible {
    /// The value itself, as ``FormatArgument/value(_:)``.
    public var formatArgument: FormatArgument { .value(predicateValue) }
}

extension FormatArgument: FormatArgumentConvertible {
    /// The argument itself.
    public var formatArgument: FormatArgument { self }
}

extension ExpressionNode: FormatArgumentConvertible {
    /// The expression, spliced in as an operand (``FormatArgument/expression(_:)``).
    public var formatArgument: FormatArgument { .expression(self) }
}

extension PredicateNode: FormatArgumentConvertible {
    /// The predicate, as ``FormatArgument/predicate(_:)`` (which `%@` refuses, as Apple does).
    public var formatArgument: FormatArgument { .predicate(self) }
}

extension Value: ValueConvertible {
    /// The value itself.
    public var predicateValue: Value { self }
}

extension String: ValueConvertible {
    /// The string, as ``Value/string(_:)``.
    public var predicateValue: Value { .string(self) }
}
extension Substring: ValueConvertible {
    /// The substring, as a ``Value/string(_:)``.
    public var predicateValue: Value { .string(String(self)) }
}
extension Character: ValueConvertible {
    /// The character, as a one-character ``Value/string(_:)``.
    public var predicateValue: Value { .string(String(self)) }
}
extension Bool: ValueConvertible {
    /// The Boolean, as ``Value/bool(_:)``.
    public var predicateValue: Value { .bool(self) }
}
extension Int: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(self) }
}
extension Int8: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension Int16: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension Int32: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension Int64: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension UInt8: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension UInt16: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension UInt32: ValueConvertible {
    /// The integer, as ``Value/int(_:)``.
    public var predicateValue: Value { .int(Int(self)) }
}
extension UInt: ValueConvertible {
    /// Values above `Int.max` become doubles.
    public var predicateValue: Value { Int(exactly: self).map(Value.int) ?? .double(Double(self)) }
}
extension UInt64: ValueConvertible {
    /// Values above `Int.max` become doubles.
    public var predicateValue: Value { Int(exactly: self).map(Value.int) ?? .double(Double(self)) }
}
extension Double: ValueConvertible {
    /// The double, as ``Value/double(_:)``.
    public var predicateValue: Value { .double(self) }
}
extension Float: ValueConvertible {
    /// The float, as a ``Value/double(_:)``.
    public var predicateValue: Value { .double(Double(self)) }
}
extension Decimal: ValueConvertible {
    /// The decimal, as ``Value/decimal(_:)``.
    public var predicateValue: Value { .decimal(self) }
}
extension Date: ValueConvertible {
    /// The date, as ``Value/date(_:)``.
    public var predicateValue: Value { .date(self) }
}
extension Data: ValueConvertible {
    /// The bytes, as ``Value/data(_:)``.
    public var predicateValue: Value { .data(self) }
}
extension UUID: ValueConvertible {
    /// The UUID, as ``Value/uuid(_:)``.
    public var predicateValue: Value { .uuid(self) }
}

extension Optional: FormatArgumentConvertible where Wrapped: ValueConvertible {}
extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    /// `nil` becomes ``Value/null``.
    public var predicateValue: Value { self?.predicateValue ?? .null }
}

extension Array: FormatArgumentConvertible where Element: ValueConvertible {}
extension Array: ValueConvertible where Element: ValueConvertible {
    // Closures rather than key paths: a key path used as a function is
    // looked up at run time on every call, which is slow in generic code.
    /// An array of the elements' values.
    @inlinable
    public var predicateValue: Value { .array(map { $0.predicateValue }) }
}

extension Set: FormatArgumentConvertible where Element: ValueConvertible {}
extension Set: ValueConvertible where Element: ValueConvertible {
    /// A set of the elements' values.
    @inlinable
    public var predicateValue: Value { .set(Set<Value>(map { $0.predicateValue })) }
}

extension Dictionary: FormatArgumentConvertible where Key == String, Value: ValueConvertible {}
extension Dictionary: ValueConvertible where Key == String, Value: ValueConvertible {
    /// A dictionary of the values' values, under the same keys.
    public var predicateValue: Sift.Value { .dictionary(mapValues { $0.predicateValue }) }
}
