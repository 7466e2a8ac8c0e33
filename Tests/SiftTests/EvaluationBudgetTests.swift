import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// A budget of work per object for untrusted predicates: an answer within
/// it is the answer without it; past it, a `.limit` error naming the
/// setting.
struct EvaluationBudgetTests {
    static let long = String(repeating: "a", count: 200_000)
    static let object: Value = [
        "s": .string(long), "name": "Ann", "tags": .array((0..<50_000).map { .string("t\($0)") }),
        "nested": .array((0..<300).map { _ in .array((0..<300).map { .int($0) }) }),
        "author": ["name": "Bob"],
    ]

    static func outcome(_ filter: Filter, _ object: Value = object) -> String {
        do { return try filter.compiled().evaluate(with: object) ? "true" : "false" } catch {
            return "error \(error.code)"
        }
    }

    /// Each of these costs far more than 100,000 units on the object.
    @Test(arguments: [
        "s CONTAINS 'b'",
        "s LIKE '*a*b'",
        "ANY tags == 'x'",
        "'x' IN tags",
        "nested.@unionOfArrays.self.@count > 1",
        "sum:(tags) > 1",
        "name == 'Ann' AND s ENDSWITH 'b'",
    ])
    func expensiveIsALimitError(format: String) throws {
        var filter = try Filter(format)
        filter.evaluationBudget = 100_000
        #expect(Self.outcome(filter) == "error limit", "\(format)")
        let error = try #require(throws: EvaluationError.self) { try filter.compiled().evaluate(with: Self.object) }
        #expect(error.message.contains("Filter.evaluationBudget"))
        // Without the budget it answers (or fails for its own reasons).
        filter.evaluationBudget = nil
        #expect(Self.outcome(filter) != "error limit")
    }

    /// Within the budget, the answers are those of the unbudgeted filter,
    /// on dictionaries, typed objects and tables.
    @Test(arguments: [
        "name == 'Ann'", "name BEGINSWITH[c] 'a' AND author.name == 'Bob'", "name CONTAINS 'x' OR name.length == 3",
        "author.name IN {'Bob', 'Eve'}", "NOT name LIKE 'A?n'", "name < 5",
    ])
    func cheapAnswersAsWithout(format: String) throws {
        let small: Value = ["name": "Ann", "author": ["name": "Bob"], "tags": ["x"]]
        var filter = try Filter(format)
        let expected = Self.outcome(filter, small)
        filter.evaluationBudget = 1_000
        #expect(Self.outcome(filter, small) == expected)
        let table = ValueTable([small, small])
        let rows = try? table.count(where: filter)
        filter.evaluationBudget = nil
        #expect(rows == (try? table.count(where: filter)))
    }

    /// LIKE matches a segment with one automaton for each run of literals
    /// between `?`s: each counts the subject again.
    @Test func likeCountsItsWildcards() throws {
        let subject: Value = ["s": .string(String(repeating: "a", count: 5_000))]
        var cheap = try Filter("s LIKE '*ab'")
        cheap.evaluationBudget = 100_000
        #expect(Self.outcome(cheap, subject) == "false")
        var dear = try Filter("s LIKE '*" + String(repeating: "a?", count: 40) + "b'")
        dear.evaluationBudget = 100_000
        #expect(Self.outcome(dear, subject) == "error limit")
    }

    @Test func typedObjects() throws {
        struct Doc: KeyValueReadable {
            var text: String
            static let keyTable = KeyTable<Doc>(typed: ["text": .string(\.text)])
        }
        var filter = try Filter("text CONTAINS 'b' OR text BEGINSWITH 'a'")
        filter.evaluationBudget = 5_000
        let typed = filter.compiled(for: Doc.self)
        #expect(try typed.evaluate(with: Doc(text: "abc")))
        #expect(throws: EvaluationError.self) { try typed.evaluate(with: Doc(text: Self.long)) }
        // Each object has a budget of its own.
        let docs = Array(repeating: Doc(text: String(repeating: "a", count: 300)), count: 100)
        #expect(try docs.count(where: typed) == 100)
    }

    /// The untrusted policy sets its default budget; substituting keeps it.
    @Test func untrustedPolicySetsIt() throws {
        let policy = PredicatePolicy.untrusted(keyPaths: ["s"])
        let filter = try Filter("s CONTAINS 'b'").checked(by: policy)
        #expect(filter.evaluationBudget == PredicatePolicy.defaultEvaluationBudget)
        let huge: Value = ["s": .string(String(repeating: "a", count: 2_000_000))]
        #expect(Self.outcome(filter, huge) == "error limit")
        #expect(Self.outcome(filter, ["s": "abc"]) == "true")
        #expect(try filter.substituting([:]).evaluationBudget == PredicatePolicy.defaultEvaluationBudget)
    }
}

extension EvaluationBudgetTests {
    /// The general path that counts work answers as the fast paths do:
    /// 3,000 generated predicates with an ample budget against none.
    @Test func ampleBudgetChangesNoAnswer() throws {
        var rng = SeededRandom(seed: 0xB0D6E7)
        var compared = 0
        for _ in 0..<3_000 {
            var maker = PredicateMaker(rng: &rng)
            guard var filter = try? Filter(maker.predicate(depth: 3)) else { continue }
            let expected = Self.outcome(filter, PolicyRuleTests.object)
            filter.evaluationBudget = 1_000_000_000
            #expect(Self.outcome(filter, PolicyRuleTests.object) == expected, "\(filter.format)")
            compared += 1
        }
        #expect(compared > 1_000)
    }
}

extension EvaluationBudgetTests {
    /// A budgeted typed filter takes no step program, under NOT either.
    @Test func typedNotIsCounted() throws {
        struct Doc: KeyValueReadable {
            var title: String
            var body: String
            static let keyTable = KeyTable<Doc>(typed: ["title": .string(\.title), "body": .string(\.body)])
        }
        var filter = try Filter("NOT (title CONTAINS 'x' OR body CONTAINS 'y')")
        filter.evaluationBudget = 1_000
        let doc = Doc(title: Self.long, body: "b")
        #expect(throws: EvaluationError.self) { try filter.compiled(for: Doc.self).evaluate(with: doc) }
        #expect(throws: EvaluationError.self) { try [doc, doc].count(where: filter.compiled(for: Doc.self)) }
    }

    /// Work no comparison sees is counted too: an aggregate of many reads.
    @Test func aggregatesOfReadsAreCounted() throws {
        var filter = try Filter("{s, s, s}[SIZE] == 3")
        filter.evaluationBudget = 100_000
        #expect(Self.outcome(filter) == "error limit")
        filter.evaluationBudget = nil
        #expect(Self.outcome(filter) == "true")
    }
}
