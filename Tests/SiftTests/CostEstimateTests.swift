import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

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
            // A 38-digit decimal, whose description is 39 bytes from 1 unit.
            ["year": .decimal(Decimal(string: "-12345678901234567890123456789012345678")!), "title": .string("ǅ" + long),
             "tags": .array([.decimal(Decimal(string: "1e-100")!), .double(-2.2250738585072014e-308), .date(Date())])],
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
        var rng = SeededRandom(seed: 0xC057)
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

/// Method keys that grow a value (a number described, a string
/// upper-cased) stay within the estimate: `year.stringValue == "a"` on a
/// 38-digit decimal was estimated 7n + 3 = 24 units for n = 3, and ran out.
struct MethodKeyEstimateTests {
    @Test(arguments: [
        "year.stringValue == 'a'", "year.description == 'a'", "title.uppercaseString == 'x'",
        "tags.description == 'x'", "ANY tags.stringValue == 'x'", "title.uppercaseString.lowercaseString.length > 1",
        "ANY tags.pathComponents == 'x'", "year.stringValue.length == 1",
    ])
    func methodKeyShapes(format: String) throws {
        let filter = try Filter(format)
        let decimal: Value = .decimal(Decimal(string: "-12345678901234567890123456789012345678")!)
        for object: Value in [
            ["year": decimal, "title": "ǅ", "tags": .array([decimal, .double(-2.2250738585072014e-308), .date(Date())])],
            ["year": decimal, "title": .string(String(repeating: "ǅß", count: 300)), "tags": .array(Array(repeating: decimal, count: 50))],
        ] {
            let units = filter.costEstimate.units(forInputSize: WorkBudget.size(object, cap: .max))
            #expect(!CostEstimateTests.runsOut(filter, object, budget: units), "\(format): \(filter.costEstimate)")
        }
    }
}

/// Method keys read their receiver whole: the budget counts it before they
/// run (`s.boolValue` was charged 1 unit for scanning a 1 MB string, so
/// `ANY {s.boolValue, …}` ran 1.9 s under a budget of 1,000).
struct MethodKeyBudgetTests {
    @Test(arguments: [
        ("boolValue", "< 0", false), ("doubleValue", "< 0", true), ("intValue", "< 0", true), ("floatValue", "< 0", true),
        ("length", "< 0", false), ("uppercaseString", "== '-1'", true), ("lastPathComponent", "== 'x'", false),
    ])
    func methodKeysAreChargedForWhatTheyRead(key: String, test: String, onSmall: Bool) throws {
        let list = Array(repeating: "s.\(key)", count: 100).joined(separator: ", ")
        var filter = try Filter("ANY {\(list)} \(test)")
        filter.evaluationBudget = 1_000
        let object: Value = ["s": .string(String(repeating: "7", count: 1 << 20))]
        #expect {
            _ = try filter.compiled().evaluate(with: object)
        } throws: { error in
            (error as? EvaluationError)?.code == .limit
        }
        // A string that fits is read as before.
        filter.evaluationBudget = 100_000
        #expect(try filter.compiled().evaluate(with: ["s": "-1"]) == onSmall)
    }
}

extension MethodKeyBudgetTests {
    /// A dictionary's key named like a method (`description`, `length`) is
    /// a lookup: the record is not counted again for it.
    @Test func dictionaryKeysNamedLikeMethodsAreLookups() throws {
        var filter = try Filter("description == 'x' AND length == 1")
        filter.evaluationBudget = 1_000
        let object: Value = ["description": "x", "length": 1, "body": .string(String(repeating: "b", count: 100_000))]
        #expect(try filter.compiled().evaluate(with: object))
    }
}
