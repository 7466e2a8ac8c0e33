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
    var formatArgument: FormatArgument { get }
}

/// Types with a ``Value`` representation: format arguments, substitution
/// variables and constants.
public protocol ValueConvertible: FormatArgumentConvertible {
    var predicateValue: Value { get }
}

extension ValueConvertible {
    public var formatArgument: FormatArgument { .value(predicateValue) }
}

extension FormatArgument: FormatArgumentConvertible {
    public var formatArgument: FormatArgument { self }
}

extension ExpressionNode: FormatArgumentConvertible {
    public var formatArgument: FormatArgument { .expression(self) }
}

extension PredicateNode: FormatArgumentConvertible {
    public var formatArgument: FormatArgument { .predicate(self) }
}

extension Value: ValueConvertible {
    public var predicateValue: Value { self }
}

extension String: ValueConvertible { public var predicateValue: Value { .string(self) } }
extension Substring: ValueConvertible { public var predicateValue: Value { .string(String(self)) } }
extension Character: ValueConvertible { public var predicateValue: Value { .string(String(self)) } }
extension Bool: ValueConvertible { public var predicateValue: Value { .bool(self) } }
extension Int: ValueConvertible { public var predicateValue: Value { .int(self) } }
extension Int8: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension Int16: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension Int32: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension Int64: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension UInt8: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension UInt16: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension UInt32: ValueConvertible { public var predicateValue: Value { .int(Int(self)) } }
extension UInt: ValueConvertible {
    /// Values above `Int.max` become doubles.
    public var predicateValue: Value { Int(exactly: self).map(Value.int) ?? .double(Double(self)) }
}
extension UInt64: ValueConvertible {
    /// Values above `Int.max` become doubles.
    public var predicateValue: Value { Int(exactly: self).map(Value.int) ?? .double(Double(self)) }
}
extension Double: ValueConvertible { public var predicateValue: Value { .double(self) } }
extension Float: ValueConvertible { public var predicateValue: Value { .double(Double(self)) } }
extension Decimal: ValueConvertible { public var predicateValue: Value { .decimal(self) } }
extension Date: ValueConvertible { public var predicateValue: Value { .date(self) } }
extension Data: ValueConvertible { public var predicateValue: Value { .data(self) } }
extension UUID: ValueConvertible { public var predicateValue: Value { .uuid(self) } }

extension Optional: FormatArgumentConvertible where Wrapped: ValueConvertible {}
extension Optional: ValueConvertible where Wrapped: ValueConvertible {
    /// `nil` becomes ``Value/null``.
    public var predicateValue: Value { self?.predicateValue ?? .null }
}

extension Array: FormatArgumentConvertible where Element: ValueConvertible {}
extension Array: ValueConvertible where Element: ValueConvertible {
    // Closures rather than key paths: a key path used as a function is
    // looked up at run time on every call, which is slow in generic code.
    @inlinable
    public var predicateValue: Value { .array(map { $0.predicateValue }) }
}

extension Set: FormatArgumentConvertible where Element: ValueConvertible {}
extension Set: ValueConvertible where Element: ValueConvertible {
    @inlinable
    public var predicateValue: Value { .set(Set<Value>(map { $0.predicateValue })) }
}

extension Dictionary: FormatArgumentConvertible where Key == String, Value: ValueConvertible {}
extension Dictionary: ValueConvertible where Key == String, Value: ValueConvertible {
    public var predicateValue: Sift.Value { .dictionary(mapValues { $0.predicateValue }) }
}
