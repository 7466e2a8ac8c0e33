import Foundation

/// Equality and ordering of values, as `isEqual:` and `compare:` do them.
enum Ordering {
    /// `compare:` between two non-nil values: numbers by value, strings as
    /// NSString orders them, dates chronologically, UUIDs by their bytes
    /// (as `NSUUID`'s `compare:` and a store's BLOB column order them).
    /// Anything else (a string against a number, arrays, …) is an error, as
    /// in Foundation.
    static func compare(_ a: Value, _ b: Value, options: ComparisonOptions) throws(Failure) -> ComparisonResult {
        switch (a, b) {
        case (.string(let x), .string(let y)):
            return StringSemantics.compare(x, y, options)
        case (.date(let x), .date(let y)):
            return x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame)
        case (.uuid(let x), .uuid(let y)):
            let (p, q) = (withUnsafeBytes(of: x.uuid) { Array($0) }, withUnsafeBytes(of: y.uuid) { Array($0) })
            return p == q ? .orderedSame : (p.lexicographicallyPrecedes(q) ? .orderedAscending : .orderedDescending)
        default:
            if let x = NumericValue(a), let y = NumericValue(b) {
                // NaN is unordered; it compares as the same as nothing and
                // makes every ordering false, which `.orderedSame` plus the
                // explicit NaN check below gives.
                guard let order = NumericValue.compare(x, y) else { throw nanFailure }
                return order
            }
            throw Failure(.typeMismatch, "cannot compare \(Functions.describe(a)) with \(Functions.describe(b))")
        }
    }

    static let nanFailure = Failure(.typeMismatch, "NaN cannot be ordered")

    /// `isEqual:`, with NSNull the same as nil, and under options for two
    /// strings; an ``ObjectReference`` equals the object it identifies
    /// (``ObjectReference/identifies(_:)``), which `==` of values, being
    /// hashable, cannot say.
    static func equal(_ a: Value, _ b: Value, options: ComparisonOptions) -> Bool {
        switch (a, b) {
        case (.null, .null), (.null, .nsNull), (.nsNull, .null), (.nsNull, .nsNull):
            return true
        case (.null, _), (.nsNull, _), (_, .null), (_, .nsNull):
            return false
        case (.string(let x), .string(let y)):
            if options.contains(.swiftString) { return StringSemantics.equal(x, y, .swiftString) }
            if options.subtracting(.localeSensitive).isEmpty || options.contains(.normalized) {
                return StringSemantics.literallyEqual(x, y)
            }
            return StringSemantics.equal(x, y, options)
        case (.object(let o), _) where o.base is ObjectReference:
            return a.objectReference?.identifies(b) ?? false
        case (_, .object(let o)) where o.base is ObjectReference:
            return b.objectReference?.identifies(a) ?? false
        default:
            return a == b
        }
    }

    /// Whether `element` is a member of `collection` (its values, for a
    /// dictionary). nil is a member of nothing. Options apply when an
    /// element and the value looked for are both strings (`name IN[c] {…}`).
    static func contains(_ collection: Value, _ element: Value, options: ComparisonOptions = []) -> Bool? {
        if element.isNull {
            switch collection {
            case .array, .set, .dictionary: return false
            default: return nil
            }
        }
        switch collection {
        case .array(let items): return items.contains { equal($0, element, options: options) }
        case .set(let items):
            // An object or dictionary may equal a reference it does not hash like.
            let hashed: Bool
            switch element {
            case .object, .dictionary: hashed = false
            default: hashed = options.isEmpty
            }
            return hashed ? items.contains(element) : items.contains { equal($0, element, options: options) }
        case .dictionary(let d): return d.values.contains { equal($0, element, options: options) }
        default: return nil
        }
    }
}

