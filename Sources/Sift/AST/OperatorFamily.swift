/// What a comparison operator tests, as the phases that give it meaning
/// read it: the evaluator (its general and fast paths), the cost model, the
/// policy and the SQL lowering switch on an operator's family, not on the
/// operator, and read the operator's own name from its row
/// (``ComparisonOperator/symbol``). Every operator of a family is handled
/// by the same code, parameterised by the family's payload.
package enum OperatorFamily: Sendable, Hashable {
    /// `==` (`equal`) and `!=`: any two values, nil equal only to nil.
    case equality(equal: Bool)
    /// `<`, `<=`, `>`, `>=`: numbers, strings and dates in their order;
    /// nil is only `<=` and `>=` nil.
    case ordering(greater: Bool, orEqual: Bool)
    /// `BETWEEN {lower, upper}`, both bounds included.
    case range
    /// `CONTAINS` (the container on the left) and `IN` (on the right): an
    /// element of an array, set or dictionary, or a substring of a string.
    case membership(containerOnLeft: Bool)
    /// `BEGINSWITH` and `ENDSWITH`: where the right string is in the left one.
    case search(SearchKind)
    /// `LIKE` and `MATCHES`: the whole left string matches the right pattern.
    case pattern(PatternKind)
    /// `UTI-CONFORMS-TO` and `UTI-EQUALS` (`equals`): uniform type identifiers.
    case typeTest(equals: Bool)
    /// `name selector: value`: a method of the left side, by name.
    case selector

    /// The language of a pattern.
    package enum PatternKind: Sendable, Hashable {
        /// `*` any run of characters, `?` one, `\` makes the next literal.
        case wildcard
        /// An ICU regular expression (PCRE2 here).
        case regularExpression
    }

    /// The string search the operator makes when both sides are strings,
    /// and whether the needle is its right side (`CONTAINS`, `BEGINSWITH`,
    /// `ENDSWITH`) or its left one (`IN`); nil for the other families.
    package var stringSearch: (kind: SearchKind, needleOnRight: Bool)? {
        switch self {
        case .search(let kind): return (kind, true)
        case .membership(let containerOnLeft): return (.substring, containerOnLeft)
        default: return nil
        }
    }

    /// Whether a nil where the operator needs a string, a pattern or a
    /// container makes the comparison false, whatever the other side: the
    /// searches, the patterns, membership (a nil container holds nothing,
    /// a string holds no nil) and the type tests.
    package var isFalseForNilOperand: Bool {
        switch self {
        case .membership, .search, .pattern, .typeTest: return true
        case .equality, .ordering, .range, .selector: return false
        }
    }

    /// Whether the comparison is false when its left side is nil and its
    /// right side is not: every family but `!=` and custom selectors.
    package var isFalseForNilLeft: Bool {
        switch self {
        case .equality(let equal): return equal
        case .ordering, .range, .membership, .search, .pattern, .typeTest: return true
        case .selector: return false
        }
    }

    /// Whether the right side is looked inside (`IN`'s container,
    /// `BETWEEN`'s bounds) or the left side (`CONTAINS`'s container): what
    /// the policy checks as whole values.
    package var looksInside: (left: Bool, right: Bool) {
        switch self {
        case .membership(let containerOnLeft): return (containerOnLeft, !containerOnLeft)
        case .range: return (false, true)
        default: return (false, false)
        }
    }

    /// What the work of a comparison grows with, beyond both sides' sizes
    /// and each element of one against the other.
    package enum CostClass: Sendable {
        /// Nothing more.
        case sizes
        /// The subject once for each `*` and `?` of a wildcard pattern.
        case wildcards
    }

    /// The family's ``CostClass``.
    package var costClass: CostClass {
        self == .pattern(.wildcard) ? .wildcards : .sizes
    }
}

/// Where a string search looks for its needle: at the start (`BEGINSWITH`),
/// at the end (`ENDSWITH`) or anywhere (`CONTAINS`, `IN`).
///
/// Without raw values: the fast paths keep a kind with each needle and
/// test it for every record, as a plain enum.
package enum SearchKind: Sendable, Hashable {
    case prefix, suffix, substring

    /// The kind's number, as the SQLite function `sift_search` is given it.
    package var code: Int {
        switch self {
        case .prefix: return 0
        case .suffix: return 1
        case .substring: return 2
        }
    }

    /// The kind numbered `code`, if any.
    package init?(code: Int) {
        switch code {
        case 0: self = .prefix
        case 1: self = .suffix
        case 2: self = .substring
        default: return nil
        }
    }
}
