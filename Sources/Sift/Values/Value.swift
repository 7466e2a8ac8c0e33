import Foundation

/// The dynamic value a predicate works on: constants in the syntax tree,
/// format arguments, substitution variables and key-path results.
///
/// Numbers follow `NSNumber`: `.int(1)`, `.double(1.0)`, `.bool(true)` and
/// `.decimal(1)` are equal (`==`) and hash alike, but keep their kind, which
/// matters for integer division and for printing. Strings compare by code
/// unit, as `NSString.isEqual(_:)` does: `"café"` (precomposed) and
/// `"cafe\u{301}"` are *not* equal, unlike Swift's `String ==`.
public enum Value: Sendable {
    /// `nil` / `NULL` (the absence of a value).
    case null
    /// `NSNull`: the placeholder collections use for "no value". It behaves as
    /// nil in comparisons but prints as `<null>`.
    case nsNull
    /// A Boolean (`YES`, `TRUE`), which compares with numbers as 1 or 0.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A double.
    case double(Double)
    /// A decimal (`NSDecimalNumber`), compared with doubles as the decimal the double stands for.
    case decimal(Decimal)
    /// A string.
    case string(String)
    /// A point in time (printed as `CAST(<seconds since 2001-01-01>, "NSDate")`).
    case date(Date)
    /// Bytes (`NSData`).
    case data(Data)
    /// A UUID (`NSUUID`).
    case uuid(UUID)
    /// An array (`NSArray`).
    case array([Value])
    /// A set (`NSSet`).
    case set(Set<Value>)
    /// A dictionary (`NSDictionary`): its keys are read by key paths, missing keys as nil.
    case dictionary([String: Value])
    /// An object of the user's type, read through ``KeyValueReadable``.
    /// (Boxed, so that every other value stays small: 21 bytes.)
    indirect case object(ObjectValue)
}

// MARK: - Convenience

extension Value {
    /// True for `.null` and `.nsNull`.
    public var isNull: Bool {
        switch self {
        case .null, .nsNull: return true
        default: return false
        }
    }

    /// True for `.bool`, `.int`, `.double` and `.decimal`.
    public var isNumber: Bool {
        switch self {
        case .bool, .int, .double, .decimal: return true
        default: return false
        }
    }

    /// The string payload, if this is a string.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// A short name of the value's kind, used in error messages.
    public var typeName: String {
        switch self {
        case .null: return "nil"
        case .nsNull: return "null"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "double"
        case .decimal: return "decimal"
        case .string: return "string"
        case .date: return "date"
        case .data: return "data"
        case .uuid: return "UUID"
        case .array: return "array"
        case .set: return "set"
        case .dictionary: return "dictionary"
        case .object(let o): return o.typeName
        }
    }
}

// MARK: - Numbers

/// A number reduced to one of three exact representations for comparison.
enum NumericValue {
    case int(Int)
    case double(Double)
    case decimal(Decimal)

    init?(_ value: Value) {
        switch value {
        case .bool(let b): self = .int(b ? 1 : 0)
        case .int(let i): self = .int(i)
        case .double(let d): self = .double(d)
        case .decimal(let d): self = .decimal(d)
        default: return nil
        }
    }

