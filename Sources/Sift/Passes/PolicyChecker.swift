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
struct PolicyChecker {
    /// The check's functions throw untyped errors (only `PolicyViolation`s):
    /// a typed error is returned through a buffer that every call site
    /// keeps in its frame, which in a debug build made each level of a
    /// nested predicate take several KiB of stack.
    private static func run(_ body: () throws -> Void) throws(PolicyViolation) {
        do {
            try body()
        } catch let violation as PolicyViolation {
            throw violation
        } catch {
            preconditionFailure("the policy check throws only PolicyViolation: \(error)")
        }
    }

    /// Throws the first part of `predicate` (from `source`) that `policy`
    /// refuses, in source order.
    static func check(_ predicate: PredicateNode, by policy: PredicatePolicy, source: String) throws(PolicyViolation) {
        var checker = PolicyChecker(policy: policy, source: source)
        try run { () throws in try checker.predicate(predicate, scope: VariableScope()) }
    }

    /// Throws if `policy` refuses the key path of the sort key `key`.
    static func check(sortKey key: SortKey, by policy: PredicatePolicy) throws(PolicyViolation) {
        var checker = PolicyChecker(policy: policy, source: key.description)
        try run { () throws in
            try checker.sortKey(key.keyPath, SourceRange(0, key.keyPath.joined(separator: ".").utf8.count))
        }
    }

    private let policy: PredicatePolicy
    private let source: String
    private let allowed: AllowedPaths?
    private var comparisons = 0
    private var depth = 0

    private init(policy: PredicatePolicy, source: String) {
        self.policy = policy
        self.source = source
        self.allowed = policy.keyPaths.map(AllowedPaths.init)
    }

    private func refuse(_ part: PolicyViolation.Part, _ message: String, _ range: SourceRange?) -> PolicyViolation {
        PolicyViolation(part, message, range: range ?? SourceRange(0, source.utf8.count), source: source)
    }

    private mutating func predicate(_ p: PredicateNode, scope: VariableScope<Origins>) throws {
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
    private mutating func expression(_ e: ExpressionNode, scope: VariableScope<Origins>) throws -> Origins {
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
    /// frame of ``expression(_:scope:)`` small, and the rule for a kind
    /// with none of its own: each of its operands is used whole (a deep
    /// use), and nothing read comes out of it.
    private mutating func other(_ e: ExpressionNode, scope: VariableScope<Origins>) throws -> Origins {
        switch e.kind {
        case .variable(let name):
            if let bound = scope.binding(of: name) { return bound }
            try variable(name, e.range)
            return Origins()
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
        case .anyKey:
            if policy.keyPaths != nil {
                throw refuse(.keyPath("ANYKEY"), "ANYKEY (any attribute) is not allowed", e.range)
            }
        case .invocation(_, let selector, _):
            guard policy.allowsInvocations else {
                throw refuse(.invocation(selector), "FUNCTION is not allowed ('\(selector)')", e.range)
            }
        case .cast:
            // CAST(x, 'NSString') is x's description: everything inside it.
            guard policy.allowsCasts else { throw refuse(.cast, "CAST is not allowed", e.range) }
        case .assignment(let name, _):
            try variable(name, e.range)
        default:
            break
        }
        for child in e.kind.children {
            switch child.node {
            case .expression(let operand):
                try observe(try expression(operand, scope: scope), deep: true, operand.range)
            case .predicate(let test):
                // A variable bound there stands for values used whole.
                var inner = scope
                inner.enter(child, Origins())
                try predicate(test, scope: inner)
            }
        }
        return Origins()
    }

    private mutating func aggregate(_ items: [ExpressionNode], scope: VariableScope<Origins>) throws
        -> Origins
    {
        var out = Origins()
        for item in items {
            out.formUnion(try expression(item, scope: scope).map { Origin(reach: $0.reach, wrap: $0.wrap + 1, path: $0.path) })
        }
        return out
    }

    private mutating func function(
        _ f: BuiltinFunction, _ arguments: [ExpressionNode], _ range: SourceRange?, scope: VariableScope<Origins>
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
        scope: VariableScope<Origins>
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
        _ base: ExpressionNode, _ key: ExpressionNode, _ range: SourceRange?, scope: VariableScope<Origins>
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
        _ test: PredicateNode, _ a: ExpressionNode, _ b: ExpressionNode, scope: VariableScope<Origins>
    ) throws -> Origins {
        try predicate(test, scope: scope)
        var out = try expression(a, scope: scope)
        out.formUnion(try expression(b, scope: scope))
        return out
    }

    private mutating func subquery(
        _ collection: ExpressionNode, _ variable: String, _ test: PredicateNode, _ range: SourceRange?,
        scope: VariableScope<Origins>
    ) throws -> Origins {
        guard policy.allowsSubqueries else { throw refuse(.subquery, "SUBQUERY is not allowed", range) }
        let elements = try expression(collection, scope: scope)
        var inner = scope
        inner.bind(variable, to: elements.map(\.element))
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
    private mutating func sortKey(_ keys: [String], _ range: SourceRange) throws {
        try observe(try apply(keys[...], to: rootOrigins, range), deep: true, range)
    }
}
