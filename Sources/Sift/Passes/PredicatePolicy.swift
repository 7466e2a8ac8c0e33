/// What a predicate from an untrusted source (a search box, a saved filter,
/// an API query parameter) may use: which key paths, operators and
/// functions, and whether it may use `SUBQUERY`, `FUNCTION`, `$VARIABLES`,
/// casts and collection operators, and how large it may be.
///
/// ```swift
/// let policy = PredicatePolicy.untrusted(keyPaths: ["title", "year", "author.name", "tags.*"])
/// let filter = try Filter(queryParameter).checked(by: policy)   // throws PolicyViolation
/// ```
///
/// A violation names the refused part and points at it in the format
/// string. Check after binding arguments (`%K` becomes a key path, which the
/// check then sees) and after substituting variables.
public struct PredicatePolicy: Sendable, Hashable {
    /// The key paths a predicate may read, or nil for any.
    ///
    /// The rule, for any expression: every value a predicate can observe is
    /// reached through a key path the policy allows.
    /// - A listed path with no listed path below it (`"title"`,
    ///   `"author.name"`) may be read whole, with everything inside it.
    /// - `"tags.*"` allows `tags` and every path under it.
    /// - A listed path with listed paths below it (`"author"` with
    ///   `"author.name"`) is an object: it may be compared with constants,
    ///   tested for nil and counted (`author == nil`, `author.@count`), and
    ///   only the listed paths below it may be read. What would look inside
    ///   it is refused: `'x' IN author` and `author CONTAINS 'x'` (they test a
    ///   dictionary's values), `author[FIRST]`, `author[LAST]`, an index
    ///   computed at run time, a comparison with another value read from
    ///   the object (`author == editor`), a function, cast or collection
    ///   operator of it, sorting by it. `author['email']` is the path
    ///   `author.email`.
    /// - Paths are followed through aggregates, `TERNARY`, indexes and
    ///   `SUBQUERY` variables: `TERNARY(c, author, title).email` reads
    ///   `author.email` and `title.email`, `{author}[0].email` and
    ///   `ANY {author}.email` read `author.email`, the variable of
    ///   `SUBQUERY(tags, $t, $t.name == 'x')` reads `tags.name`.
    /// - A collection operator reads the path after it for each element:
    ///   `authors.@avg.age` reads `authors.age` (on a dictionary the
    ///   operators other than `@count` are errors, so they never read its
    ///   values); `tags.@count` counts `tags`, and `@count` alone counts
    ///   the object's keys, which needs `SELF`.
    /// - `SELF` is the object itself: `"SELF"` allows comparing it.
    public var keyPaths: Set<String>?
    /// The comparison operators allowed, or nil for all.
    public var operators: Set<ComparisonOperator>?
    /// The built-in functions allowed (arithmetic operators are functions:
    /// `+` is `.add`), or nil for all.
    public var functions: Set<BuiltinFunction>?
    /// `FUNCTION(receiver, 'selector:', …)`.
    public var allowsInvocations: Bool
    /// `SUBQUERY(…)`.
    public var allowsSubqueries: Bool
    /// `$NAME` substitution variables left in the predicate.
    public var allowsVariables: Bool
    /// `CAST(…)`.
    public var allowsCasts: Bool
    /// `@count`, `@sum`, `@avg`, `@min`, `@max`, `@distinctUnionOf…`.
    public var allowsCollectionOperators: Bool
    /// The most comparisons the predicate may have, or nil for any number.
    public var maximumComparisons: Int?
    /// The most work one evaluation of one object may do, in units (a byte
    /// of a string compared or searched, an element visited, a value given
    /// to a function), or nil for no limit: ``Filter/checked(by:)`` gives it
    /// to the filter (``Filter/evaluationBudget``), whose evaluation past it
    /// throws an ``EvaluationError`` with the code `.limit`.
    public var evaluationBudget: Int?

    /// The budget of ``untrusted(keyPaths:)``: a million units, about a
    /// megabyte of text searched for each object.
    public static let defaultEvaluationBudget = 1_000_000

    /// A policy; every part left out allows everything (nil) or is allowed (true).
    public init(
        keyPaths: Set<String>? = nil, operators: Set<ComparisonOperator>? = nil,
        functions: Set<BuiltinFunction>? = nil, allowsInvocations: Bool = true, allowsSubqueries: Bool = true,
        allowsVariables: Bool = true, allowsCasts: Bool = true, allowsCollectionOperators: Bool = true,
        maximumComparisons: Int? = nil, evaluationBudget: Int? = nil
    ) {
        self.evaluationBudget = evaluationBudget
        self.keyPaths = keyPaths
        self.operators = operators
        self.functions = functions
        self.allowsInvocations = allowsInvocations
        self.allowsSubqueries = allowsSubqueries
        self.allowsVariables = allowsVariables
        self.allowsCasts = allowsCasts
        self.allowsCollectionOperators = allowsCollectionOperators
        self.maximumComparisons = maximumComparisons
    }

