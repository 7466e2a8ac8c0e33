import Sift

/// `TERNARY(c, a, b)` as an operand of a comparison (what Swift's `a ?? b`
/// and a `c ? a : b` giving a value convert to): the comparison is
/// distributed over the two branches,
///
///     op(TERNARY(c, a, b), y)  →  (c AND op(a, y)) OR (NOT c AND op(b, y))
///
/// and the result is lowered as any predicate. It is exact: memory tests
/// `c` (true or false, never nil) and compares the branch it picks, and
/// the lowering's predicates are two-valued too (NOT is pushed down to
/// leaves written for their polarity), so exactly one of the two sides can
/// hold and it holds where the picked comparison does. The database may
/// compute the branch memory does not pick: arithmetic there can raise
/// (a division by zero the test guarded), failing the statement, never
/// changing its rows, as with arithmetic under any AND (see the SQL
/// lowering's article, Arithmetic).
///
/// The TERNARY is reached inside the operand through what memory evaluates
/// unconditionally before using the value: a key path after it
/// (`TERNARY(c, a, b).name` is `TERNARY(c, a.name, b.name)`), a subscript,
/// a function's arguments and a CAST. The test `c` reads the object, never
/// an element of the comparison's collection (ANY and ALL bind no
/// variable), so the modifier and options go to both copies unchanged. A
/// TERNARY elsewhere (in an aggregate, an invocation, a SUBQUERY's
/// collection) is refused by ``Lowering/operand(_:_:)``.
///
/// Each distribution writes the test twice, and the test and the branches
/// may hold TERNARYs of their own, so nested tests can double the SQL at
/// each level: ``maximumDistributions`` bounds the distributions of one
/// request. A `??` chain of n values takes n − 1.
extension Lowering {
    /// The most TERNARY operands distributed while lowering one request.
    static let maximumDistributions = 256

    /// `c` lowered with its first reachable TERNARY operand distributed
    /// (and so on, as the copies are lowered), or nil when neither operand
    /// holds one. A branch whose comparison is answered now (`0 > 1995`, a
    /// constant against a constant) leaves no `AND FALSE` behind.
    func loweringTernary(_ c: Comparison, range: SourceRange?, _ scope: SelectScope, negated: Bool)
        throws(SQLLoweringError) -> SQLFragment?
    {
        guard let distributed = try distributingTernary(c, range: range, scope) else { return nil }
        return Self.folded(try predicate(distributed, scope, negated: negated))
    }

    /// `f` with TRUE and FALSE taken out of its ANDs and ORs: exact in
    /// SQL's logic too (`NULL AND FALSE` is FALSE, `NULL OR TRUE` is TRUE).
    static func folded(_ f: SQLFragment) -> SQLFragment {
        let isAnd: Bool
        let parts: [SQLFragment]
        switch f {
        case .and(let p, _): (isAnd, parts) = (true, p)
        case .or(let p): (isAnd, parts) = (false, p)
        default: return f
        }
        var kept: [SQLFragment] = []
        for part in parts.map(folded) {
            guard case .boolean(let b) = part else {
                kept.append(part)
                continue
            }
            if b != isAnd { return .boolean(b) }
        }
        if kept.isEmpty { return .boolean(isAnd) }
        if kept.count == 1 { return kept[0] }
        if case .and(_, let grouped) = f { return .and(kept, grouped: grouped) }
        return .or(kept)
    }

    /// `c` with its first reachable TERNARY operand distributed, or nil
    /// when neither operand holds one.
    private func distributingTernary(_ c: Comparison, range: SourceRange?, _ scope: SelectScope) throws(SQLLoweringError)
        -> PredicateNode?
    {
        let lhs = Self.liftingTernary(c.lhs)
        guard let (test, a, b) = lhs ?? Self.liftingTernary(c.rhs) else { return nil }
        ctx.ternaryDistributions += 1
        if ctx.ternaryDistributions > Self.maximumDistributions {
            throw error(
                .limit,
                "the predicate needs more than \(Self.maximumDistributions) TERNARY operands distributed over their comparisons: "
                    + "nested TERNARY tests double the SQL at each level",
                entity: scope.entity, range: range)
        }
        func branch(_ e: ExpressionNode) -> PredicateNode {
            var copy = c
            if lhs != nil { copy.lhs = e } else { copy.rhs = e }
            return PredicateNode(.comparison(copy), range: range)
        }
        return PredicateNode(
            .or([
                PredicateNode(.and([test, branch(a)]), range: range),
                PredicateNode(.and([PredicateNode(.not(test), range: test.range), branch(b)]), range: range),
            ]), range: range)
    }

    /// `e` as `TERNARY(c, a, b)` when a TERNARY is evaluated unconditionally
    /// in it: `(c, e with a in its place, e with b in its place)`.
    static func liftingTernary(_ e: ExpressionNode) -> (PredicateNode, ExpressionNode, ExpressionNode)? {
        switch e.kind {
        case .ternary(let test, let a, let b):
            return (test, a, b)
        case .path(let base, let keys):
            guard let (test, a, b) = liftingTernary(base) else { return nil }
            return (test, a.appending(keys, range: e.range), b.appending(keys, range: e.range))
        case .index, .function, .cast:
            let children = e.kind.children
            for (i, child) in children.enumerated() {
                guard case .expression(let x) = child.node, let (test, a, b) = liftingTernary(x) else { continue }
                func replaced(_ y: ExpressionNode) -> ExpressionNode {
                    var next = children
                    next[i] = .expression(y)
                    return ExpressionNode(e.kind.replacingChildren(next), range: e.range)
                }
                return (test, replaced(a), replaced(b))
            }
            return nil
        default:
            return nil
        }
    }
}
