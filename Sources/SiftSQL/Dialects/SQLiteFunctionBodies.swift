import Foundation
import Sift

/// What each `sift_*` SQLite function computes, on SQLite's stored values,
/// whatever driver registers it: SiftSQLite through GRDB, SiftSQLKit
/// through sqlite-nio. Each driver only converts its values to and from
/// ``SQLValue`` and turns a ``SQLiteFunctionFailure`` into its own error.
package struct SQLiteFunctionBody: Sendable {
    /// The function's SQL name (``SQLiteFunctions``).
    package let name: String
    /// How many arguments it takes; nil for any number.
    package let argumentCount: Int?
    /// The result for the arguments, each a stored value (`.null`,
    /// `.integer`, `.real`, `.text` or `.blob`); the result is one too.
    package let call: @Sendable ([SQLValue]) throws(SQLiteFunctionFailure) -> SQLValue
}

/// Why a `sift_*` function failed its statement (memory's error, as an
/// evaluation fails with it).
package struct SQLiteFunctionFailure: Error, Sendable {
    package let message: String
}

extension SQLiteFunctions {
    /// The functions, with `sift_matches` held to `regexLimits` (the
    /// bodies made with the default limits share one pattern cache).
    package static func bodies(regexLimits: RegexLimits) -> [SQLiteFunctionBody] {
        stringBodies + [arithmeticBody, functionBody, regexLimits == .default ? defaultMatches : matchesBody(regexLimits)]
    }

    /// The option bits of an argument (0 when it has none).
    private static func options(_ v: SQLValue) -> ComparisonOptions {
        ComparisonOptions(rawValue: integer(v) ?? 0)
    }

    /// An argument as text, converted as SQLite converts: a blob is read as
    /// UTF-8; a number or NULL is no text.
    private static func text(_ v: SQLValue) -> String? {
        switch v {
        case .text(let s): return s
        case .blob(let data): return String(data: data, encoding: .utf8)
        default: return nil
        }
    }

    /// An argument as an integer: a double in range is truncated; text,
    /// blobs and NULL are none.
    private static func integer(_ v: SQLValue) -> Int? {
        switch v {
        case .integer(let i): return Int(exactly: i)
        case .real(let d) where d >= Double(Int64.min) && d < Double(Int64.max): return Int(exactly: Int64(d))
        default: return nil
        }
    }

    private static let stringBodies: [SQLiteFunctionBody] = [
        SQLiteFunctionBody(name: fold, argumentCount: 2) { args in
            guard let s = text(args[0]) else { return .null }
            return .text(StringOperations.folded(s, options(args[1])))
        },
        SQLiteFunctionBody(name: compare, argumentCount: 3) { args in
            guard let a = text(args[0]), let b = text(args[1]) else { return .null }
            return .integer(Int64(StringOperations.compare(a, b, options(args[2]))))
        },
        SQLiteFunctionBody(name: search, argumentCount: 4) { args in
            guard let h = text(args[0]), let n = text(args[1]), let kind = SearchKind(code: integer(args[2]) ?? -1)
            else { return .integer(0) }
            return .integer(StringOperations.search(h, n, kind, options(args[3])) ? 1 : 0)
        },
        SQLiteFunctionBody(name: sortKey, argumentCount: 2) { args in
            switch args[0] {
            case .text(let s): return .blob(Data([0] + StringOperations.sortKey(s, options(args[1]))))
            case .blob(let data): return .blob(Data([1]) + data)
            default: return args[0]
            }
        },
        SQLiteFunctionBody(name: like, argumentCount: 3) { args in
            guard let s = text(args[0]), let p = text(args[1]) else { return .integer(0) }
            return .integer(LikePattern.matches(s, p, options(args[2])) ? 1 : 0)
        },
    ]