    /// Everything allowed.
    public static let unrestricted = PredicatePolicy()

    /// For predicates from clients: only `keyPaths`; comparisons, string
    /// operators and `IN`/`BETWEEN` but not `MATCHES` (regular expressions
    /// cost what their author wants) or custom selectors; arithmetic,
    /// `lowercase:`/`uppercase:`/`length:` and the aggregate functions but
    /// not `random`/`now` or bit operations; no `FUNCTION`, `SUBQUERY`,
    /// `$VARIABLES` or `CAST`; collection operators; at most 64 comparisons;
    /// a work budget of ``defaultEvaluationBudget`` units per object.
    public static func untrusted(keyPaths: Set<String>) -> PredicatePolicy {
        PredicatePolicy(
            keyPaths: keyPaths,
            operators: Set(ComparisonOperator.standard.filter(\.isAllowedForUntrusted)),
            functions: Set(BuiltinFunction.allCases.filter(\.isAllowedForUntrusted)),
            allowsInvocations: false, allowsSubqueries: false, allowsVariables: false, allowsCasts: false,
            allowsCollectionOperators: true, maximumComparisons: 64, evaluationBudget: defaultEvaluationBudget)
    }

    /// Throws the first part of `filter` the policy refuses, in source order.
    public func check(_ filter: Filter) throws(PolicyViolation) {
        try PolicyChecker.check(filter.predicate, by: self, source: filter.source ?? filter.format)
    }
}

extension PredicatePolicy {
    /// Throws for the first sort key whose key path the policy refuses
    /// (sorting by a key reveals its order, as a comparison would).
    public func check(_ sort: [SortKey]) throws(PolicyViolation) {
        for key in sort {
            try PolicyChecker.check(sortKey: key, by: self)
        }
    }

    /// Throws for the first of `sort`, parsed from `text` by
    /// ``SortKey/parse(_:)``, that the policy refuses, pointing into `text`.
    public func check(_ sort: [SortKey], parsedFrom text: String) throws(PolicyViolation) {
        // `SortKey.parse` reads one key between commas, its key path the
        // first word.
        var offset = 0
        for (key, part) in zip(sort, text.split(separator: ",", omittingEmptySubsequences: false)) {
            defer { offset += part.utf8.count + 1 }
            do {
                try check([key])
            } catch {
                // The violation points into the key's own description.
                let start = offset + part.utf8.prefix { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A }.count
                let range = SourceRange(start + error.range.lowerBound, start + error.range.upperBound)
                throw PolicyViolation(error.part, error.message, range: range, source: text)
            }
        }
    }
}

extension Filter {
    /// The filter, if `policy` allows everything it uses, with the policy's
    /// ``PredicatePolicy/evaluationBudget`` (when it has one).
    public func checked(by policy: PredicatePolicy) throws(PolicyViolation) -> Filter {
        try policy.check(self)
        var out = self
        if let budget = policy.evaluationBudget { out.evaluationBudget = budget }
        return out
    }
}

/// A part of a predicate that a ``PredicatePolicy`` refuses.
public struct PolicyViolation: SourceDiagnostic, Sendable, Hashable {
    /// What was refused.
    public enum Part: Sendable, Hashable {
        /// A key path the policy does not list.
        case keyPath(String)
        /// A comparison operator the policy does not allow.
        case `operator`(ComparisonOperator)
        /// A built-in function (or arithmetic operator) the policy does not allow, by name.
        case function(String)
        /// A `FUNCTION(receiver, "selector", …)`, by selector.
        case invocation(String)
        /// A `SUBQUERY`.
        case subquery
        /// A `$VARIABLE` (not a `SUBQUERY`'s own variable).
        case variable(String)
        /// A `CAST`.
        case cast
        /// A collection operator (`@sum`, `@avg`, …), by name.
        case collectionOperator(String)
        /// More comparisons than ``PredicatePolicy/maximumComparisons``: the number found.
        case size(Int)
        /// Nesting deeper than the thread's stack allows checking (a
        /// thread with a small stack, in a debug build).
        case nesting(Int)
    }

    /// What was refused.
    public var part: Part
    /// A one-line description, without position.
    public var message: String
    /// The UTF-8 byte range, in ``source``, of the refused part.
    public var range: SourceRange
    /// The predicate's format (or the sort keys' text) that was checked.
    public var source: String

    /// A violation of `part`, at `range` in `source`.
    public init(_ part: Part, _ message: String, range: SourceRange, source: String) {
        self.part = part
        self.message = message
        self.range = range
        self.source = source
    }
}
