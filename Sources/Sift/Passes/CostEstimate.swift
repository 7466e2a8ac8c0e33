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
