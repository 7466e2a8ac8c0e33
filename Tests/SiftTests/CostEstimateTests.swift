import Foundation
import Testing

@testable import Sift

/// ``CostEstimate`` bounds what the budget counts: a filter whose budget is
/// its estimate for the size of the input never runs out of it.
struct CostEstimateTests {
    /// Objects of the generated predicates' keys, from small to ones whose
    /// strings and collections make the quadratic terms count.
    static let objects: [Value] = {
        let long = String(repeating: "ab*?", count: 500)
        let many: [Value] = (0..<300).map { .string("t\($0 % 17)") }
        let people: [Value] = (0..<60).map { ["name": .string("n\($0)"), "email": .string("e\($0 % 7)@x")] }
        return [
            PolicyRuleTests.object,
            ["title": .string(long), "year": 1965, "secret": .string(long), "author": ["name": .string(long), "email": "x"],
             "authors": .array(people), "tags": .array(many), "meta": ["a": .array(many), "secret": .string(long)]],
            ["title": "a", "tags": .array(many + many), "authors": .array(people + people), "author": .array(many)],
        ]
    }()

    static func runsOut(_ filter: Filter, _ object: Value, budget: Int) -> Bool {
        var budgeted = filter
        budgeted.evaluationBudget = budget
        do { _ = try budgeted.compiled().evaluate(with: object) } catch { return error.code == .limit }
        return false
    }

    /// 1,500 generated predicates (aggregates, TERNARY, indexes, SUBQUERY,
    /// functions, casts, collection operators; every operator with ANY and
    /// ALL) on each object: none runs out of a budget equal to its estimate.
    @Test func generatedPredicatesStayWithinTheirEstimates() throws {
        var rng = SplitMix(seed: 0xC057)
        var checked = 0
        var tight = 0
        for _ in 0..<1_500 {
            var maker = PredicateMaker(rng: &rng)
            guard let filter = try? Filter(maker.predicate(depth: 3)) else { continue }
            let estimate = filter.costEstimate
            for object in Self.objects {
                let n = WorkBudget.size(object, cap: .max)
                let units = estimate.units(forInputSize: n)
                #expect(!Self.runsOut(filter, object, budget: units), "\(filter.format) on \(n) units: \(estimate)")
                // How close the bound comes: a tenth of it runs out.
                if Self.runsOut(filter, object, budget: units / 10) { tight += 1 }
                checked += 1
            }
        }
        #expect(checked > 2_000)
        #expect(tight > 20)
    }

    /// Shapes that cost more than their inputs: each within its estimate,
    /// whose degree is the growth.
    @Test(arguments: [
        ("title == 'x'", 1),
        ("ANY tags IN tags", 2),
        ("tags CONTAINS title", 2),
        ("title LIKE author.name", 2),
        ("SUBQUERY(tags, $t, $t IN tags).@count > 0", 3),
        ("SUBQUERY(authors, $a, SUBQUERY(tags, $t, $t IN tags).@count > 0).@count > 0", 4),
        ("uppercase:(title) CONTAINS uppercase:(author.name)", 2),
        ("(tags UNION authors.name).@count > 1", 1),
    ])
    func shapes(format: String, degree: Int) throws {
        let filter = try Filter(format)
        #expect(filter.costEstimate.degree == degree, "\(filter.costEstimate)")
        for object in Self.objects {
            #expect(!Self.runsOut(filter, object, budget: filter.costEstimate.units(forInputSize: WorkBudget.size(object, cap: .max))))
        }
    }

    @Test func printsAsAPolynomial() throws {
        #expect(try Filter("TRUEPREDICATE").costEstimate.description == "0")
        #expect(try Filter("title == 'x'").costEstimate.description == "7n + 3")
        #expect(CostEstimate([1, 0, 3]).description == "3n² + 1")
        #expect(CostEstimate([0, 1, 0, 0]).degree == 1)
        #expect(CostEstimate([2, 3]).units(forInputSize: 10) == 32)
        #expect(CostEstimate([1, 1, 1, 1, 1, 1]).units(forInputSize: Int.max / 2) == Int.max)
    }
}
