import Foundation

/// The variables in scope while a compiled predicate runs: substitution
/// variables and `SUBQUERY` variables. The object (`SELF`) is passed
/// separately, with its own type.
@usableFromInline
struct EvaluationScope: Sendable {
    @usableFromInline var variables: [String: Value]
    /// The work left for this object, when the filter has a budget
    /// (``Filter/evaluationBudget``).
    @usableFromInline var budget: WorkBudget?

    @usableFromInline
    init(variables: [String: Value]) {
        self.variables = variables
    }

    /// Counts `units` of work against the budget, if there is one.
    @inline(__always)
    func charge(_ units: @autoclosure () -> Int, _ fail: @Sendable (Failure) -> EvaluationError)
        throws(EvaluationError)
    {
        guard let budget else { return }
        budget.remaining -= units()
        if budget.remaining < 0 {
            throw fail(Failure(
                .limit,
                "the evaluation of one object went over its budget of \(budget.limit) units of work "
                    + "(Filter.evaluationBudget, PredicatePolicy.evaluationBudget; sift --budget)"))
        }
    }
}
