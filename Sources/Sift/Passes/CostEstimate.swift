/// An upper bound, known before any object is read, of the work of
/// evaluating a predicate on one object, in the units of
/// ``Filter/evaluationBudget``: a polynomial in n, the size of the inputs
/// (the largest of the object and the variables' values, measured as the
/// budget measures values: a string's UTF-8 bytes, a collection's elements
/// and their sizes, 1 for anything else; a record of JSON is about as many
/// units as it has bytes).
///
/// ```swift
/// let filter = try Filter("ANY tags IN %@ AND title CONTAINS[c] 'swift'", ["a", "b"])
/// filter.costEstimate.degree                             // 2
/// filter.costEstimate.units(forInputSize: 10_000) <= 1_000_000
/// ```
///
/// It is made from the predicate's tree by the rules the budget counts by,
/// each value's size bounded from its parts': a key path reads at most n, a
/// constant is its own size, `uppercase:` at most triples a string's bytes,
/// a comparison costs both sides' sizes and each element of one side
/// against the other, a `SUBQUERY` runs its predicate once for each element
/// of its collection. So an evaluation with a budget of
/// `units(forInputSize: n)` never runs out on inputs of size n or less,
/// which tests hold it to; the bound is loose for most objects, since every
/// key path is taken to read the whole input. Its degree tells how the
/// worst case grows: 1 for comparisons of key paths with constants, 2 when
/// two values read from the object are compared element by element
/// (`ANY a IN b`), one more for each `SUBQUERY` level over such a
/// comparison. A server can refuse a predicate whose estimate for its
/// largest accepted record is past its budget, before running it.
public struct CostEstimate: Sendable, Hashable, CustomStringConvertible {
    /// `coefficients[k]` multiplies n^k; the last one is not zero (no
    /// coefficients: no work at all).
    public let coefficients: [Int]

    init(_ coefficients: [Int]) {
        var c = coefficients
        while c.last == 0 { c.removeLast() }
        self.coefficients = c
    }

    /// The highest power of n (0 for a constant cost).
    public var degree: Int { max(coefficients.count - 1, 0) }

    /// The bound for inputs of at most `n` units (saturating at `Int.max`).
    public func units(forInputSize n: Int) -> Int {
        let n = max(n, 0)
        var total = 0
        for c in coefficients.reversed() {
            total = total.multipliedSaturating(by: n).addingSaturating(c)
        }
        return total
    }

    /// `3n² + 12n + 40`.
    public var description: String {
        let terms = coefficients.enumerated().reversed().filter { $0.element != 0 }.map { k, c -> String in
            let power = k == 0 ? "" : (k == 1 ? "n" : "n" + String(k).map { Self.superscripts[$0] ?? "" }.joined())
            return k > 0 && c == 1 ? power : "\(c)\(power)"
        }
        return terms.isEmpty ? "0" : terms.joined(separator: " + ")
    }

    private static let superscripts: [Character: String] = [
        "0": "⁰", "1": "¹", "2": "²", "3": "³", "4": "⁴", "5": "⁵", "6": "⁶", "7": "⁷", "8": "⁸", "9": "⁹",
    ]
}

extension Filter {
    /// The most work evaluating one object can take, as a polynomial in the
    /// size of the inputs (``CostEstimate``).
    public var costEstimate: CostEstimate {
        CostEstimate(CostModel().work(predicate).coefficients)
    }
}

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
    var variables: [String: CostPolynomial] = [:]

    /// The largest size `e`'s value can have.
    func size(_ e: ExpressionNode) -> CostPolynomial {
        switch e.kind {
        case .constant(let v): return .constant(WorkBudget.size(v, cap: .max))
        case .evaluatedObject: return .n
        case .keyPath(let keys): return grown(.n, keys)
        case .variable(let name): return variables[name] ?? .n
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
        case .ternary(_, let a, let b), .setOperation(_, let a, let b):
            return size(a) + size(b)
        case .assignment(_, let value):
            return size(value)
        case .anyKey:
            return .constant(1)
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
    func work(_ e: ExpressionNode) -> CostPolynomial {
        // Every node but a constant, a variable and SELF is counted when it
        // has its value: one unit and the value's size.
        let own = CostPolynomial.constant(1) + size(e)
        switch e.kind {
        case .constant, .variable, .evaluatedObject:
            return .zero
        case .keyPath(let keys):
            // With a collection operator, the collection it reads is
            // counted as well (at most the input).
            return own + .n + methodKeyWork(.n, keys)
        case .path(let base, let keys):
            return work(base) + own + size(base) + methodKeyWork(size(base), keys)
        case .variableKey(let base, _):
            return work(base) + own + size(base)
        case .aggregate(let items):
            return items.reduce(own) { $0 + work($1) }
        case .function(_, let arguments):
            return arguments.reduce(own) { $0 + work($1) + size($1) }
        case .index(let base, let sub):
            if case .expression(let i) = sub { return work(base) + work(i) + own }
            return work(base) + own
        case .invocation(let receiver, _, let arguments):
            return arguments.reduce(work(receiver) + own) { $0 + work($1) }
        case .cast(let value, _):
            return work(value) + own
        case .ternary(let p, let a, let b):
            return work(p) + work(a) + work(b) + own
        case .subquery(let collection, let variable, let p):
            let elements = size(collection)
            var inner = self
            inner.variables[variable] = elements
            return work(collection) + elements + elements * inner.work(p) + own
        case .setOperation(_, let a, let b):
            return work(a) + work(b) + size(a) + size(b) + own
        case .assignment(_, let value):
            return work(value) + own
        case .anyKey:
            return own
        }
    }

    /// The most work the budget counts while `p` is evaluated.
    func work(_ p: PredicateNode) -> CostPolynomial {
        switch p.kind {
        case .constant: return .zero
        case .and(let children), .or(let children): return children.reduce(.zero) { $0 + work($1) }
        case .not(let child): return work(child)
        case .comparison(let c):
            // Both sizes, each element of one side against the other side
            // (ANY, IN, CONTAINS), and for LIKE the subject once for each
            // wildcard of the pattern (at most its size).
            let a = size(c.lhs)
            let b = size(c.rhs)
            var units = a + b + 2 * (a * b)
            if c.op.family.costClass == .wildcards { units = units + a * b }
            return work(c.lhs) + work(c.rhs) + units
        }
    }
}