    var doubleValue: Double {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .decimal(let d): return NSDecimalNumber(decimal: d).doubleValue
        }
    }

    /// The value as an `Int` when it is a whole number in range.
    var exactInt: Int? {
        switch self {
        case .int(let i): return i
        case .double(let d): return Int(exactly: d)
        case .decimal(let d):
            guard d.isFinite else { return nil }
            let i = NSDecimalNumber(decimal: d).intValue
            return Decimal(i) == d ? i : nil
        }
    }

    /// Exact three-way comparison (no rounding through `Double` for large
    /// integers). Returns nil when either side is NaN.
    static func compare(_ a: NumericValue, _ b: NumericValue) -> ComparisonResult? {
        switch (a, b) {
        case (.int(let x), .int(let y)):
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        case (.int(let x), .double(let y)):
            return compareIntDouble(x, y)
        case (.double(let x), .int(let y)):
            return compareIntDouble(y, x).map { $0.reversed }
        case (.double(let x), .double(let y)):
            if x.isNaN || y.isNaN { return nil }
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        case (.decimal(let x), .decimal(let y)):
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        case (.decimal(let x), .int(let y)):
            let dy = Decimal(y)
            return x < dy ? .orderedAscending : (x > dy ? .orderedDescending : .orderedSame)
        case (.int, .decimal):
            return compare(b, a).map { $0.reversed }
        case (.decimal(let x), .double(let y)):
            if y.isNaN { return nil }
            if let exact = decimal(equalTo: y) { return compare(.decimal(x), .decimal(exact)) }
            // A double that no decimal equals (an infinity, or beyond the
            // range `Decimal(string:)` reads) is ordered by its value; should
            // the decimal's nearest double be the same, by its sign.
            let order = compare(.double(double(equalTo: x)), .double(y))
            return order == .orderedSame ? (y > 0 ? .orderedAscending : .orderedDescending) : order
        case (.double, .decimal):
            return compare(b, a).map { $0.reversed }
        }
    }

    /// The decimal a double equals: its exact value when it is a whole
    /// number in `Int`'s range, and otherwise the shortest decimal that reads
    /// back as the same double (`0.1` for the double nearest 0.1, as
    /// Foundation turns a double into a decimal). So each double equals at
    /// most one decimal and a decimal at most one double, and equality across
    /// integers, doubles and decimals is transitive (see ``Value``'s `==`);
    /// comparing the decimal's nearest double instead made a decimal
    /// 2^53 + 1 equal to the double 2^53, which equals the integer 2^53,
    /// which the decimal does not equal. Nil for an infinity or NaN and for
    /// a double beyond the decimals `Decimal(string:)` reads.
    static func decimal(equalTo d: Double) -> Decimal? {
        if let i = Int(exactly: d) { return Decimal(i) }
        guard d.isFinite else { return nil }
        return Decimal(string: d.description)
    }

    /// The double a decimal equals, if one does (``decimal(equalTo:)``):
    /// the decimal's value correctly rounded, read from its digits.
    static func double(equalTo x: Decimal) -> Double {
        Double(x.description) ?? NSDecimalNumber(decimal: x).doubleValue
    }

    private static func compareIntDouble(_ x: Int, _ y: Double) -> ComparisonResult? {
        if y.isNaN { return nil }
        // 2^63 is exactly representable; every Int is below it.
        if y >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if y < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = y.rounded(.down)
        let yi = Int(whole)
        if x < yi { return .orderedAscending }
        if x > yi { return .orderedDescending }
        return whole == y ? .orderedSame : .orderedAscending
    }
}

extension Value {
    /// The exact value of an integer written in decimal digits, with `-`
    /// first when it is negative and no leading zeros: `.int` when it fits
    /// 64 bits, else `.decimal` when `Decimal` holds it exactly (38
    /// significant digits times a power of ten up to 10^127, so that its
    /// `description` is the text again); nil beyond that, where the nearest
    /// double is all there is. JSON numbers and the number literals of a
    /// format string are read by this one rule, so that
    /// `a == 18446744073709551616` matches `{"a": 18446744073709551616}`.
    static func exactInteger(_ text: String) -> Value? {
        if let i = Int(text) { return .int(i) }
        // Longer texts are not tried: Decimal would round them.
        guard text.utf8.count <= 166, let d = Decimal(string: text), d.description == text else { return nil }
        return .decimal(d)
    }

    /// The decimal a double stands for when numbers compare: its shortest
    /// form (`19.99`), or its exact value when it is a whole number. Nil for
    /// an infinity or NaN. A store that keeps decimals as doubles reads them
    /// back as this.
    package static func shortestDecimal(of d: Double) -> Decimal? {
        NumericValue.decimal(equalTo: d)
    }