/// Number and string conversions shared by KVC method keys, `CAST` and
/// `FUNCTION`.
enum Conversions {
    /// NSString's `doubleValue`: the leading number, 0 if there is none.
    /// Spaces, tabs and newlines before it are skipped, and the number is
    /// the longest prefix of the rest that `Double` reads. That prefix is
    /// found by one scan of the grammar (``numberLength(_:)``) and converted
    /// once: converting every prefix in turn cost time quadratic in the
    /// length of a long run of digits.
    static func leadingDouble(_ s: String) -> Double {
        // A native string's UTF-8 is read in place: only the number is
        // copied, not the whole string.
        func parse(_ all: UnsafeBufferPointer<UInt8>) -> Double {
            var start = 0
            while start < all.count, all[start] == UInt8(ascii: " ") || all[start] == UInt8(ascii: "\t")
                || all[start] == UInt8(ascii: "\n")
            {
                start += 1
            }
            let bytes = UnsafeBufferPointer(rebasing: all[start...])
            let length = numberLength(bytes)
            if length == 0 { return 0 }
            return Double(String(decoding: bytes[..<length], as: UTF8.self)) ?? 0
        }
        if let d = s.utf8.withContiguousStorageIfAvailable(parse) { return d }
        return Array(s.utf8).withUnsafeBufferPointer(parse)
    }

    /// The length in bytes of the longest prefix of `b` that `Double(_:)`
    /// reads, 0 if none: an optional sign, then a decimal number (digits
    /// with an optional point, at least one digit, an optional exponent
    /// `e` with an optional sign and digits), a hexadecimal one (`0x`, hex
    /// digits with an optional point, at least one hex digit, an optional
    /// binary exponent `p` with an optional sign and decimal digits), `inf`,
    /// `infinity`, `nan`, `nan(` letters, digits and underscores `)`, or
    /// `snan` (the words in any case). An exponent without digits is not
    /// part of the number.
    static func numberLength<B: RandomAccessCollection<UInt8>>(_ b: B) -> Int where B.Index == Int {
        // Past the end reads as 0, which is in no part of a number, nor is
        // any byte of a character other than ASCII.
        func at(_ i: Int) -> UInt8 { i < b.count ? b[i] : 0 }
        func isDigit(_ i: Int) -> Bool { at(i) &- UInt8(ascii: "0") < 10 }
        func isHexDigit(_ i: Int) -> Bool { isDigit(i) || (at(i) | 0x20) &- UInt8(ascii: "a") < 6 }
        func word(_ i: Int, _ w: String) -> Bool {
            w.utf8.enumerated().allSatisfy { at(i + $0.offset) | 0x20 == $0.element }
        }
        /// The end of the digits (by `digit`) from `i`, and of an optional
        /// point and more digits after them; whether there was any digit.
        func mantissa(_ i: Int, _ digit: (Int) -> Bool) -> (end: Int, digits: Bool) {
            var j = i
            while digit(j) { j += 1 }
            var digits = j > i
            if at(j) == UInt8(ascii: ".") {
                let point = j
                j += 1
                while digit(j) { j += 1 }
                digits = digits || j > point + 1
            }
            return (j, digits)
        }
        /// The end of an exponent marked by `marker` at `i`, or `i` if there
        /// is none (no digits after the marker and sign).
        func exponent(_ i: Int, _ marker: UInt8) -> Int {
            guard at(i) | 0x20 == marker else { return i }
            var j = i + 1
            if at(j) == UInt8(ascii: "+") || at(j) == UInt8(ascii: "-") { j += 1 }
            let digits = j
            while isDigit(j) { j += 1 }
            return j > digits ? j : i
        }

        var i = 0
        if at(i) == UInt8(ascii: "+") || at(i) == UInt8(ascii: "-") { i += 1 }
        if word(i, "infinity") { return i + 8 }
        if word(i, "inf") { return i + 3 }
        if word(i, "snan") { return i + 4 }
        if word(i, "nan") {
            var j = i + 4
            guard at(i + 3) == UInt8(ascii: "(") else { return i + 3 }
            while isDigit(j) || (at(j) | 0x20) &- UInt8(ascii: "a") < 26 || at(j) == UInt8(ascii: "_") { j += 1 }
            return at(j) == UInt8(ascii: ")") ? j + 1 : i + 3
        }
        if at(i) == UInt8(ascii: "0"), at(i + 1) | 0x20 == UInt8(ascii: "x") {
            let hex = mantissa(i + 2, isHexDigit)
            if hex.digits { return exponent(hex.end, UInt8(ascii: "p")) }
        }
        let decimal = mantissa(i, isDigit)
        return decimal.digits ? exponent(decimal.end, UInt8(ascii: "e")) : 0
    }

