/// The variables bound around a node as a pass walks down the tree (see
/// ``SyntaxChild/binds``), each with what the pass knows of it: the rule
/// of scope, once for every pass. An inner binding of a name hides an
/// outer one; a variable bound nowhere around is free (a substitution
/// variable, given a value by substitution or at evaluation).
package struct VariableScope<Binding> {
    private var bound: [(name: String, binding: Binding)] = []

    package init() {}

    /// Whether `name` is bound around the node.
    package func binds(_ name: String) -> Bool {
        bound.contains { $0.name == name }
    }

    /// The innermost binding of `name`, or nil when it is free.
    package func binding(of name: String) -> Binding? {
        bound.last { $0.name == name }?.binding
    }

    /// Binds `name` to `binding` for the nodes inside, until ``unbind()``.
    package mutating func bind(_ name: String, to binding: Binding) {
        bound.append((name, binding))
    }

    /// Ends the innermost binding.
    package mutating func unbind() {
        bound.removeLast()
    }

    /// Enters `child`: binds the variable it binds, if any, to `binding`.
    /// Leave it with ``leave(_:)``.
    package mutating func enter(_ child: SyntaxChild, _ binding: @autoclosure () -> Binding) {
        if let name = child.binds { bind(name, to: binding()) }
    }

    /// Leaves `child`, entered with ``enter(_:_:)``.
    package mutating func leave(_ child: SyntaxChild) {
        if child.binds != nil { unbind() }
    }
}

extension VariableScope: Sendable where Binding: Sendable {}

extension VariableScope where Binding == Void {
    /// Enters `child`: binds the variable it binds, if any.
    package mutating func enter(_ child: SyntaxChild) { enter(child, ()) }
}
