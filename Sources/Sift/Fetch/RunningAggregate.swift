import Foundation

/// One aggregate of one group, kept as the group's objects come, so that a
/// grouped fetch holds a few numbers per group and never the group's
/// objects (``GroupedFetchAccumulator``).
///
/// The values are those of ``GroupedFetch``'s rules, folding the group's
/// values in the order they came:
/// - `sum:` is an integer while every term is one and the exact sum fits 64
///   bits at the end (it may leave them on the way), a double once a term
///   is a double or when the integers' sum ends past 64 bits (the double
///   sum, in order), and a decimal once a term is a decimal. A decimal sum adds the decimal
///   terms and the integers exactly, and the double terms' double sum (in
///   the order they came) as the decimal that double stands for. The
///   doubles are not converted one by one, as `@sum` does: that would cost
///   a conversion per term, and keeping them would make a group's memory
///   grow with its objects.
/// - `average:` divides the double sum of the terms by their number.
/// - `min:` and `max:` keep the extreme so far.
///
/// A part (``init(keepingTerms:)``) is folded into another aggregate by
/// ``merge(_:_:)`` as if its values had come there after that one's: it
/// keeps its numeric terms in order, since a double sum depends on the
/// order of its terms, and a group's terms are added in the order they
/// came whichever thread read them.
struct RunningAggregate: Sendable {
    private(set) var count = 0
    /// A part's numeric terms, in order (nil for an aggregate that folds
    /// them as they come).
    private var terms: [NumericValue]?
    /// The integer terms' exact sum: `wraps` × 2^64 + `integers`, where
    /// `integers` is the sum wrapped to 64 bits (2^63 terms could not
    /// overflow `wraps`).
    private var integers = 0
    private var wraps = 0
    private var anyDouble = false
    /// Every term as a double, in order: a double sum's value and an average's.
    private var doubleSum = 0.0
    /// The double terms alone, for a decimal sum.
    private var doublesOnly = 0.0
    private var decimals: Decimal?
    private var extreme: Value = .null

    /// An aggregate that folds its values as they come.
    init() {}

    /// A part, for ``merge(_:_:)``: it keeps its numeric terms in order
    /// instead of folding them, so that its memory grows with its values.
    init(keepingTerms: Bool) {
        if keepingTerms { terms = [] }
    }

    /// Counts one object (`count:(SELF)`).
    mutating func countOne() { count += 1 }

    /// Takes one non-nil value (NaN and nil are skipped before), for `function`.
    mutating func add(_ value: Value, _ function: BuiltinFunction) throws(Failure) {
        switch function {
        case .count:
            count += 1
        case .min, .max:
            count += 1
            if extreme.isNull {
                extreme = value
            } else if function == .min ? try Self.precedes(value, extreme) : try Self.precedes(extreme, value) {
                extreme = value
            }
        default:
            guard let n = NumericValue(value) else {
                throw Failure(.typeMismatch, "\(function.rawValue) needs numbers, got \(Functions.describe(value))")
            }
            take(n)
        }
    }

    /// Keeps the numeric term `n` (a part) or adds it to the sums.
    private mutating func take(_ n: NumericValue) {
        if terms != nil {
            terms!.append(n)
            count += 1
        } else {
            fold(n)
        }
    }

    /// Adds the numeric term `n` to the sums.
    private mutating func fold(_ n: NumericValue) {
        count += 1
        switch n {
        case .int(let i):
            let (sum, overflow) = integers.addingReportingOverflow(i)
            integers = sum
            if overflow { wraps += i < 0 ? -1 : 1 }
            doubleSum += Double(i)
        case .double(let d):
            anyDouble = true
            doubleSum += d
            doublesOnly += d
        case .decimal(let d):
            doubleSum += NSDecimalNumber(decimal: d).doubleValue
            decimals = (decimals ?? 0) + d
        }
    }

    /// Adds `part`, an aggregate of the same `function` made with
    /// ``init(keepingTerms:)`` whose values came after this one's: counts
    /// add, the extremes are compared as a value that came would be, and
    /// the part's terms are folded in their order.
    mutating func merge(_ part: RunningAggregate, _ function: BuiltinFunction) throws(Failure) {
        switch function {
        case .count:
            count += part.count
        case .min, .max:
            guard !part.extreme.isNull else { return }
            try add(part.extreme, function)
            count += part.count - 1
        default:
            if let terms = part.terms {
                for n in terms { take(n) }
            } else {
                // (Not a part: only its count is known to be exact.)
                preconditionFailure("merge takes a part made with init(keepingTerms: true)")
            }
        }
    }

    /// The aggregate's value for the group.
    func value(_ function: BuiltinFunction) throws(Failure) -> Value {
        switch function {
        case .count: return .int(count)
        case .min, .max: return extreme
        case .average: return count == 0 ? .null : .double(doubleSum / Double(count))
        default:
            if let decimals {
                var total = decimals + Decimal(wraps) * Self.twoToThe64 + Decimal(integers)
                if anyDouble { total += try Conversions.decimal(.double(doublesOnly)) }
                return .decimal(try Conversions.checkedDecimal(total, "sum:"))
            }
            if !anyDouble, wraps == 0 { return .int(integers) }
            return .double(doubleSum)
        }
    }

    private static let twoToThe64 = Decimal(UInt64.max) + 1

    /// Whether `a` comes before `b`: numbers by value, dates by time,
    /// strings by their Unicode scalars.
    static func precedes(_ a: Value, _ b: Value) throws(Failure) -> Bool {
        if let x = NumericValue(a), let y = NumericValue(b) { return NumericValue.compare(x, y) == .orderedAscending }
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        case (.date(let x), .date(let y)): return x < y
        default:
            throw Failure(.typeMismatch, "min: and max: compare numbers, dates or strings, not \(Functions.describe(a)) with \(Functions.describe(b))")
        }
    }
}
