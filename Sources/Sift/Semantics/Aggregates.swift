import Foundation

/// Sums and statistics over collections of numbers, for `@sum`/`@avg` and
/// the functions `sum:`, `average:`, `median:`, `mode:`, `stddev:`.
enum Aggregates {
    static func numbers(_ values: [Value], what: String) throws(Failure) -> [NumericValue] {
        var out: [NumericValue] = []
        out.reserveCapacity(values.count)
        for v in values {
            guard let n = NumericValue(v) else {
                throw Failure(.typeMismatch, "\(what) needs numbers, got \(Functions.describe(v))")
            }
            out.append(n)
        }
        return out
    }

    /// The sum: an integer while every term is an integer and it fits,
    /// a decimal if any term is a decimal, a double otherwise.
    static func sum(_ values: [Value], what: String) throws(Failure) -> Value {
        var intSum = 0
        var allInts = true
        var doubleSum = 0.0
        var anyDecimal = false
        let terms = try numbers(values, what: what)
        for n in terms {
            switch n {
            case .int(let i):
                if allInts {
                    let (s, o) = intSum.addingReportingOverflow(i)
                    if o { allInts = false } else { intSum = s }
                }
                doubleSum += Double(i)
            case .double(let d):
                allInts = false
                doubleSum += d
            case .decimal(let d):
                allInts = false
                anyDecimal = true
                doubleSum += NSDecimalNumber(decimal: d).doubleValue
            }
        }
        if allInts { return .int(intSum) }
        guard anyDecimal else { return .double(doubleSum) }
        // Only a sum with a decimal term is made in decimals, so that a
        // double that has no decimal value (an infinity) is an error only there.
        var decimalSum = Decimal(0)
        for n in terms { decimalSum += try Conversions.decimal(n) }
        return .decimal(try Conversions.checkedDecimal(decimalSum, what))
    }

    static func elements(_ value: Value, what: String) throws(Failure) -> [Value] {
        switch value {
        case .array(let items): return items
        case .set(let items): return Array(items)
        default: throw Failure(.notACollection, "\(what) needs an array or a set, not \(Functions.describe(value))")
        }
    }

    static func average(_ values: [Value]) throws(Failure) -> Value {
        guard !values.isEmpty else { return .null }
        let total = try numbers(values, what: "average:").reduce(0) { $0 + $1.doubleValue }
        return .double(total / Double(values.count))
    }

    static func median(_ values: [Value]) throws(Failure) -> Value {
        guard !values.isEmpty else { return .null }
        let sorted = try numbers(values, what: "median:").sorted { NumericValue.compare($0, $1) == .orderedAscending }
        let mid = sorted.count / 2
        if sorted.count % 2 == 1 { return value(sorted[mid]) }
        return .double((sorted[mid - 1].doubleValue + sorted[mid].doubleValue) / 2)
    }

    static func mode(_ values: [Value]) throws(Failure) -> Value {
        _ = try numbers(values, what: "mode:")
        var counts: [Value: Int] = [:]
        var order: [Value] = []
        for v in values {
            if counts[v] == nil { order.append(v) }
            counts[v, default: 0] += 1
        }
        let top = counts.values.max() ?? 0
        return .array(order.filter { counts[$0] == top })
    }

    /// The population standard deviation.
    static func stddev(_ values: [Value]) throws(Failure) -> Value {
        guard !values.isEmpty else { return .null }
        let xs = try numbers(values, what: "stddev:").map { $0.doubleValue }
        let mean = xs.reduce(0, +) / Double(xs.count)
        let variance = xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(xs.count)
        return .double(variance.squareRoot())
    }

    static func value(_ n: NumericValue) -> Value {
        switch n {
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .decimal(let d): return .decimal(d)
        }
    }
}