    /// `sift_arithmetic(op, a, b)`: memory's `+ - * /`. Memory's errors
    /// (overflow, division by zero) fail the statement, as they fail an
    /// evaluation; NaN, which SQLite cannot hold, is NULL both ways.
    private static let arithmeticBody = SQLiteFunctionBody(name: arithmetic, argumentCount: 3) { (args: [SQLValue]) throws(SQLiteFunctionFailure) -> SQLValue in
        guard let op = integer(args[0]).flatMap(ArithmeticOperator.init(rawValue:)) else {
            throw SQLiteFunctionFailure(message: "\(arithmetic): unknown operator")
        }
        let result: Value
        do throws(ArithmeticFailure) {
            result = try op.apply(number(args[1]), number(args[2]))
        } catch {
            throw SQLiteFunctionFailure(message: "\(arithmetic): \(error.message)")
        }
        switch result {
        case .int(let i): return .integer(Int64(i))
        case .double(let d): return d.isNaN ? .null : .real(d)
        default: return .null
        }
    }

    /// `sift_function(code, a…)`: a built-in function as memory applies
    /// it. Its errors fail the statement; a double NaN is NULL.
    private static let functionBody = SQLiteFunctionBody(name: function, argumentCount: nil) { (args: [SQLValue]) throws(SQLiteFunctionFailure) -> SQLValue in
        guard let code = args.first.flatMap(integer), let f = BuiltinFunction(code: code) else {
            throw SQLiteFunctionFailure(message: "\(function): unknown function")
        }
        let result: Value
        do throws(ArithmeticFailure) {
            result = try f.apply(args.dropFirst().map(number))
        } catch {
            throw SQLiteFunctionFailure(message: "\(function): \(error.message)")
        }
        switch result {
        case .int(let i): return .integer(Int64(i))
        case .bool(let b): return .integer(b ? 1 : 0)
        case .double(let d): return d.isNaN ? .null : .real(d)
        case .string(let s): return .text(s)
        default: throw SQLiteFunctionFailure(message: "\(function): \(f.rawValue) gave \(result.typeName)")
        }
    }

    /// A stored value as an operand of `sift_arithmetic` and `sift_function`.
    private static func number(_ v: SQLValue) -> Value {
        switch v {
        case .integer(let i): return .int(Int(i))
        case .real(let d): return .double(d)
        case .text(let s): return .string(s)
        case .blob(let d): return .data(d)
        case .null, .boolean, .array: return .double(.nan)
        }
    }

    private static let defaultMatches = matchesBody(.default)

    /// MATCHES, with the compiled patterns cached.
    private static func matchesBody(_ limits: RegexLimits) -> SQLiteFunctionBody {
        let cache = PatternCache(limits: limits)
        return SQLiteFunctionBody(name: matches, argumentCount: 3) { (args: [SQLValue]) throws(SQLiteFunctionFailure) -> SQLValue in
            guard let s = text(args[0]), let p = text(args[1]) else { return .integer(0) }
            do {
                return .integer(try cache.pattern(p, options(args[2])).matches(s) ? 1 : 0)
            } catch {
                throw SQLiteFunctionFailure(message: "\(error)")
            }
        }
    }
}

/// Compiled MATCHES patterns, shared by the statements of a connection.
final class PatternCache: @unchecked Sendable {
    private let lock = NSLock()
    private var patterns: [String: MatchesPattern] = [:]
    private let limits: RegexLimits
    private static let capacity = 128

    init(limits: RegexLimits) {
        self.limits = limits
    }

    func pattern(_ pattern: String, _ options: ComparisonOptions) throws -> MatchesPattern {
        let key = "\(options.rawValue):\(pattern)"
        lock.lock()
        defer { lock.unlock() }
        if let p = patterns[key] { return p }
        let compiled = try MatchesPattern(pattern, options: options, limits: limits)
        if patterns.count >= Self.capacity { patterns.removeAll(keepingCapacity: true) }
        patterns[key] = compiled
        return compiled
    }
}

