import Sift

extension SQLFragment {
    /// `value`, an aggregate of the integers `n`, where every order of
    /// adding them gives memory's value: count × the largest magnitude is
    /// at most `bound` (`Int.max`: no partial sum leaves 64 bits, so
    /// memory's integer sum is exact, and so is a collection's `@avg`, that
    /// sum divided once; 2^53: every partial sum is an exact double, so a
    /// grouped `average:`, which adds doubles, is the same in any order). Elsewhere the
    /// statement fails: `abs` of the smallest integer raises on every
    /// database ("integer overflow", "bigint out of range"), computed from
    /// the rows (`COUNT(*) * 0`) so that no database works it out before
    /// reading one. The check's own arithmetic cannot overflow: it divides
    /// the bound by the count. A grouped fetch's `average:` of integers and
    /// a collection's `@sum` and `@avg` of integers go through it.
    static func exactIntegerAggregate(_ value: SQLFragment, of n: SQLFragment, bound: Int) -> SQLFragment {
        let count = SQLFragment.function("COUNT", [n])
        let share = SQLFragment.binary(.integer(bound), "/", .function("NULLIF", [count, .integer(0)]))
        let within = SQLFragment.or([
            .binary(count, "=", .integer(0)),
            .and([
                .binary(.function("MAX", [n]), "<=", share),
                .binary(.function("MIN", [n]), ">=", .binary(.integer(0), "-", share)),
            ]),
        ])
        let fail = SQLFragment.function(
            "ABS", [.binary(.binary(.binary(.countAll, "*", .integer(0)), "-", .integer(Int.max)), "-", .integer(1))])
        return .sequence([.sql("CASE WHEN "), within, .sql(" THEN "), value, .sql(" ELSE "), fail, .sql(" END")])
    }
}