    /// A decimal's nearest double, correctly rounded from its digits.
    package static func nearestDouble(to d: Decimal) -> Double {
        NumericValue.double(equalTo: d)
    }
}

extension ComparisonResult {
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }
}

// MARK: - Equatable, Hashable

extension Value: Equatable {
    /// Values are equal as a predicate's `==` finds them, without options.
    /// Numbers (Booleans as 0 and 1) are equal when their values are:
    /// integers and doubles exactly (the integer 2^53 + 1 is not the double
    /// 2^53), and a decimal and a double when the decimal is the one the
    /// double stands for, its shortest form (the double nearest 0.1 equals
    /// the decimal 0.1). This equality is transitive and agrees with
    /// `hash(into:)`, so sets and dictionary keys of mixed numbers hold each
    /// value once. NaN equals nothing. Strings are equal when their Unicode
    /// scalars are.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        if let a = NumericValue(lhs) {
            guard let b = NumericValue(rhs) else { return false }
            return NumericValue.compare(a, b) == .orderedSame
        }
        switch (lhs, rhs) {
        case (.null, .null), (.nsNull, .nsNull): return true
        case (.string(let a), .string(let b)): return StringSemantics.literallyEqual(a, b)
        case (.date(let a), .date(let b)): return a == b
        case (.data(let a), .data(let b)): return a == b
        case (.uuid(let a), .uuid(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.set(let a), .set(let b)): return a == b
        case (.dictionary(let a), .dictionary(let b)): return a == b
        case (.object(let a), .object(let b)): return a == b
        default: return false
        }
    }
}

extension Value: Hashable {
    /// Equal values hash alike: a number by its value as an `Int` when it is
    /// a whole number in range, and otherwise as the double it equals (a
    /// decimal by its correctly rounded double: the decimal a double equals
    /// reads back as that double, `NumericValue.decimal(equalTo:)`).
    public func hash(into hasher: inout Hasher) {
        if let n = NumericValue(self) {
            hasher.combine(0 as UInt8)
            if let i = n.exactInt {
                hasher.combine(i)
            } else if case .decimal(let x) = n {
                hasher.combine(NumericValue.double(equalTo: x))
            } else {
                hasher.combine(n.doubleValue)
            }
            return
        }
        switch self {
        case .null: hasher.combine(1 as UInt8)
        case .nsNull: hasher.combine(2 as UInt8)
        case .string(let s):
            // By its UTF-8 bytes (equal scalars, equal bytes), in one call:
            // a call a byte took 2% of a grouped filter's time.
            hasher.combine(3 as UInt8)
            var s = s
            s.withUTF8 { bytes in
                hasher.combine(bytes.count)
                hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            }
        case .date(let d): hasher.combine(4 as UInt8); hasher.combine(d)
        case .data(let d): hasher.combine(5 as UInt8); hasher.combine(d)
        case .uuid(let u): hasher.combine(6 as UInt8); hasher.combine(u)
        case .array(let a): hasher.combine(7 as UInt8); hasher.combine(a)
        case .set(let s): hasher.combine(8 as UInt8); hasher.combine(s)
        case .dictionary(let d): hasher.combine(9 as UInt8); hasher.combine(d)
        case .object(let o): hasher.combine(10 as UInt8); hasher.combine(o)
        case .bool, .int, .double, .decimal: break  // handled above
        }
    }
}

// MARK: - Literals

extension Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByNilLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `"text"` as ``string(_:)``.
    public init(stringLiteral value: String) { self = .string(value) }
    /// `42` as ``int(_:)``.
    public init(integerLiteral value: Int) { self = .int(value) }
    /// `4.2` as ``double(_:)``.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// `true` as ``bool(_:)``.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[1, "a"]` as ``array(_:)``.
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// `nil` as ``null``.
    public init(nilLiteral: ()) { self = .null }
    /// `["name": "Ann"]` as ``dictionary(_:)``; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
