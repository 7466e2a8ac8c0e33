import Foundation
import Testing

@testable import Sift

/// The comparisons compiled for dictionaries (`DynamicComparison`) and for
/// typed roots (`TypedComparison`) must answer, and fail, exactly as the
/// general path does: on every kind of value, on missing keys, nil, NSNull,
/// NaN, strings that are canonically but not literally equal, and roots that
/// are not dictionaries.
struct FastPathTests {
    static let odd: [Value] = [
        .null, .nsNull, .bool(true), .int(30), .int(31), .int(Int.min), .int(Int.max), .double(30.0), .double(30.5),
        .double(.nan), .double(-.infinity), .decimal(Decimal(31)), .string("ab"), .string("Abc"), .string("abK"),
        .string("ab\u{212A}"), .string("K"), .string("\u{212A}"), .string("éry"), .string("e\u{301}ry"), .string(""),
        .string("x"), .date(Date(timeIntervalSince1970: 0)), .array([]), .array([.string("x")]),
        .array([.string("y"), .int(1), .string("x")]), .array([.int(1), .null]), .array([.string("\u{212A}")]),
        .array([.string("K")]), .string("Ann"), .set([.string("x"), .int(2)]), .dictionary([:]),
        .dictionary(["name": .string("Ann")]), .dictionary(["y": .int(1)]),
    ]

    /// Roots: dictionaries holding each odd value under every key used,
    /// dictionaries missing the keys, and values that are not dictionaries.
    static let roots: [Value] = {
        var roots: [Value] = [.null, .nsNull, .int(3), .string("age"), .array([]), .dictionary([:])]
        for v in odd {
            roots.append(.dictionary(["age": v, "score": v, "name": v, "tags": v, "author": v]))
            roots.append(.dictionary(["age": v, "author": .dictionary(["name": v, "x": v])]))
            // More keys than the dictionary scan takes: looked up by hash.
            var big: [String: Value] = ["name": v, "tags": v, "author": .dictionary(["name": v])]
            for i in 0..<12 { big["k\(i)"] = .int(i) }
            roots.append(.dictionary(big))
        }
        // Keys only canonically equal to the ones looked up.
        roots.append(.dictionary(["\u{212A}": .int(1), "n\u{212A}": .string("x")]))
        return roots
    }()

    static let formats = [
        "age > 30", "age >= 30", "age < 30", "age <= 30", "age == 30", "age != 30", "age > 30.5", "age == 30.0",
        "age < -1e308", "name == 'ab'", "name != 'ab'", "name == 'abK'", "name == 'K'", "name == 'éry'",
        "name ==[n] 'ab'", "name BEGINSWITH 'ab'", "name BEGINSWITH[c] 'AB'", "name ENDSWITH[cd] 'ery'",
        "name CONTAINS[c] 'k'", "name CONTAINS ''", "ANY tags == 'x'", "ALL tags == 'x'", "ANY tags != 'x'",
        "NONE tags == 'x'", "ANY tags == 'K'", "author.name == 'Ann'", "author.name BEGINSWITH[c] 'an'",
        "author.x.y == 1", "K == 1", "nK == 'x'", "age > 30 AND name == 'ab' OR author.name == 'Ann'",
    ]

    static func outcome(_ test: () throws(EvaluationError) -> Bool) -> String {
        do { return try test() ? "true" : "false" } catch { return "error \(error.code)" }
    }

    @Test(arguments: formats)
    func dynamicAgreesWithGeneral(format: String) throws {
        let filter = try Filter(format)
        let fast = filter.compiled(paths: .fast)
        let general = Compiler(source: format, root: RootAccess<Value>.dynamic, paths: .generalOnly).predicate(filter.predicate)
        let scope = EvaluationScope(variables: [:])
        var answers = Set<String>()
        for root in Self.roots {
            let a = Self.outcome { () throws(EvaluationError) in try fast.evaluate(with: root) }
            let b = Self.outcome { () throws(EvaluationError) in try general(root, scope) }
            #expect(a == b, "\(format) on \(root)")
            answers.insert(b)
        }
        // Not vacuous: each predicate answers both ways over these roots.
        // (Except where the answer is always the same: an empty needle.)
        #expect(answers.contains("true") && answers.contains("false") || format.contains("''"), "\(format)")
    }
}
