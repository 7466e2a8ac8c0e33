/// One walk over the syntax tree for the passes (substitution, variable
/// collection, the tree dump, the policy check, the cost model, the
/// record-slot collector, the SQL memory keys): the children of a node in
/// source order, the node rebuilt from new children, and the variables a
/// node binds. Here, and in the printer, the evaluator's compiler and the
/// SQL lowering, which give every kind its own meaning, is the only switch
/// over every kind of node; a pass handles the kinds it gives a meaning and
/// carries the others along through these.
///
/// A pass recurses itself, child by child, with no closure between a node
/// and its children: a level of nesting costs one frame of the pass, and a
/// key path's keys are never children.
package struct SyntaxChild: Sendable {
    /// A child node: an expression, or a predicate (`TERNARY`'s test, a
    /// `SUBQUERY`'s predicate, an operand of `AND`, `OR`, `NOT`).
    package enum Node: Sendable {
        case expression(ExpressionNode)
        case predicate(PredicateNode)
    }

    /// The child.
    package var node: Node
    /// The variable bound in this child and everything inside it, if any:
    /// a `SUBQUERY`'s variable, in its predicate (not in its collection).
    /// This is the only scope there is: an assignment (`$x := …`) binds its
    /// variable in no child (evaluation does not keep it for later use),
    /// and its name is no child either, so it is never a free variable.
    package var binds: String?

    package init(_ node: Node, binds: String? = nil) {
        self.node = node
        self.binds = binds
    }

    package static func expression(_ e: ExpressionNode) -> SyntaxChild { SyntaxChild(.expression(e)) }
    package static func predicate(_ p: PredicateNode, binds: String? = nil) -> SyntaxChild {
        SyntaxChild(.predicate(p), binds: binds)
    }
}

extension ExpressionNode.Kind {
    /// The node's children, in source order. A subscript `[FIRST]`,
    /// `[LAST]`, `[SIZE]` is no child; `[i]` is its expression.
    package var children: [SyntaxChild] {
        switch self {
        case .constant, .evaluatedObject, .variable, .keyPath, .anyKey:
            return []
        case .path(let base, _), .cast(let base, _), .assignment(_, let base):
            return [.expression(base)]
        case .variableKey(let base, let key):
            return [.expression(base), .expression(key)]
        case .aggregate(let items), .function(_, let items):
            return items.map(SyntaxChild.expression)
        case .index(let base, let sub):
            if case .expression(let index) = sub { return [.expression(base), .expression(index)] }
            return [.expression(base)]
        case .invocation(let receiver, _, let arguments):
            return [.expression(receiver)] + arguments.map(SyntaxChild.expression)
        case .ternary(let test, let a, let b):
            return [.predicate(test), .expression(a), .expression(b)]
        case .subquery(let collection, let variable, let test):
            return [.expression(collection), .predicate(test, binds: variable)]
        case .setOperation(_, let a, let b):
            return [.expression(a), .expression(b)]
        }
    }

    /// The node with `children` in place of its own, given in the order
    /// and of the kinds ``children`` gives them.
    package func replacingChildren(_ children: [SyntaxChild]) -> Self {
        var next = ChildReader(children)
        switch self {
        case .constant, .evaluatedObject, .variable, .keyPath, .anyKey:
            return self
        case .path(_, let keys): return .path(next.expression(), keys)
        case .cast(_, let type): return .cast(next.expression(), type: type)
        case .assignment(let variable, _): return .assignment(variable: variable, next.expression())
        case .variableKey: return .variableKey(next.expression(), key: next.expression())
        case .aggregate(let items): return .aggregate(next.expressions(items.count))
        case .function(let f, let arguments): return .function(f, next.expressions(arguments.count))
        case .index(_, let sub):
            let base = next.expression()
            if case .expression = sub { return .index(base, .expression(next.expression())) }
            return .index(base, sub)
        case .invocation(_, let selector, let arguments):
            let receiver = next.expression()
            return .invocation(receiver, selector: selector, next.expressions(arguments.count))
        case .ternary: return .ternary(next.predicate(), next.expression(), next.expression())
        case .subquery(_, let variable, _): return .subquery(next.expression(), variable: variable, next.predicate())
        case .setOperation(let operation, _, _): return .setOperation(operation, next.expression(), next.expression())
        }
    }
}

extension PredicateNode.Kind {
    /// The node's children, in source order.
    package var children: [SyntaxChild] {
        switch self {
        case .constant: return []
        case .and(let children), .or(let children): return children.map { .predicate($0) }
        case .not(let child): return [.predicate(child)]
        case .comparison(let c): return [.expression(c.lhs), .expression(c.rhs)]
        }
    }

    /// The node with `children` in place of its own, given in the order
    /// and of the kinds ``children`` gives them.
    package func replacingChildren(_ children: [SyntaxChild]) -> Self {
        var next = ChildReader(children)
        switch self {
        case .constant: return self
        case .and(let old): return .and(next.predicates(old.count))
        case .or(let old): return .or(next.predicates(old.count))
        case .not: return .not(next.predicate())
        case .comparison(var c):
            c.lhs = next.expression()
            c.rhs = next.expression()
            return .comparison(c)
        }
    }
}

extension SyntaxChild.Node {
    /// The node's children, in source order.
    package var children: [SyntaxChild] {
        switch self {
        case .expression(let e): return e.kind.children
        case .predicate(let p): return p.kind.children
        }
    }

    /// The node with `children` in place of its own (see
    /// ``ExpressionNode/Kind/replacingChildren(_:)``), its range kept.
    package func replacingChildren(_ children: [SyntaxChild]) -> Self {
        switch self {
        case .expression(var e):
            e.kind = e.kind.replacingChildren(children)
            return .expression(e)
        case .predicate(var p):
            p.kind = p.kind.replacingChildren(children)
            return .predicate(p)
        }
    }
}

/// Takes new children, in order, for ``ExpressionNode/Kind/replacingChildren(_:)``.
private struct ChildReader {
    let children: [SyntaxChild]
    var index = 0

    init(_ children: [SyntaxChild]) { self.children = children }

    mutating func expression() -> ExpressionNode {
        defer { index += 1 }
        guard case .expression(let e) = children[index].node else { preconditionFailure("child \(index) is an expression") }
        return e
    }

    mutating func predicate() -> PredicateNode {
        defer { index += 1 }
        guard case .predicate(let p) = children[index].node else { preconditionFailure("child \(index) is a predicate") }
        return p
    }

    mutating func expressions(_ count: Int) -> [ExpressionNode] {
        (0..<count).map { _ in expression() }
    }

    mutating func predicates(_ count: Int) -> [PredicateNode] {
        (0..<count).map { _ in predicate() }
    }
}