/// The state of `sift_sum(value, key)` (``SQLiteFunctions/orderedSum``) for
/// one group, whatever driver registers it: the terms with their keys, added
/// from 0.0 in key order when the group ends, as memory adds a group's (or
/// a collection's) doubles in the order of its objects. SQLite's SUM and
/// TOTAL add in the order the rows come, which no statement fixes for a
/// GROUP BY, and compensate rounding since 3.43. A group's state grows with
/// its terms (a key and a double each), as a database's sort would.
///
/// Integer keys (primary keys, order columns: nearly always) are kept as
/// integers, and terms that came in key order (a scan of the table, or of
/// an index on the key) are not sorted again.
package struct OrderedSumState: Sendable {
    /// The terms while every key is an integer.
    private var integerTerms: [(key: Int64, value: Double)] = []
    /// The terms once a key is not an integer (the integer ones moved here).
    private var terms: [(key: SQLValue, value: Double)] = []
    /// Whether the terms came in key order so far.
    private var inOrder = true

    package init() {}

    /// Takes one row's `value` and `key`: a NULL value is no term (SQLite
    /// holds no NaN, which memory leaves out too); an integer is the double
    /// memory reads from a double column; text or a blob fails, as memory's
    /// sum fails on a value that is not a number. The drivers call it with
    /// the row's two arguments as they are (no array a row).
    package mutating func step(_ value: SQLValue, key: SQLValue) throws(SQLiteFunctionFailure) {
        let term: Double
        switch value {
        case .null: return
        case .integer(let i): term = Double(i)
        case .real(let d): term = d
        case .boolean(let b): term = b ? 1 : 0
        case .text: throw SQLiteFunctionFailure(message: "sum: needs numbers, got a string")
        case .blob, .array: throw SQLiteFunctionFailure(message: "sum: needs numbers, got data")
        }
        if terms.isEmpty, case .integer(let k) = key {
            if inOrder, let last = integerTerms.last, k < last.key { inOrder = false }
            integerTerms.append((k, term))
            return
        }
        if !integerTerms.isEmpty {
            terms = integerTerms.map { (SQLValue.integer($0.key), $0.value) }
            integerTerms = []
        }
        if inOrder, let last = terms.last, Self.precedes(key, last.key) { inOrder = false }
        terms.append((key, term))
    }

    /// The sum, NULL when no term came. A NaN sum (∞ − ∞) fails the
    /// statement: SQLite would make it NULL, which memory's NaN is not.
    package func finalize() throws(SQLiteFunctionFailure) -> SQLValue {
        var sum = 0.0
        if !integerTerms.isEmpty {
            if inOrder {
                for term in integerTerms { sum += term.value }
            } else {
                for term in integerTerms.sorted(by: { $0.key < $1.key }) { sum += term.value }
            }
        } else if !terms.isEmpty {
            if inOrder {
                for term in terms { sum += term.value }
            } else {
                for term in terms.sorted(by: { Self.precedes($0.key, $1.key) }) { sum += term.value }
            }
        } else {
            return .null
        }
        if sum.isNaN {
            throw SQLiteFunctionFailure(
                message: "\(SQLiteFunctions.orderedSum): the sum is NaN (an infinity added to its opposite), which SQLite cannot hold")
        }
        return .real(sum)
    }

    /// SQLite's order of keys: NULL, then numbers by value, then text by its
    /// bytes (`COLLATE "C"` on PostgreSQL), then blobs by their bytes.
    static func precedes(_ a: SQLValue, _ b: SQLValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return x < y
        case (.text(let x), .text(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.blob(let x), .blob(let y)): return x.lexicographicallyPrecedes(y)
        default:
            let (ra, rb) = (rank(a), rank(b))
            if ra != rb || ra != 1 { return ra < rb }
            return number(a) < number(b)
        }
    }

    private static func rank(_ v: SQLValue) -> Int {
        switch v {
        case .null: return 0
        case .integer, .real, .boolean: return 1
        case .text: return 2
        case .blob, .array: return 3
        }
    }

    private static func number(_ v: SQLValue) -> Double {
        switch v {
        case .integer(let i): return Double(i)
        case .real(let d): return d
        case .boolean(let b): return b ? 1 : 0
        default: return 0
        }
    }
}
