import Foundation
import Testing

@testable import Sift

/// The families of the comparison operators (``OperatorFamily``): each
/// operator has its own, and what a family says of nil, of the operands'
/// order and of string searches is what the evaluator answers.
struct OperatorFamilyTests {
    static let values: [Value] = [
        .null, .int(1), .int(2), .double(1.5), .string("ab"), .string("abc"), .string("b"), .string("a*"),
        .array([.string("ab"), .int(1)]), .array([.int(1), .int(2)]),
    ]

    static func answer(_ a: Value, _ op: ComparisonOperator, _ b: Value) -> Bool? {
        try? Filter(.compare(.constant(a), op, .constant(b))).evaluate(with: Value.null)
    }

    @Test func everyOperatorHasItsOwnFamily() {
        let families = ComparisonOperator.standard.map(\.family)
        #expect(Set(families).count == families.count)
        #expect(ComparisonOperator.customSelector("hasPrefix:").family == .selector)
    }

    @Test func theConverseSaysTheSameWithTheSidesExchanged() {
        for op in ComparisonOperator.standard {
            guard let converse = op.converse else { continue }
            #expect(converse.converse == op, "\(op.symbol)")
            for a in Self.values {
                for b in Self.values where !(a.isNull && b.isNull) {
                    // CONTAINS on strings searches; its converse IN does too.
                    #expect(Self.answer(a, op, b) == Self.answer(b, converse, a), "\(a) \(op.symbol) \(b)")
                }
            }
        }
    }

    @Test func nilAnswersAsTheFamilySays() {
        for op in ComparisonOperator.standard {
            for b in Self.values where !b.isNull {
                let answer = Self.answer(.null, op, b)
                if op.family.isFalseForNilLeft, answer != nil { #expect(answer == false, "nil \(op.symbol) \(b)") }
                if op.family.isFalseForNilOperand {
                    #expect(answer != true, "nil \(op.symbol) \(b)")
                    #expect(Self.answer(b, op, .null) != true, "\(b) \(op.symbol) nil")
                }
            }
        }
    }

    @Test func stringSearchesAreTheFamilysKinds() {
        #expect(ComparisonOperator.beginsWith.family.stringSearch?.kind == .prefix)
        #expect(ComparisonOperator.endsWith.family.stringSearch?.kind == .suffix)
        #expect(ComparisonOperator.contains.family.stringSearch?.kind == .substring)
        #expect(ComparisonOperator.contains.family.stringSearch?.needleOnRight == true)
        #expect(ComparisonOperator.in.family.stringSearch?.needleOnRight == false)
        #expect(ComparisonOperator.like.family.stringSearch == nil)
        #expect(ComparisonOperator.like.family.costClass == .wildcards)
        #expect(ComparisonOperator.matches.family.costClass == .sizes)
    }
}

/// The error texts that name an operator take its symbol from the table
/// and read as they always have.
struct OperatorMessageTests {
    static func parseMessage(_ format: String) -> String? {
        do {
            _ = try FormatParser.parsePredicate(format, arguments: [])
            return nil
        } catch {
            return error.message
        }
    }

    static func evaluationMessage(_ format: String, _ object: Value) -> String? {
        guard let filter = try? Filter(format) else { return "not parsed" }
        do {
            _ = try filter.evaluate(with: object)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func parseErrorsNameTheTablesSymbols() {
        #expect(Self.parseMessage("a")?.hasPrefix("expected a comparison operator (==, !=, <, >, IN, CONTAINS, LIKE, …)") == true)
        #expect(Self.parseMessage("a ? b") == "'?' is not a token; write the wildcard inside a quoted LIKE pattern")
    }

    @Test func evaluationErrorsNameTheTablesSymbols() {
        let object = Value.dictionary(["s": .string("abc"), "n": .int(1)])
        let cases: [(String, String)] = [
            ("s BEGINSWITH n", "BEGINSWITH needs strings on both sides, got a string and an integer"),
            ("s ENDSWITH n", "ENDSWITH needs strings on both sides, got a string and an integer"),
            ("s LIKE n", "LIKE needs strings on both sides, got a string and an integer"),
            ("s MATCHES n", "MATCHES needs strings on both sides, got a string and an integer"),
            ("s CONTAINS n", "CONTAINS cannot look for an integer in a string"),
            ("n CONTAINS s", "CONTAINS needs a collection or a string on the left, not an integer"),
            ("s IN n", "IN needs a collection or a string on the right, not an integer"),
            ("n BETWEEN {1, 2, 3}", "BETWEEN needs exactly two bounds, got 3"),
            ("n BETWEEN 1", "BETWEEN needs a collection of two bounds, as in {1, 10}, not an integer"),
            ("n UTI-EQUALS s", "UTI-EQUALS needs type identifier strings"),
        ]
        for (format, message) in cases {
            #expect(Self.evaluationMessage(format, object) == message, "\(format)")
        }
    }
}
