/// `$VARIABLE` substitution.
///
/// A variable bound by a `SUBQUERY` (its `$x`) is local to its predicate
/// and is not substituted there; an assignment (`$x := …`) binds nothing
/// (`SyntaxChild.binds`), so a later `$x` is substituted as any other.
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

/// Replaces free variables with their values, children first; a kind it
/// gives no meaning of its own is rebuilt from its substituted children.
struct Substitution {
    let variables: [String: Value]
    let allowingUnbound: Bool
    var source: String
    /// Variables bound around the node being substituted.
    var local = VariableScope<Void>()

    init(variables: [String: Value], allowingUnbound: Bool, source: String) {
        self.variables = variables
        self.allowingUnbound = allowingUnbound
        self.source = source
    }

    mutating func apply(_ p: PredicateNode) throws(ParseError) -> PredicateNode {
        guard case .predicate(let out) = try apply(.predicate(p)) else { preconditionFailure("a predicate") }
        return out
    }

    mutating func apply(_ e: ExpressionNode) throws(ParseError) -> ExpressionNode {
        guard case .expression(let out) = try apply(.expression(e)) else { preconditionFailure("an expression") }
        return out
    }

    /// `node` with its free variables replaced, children first.
    private mutating func apply(_ node: SyntaxChild.Node) throws(ParseError) -> SyntaxChild.Node {
        var children = node.children
        var substitutedChildren = children.count
        if case .expression(let e) = node {
            switch e.kind {
            case .variable(let name):
                return .expression(try value(of: name, e))
            case .variableKey:
                // The key names keys (see `substitute(_:after:range:)`), the base is substituted.
                substitutedChildren = 1
            default:
                break
            }
        }
        for i in 0..<substitutedChildren {
            local.enter(children[i])
            children[i].node = try apply(children[i].node)
            local.leave(children[i])
        }
        guard case .expression(let e) = node else { return node.replacingChildren(children) }
        switch (e.kind, children.first?.node) {
        case (.path(_, let keys), .expression(let base)?):
            // A base that became a key path (`a.$b.c` with $b substituted)
            // takes the keys, as the parser would have built it.
            return .expression(base.appending(keys, range: e.range))
        case (.variableKey(_, let key), .expression(let base)?):
            return .expression(try substitute(key, after: base, range: e.range))
        case (.aggregate, _):
            // An aggregate whose items all became constants is a constant array,
            // as the parser would have made it.
            var values: [Value] = []
            for child in children {
                guard case .expression(let item) = child.node, case .constant(let v) = item.kind else {
                    return node.replacingChildren(children)
                }
                values.append(v)
            }
            return .expression(ExpressionNode(.constant(.array(values)), range: e.range))
        default:
            return node.replacingChildren(children)
        }
    }

    /// The value of the variable `$name` (the node `e`): a constant, or
    /// `e` itself when it is bound around it or unbound and allowed to be.
    private func value(of name: String, _ e: ExpressionNode) throws(ParseError) -> ExpressionNode {
        if local.binds(name) { return e }
        if let value = variables[name] { return ExpressionNode(.constant(value), range: e.range) }
        if allowingUnbound { return e }
        throw ParseError(
            .unboundVariable, Messages.noValue(forVariable: name),
            range: e.range ?? SourceRange(0, 0), source: source)
    }

    /// `base.$NAME` with the variable's value: a string is a key path
    /// (dots split it into keys) and the node becomes plain keys; any other
    /// value, or a string that names no key, is an error at the variable.
    private func substitute(_ key: ExpressionNode, after base: ExpressionNode, range: SourceRange?)
        throws(ParseError) -> ExpressionNode
    {
        let unchanged = ExpressionNode(.variableKey(base, key: key), range: range)
        guard case .variable(let name) = key.kind else { return unchanged }
        if local.binds(name) { return unchanged }
        guard let value = variables[name] else {
            if allowingUnbound { return unchanged }
            throw ParseError(
                .unboundVariable, Messages.noValue(forVariable: name),
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
