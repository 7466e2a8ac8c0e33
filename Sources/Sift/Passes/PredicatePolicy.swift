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
        var checker = PolicyChecker(policy: self, source: filter.source ?? filter.format)
        try PolicyChecker.run { () throws in try checker.predicate(filter.predicate, scope: [:]) }
    }
}

extension PredicatePolicy {
    /// Throws for the first sort key whose key path the policy refuses
    /// (sorting by a key reveals its order, as a comparison would).
    public func check(_ sort: [SortKey]) throws(PolicyViolation) {
        for key in sort {
            let source = key.description
            var checker = PolicyChecker(policy: self, source: source)
            try PolicyChecker.run { () throws in
                try checker.sortKey(key.keyPath, SourceRange(0, key.keyPath.joined(separator: ".").utf8.count))
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

/// The allowed key paths as a tree of keys. A listed path with no listed
/// path below it is a leaf: its whole value may be read, with everything
/// inside it. A listed path with listed paths below it is an object: its
/// value may be compared with constants, tested for nil and counted, and
/// only the listed paths below it may be read.
private struct AllowedPaths {
    struct Node {
        var listed = false
        var everything = false
        var children: [String: Int] = [:]
    }

    /// How far a path reaches into the allowed tree.
    enum Reach: Hashable {
        /// At a node of the tree that is not a leaf and has no `.*`.
        case node(Int)
        /// At or under a leaf or a `path.*`: everything may be read.
        case everything
        /// Off the tree: nothing may be read.
        case nothing
    }

    var nodes = [Node()]

    init(_ paths: Set<String>) {
        for path in paths {
            var keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            if keys.first == "SELF" { keys.removeFirst() }
            let everything = keys.last == "*"
            if everything { keys.removeLast() }
            var node = 0
            for key in keys {
                if let next = nodes[node].children[key] {
                    node = next
                } else {
                    nodes.append(Node())
                    nodes[node].children[key] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            if everything { nodes[node].everything = true } else { nodes[node].listed = true }
        }
    }

    func reach(_ node: Int) -> Reach {
        let n = nodes[node]
        return n.everything || (n.listed && n.children.isEmpty) ? .everything : .node(node)
    }

    var root: Reach { reach(0) }

    func step(_ from: Reach, _ key: String) -> Reach {
        guard case .node(let node) = from else { return from }
        guard let next = nodes[node].children[key] else { return .nothing }
        return reach(next)
    }

    /// Whether the value there may be compared with constants, tested for
    /// nil and counted.
    func mayRead(_ r: Reach) -> Bool {
        switch r {
        case .everything: return true
        case .nothing: return false
        case .node(let node): return nodes[node].listed
        }
    }
}

/// Where a value may come from: the key path it is read at (`reach`, and
/// `path` for messages), inside `wrap` aggregates (`{author}` is `author`
/// inside one). Constants, variables and computed numbers and strings come
/// from nowhere.
private struct Origin {
    var reach: AllowedPaths.Reach
    var wrap: Int
    var path: [String]

    /// An element of the value: of an aggregate, the value inside; of an
    /// array or set read at a key path, an element, read at the same path
    /// (KVC applies a key to every element). A dictionary has no elements
    /// for ANY, ALL, SUBQUERY, aggregate functions or collection operators
    /// other than `@count` (they are errors), so this is never a value
    /// inside one.
    var element: Origin { wrap > 0 ? Origin(reach: reach, wrap: wrap - 1, path: path) : self }

    var shown: String { path.isEmpty ? "SELF" : path.joined(separator: ".") }
}

/// The origins of a value, at most one for each reach and wrap (so that the
/// check costs no more than the predicate's size times the allowed tree's).
private struct Origins {
    var items: [Origin] = []

    var isEmpty: Bool { items.isEmpty }

    mutating func insert(_ o: Origin) {
        if !items.contains(where: { $0.reach == o.reach && $0.wrap == o.wrap }) { items.append(o) }
    }

    mutating func formUnion(_ other: Origins) { for o in other.items { insert(o) } }

    func map(_ transform: (Origin) -> Origin) -> Origins {
        var out = Origins()
        for o in items { out.insert(transform(o)) }
        return out
    }
}

/// The check, as one rule for any expression: every value a predicate can
/// observe is reached through a key path the policy allows. Each expression
/// is followed to the key paths its value comes from (through aggregates,
/// TERNARY, indexes, SUBQUERY variables, collection operators and the
/// functions that return an element), and each place where a value is
/// used is an observation of those paths:
/// - shallow (compared with a constant or nil, counted): the path must be
///   allowed;
/// - deep (compared with another value read from the object, searched by
///   `CONTAINS`, the collection of `IN` or `BETWEEN`, indexed by
///   `[FIRST]`, `[LAST]` or a computed key, given to a function or a
///   collection operator, cast, sorted by): everything inside it must be
///   allowed, as a leaf or a `path.*`, because a dictionary's values are
///   what `IN`, `CONTAINS` and `[FIRST]` see.
private struct PolicyChecker {
    /// The check's functions throw untyped errors (only `PolicyViolation`s):
    /// a typed error is returned through a buffer that every call site
    /// keeps in its frame, which in a debug build made each level of a
    /// nested predicate take several KiB of stack.
    static func run(_ body: () throws -> Void) throws(PolicyViolation) {
        do {
            try body()
        } catch let violation as PolicyViolation {
            throw violation
        } catch {
            preconditionFailure("the policy check throws only PolicyViolation: \(error)")
        }
    }

    let policy: PredicatePolicy
    let source: String
    let allowed: AllowedPaths?
    var comparisons = 0
    var depth = 0

    init(policy: PredicatePolicy, source: String) {
        self.policy = policy
        self.source = source
        self.allowed = policy.keyPaths.map(AllowedPaths.init)
    }

    private func refuse(_ part: PolicyViolation.Part, _ message: String, _ range: SourceRange?) -> PolicyViolation {
        PolicyViolation(part, message, range: range ?? SourceRange(0, source.utf8.count), source: source)
    }

    mutating func predicate(_ p: PredicateNode, scope: [String: Origins]) throws {
        depth += 1
        defer { depth -= 1 }
        if depth >= Self.stackCheckDepth { try checkStack(p.range) }
        switch p.kind {
        case .constant:
            break
        case .and(let children), .or(let children):
            for child in children { try predicate(child, scope: scope) }
        case .not(let child):
            try predicate(child, scope: scope)
        case .comparison(let c):
            comparisons += 1
            if let maximum = policy.maximumComparisons, comparisons > maximum {
                throw refuse(.size(maximum), "the predicate has more than \(maximum) comparisons", p.range)
            }
            let lhs = try expression(c.lhs, scope: scope)
            if let allowed = policy.operators, !allowed.contains(c.op) {
                throw refuse(.operator(c.op), "the operator \(c.op.symbol) is not allowed", p.range)
            }
            let rhs = try expression(c.rhs, scope: scope)
            // ANY and ALL take elements at the same paths; CONTAINS looks
            // inside its left side, IN and BETWEEN inside their right side.
            // A constant with a dictionary in it (from %@ or a decoded tree)
            // compares with everything inside a dictionary, as a value read
            // from the object would.
            let lhsWhole = !rhs.isEmpty || Self.holdsDictionary(c.rhs)
            let rhsWhole = !lhs.isEmpty || Self.holdsDictionary(c.lhs)
            try observe(lhs, deep: c.op.family.looksInside.left || lhsWhole, c.lhs.range)
            try observe(rhs, deep: c.op.family.looksInside.right || rhsWhole, c.rhs.range)
        }
    }

    // Each kind of node is checked in a function of its own: in a debug
    // build one function with every case took about 13 KiB of stack per
    // level (a 512 KiB thread ran out at 38 levels); and past
    // `stackCheckDepth` levels the stack left is checked.
    mutating func expression(_ e: ExpressionNode, scope: [String: Origins]) throws -> Origins {
        depth += 1
        defer { depth -= 1 }
        if depth >= Self.stackCheckDepth { try checkStack(e.range) }
        switch e.kind {
        case .constant:
            return Origins()
        case .evaluatedObject:
            return rootOrigins
        case .keyPath(let keys):
            return try apply(keys[...], to: rootOrigins, e.range)
        case .path(let base, let keys):
            return try apply(keys[...], to: try expression(base, scope: scope), e.range)
        case .variableKey(let base, let key):
            return try variableKey(base, key, e.range, scope: scope)
        case .aggregate(let items):
            return try aggregate(items, scope: scope)
        case .function(let f, let arguments):
            return try function(f, arguments, e.range, scope: scope)
        case .index(let base, let subscriptKind):
            return try index(base, subscriptKind, e.range, scope: scope)
        case .ternary(let test, let a, let b):
            return try ternary(test, a, b, scope: scope)
        case .subquery(let collection, let variable, let test):
            return try subquery(collection, variable, test, e.range, scope: scope)
        default:
            return try other(e, scope: scope)
        }
    }

    /// The kinds of node that nest rarely, apart from the rest to keep the
    /// frame of ``expression(_:scope:)`` small.
    private mutating func other(_ e: ExpressionNode, scope: [String: Origins]) throws -> Origins {
        switch e.kind {
        case .anyKey:
            if policy.keyPaths != nil {
                throw refuse(.keyPath("ANYKEY"), "ANYKEY (any attribute) is not allowed", e.range)
            }
        case .variable(let name):
            if let bound = scope[name] { return bound }
            try variable(name, e.range)
        case .invocation(let receiver, let selector, let arguments):
            guard policy.allowsInvocations else {
                throw refuse(.invocation(selector), "FUNCTION is not allowed ('\(selector)')", e.range)
            }
            try observe(try expression(receiver, scope: scope), deep: true, receiver.range)
            for argument in arguments { try observe(try expression(argument, scope: scope), deep: true, argument.range) }
        case .cast(let value, _):
            guard policy.allowsCasts else { throw refuse(.cast, "CAST is not allowed", e.range) }
            // CAST(x, 'NSString') is x's description: everything inside it.
            try observe(try expression(value, scope: scope), deep: true, value.range)
        case .assignment(let name, let value):
            try variable(name, e.range)
            try observe(try expression(value, scope: scope), deep: true, value.range)
        case .setOperation(_, let left, let right):
            // Every element of both sides is hashed and compared, whatever
            // is inside it: a deep use of each. The result holds their
            // elements, read where they were.
            var out = try expression(left, scope: scope)
            try observe(out, deep: true, left.range)
            let rightOrigins = try expression(right, scope: scope)
            try observe(rightOrigins, deep: true, right.range)
            out.formUnion(rightOrigins)
            return out
        default:
            break
        }
        return Origins()
    }

    private mutating func aggregate(_ items: [ExpressionNode], scope: [String: Origins]) throws
        -> Origins
    {
        var out = Origins()
        for item in items {
            out.formUnion(try expression(item, scope: scope).map { Origin(reach: $0.reach, wrap: $0.wrap + 1, path: $0.path) })
        }
        return out
    }

    private mutating func function(
        _ f: BuiltinFunction, _ arguments: [ExpressionNode], _ range: SourceRange?, scope: [String: Origins]
    ) throws -> Origins {
        if let allowed = policy.functions, !allowed.contains(f) { throw refused(f, range) }
        var first: Origins?
        for argument in arguments {
            let origins = try expression(argument, scope: scope)
            // count: counts; every other function reads its arguments' values.
            try observe(origins, deep: f.operands != .collection, argument.range)
            if first == nil { first = origins }
        }
        switch f.result {
        case .element: return first?.map(\.element) ?? Origins()
        case .argument: return first ?? Origins()
        case .number, .date, .caseMapped: return Origins()
        }
    }

    private mutating func index(
        _ base: ExpressionNode, _ subscriptKind: ExpressionNode.Subscript, _ range: SourceRange?,
        scope: [String: Origins]
    ) throws -> Origins {
        let container = try expression(base, scope: scope)
        switch subscriptKind {
        case .size:
            try observe(container, deep: false, base.range)
            return Origins()
        case .first, .last:
            try observe(container, deep: true, base.range)
            return container.map(\.element)
        case .expression(let index):
            switch index.kind {
            case .constant(.string(let key)):
                // dict['key'] reads the key, as dict.key does. An aggregate
                // has no string index (an error), but its elements are
                // evaluated first, and whether that fails depends on them.
                try observe(Origins(items: container.items.filter { $0.wrap > 0 }), deep: false, base.range)
                return try apply([key][...], to: Origins(items: container.items.filter { $0.wrap == 0 }), range)
            case .constant(let value) where value.isNumber:
                // array[n] is an element (a dictionary has no number index).
                return container.map(\.element)
            default:
                // A computed index may be any key of a dictionary.
                try observe(try expression(index, scope: scope), deep: true, index.range)
                try observe(container, deep: true, base.range)
                return container.map(\.element)
            }
        }
    }

    /// `base.$NAME` before substitution: the variable may name any key of
    /// the base, or a collection operator, so it is what a computed index
    /// is: everything inside the base must be allowed (the variable of a
    /// SUBQUERY is, besides, a value read and used as a key). Substituted,
    /// it is a plain key path and is checked as one.
    private mutating func variableKey(
        _ base: ExpressionNode, _ key: ExpressionNode, _ range: SourceRange?, scope: [String: Origins]
    ) throws -> Origins {
        let container = try expression(base, scope: scope)
        try observe(try expression(key, scope: scope), deep: true, key.range)
        let shown = FormatPrinter.format(key)
        if !policy.allowsCollectionOperators {
            throw refuse(
                .collectionOperator(shown), "\(shown) after '.' may name a collection operator, which is not allowed",
                key.range ?? range)
        }
        try observe(container, deep: true, base.range)
        return container.map { o in
            var out = o
            out.path.append(shown)
            return out
        }
    }

    private mutating func ternary(
        _ test: PredicateNode, _ a: ExpressionNode, _ b: ExpressionNode, scope: [String: Origins]
    ) throws -> Origins {
        try predicate(test, scope: scope)
        var out = try expression(a, scope: scope)
        out.formUnion(try expression(b, scope: scope))
        return out
    }

    private mutating func subquery(
        _ collection: ExpressionNode, _ variable: String, _ test: PredicateNode, _ range: SourceRange?,
        scope: [String: Origins]
    ) throws -> Origins {
        guard policy.allowsSubqueries else { throw refuse(.subquery, "SUBQUERY is not allowed", range) }
        let elements = try expression(collection, scope: scope)
        var inner = scope
        inner[variable] = elements.map(\.element)
        try predicate(test, scope: inner)
        return elements
    }

    private func refused(_ f: BuiltinFunction, _ range: SourceRange?) -> PolicyViolation {
        let name = OperatorTable.infix(f).map { "the operator \($0.spelling)" } ?? "the function \(f.rawValue)"
        return refuse(.function(f.rawValue), name + " is not allowed", range)
    }

    /// Past this depth every level checks the room left on the stack.
    static let stackCheckDepth = 16
    /// The stack kept free below the deepest frame of the check.
    static let stackMargin: UInt = 64 * 1024

    private func checkStack(_ range: SourceRange?) throws {
        if StackBounds.isNearEnd(margin: Self.stackMargin) {
            throw refuse(.nesting(depth), "the predicate is nested too deeply (\(depth) levels) to check on this thread's stack", range)
        }
    }

    /// Whether an expression is, or has among its elements, a constant
    /// dictionary (or an object of the user's types).
    static func holdsDictionary(_ e: ExpressionNode) -> Bool {
        switch e.kind {
        case .constant(let v): return holdsDictionary(v)
        case .aggregate(let items): return items.contains(where: holdsDictionary)
        default: return false
        }
    }

    static func holdsDictionary(_ v: Value) -> Bool {
        var pending = [v]
        while let value = pending.popLast() {
            switch value {
            case .dictionary, .object: return true
            case .array(let items): pending.append(contentsOf: items)
            case .set(let items): pending.append(contentsOf: items)
            default: break
            }
        }
        return false
    }

    private var rootOrigins: Origins {
        Origins(items: [Origin(reach: allowed?.root ?? .everything, wrap: 0, path: [])])
    }

    /// The keys of a path applied to values from `origins`: each key steps
    /// down the allowed tree; a collection operator reads the values the
    /// rest of the path gives for each element (`@count` only counts).
    private mutating func apply(_ keys: ArraySlice<String>, to origins: Origins, _ range: SourceRange?)
        throws -> Origins
    {
        guard let operatorIndex = keys.firstIndex(where: CollectionOperator.isOperator) else {
            return origins.map { o in
                var out = o
                for key in keys {
                    out.reach = allowed?.step(out.reach, key) ?? .everything
                    out.path.append(key)
                }
                return out
            }
        }
        let op = keys[operatorIndex]
        // Each operator checks the rest of the path for its elements: a
        // level of nesting (a path from %K or a decoded tree is not bounded
        // by the parser's depth).
        depth += 1
        defer { depth -= 1 }
        if depth >= Self.stackCheckDepth { try checkStack(range) }
        if !policy.allowsCollectionOperators {
            throw refuse(.collectionOperator(op), "the collection operator \(op) is not allowed", range)
        }
        let collection = try apply(keys[..<operatorIndex], to: origins, range)
        // What comes out of the operator, by its table entry; a name the
        // table does not have fails when evaluated, and is checked as a
        // union (its values may come out).
        let result = CollectionOperator(name: op)?.result ?? .collection
        if result == .count {
            try observe(collection, deep: false, range)
            return Origins()
        }
        let values = try apply(keys[(operatorIndex + 1)...], to: collection.map(\.element), range)
        try observe(values, deep: true, range)
        switch result {
        case .count, .number: return Origins()
        case .element: return values
        case .collection: return values.map { Origin(reach: $0.reach, wrap: $0.wrap + 1, path: $0.path) }
        }
    }

    /// A use of values from `origins`: shallow needs their paths allowed,
    /// deep needs everything inside them allowed.
    private func observe(_ origins: Origins, deep: Bool, _ range: SourceRange?) throws {
        guard let allowed else { return }
        for o in origins.items {
            if deep ? o.reach == .everything : allowed.mayRead(o.reach) { continue }
            if case .node(let node) = o.reach, allowed.nodes[node].listed {
                throw refuse(
                    .keyPath(o.shown),
                    "the values inside \(o.shown) are not allowed (only the key paths listed under it; "
                        + "\(o.shown).* allows them all)", range)
            }
            throw refuse(.keyPath(o.shown), "the key path \(o.shown) is not allowed", range)
        }
    }

    private func variable(_ name: String, _ range: SourceRange?) throws {
        guard policy.allowsVariables else {
            throw refuse(.variable(name), "the variable $\(name) is not allowed", range)
        }
    }

    /// A sort key: sorting compares the values of two objects.
    mutating func sortKey(_ keys: [String], _ range: SourceRange) throws {
        try observe(try apply(keys[...], to: rootOrigins, range), deep: true, range)
    }
}
