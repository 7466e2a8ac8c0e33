/// `$VARIABLE` substitution.
///
/// Variables bound by a `SUBQUERY` (its `$x`) and by an assignment
/// (`$x := …`) are local and are never substituted.
extension PredicateNode {
    /// Replaces `$VARIABLES` with constants.
    ///
    /// - Parameters:
    ///   - variables: values by variable name, without the `$`.
    ///   - allowingUnbound: when false (the default), a variable with no value
    ///     is an error pointing at it; when true it is left in place.
    public func substituting(
        _ variables: [String: Value], allowingUnbound: Bool = false
    ) throws(ParseError) -> PredicateNode {
        var substitution = Substitution(variables: variables, allowingUnbound: allowingUnbound, source: "")
        return try substitution.apply(self)
    }

    /// The names of the free `$VARIABLES` in the predicate, in order of first use.
    public var variableNames: [String] {
        var collector = VariableCollector()
        collector.visit(self)
        return collector.names
    }
}

extension ExpressionNode {
    /// Replaces `$VARIABLES` with constants; see ``PredicateNode/substituting(_:allowingUnbound:)``.
    public func substituting(
        _ variables: [String: Value], allowingUnbound: Bool = false
    ) throws(ParseError) -> ExpressionNode {
        var substitution = Substitution(variables: variables, allowingUnbound: allowingUnbound, source: "")
        return try substitution.apply(self)
    }
}

struct Substitution {
    let variables: [String: Value]
    let allowingUnbound: Bool
    var source: String
    /// Variables bound by an enclosing SUBQUERY or assignment.
    var local: [String] = []

    init(variables: [String: Value], allowingUnbound: Bool, source: String) {
        self.variables = variables
        self.allowingUnbound = allowingUnbound
        self.source = source
    }

    mutating func apply(_ p: PredicateNode) throws(ParseError) -> PredicateNode {
        var out = p
        switch p.kind {
        case .constant: return p
        case .and(let children):
            var mapped: [PredicateNode] = []
            mapped.reserveCapacity(children.count)
            for child in children { mapped.append(try apply(child)) }
            out.kind = .and(mapped)
        case .or(let children):
            var mapped: [PredicateNode] = []
            mapped.reserveCapacity(children.count)
            for child in children { mapped.append(try apply(child)) }
            out.kind = .or(mapped)
        case .not(let child):
            out.kind = .not(try apply(child))
        case .comparison(var c):
            c.lhs = try apply(c.lhs)
            c.rhs = try apply(c.rhs)
            out.kind = .comparison(c)
        }
        return out
    }

    mutating func apply(_ e: ExpressionNode) throws(ParseError) -> ExpressionNode {
        var out = e
        switch e.kind {
        case .constant, .evaluatedObject, .keyPath, .anyKey:
            return e
        case .variable(let name):
            if local.contains(name) { return e }
            if let value = variables[name] {
                out.kind = .constant(value)
                return out
            }
            if allowingUnbound { return e }
            throw ParseError(
                .unboundVariable, "no value for the variable $\(name)",
                range: e.range ?? SourceRange(0, 0), source: source)
        case .path(let base, let keys):
            // A base that became a key path (`a.$b.c` with $b substituted)
            // takes the keys, as the parser would have built it.
            return try apply(base).appending(keys, range: e.range)
        case .variableKey(let base, let key):
            return try substitute(key, after: try apply(base), range: e.range)
        case .aggregate(let items):
            var mapped: [ExpressionNode] = []
            for item in items { mapped.append(try apply(item)) }
            // An aggregate whose items all became constants is a constant array,
            // as the parser would have made it.
            var values: [Value] = []
            for item in mapped {
                guard case .constant(let v) = item.kind else {
                    out.kind = .aggregate(mapped)
                    return out
                }
                values.append(v)
            }
            out.kind = .constant(.array(values))
        case .function(let f, let args):
            var mapped: [ExpressionNode] = []
            for arg in args { mapped.append(try apply(arg)) }
            out.kind = .function(f, mapped)
        case .index(let base, let sub):
            let newBase = try apply(base)
            switch sub {
            case .expression(let index): out.kind = .index(newBase, .expression(try apply(index)))
            default: out.kind = .index(newBase, sub)
            }
        case .invocation(let receiver, let selector, let args):
            let r = try apply(receiver)
            var mapped: [ExpressionNode] = []
            for arg in args { mapped.append(try apply(arg)) }
            out.kind = .invocation(r, selector: selector, mapped)
        case .cast(let value, let type):
            out.kind = .cast(try apply(value), type: type)
        case .ternary(let p, let a, let b):
            out.kind = .ternary(try apply(p), try apply(a), try apply(b))
        case .subquery(let collection, let variable, let predicate):
            let c = try apply(collection)
            local.append(variable)
            defer { local.removeLast() }
            out.kind = .subquery(c, variable: variable, try apply(predicate))
        case .setOperation(let operation, let left, let right):
            out.kind = .setOperation(operation, try apply(left), try apply(right))
        case .assignment(let variable, let value):
            out.kind = .assignment(variable: variable, try apply(value))
        }
        return out
    }

    /// `base.$NAME` with the variable's value: a string is a key path
    /// (dots split it into keys) and the node becomes plain keys; any other
    /// value, or a string that names no key, is an error at the variable.
    private func substitute(_ key: ExpressionNode, after base: ExpressionNode, range: SourceRange?)
        throws(ParseError) -> ExpressionNode
    {
        let unchanged = ExpressionNode(.variableKey(base, key: key), range: range)
        guard case .variable(let name) = key.kind else { return unchanged }
        if local.contains(name) { return unchanged }
        guard let value = variables[name] else {
            if allowingUnbound { return unchanged }
            throw ParseError(
                .unboundVariable, "no value for the variable $\(name)",
                range: key.range ?? range ?? SourceRange(0, 0), source: source)
        }
        switch ExpressionNode.keys(ofVariable: name, value) {
        case .success(let keys):
            return base.appending(keys, range: range)
        case .failure(let problem):
            throw ParseError(.argument, problem.message, range: key.range ?? range ?? SourceRange(0, 0), source: source)
        }
    }
}

struct VariableCollector {
    var names: [String] = []
    var local: [String] = []

    mutating func visit(_ p: PredicateNode) {
        switch p.kind {
        case .constant: break
        case .and(let children), .or(let children): for c in children { visit(c) }
        case .not(let c): visit(c)
        case .comparison(let c):
            visit(c.lhs)
            visit(c.rhs)
        }
    }

    mutating func visit(_ e: ExpressionNode) {
        switch e.kind {
        case .constant, .evaluatedObject, .keyPath, .anyKey: break
        case .variable(let name):
            if !local.contains(name) && !names.contains(name) { names.append(name) }
        case .path(let base, _): visit(base)
        case .variableKey(let base, let key):
            visit(base)
            visit(key)
        case .aggregate(let items): for i in items { visit(i) }
        case .function(_, let args): for a in args { visit(a) }
        case .index(let base, let sub):
            visit(base)
            if case .expression(let i) = sub { visit(i) }
        case .invocation(let r, _, let args):
            visit(r)
            for a in args { visit(a) }
        case .cast(let v, _): visit(v)
        case .ternary(let p, let a, let b):
            visit(p)
            visit(a)
            visit(b)
        case .subquery(let c, let variable, let p):
            visit(c)
            local.append(variable)
            visit(p)
            local.removeLast()
        case .setOperation(_, let left, let right):
            visit(left)
            visit(right)
        case .assignment(_, let v): visit(v)
        }
    }
}
