/// A predicate that cannot be evaluated against a particular object: the
/// cases where Apple's Foundation raises an exception instead of answering.
/// Carries the range of the sub-expression at fault.
public struct EvaluationError: SourceDiagnostic, Hashable, Sendable {
    /// What went wrong, for programs that react to particular errors.
    public enum Code: String, Sendable, Hashable, Codable {
        /// An operator got a kind of value it cannot work on: `name < 5`,
        /// `age BEGINSWITH "3"`, `name + 1`.
        case typeMismatch
        /// `ANY`/`ALL`, `SUBQUERY` or an aggregate function needs an array or a
        /// set; `UNION`, `INTERSECT` and `MINUS` need a collection on each side.
        case notACollection
        /// A key that the value does not have (on a value that is not a dictionary).
        case unknownKey
        /// A `$VARIABLE` without a value.
        case unboundVariable
        /// A `MATCHES` pattern that does not compile.
        case invalidRegex
        /// A `MATCHES` that went over one of its ``RegexLimits``: a pattern
        /// too long (or too large to compile), or a match that takes too
        /// many backtracking steps, too deep a backtracking or too much memory.
        case regexLimit
        /// `tags[10]` on a shorter array.
        case indexOutOfRange
        /// `FUNCTION(x, "selector")` with a selector that is not available.
        case unknownFunction
        /// `CAST(x, "Type")` with a type that is not available, or a value
        /// that cannot be converted to it.
        case unknownType
        /// Integer division or modulus by zero.
        case divisionByZero
        /// A number that does not fit where it goes: integer arithmetic
        /// beyond 64 bits, decimal arithmetic beyond `Decimal`'s range, or
        /// a double with no decimal value (an infinity, NaN, or above about
        /// 1e147) made a decimal (`decimalValue`, `CAST(x, "NSDecimalNumber")`).
        case overflow
        /// `min:`/`max:` of an empty collection.
        case emptyCollection
        /// A collection operator (`@sum`, `@avg`, …) without the key path after it.
        case missingKeyPath
        /// Something that has no meaning outside Apple's platforms (`ANYKEY`,
        /// `distinct:`).
        case unsupported
        /// The evaluation of one object went over its work budget
        /// (``Filter/evaluationBudget``, set by
        /// ``PredicatePolicy/evaluationBudget``).
        case limit
    }

    /// What kind of error this is.
    public var code: Code
    /// A one-line description, without position (see ``SourceDiagnostic/rendered(colors:)``).
    public var message: String
    /// The UTF-8 byte range, in ``source``, of the node at fault.
    public var range: SourceRange
    /// The format string of the predicate that was evaluated.
    public var source: String

    /// An error with its code, message, and the range of the node at fault in `source`.
    public init(_ code: Code, _ message: String, range: SourceRange, source: String) {
        self.code = code
        self.message = message
        self.range = range
        self.source = source
    }
}

/// An evaluation failure before it knows where it happened: the compiler
/// attaches the range of the node that failed.
struct Failure: Error {
    var code: EvaluationError.Code
    var message: String

    init(_ code: EvaluationError.Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
