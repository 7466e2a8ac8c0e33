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
    /// The key paths a predicate may read, or nil for any. `"author.name"`
    /// allows exactly that path; `"tags.*"` allows `tags` and every path
    /// under it. Collection operators (`@count`, `@sum`…) are not part of
    /// the path: `tags.@count` reads `tags`, `@sum.items.price` reads
    /// `items.price`. Inside `SUBQUERY(tags, $t, $t.name == 'x')` the
    /// variable's paths count as `tags.name`. `SELF` is the path `SELF`.
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

    public init(
        keyPaths: Set<String>? = nil, operators: Set<ComparisonOperator>? = nil,
        functions: Set<BuiltinFunction>? = nil, allowsInvocations: Bool = true, allowsSubqueries: Bool = true,
        allowsVariables: Bool = true, allowsCasts: Bool = true, allowsCollectionOperators: Bool = true,
        maximumComparisons: Int? = nil
    ) {
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
    /// `$VARIABLES` or `CAST`; collection operators; at most 64 comparisons.
    public static func untrusted(keyPaths: Set<String>) -> PredicatePolicy {
        PredicatePolicy(
            keyPaths: keyPaths,
            operators: [
                .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .equalTo, .notEqualTo, .like,
                .beginsWith, .endsWith, .in, .contains, .between,
            ],
            functions: [
                .sum, .count, .min, .max, .average, .add, .subtract, .multiply, .divide, .modulus, .abs, .floor,
                .ceiling, .trunc, .lowercase, .uppercase, .length,
            ],
            allowsInvocations: false, allowsSubqueries: false, allowsVariables: false, allowsCasts: false,
            allowsCollectionOperators: true, maximumComparisons: 64)
    }

    /// Throws the first part of `filter` the policy refuses, in source order.
    public func check(_ filter: Filter) throws(PolicyViolation) {
        var checker = PolicyChecker(policy: self, source: filter.source ?? filter.format)
        try checker.predicate(filter.predicate, subqueries: [:])
    }
}

extension PredicatePolicy {
    /// Throws for the first sort key whose key path the policy refuses
    /// (sorting by a key reveals its order, as a comparison would).
    public func check(_ sort: [SortKey]) throws(PolicyViolation) {
        for key in sort {
            let source = key.description
            var checker = PolicyChecker(policy: self, source: source)
            let path = ExpressionNode(.keyPath(key.keyPath), range: SourceRange(0, key.keyPath.joined(separator: ".").utf8.count))
            try checker.expression(path, subqueries: [:])
        }
    }
}

extension Filter {
    /// The filter, if `policy` allows everything it uses.
    public func checked(by policy: PredicatePolicy) throws(PolicyViolation) -> Filter {
        try policy.check(self)
        return self
    }
}

/// A part of a predicate that a ``PredicatePolicy`` refuses.
public struct PolicyViolation: SourceDiagnostic, Sendable, Hashable {
    /// What was refused.
    public enum Part: Sendable, Hashable {
        case keyPath(String)
        case `operator`(ComparisonOperator)
        case function(String)
        case invocation(String)
        case subquery
        case variable(String)
        case cast
        case collectionOperator(String)
        case size(Int)
    }

    public var part: Part
    public var message: String
    public var range: SourceRange
    public var source: String

    public init(_ part: Part, _ message: String, range: SourceRange, source: String) {
        self.part = part
        self.message = message
        self.range = range
        self.source = source
    }
}

private struct PolicyChecker {
    let policy: PredicatePolicy
    let source: String
    var comparisons = 0

    init(policy: PredicatePolicy, source: String) {
        self.policy = policy
        self.source = source
    }

    private func refuse(_ part: PolicyViolation.Part, _ message: String, _ range: SourceRange?) -> PolicyViolation {
        PolicyViolation(part, message, range: range ?? SourceRange(0, source.utf8.count), source: source)
    }

    /// `subqueries` maps each `SUBQUERY` variable in scope to the key path
    /// of its collection (nil when the collection is not a key path).
    mutating func predicate(_ p: PredicateNode, subqueries: [String: [String]?]) throws(PolicyViolation) {
        switch p.kind {
        case .constant:
            break
        case .and(let children), .or(let children):
            for child in children { try predicate(child, subqueries: subqueries) }
        case .not(let child):
            try predicate(child, subqueries: subqueries)
        case .comparison(let c):
            comparisons += 1
            if let maximum = policy.maximumComparisons, comparisons > maximum {
                throw refuse(.size(maximum), "the predicate has more than \(maximum) comparisons", p.range)
            }
            try expression(c.lhs, subqueries: subqueries)
            if let allowed = policy.operators, !allowed.contains(c.op) {
                throw refuse(.operator(c.op), "the operator \(c.op.symbol) is not allowed", p.range)
            }
            try expression(c.rhs, subqueries: subqueries)
        }
    }

