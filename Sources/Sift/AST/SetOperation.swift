/// The set expressions of `NSExpression` (`expressionForUnionSet:with:`,
/// `expressionForIntersectSet:with:`, `expressionForMinusSet:with:`),
/// written infix in a format string: `a IN b UNION c`.
///
/// The left operand evaluates to a set (an array is taken as the set of
/// its elements); the right operand to an array, a set or a dictionary (its
/// values). The result is a set. Each case's raw value is its keyword, the
/// one spelling that the lexer, the printer and the REPL's completion share.
public enum SetOperation: String, Sendable, Hashable, Codable, CaseIterable {
    /// `a UNION b`: the elements of either side.
    case union = "UNION"
    /// `a INTERSECT b`: the elements of the left side that are also on the right.
    case intersect = "INTERSECT"
    /// `a MINUS b`: the elements of the left side that are not on the right.
    case minus = "MINUS"

    /// The keyword, in upper case: `"UNION"`, `"INTERSECT"`, `"MINUS"`.
    public var keyword: String { rawValue }
}
