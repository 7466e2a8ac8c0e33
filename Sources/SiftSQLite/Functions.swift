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
        add(function: SiftFunctions.orderedSum)
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

/// The `sift_*` functions as GRDB functions: the bodies of
/// `SQLiteFunctions.bodies(regexLimits:)` (SiftSQL, shared with
/// SiftSQLKit's sqlite-nio connections) on GRDB's values.
enum SiftFunctions {
    /// The functions, with `sift_matches` held to `regexLimits`.
    static func functions(regexLimits: RegexLimits) -> [DatabaseFunction] {
        SQLiteFunctions.bodies(regexLimits: regexLimits).map { body in
            DatabaseFunction(body.name, argumentCount: body.argumentCount, pure: true) { args in
                do throws(SQLiteFunctionFailure) {
                    return try body.call(args.map { SQLValue($0) }).databaseValue
                } catch {
                    throw DatabaseError(message: error.message)
                }
            }
        }
    }

    /// `sift_sum(value, key)`, the aggregate of ``OrderedSumState``.
    static let orderedSum = DatabaseFunction(SQLiteFunctions.orderedSum, argumentCount: 2, pure: true, aggregate: OrderedSum.self)

    struct OrderedSum: DatabaseAggregate {
        var state = OrderedSumState()

        /// SQLite calls it with exactly two arguments (`argumentCount`).
        mutating func step(_ dbValues: [DatabaseValue]) throws {
            do throws(SQLiteFunctionFailure) {
                try state.step(SQLValue(dbValues[0]), key: SQLValue(dbValues[1]))
            } catch {
                throw DatabaseError(message: error.message)
            }
        }

        func finalize() throws -> (any DatabaseValueConvertible)? {
            do throws(SQLiteFunctionFailure) {
                return try state.finalize().databaseValue
            } catch {
                throw DatabaseError(message: error.message)
            }
        }
    }

    static let collations: [DatabaseCollation] = SortKey.Comparison.allCases.map { comparison in
        DatabaseCollation(SQLiteFunctions.collation(comparison)) { a, b in comparison.order(a, b) }
    }
}
