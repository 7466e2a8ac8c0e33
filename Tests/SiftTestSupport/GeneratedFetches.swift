import Foundation
import Sift

/// The differential suite's generated fetches of `Book` over the `Library`
/// fixture, and what memory answers them: shared by the suites that hold
/// an engine to memory (SiftSQLTests' `DifferentialTests`, SiftSQLKitTests).
package enum GeneratedFetches {
    /// The seed of the generated data and requests (`SIFT_SEED`).
    package static let seed: UInt64 = {
        if let s = ProcessInfo.processInfo.environment["SIFT_SEED"], let n = UInt64(s) { return n }
        return 20_261_123
    }()
    /// How many cases a generated suite runs (`SIFT_CASES`).
    package static let cases = Int(ProcessInfo.processInfo.environment["SIFT_CASES"] ?? "") ?? 3000

    /// The key paths the generated fetches sort by.
    package static let sortKeys = ["title", "year", "price", "published", "author.name", "author.age", "code", "author.active"]

    /// A fetch: one or two sort keys of any comparison, a generated
    /// predicate half the time, a limit half the time and an offset.
    package static func fetch(_ generator: inout PredicateGenerator) throws -> FetchSpecification {
        var sort: [SortKey] = []
        for _ in 0..<Int.random(in: 1...2, using: &generator.rng) {
            let comparisons: [SortKey.Comparison] = [.compare, .caseInsensitive, .localized, .localizedCaseInsensitive, .localizedStandard, .swift]
            sort.append(SortKey(generator.pick(sortKeys), ascending: generator.chance(0.5), comparison: generator.pick(comparisons)))
        }
        var filter: Filter?
        if generator.chance(0.5) {
            let (format, args) = generator.predicate(depth: 2)
            filter = try Filter(format, arguments: args)
        }
        let limit: Int? = generator.chance(0.5) ? Int.random(in: 0...20, using: &generator.rng) : nil
        let offset = generator.chance(0.4) ? Int.random(in: 0...30, using: &generator.rng) : 0
        return FetchSpecification(entity: "Book", filter: filter, sort: sort, offset: offset, limit: limit)
    }

    /// A fetch as a failure message names it.
    package static func label(_ n: Int, _ request: FetchSpecification) -> String {
        "fetch \(n) [\(request.filter?.format ?? "all")] sort \(request.sort) offset \(request.offset) limit \(request.limit.map(String.init) ?? "none")"
    }

    /// Whether PostgreSQL sorts as memory by every sort key of `request`
    /// (the localized comparisons have no PostgreSQL form of memory's order).
    package static func postgresSorts(_ request: FetchSpecification) -> Bool {
        !request.sort.contains(where: { ![.compare, .caseInsensitive, .swift].contains($0.comparison) })
    }

    /// The ids from the evaluator, or nil if it raises.
    package static func memoryIDs(_ request: FetchSpecification, _ books: [Value]) -> [Int]? {
        guard let rows = try? request.execute(on: books) else { return nil }
        return ids(rows)
    }

    /// The `id` of each row (-1 for a row without one).
    package static func ids(_ rows: [Value]) -> [Int] {
        rows.map { row in
            guard case .dictionary(let d) = row, case .int(let id)? = d["id"] else { return -1 }
            return id
        }
    }

    /// Whether PostgreSQL refused an `[s]` search or ordering: Swift's
    /// searches compare characters (grapheme clusters), which it cannot find
    /// in its text, and Swift's `<` orders a few strings neither way.
    package static func refusesSwiftSearch(_ error: any Error) -> Bool {
        "\(error)".contains("[s] searches compare characters") || "\(error)".contains("[s] orderings are Swift's <")
    }

    /// Whether PostgreSQL refused arithmetic on doubles that could raise
    /// there (overflow, underflow, division by zero) where memory does not.
    package static func refusesDoubleArithmetic(_ error: any Error) -> Bool {
        "\(error)".contains("has no PostgreSQL form: its doubles raise")
    }

    /// Whether `error` is SQL's arithmetic error (overflow, division by
    /// zero) on a predicate that memory answered, because memory's left-to-right
    /// short circuit skipped the rows where the arithmetic fails and the
    /// database evaluated its conditions in another order: true only when a
    /// comparison of the predicate holding arithmetic, evaluated alone, raises
    /// in memory too (a documented difference; the rows are never different).
    package static func raisesPastShortCircuit(_ error: any Error, _ filter: Filter, _ books: [Value]) -> Bool {
        let text = "\(error)"
        guard ["overflow", "out of range", "division by zero", "modulus by zero"].contains(where: text.contains) else { return false }
        func leaves(_ p: PredicateNode) -> [PredicateNode] {
            switch p.kind {
            case .and(let children), .or(let children): return children.flatMap(leaves)
            case .not(let inner): return leaves(inner)
            case .comparison(let c):
                let arithmetic = [c.lhs, c.rhs].contains { e in
                    if case .function = e.kind { return true }
                    return false
                }
                return arithmetic ? [p] : []
            default: return []
            }
        }
        return leaves(filter.predicate).contains { leaf in
            memoryIDs(FetchSpecification(entity: "Book", filter: Filter(leaf)), books) == nil
        }
    }
}
