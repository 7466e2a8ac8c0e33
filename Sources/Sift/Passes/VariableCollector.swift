/// The free `$VARIABLES` of a tree, in order of first use: every variable
/// not bound around it (``VariableScope``). The key of `base.$NAME` is one.
struct VariableCollector {
    var names: [String] = []
    private var scope = VariableScope<Void>()

    mutating func visit(_ p: PredicateNode) { visit(.predicate(p)) }

    mutating func visit(_ e: ExpressionNode) { visit(.expression(e)) }

    private mutating func visit(_ node: SyntaxChild.Node) {
        if case .expression(let e) = node, case .variable(let name) = e.kind {
            if !scope.binds(name) && !names.contains(name) { names.append(name) }
            return
        }
        for child in node.children {
            scope.enter(child)
            visit(child.node)
            scope.leave(child)
        }
    }
}
