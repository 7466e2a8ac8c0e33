import Foundation
import GRDB
import Sift
import SiftSQL

extension Database {
    /// Registers the functions and collations that lowered SQLite
    /// statements call (`SQLiteFunctions`): the evaluator's own string
    /// folding, comparison, search, LIKE and PCRE2 MATCHES, so that a
    /// predicate answers the same in SQL as in memory.
    ///
    /// Call it once per connection, for instance from
    /// `Configuration.prepareDatabase`, or use ``Configuration/sift``.
    /// `sift_matches` compiles and runs its patterns with `regexLimits`; one
    /// over them fails the statement.
    public func registerSiftFunctions(regexLimits: RegexLimits = .default) {
        for f in SiftFunctions.functions(regexLimits: regexLimits) { add(function: f) }
        for c in SiftFunctions.collations { add(collation: c) }
    }
}

extension Configuration {
    /// A configuration whose connections have the Sift functions registered.
    public static var sift: Configuration { sift(regexLimits: .default) }

    /// A configuration whose connections have the Sift functions registered,
    /// with `sift_matches` held to `regexLimits`.
    public static func sift(regexLimits: RegexLimits) -> Configuration {
        var c = Configuration()
        c.prepareDatabase { db in db.registerSiftFunctions(regexLimits: regexLimits) }
        return c
    }
}

enum SiftFunctions {
    static func options(_ v: DatabaseValue) -> ComparisonOptions {
        ComparisonOptions(rawValue: Int.fromDatabaseValue(v) ?? 0)
    }

    static func text(_ v: DatabaseValue) -> String? {
        String.fromDatabaseValue(v)
    }

    /// The functions, with `sift_matches` held to `regexLimits` (connections
    /// with the default limits share one pattern cache).
    static func functions(regexLimits: RegexLimits) -> [DatabaseFunction] {
        stringFunctions + [arithmetic, function, regexLimits == .default ? defaultMatches : matchesFunction(regexLimits)]
    }

    private static let defaultMatches = matchesFunction(.default)

    private static let stringFunctions: [DatabaseFunction] = [
        DatabaseFunction(SQLiteFunctions.fold, argumentCount: 2, pure: true) { args in
            guard let s = text(args[0]) else { return nil }
            return StringOperations.folded(s, options(args[1]))
        },
        DatabaseFunction(SQLiteFunctions.compare, argumentCount: 3, pure: true) { args in
            guard let a = text(args[0]), let b = text(args[1]) else { return nil }
            return StringOperations.compare(a, b, options(args[2]))
        },
        DatabaseFunction(SQLiteFunctions.search, argumentCount: 4, pure: true) { args in
            guard let h = text(args[0]), let n = text(args[1]),
                let kind = SearchKind(code: Int.fromDatabaseValue(args[2]) ?? -1)
            else { return 0 }
            return StringOperations.search(h, n, kind, options(args[3])) ? 1 : 0
        },
        DatabaseFunction(SQLiteFunctions.like, argumentCount: 3, pure: true) { args in
            guard let s = text(args[0]), let p = text(args[1]) else { return 0 }
            return LikePattern.matches(s, p, options(args[2])) ? 1 : 0
        },
    ]

    /// `sift_arithmetic(op, a, b)`: memory's `+ - * /` (``SQLiteFunctions/arithmetic``).
    /// Memory's errors (overflow, division by zero) fail the statement, as they
    /// fail an evaluation; NaN, which SQLite cannot hold, is NULL both ways.
    static let arithmetic = DatabaseFunction(SQLiteFunctions.arithmetic, argumentCount: 3, pure: true) { args in
        guard let op = Int.fromDatabaseValue(args[0]).flatMap(ArithmeticOperator.init(rawValue:)) else {
            throw DatabaseError(message: "\(SQLiteFunctions.arithmetic): unknown operator")
        }
        let result: Value
        do throws(ArithmeticFailure) {
            result = try op.apply(number(args[1]), number(args[2]))
        } catch {
            throw DatabaseError(message: "\(SQLiteFunctions.arithmetic): \(error.message)")
        }
        switch result {
        case .int(let i): return Int64(i)
        case .double(let d): return d.isNaN ? nil : d
        default: return nil
        }
    }

    /// `sift_function(code, a…)`: a built-in function as memory applies it
    /// (``SQLiteFunctions/function``). Its errors fail the statement; a
    /// double NaN is NULL.
    static let function = DatabaseFunction(SQLiteFunctions.function, pure: true) { args in
        guard let code = args.first.flatMap(Int.fromDatabaseValue), let f = BuiltinFunction(code: code) else {
            throw DatabaseError(message: "\(SQLiteFunctions.function): unknown function")
        }
        let result: Value
        do throws(ArithmeticFailure) {
            result = try f.apply(args.dropFirst().map(number))
        } catch {
            throw DatabaseError(message: "\(SQLiteFunctions.function): \(error.message)")
        }
        switch result {
        case .int(let i): return Int64(i)
        case .bool(let b): return Int64(b ? 1 : 0)
        case .double(let d): return d.isNaN ? nil : d
        case .string(let s): return s
        default: throw DatabaseError(message: "\(SQLiteFunctions.function): \(f.rawValue) gave \(result.typeName)")
        }
    }

    /// A SQLite value as an operand of `sift_arithmetic` and `sift_function`.
    private static func number(_ v: DatabaseValue) -> Value {
        switch v.storage {
        case .int64(let i): return .int(Int(i))
        case .double(let d): return .double(d)
        case .null: return .double(.nan)
        case .string(let s): return .string(s)
        case .blob(let d): return .data(d)
        }
    }

    /// MATCHES, with the compiled patterns cached.
    private static func matchesFunction(_ limits: RegexLimits) -> DatabaseFunction {
        let cache = PatternCache(limits: limits)
        return DatabaseFunction(SQLiteFunctions.matches, argumentCount: 3, pure: true) { args in
            guard let s = text(args[0]), let p = text(args[1]) else { return 0 }
            return try cache.pattern(p, options(args[2])).matches(s) ? 1 : 0
        }
    }

    static let collations: [DatabaseCollation] = SortKey.Comparison.allCases.map { comparison in
        DatabaseCollation(SQLiteFunctions.collation(comparison)) { a, b in comparison.order(a, b) }
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
