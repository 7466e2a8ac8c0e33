import Foundation

/// The work one evaluation of one object may still do: a unit is a byte of
/// a string compared or searched, an element of a collection visited, a
/// value given to a function. Made for each object and used only by its
/// evaluation, on one thread.
@usableFromInline
final class WorkBudget: @unchecked Sendable {
    let limit: Int
    var remaining: Int

    @usableFromInline
    init(limit: Int) {
        self.limit = limit
        self.remaining = limit
    }

    /// The size of a value in units: a string's UTF-8 bytes, a collection's
    /// elements and their sizes, 1 for anything else. Counted without
    /// recursion, and only up to `cap` (the answer is then past the budget
    /// anyway).
    static func size(_ value: Value, cap: Int) -> Int {
        var total = 0
        var pending = [value]
        while let v = pending.popLast(), total <= cap {
            switch v {
            case .string(let s): total += s.utf8.count + 1
            case .array(let items): total += items.count + 1; pending.append(contentsOf: items)
            case .set(let items): total += items.count + 1; pending.append(contentsOf: items)
            case .dictionary(let d): total += d.count + 1; pending.append(contentsOf: d.values)
            case .data(let d): total += d.count + 1
            default: total += 1
            }
        }
        return total
    }

    static func count(_ value: Value) -> Int {
        switch value {
        case .array(let items): return items.count
        case .set(let items): return items.count
        case .dictionary(let d): return d.count
        default: return 0
        }
    }

    /// The work of comparing `a` with `b`: both sizes, and each element of
    /// one side against the other side (ANY, ALL, IN, CONTAINS); for LIKE,
    /// the subject once for each `*` and `?` of the pattern (a segment is
    /// matched with one automaton for each run of literals between them).
    func comparison(_ a: Value, _ b: Value, _ cost: OperatorFamily.CostClass) -> Int {
        let cap = max(remaining, 0)
        let sa = Self.size(a, cap: cap)
        let sb = Self.size(b, cap: cap)
        var units = sa &+ sb
        units = units.addingSaturating(Self.count(a).multipliedSaturating(by: sb))
        units = units.addingSaturating(Self.count(b).multipliedSaturating(by: sa))
        if cost == .wildcards, case .string(let pattern) = b {
            let wildcards = pattern.utf8.reduce(0) { $1 == 0x2A || $1 == 0x3F ? $0 + 1 : $0 }
            units = units.addingSaturating(sa.multipliedSaturating(by: wildcards))
        }
        return units
    }
}
