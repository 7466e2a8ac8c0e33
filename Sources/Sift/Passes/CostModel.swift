/// A polynomial in n with non-negative coefficients, added and multiplied
/// saturating at `Int.max`.
struct CostPolynomial {
    var coefficients: [Int]

    static let zero = CostPolynomial(coefficients: [])
    static let n = CostPolynomial(coefficients: [0, 1])
    static func constant(_ c: Int) -> CostPolynomial { CostPolynomial(coefficients: [c]) }

    static func + (a: CostPolynomial, b: CostPolynomial) -> CostPolynomial {
        var c = [Int](repeating: 0, count: max(a.coefficients.count, b.coefficients.count))
        for (k, x) in a.coefficients.enumerated() { c[k] = c[k].addingSaturating(x) }
        for (k, x) in b.coefficients.enumerated() { c[k] = c[k].addingSaturating(x) }
        return CostPolynomial(coefficients: c)
    }

    static func * (a: CostPolynomial, b: CostPolynomial) -> CostPolynomial {
        if a.coefficients.isEmpty || b.coefficients.isEmpty { return .zero }
        var c = [Int](repeating: 0, count: a.coefficients.count + b.coefficients.count - 1)
        for (i, x) in a.coefficients.enumerated() {
            for (j, y) in b.coefficients.enumerated() {
                c[i + j] = c[i + j].addingSaturating(x.multipliedSaturating(by: y))
            }
        }
        return CostPolynomial(coefficients: c)
    }

    static func * (k: Int, a: CostPolynomial) -> CostPolynomial { .constant(k) * a }
}

/// The rules of ``CostEstimate``: the size a value can have, and the work
/// the budgeted evaluation (``Compiler``, which charges it) counts for each
/// node, each bounded from the node's parts. Kept next to nothing else on
/// purpose: a change to what the compiler charges must change these rules,
/// and `CostEstimateTests` fails when they fall short.
struct CostModel {
    /// The sizes of the `SUBQUERY` variables in scope (each an element of
    /// its collection); any other variable is an input, of size n.
    var variables = VariableScope<CostPolynomial>()

    /// The largest size `e`'s value can have.
    func size(_ e: ExpressionNode) -> CostPolynomial {
        switch e.kind {
        case .constant(let v): return .constant(WorkBudget.size(v, cap: .max))
        case .evaluatedObject: return .n
        case .keyPath(let keys): return grown(.n, keys)
        case .variable(let name): return variables.binding(of: name) ?? .n
        case .path(let base, let keys): return grown(size(base), keys)
        case .variableKey(let base, _), .index(let base, _), .subquery(let base, _, _):
            return size(base)
        case .aggregate(let items):
            return items.reduce(.constant(1 + items.count)) { $0 + size($1) }
        case .function(let f, let arguments):
            let all = arguments.reduce(CostPolynomial.constant(1)) { $0 + size($1) }
            switch f.result {
            // Case mapping can make a string longer: at most three bytes
            // for each byte (ΐ, two bytes, is Ϊ́, six).
            case .caseMapped: return 3 * all
            case .element, .argument: return all
            case .number, .date: return .constant(1)
            }
        case .invocation(let receiver, let selector, let arguments):
            let all = 3 * arguments.reduce(size(receiver) + .constant(32)) { $0 + size($1) }
            // Replacing multiplies: each occurrence, at most one for each
            // unit of the receiver, grows by the replacement.
            if selector == "stringByReplacingOccurrencesOfString:withString:", arguments.count == 2 {
                return all + size(receiver) * size(arguments[1])
            }
            return all
        case .cast(let value, _):
            // A description: at most 32 characters for each unit.
            return 32 * (size(value) + .constant(1))
        case .anyKey:
            return .constant(1)
        default:
            // A value of its operands' (either side of TERNARY, the
            // elements of a set operation, an assignment's value): at most
            // their sizes together.
            var total = CostPolynomial.zero
            for child in e.kind.children {
                if case .expression(let operand) = child.node { total = total + size(operand) }
            }
            return total
        }
    }

    /// The largest size of a value of size `size` after `keys`: each
    /// method key may grow it (``KeyValueAccess/methodKeyGrowth``).
    func grown(_ size: CostPolynomial, _ keys: [String]) -> CostPolynomial {
        keys.reduce(size) { KeyValueAccess.methodKeys.contains($1) ? KeyValueAccess.methodKeyGrowth * $0 : $0 }
    }

    /// What the budget counts for the method keys of `keys`, read from a
    /// value of size `size`: the receiver before each, its value after.
    func methodKeyWork(_ size: CostPolynomial, _ keys: [String]) -> CostPolynomial {
        var total = CostPolynomial.zero
        var current = size
        for key in keys where KeyValueAccess.methodKeys.contains(key) {
            let next = KeyValueAccess.methodKeyGrowth * current
            total = total + current + next
            current = next
        }
        return total
    }

    /// The most work the budget counts while `e` is evaluated.
    func work(_ e: ExpressionNode) -> CostPolynomial { work(.expression(e)) }

    /// The most work the budget counts while `p` is evaluated.
    func work(_ p: PredicateNode) -> CostPolynomial { work(.predicate(p)) }

    /// The most work the budget counts while `node` is evaluated: its
    /// children's and, by the rules of its kind, its own.
    private func work(_ node: SyntaxChild.Node) -> CostPolynomial {
        var total = CostPolynomial.zero
        switch node {
        case .predicate(let p):
            if case .comparison(let c) = p.kind {
                // Both sizes, each element of one side against the other side
                // (ANY, IN, CONTAINS), and for LIKE the subject once for each
                // wildcard of the pattern (at most its size).
                let a = size(c.lhs)
                let b = size(c.rhs)
                total = a + b + 2 * (a * b)
                if c.op.family.costClass == .wildcards { total = total + a * b }
            }
        case .expression(let e):
            // Every node but a constant, a variable and SELF is counted when it
            // has its value: one unit and the value's size.
            switch e.kind {
            case .constant, .variable, .evaluatedObject:
                return .zero
            case .keyPath(let keys):
                // With a collection operator, the collection it reads is
                // counted as well (at most the input).
                return .constant(1) + size(e) + .n + methodKeyWork(.n, keys)
            case .path(let base, let keys):
                total = size(base) + methodKeyWork(size(base), keys)
            case .variableKey(let base, _):
                // The key is a variable's value, which counts nothing.
                return work(base) + .constant(1) + size(e) + size(base)
            case .function, .setOperation:
                // Each operand's value is given to the function, or hashed.
                for child in e.kind.children {
                    if case .expression(let operand) = child.node { total = total + size(operand) }
                }
            case .subquery(let collection, let variable, let p):
                let elements = size(collection)
                var inner = self
                inner.variables.bind(variable, to: elements)
                return work(collection) + elements + elements * inner.work(p) + .constant(1) + size(e)
            default:
                break
            }
            total = total + .constant(1) + size(e)
        }
        for child in node.children { total = total + work(child.node) }
        return total
    }
}