    mutating func expression(_ e: ExpressionNode, subqueries: [String: [String]?]) throws(PolicyViolation) {
        switch e.kind {
        case .constant:
            break
        case .anyKey:
            if policy.keyPaths != nil {
                throw refuse(.keyPath("ANYKEY"), "ANYKEY (any attribute) is not allowed", e.range)
            }
        case .evaluatedObject:
            try keyPath(["SELF"], e.range)
        case .keyPath(let keys):
            try keyPath(keys, e.range)
        case .variable(let name):
            if subqueries[name] == nil { try variable(name, e.range) }
        case .path(let base, let keys):
            if case .variable(let name) = base.kind, let scope = subqueries[name] {
                // `$t.name` in SUBQUERY(tags, $t, …) reads `tags.name`.
                if let collection = scope { try keyPath(collection + keys, e.range) }
            } else {
                try expression(base, subqueries: subqueries)
                try collectionOperators(keys, e.range)
            }
        case .aggregate(let items):
            for item in items { try expression(item, subqueries: subqueries) }
        case .function(let f, let arguments):
            if let allowed = policy.functions, !allowed.contains(f) {
                let name = f.infixOperator.map { "the operator \($0)" } ?? "the function \(f.rawValue)"
                throw refuse(.function(f.rawValue), name + " is not allowed", e.range)
            }
            for argument in arguments { try expression(argument, subqueries: subqueries) }
        case .index(let base, let subscriptKind):
            try expression(base, subqueries: subqueries)
            if case .expression(let index) = subscriptKind { try expression(index, subqueries: subqueries) }
        case .invocation(let receiver, let selector, let arguments):
            guard policy.allowsInvocations else {
                throw refuse(.invocation(selector), "FUNCTION is not allowed ('\(selector)')", e.range)
            }
            try expression(receiver, subqueries: subqueries)
            for argument in arguments { try expression(argument, subqueries: subqueries) }
        case .cast(let value, _):
            guard policy.allowsCasts else { throw refuse(.cast, "CAST is not allowed", e.range) }
            try expression(value, subqueries: subqueries)
        case .ternary(let test, let a, let b):
            try predicate(test, subqueries: subqueries)
            try expression(a, subqueries: subqueries)
            try expression(b, subqueries: subqueries)
        case .subquery(let collection, let variable, let test):
            guard policy.allowsSubqueries else { throw refuse(.subquery, "SUBQUERY is not allowed", e.range) }
            try expression(collection, subqueries: subqueries)
            var inner = subqueries
            if case .keyPath(let keys) = collection.kind {
                inner[variable] = .some(keys.filter { !$0.hasPrefix("@") })
            } else {
                inner[variable] = .some(nil)
            }
            try predicate(test, subqueries: inner)
        case .assignment(let name, let value):
            try variable(name, e.range)
            try expression(value, subqueries: subqueries)
        }
    }

    private func variable(_ name: String, _ range: SourceRange?) throws(PolicyViolation) {
        guard policy.allowsVariables else {
            throw refuse(.variable(name), "the variable $\(name) is not allowed", range)
        }
    }

    private func collectionOperators(_ keys: [String], _ range: SourceRange?) throws(PolicyViolation) {
        guard !policy.allowsCollectionOperators, let op = keys.first(where: { $0.hasPrefix("@") }) else { return }
        throw refuse(.collectionOperator(op), "the collection operator \(op) is not allowed", range)
    }

    /// A key path, its collection operators set aside.
    private func keyPath(_ keys: [String], _ range: SourceRange?) throws(PolicyViolation) {
        try collectionOperators(keys, range)
        guard let allowed = policy.keyPaths else { return }
        let path = keys.filter { !$0.hasPrefix("@") }
        guard !path.isEmpty else { return }
        if allowed.contains(path.joined(separator: ".")) { return }
        for end in 1...path.count where allowed.contains(path[..<end].joined(separator: ".") + ".*") { return }
        let shown = path.joined(separator: ".")
        throw refuse(.keyPath(shown), "the key path \(shown) is not allowed", range)
    }
}