    static func leadingInt(_ s: String) -> Int {
        truncatedInt(leadingDouble(s))
    }

    static func truncatedInt(_ d: Double) -> Int {
        guard d.isFinite else { return 0 }
        if d >= 9.2e18 { return Int.max }
        if d <= -9.2e18 { return Int.min }
        return Int(d)
    }

    static func stringBool(_ s: String) -> Bool {
        guard let first = s.drop(while: { $0 == " " }).first else { return false }
        return "YyTt123456789".contains(first)
    }

    /// The number as a `Decimal`, as `decimalValue` and
    /// `CAST(x, "NSDecimalNumber")` give it.
    ///
    /// `Decimal(Double)` traps on an infinity, and answers NaN for a double
    /// beyond the range it converts (about 1e147 and up) — a NaN decimal
    /// then compares equal to every other NaN and below every number. So an
    /// infinity, a NaN and a double too large for a decimal are
    /// `.overflow` errors, never a trap nor a NaN that answers comparisons.
    /// A double too small for the conversion (below about 1e-108) rounds
    /// to zero, as a floating-point underflow does.
    static func decimal(_ n: NumericValue) throws(Failure) -> Decimal {
        switch n {
        case .int(let i): return Decimal(i)
        case .decimal(let d): return d
        case .double(let d):
            guard d.isFinite else {
                throw Failure(.overflow, "\(FormatPrinter.formatDouble(d)) has no decimal value")
            }
            // The decimal the double stands for (`123.456`, where
            // `Decimal(Double)` gives 123.45599999999997952), which is the
            // decimal it equals; `Decimal(Double)` beyond what that reads.
            if let shortest = NumericValue.decimal(equalTo: d) { return shortest }
            let result = Decimal(d)
            if result.isNaN {
                if Swift.abs(d) < 1 { return Decimal(0) }
                throw Failure(.overflow, "\(FormatPrinter.formatDouble(d)) is too large for a decimal")
            }
            return result
        }
    }

    /// The result of decimal arithmetic: NaN is how `Decimal` says it
    /// overflowed (its largest value is about 3.4e165), and is an error.
    static func checkedDecimal(_ d: Decimal, _ what: String) throws(Failure) -> Decimal {
        guard !d.isNaN else { throw Failure(.overflow, "\(what) overflows a decimal") }
        return d
    }

    /// `description` of a value, as NSNumber/NSString give it.
    static func description(_ value: Value) -> String {
        switch value {
        case .string(let s): return s
        case .bool(let b): return b ? "1" : "0"
        case .int(let i): return String(i)
        case .double(let d):
            if d == d.rounded(), abs(d) < 1e15 { return String(Int(d)) }
            return FormatPrinter.formatDouble(d)
        case .decimal(let d): return d.description
        case .null: return "nil"
        case .nsNull: return "<null>"
        case .date(let d):
            let f = ISO8601DateFormatter()
            f.formatOptions = [.withFullDate, .withTime, .withColonSeparatorInTime, .withSpaceBetweenDateAndTime]
            return f.string(from: d) + " +0000"
        default: return FormatPrinter.format(.constant(value))
        }
    }

    /// NSString → NSNumber as `CAST(s, "NSNumber")` does: an integer when
    /// there is no fraction or exponent, a decimal otherwise.
    static func number(from s: String) -> Value? {
        let t = s.trimmingCharacters(in: .whitespaces)
        if let i = Int(t) { return .int(i) }
        if let d = Decimal(string: t, locale: Locale(identifier: "en_US_POSIX")), Double(t) != nil { return .decimal(d) }
        return nil
    }
}
