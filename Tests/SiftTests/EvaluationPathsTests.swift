import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// ``EvaluationPaths/generalOnly`` turns off every fast path (the steps read
/// in place, the typed, dynamic and column comparisons, the byte-wise string
/// searches), and every fast path answers, and fails, as the general path
/// does: over the random predicates and the formats of the fast paths' own
/// tests, compiled both ways in the same process.
struct EvaluationPathsTests {
    /// The answer, or the error's code and place.
    static func outcome(_ test: () throws(EvaluationError) -> Bool) -> String {
        do { return try test() ? "true" : "false" } catch { return "error \(error.code) \(error.range)" }
    }

    /// The rows' indices that match, or the error.
    static func outcome(_ rows: () throws(EvaluationError) -> [Int]) -> String {
        do { return try rows().description } catch { return "error \(error.code) \(error.range)" }
    }

    /// A budget rules the fast paths out as `.generalOnly` does: one rule.
    @Test func theRule() {
        #expect(EvaluationPaths.fast.allowFastPaths(budget: nil))
        #expect(!EvaluationPaths.fast.allowFastPaths(budget: 1_000))
        #expect(!EvaluationPaths.generalOnly.allowFastPaths(budget: nil))
        #expect(!EvaluationPaths.generalOnly.allowFastPaths(budget: 1_000))
    }

    /// A constant searched for by the general path has no byte-wise search.
    @Test func searchesByTheGeneralPathAreUnicodes() {
        for options: ComparisonOptions in [[], [.caseInsensitive], [.caseInsensitive, .diacriticInsensitive]] {
            let fast = StringSemantics.Needle("ab", .prefix, options, fastPaths: true)
            let general = StringSemantics.Needle("ab", .prefix, options, fastPaths: false)
            #expect(fast.ascii != nil && fast.latin != nil)
            #expect(general.ascii == nil && general.latin == nil)
            for haystack in ["abc", "ABC", "ábc", "xab", "a\u{301}b"] {
                #expect(general.found(in: haystack) == fast.found(in: haystack), "\(haystack) \(options)")
            }
        }
    }

    /// The random AND / OR / NOT trees of ``InPlaceProgramTests`` on typed
    /// objects, on their values and on a table of them: each answers the
    /// same by the fast paths and by the general path, and only the fast
    /// paths run steps.
    @Test func randomPredicatesAnswerAlikeBothWays() throws {
        var rng = SeededRandom(seed: 1789)
        let members = InPlaceProgramTests.members
        let values = members.map(InPlaceReaderTests.dynamicValue)
        let table = ValueTable(values)
        var programs = 0
        for _ in 0..<300 {
            let (format, arguments) = InPlaceProgramTests.tree(&rng, depth: 3)
            let filter = try Filter(format, arguments: arguments)
            let typed = filter.compiled(for: StoredMember.self, paths: .fast)
            let typedGeneral = filter.compiled(for: StoredMember.self, paths: .generalOnly)
            let dynamic = filter.compiled(paths: .fast)
            let general = filter.compiled(paths: .generalOnly)
            if typed.program != nil { programs += 1 }
            #expect(typedGeneral.program == nil, "\(filter.format)")
            var expected: [Int] = []
            for (i, m) in members.enumerated() {
                let answer = Self.outcome { () throws(EvaluationError) in try general.evaluate(with: values[i]) }
                #expect(Self.outcome { () throws(EvaluationError) in try dynamic.evaluate(with: values[i]) } == answer)
                #expect(Self.outcome { () throws(EvaluationError) in try typed.evaluate(with: m) } == answer, "\(filter.format)")
                #expect(Self.outcome { () throws(EvaluationError) in try typedGeneral.evaluate(with: m) } == answer)
                if answer == "true" { expected.append(i) }
            }
            #expect(try members.count(where: typed) == expected.count, "\(filter.format)")
            #expect(try members.count(where: typedGeneral) == expected.count, "\(filter.format)")
            for paths in [EvaluationPaths.fast, .generalOnly] {
                #expect(try table.indices(where: filter, paths: paths) == expected, "\(filter.format) \(paths)")
            }
        }
        #expect(programs > 100)
    }

    /// The formats and odd values of ``FastPathTests`` and
    /// ``ValueTableTests``: dictionaries and tables answer and fail alike
    /// both ways.
    @Test func formatsAnswerAlikeBothWays() throws {
        let variables: [String: Value] = ["limit": .double(0.5)]
        let tables = [ValueTableTests.rows, ValueTableTests.regular, FastPathTests.roots]
        for format in FastPathTests.formats + ValueTableTests.formats {
            let filter = try format.contains("%d") ? Filter(format, 1) : Filter(format)
            let fast = filter.compiled(paths: .fast)
            let general = filter.compiled(paths: .generalOnly)
            for rows in tables {
                var expected: [Int] = []
                for (i, row) in rows.enumerated() {
                    let answer = Self.outcome { () throws(EvaluationError) in
                        try general.evaluate(with: row, variables: variables)
                    }
                    let fastAnswer = Self.outcome { () throws(EvaluationError) in
                        try fast.evaluate(with: row, variables: variables)
                    }
                    #expect(fastAnswer == answer, "\(format) on \(row)")
                    if answer == "true" { expected.append(i) }
                }
                let table = ValueTable(rows)
                let indices = Self.outcome { () throws(EvaluationError) in
                    try table.indices(where: filter, variables: variables, paths: .generalOnly)
                }
                let fastIndices = Self.outcome { () throws(EvaluationError) in
                    try table.indices(where: filter, variables: variables, paths: .fast)
                }
                #expect(indices == fastIndices, "\(format)")
                if !indices.hasPrefix("error") { #expect(indices == expected.description, "\(format)") }
            }
        }
    }
}
