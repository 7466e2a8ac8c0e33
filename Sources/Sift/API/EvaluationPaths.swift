import Foundation

/// Which ways of evaluating a compiled filter may take: its fast paths where
/// they apply, or the general path alone.
///
/// The general path is a tree of closures over ``Value``: each comparison
/// reads both sides as values and compares them with Foundation's rules. The
/// fast paths answer the same comparisons more directly, each only where its
/// answer is the general path's:
///
/// - a ``TypedFilter`` reads stored properties in place, runs AND, OR and
///   NOT of such comparisons as steps over an array's buffer, and compares
///   strings kept inline by their bytes;
/// - a ``CompiledFilter`` reads key paths straight through dictionaries and
///   compares the common kinds of value on the spot;
/// - a ``ValueTable`` reads keys from its columns;
/// - `BEGINSWITH`, `ENDSWITH` and `CONTAINS` with a constant search ASCII
///   and Latin strings by their bytes.
///
/// With ``generalOnly`` none of them is taken, so that the general path can
/// be checked against them (the tests run both ways), or relied on where a
/// fast path is in doubt:
///
/// ```swift
/// let general = try Filter("age > 30").compiled(for: Person.self, paths: .generalOnly)
/// ```
///
/// A filter with an ``Filter/evaluationBudget`` always takes the general
/// path, which counts its work. The choice is made once, when compiling:
/// it costs nothing per object.
public enum EvaluationPaths: Sendable, Hashable {
    /// The fast paths wherever they apply (the general path elsewhere).
    case fast
    /// The general path for every comparison.
    case generalOnly

    /// The paths of filters compiled without saying: ``fast``, or
    /// ``generalOnly`` when the environment variable `SIFT_EVAL_GENERAL_ONLY`
    /// is `1` (for the `sift` tool too). The environment is read once, when
    /// the first filter is compiled.
    public static let `default`: EvaluationPaths =
        ProcessInfo.processInfo.environment["SIFT_EVAL_GENERAL_ONLY"] == "1" ? .generalOnly : .fast

    /// Whether a filter compiled with these paths and `budget`
    /// (``Filter/evaluationBudget``) may take fast paths: the one rule every
    /// choice of a fast path goes by. Work is counted only on the general
    /// path, so a budget rules them out.
    func allowFastPaths(budget: Int?) -> Bool {
        self == .fast && budget == nil
    }
}
