import Foundation
import Testing

@testable import Sift

// UNION, INTERSECT and MINUS at every stage, in the suites of those stages.

private func expression(_ format: String, _ args: any FormatArgumentConvertible...) throws -> ExpressionNode {
    try FormatParser.parseExpression(format, arguments: args.map(\.formatArgument))
}

private func rightOperand(_ format: String) throws -> ExpressionNode {
    let p = try FormatParser.parsePredicate(format)
    guard case .comparison(let c) = p.kind else { throw CancellationError() }
    return c.rhs
}

private let a = ExpressionNode.keyPath("a")
private let b = ExpressionNode.keyPath("b")
private let c = ExpressionNode.keyPath("c")

extension ParserTests {
    @Test func setExpressionIsTheRightOperandOfIn() throws {
        // realm-swift's PredicateUtilTests, run on Apple: A IN (B UNION C).
        let p = try FormatParser.parsePredicate("A IN B UNION C")
        #expect(p == .compare(.keyPath("A"), .in, .setOperation(.union, .keyPath("B"), .keyPath("C"))))
        #expect(try rightOperand("A IN B INTERSECT C") == .setOperation(.intersect, .keyPath("B"), .keyPath("C")))
        #expect(try rightOperand("A IN B MINUS C") == .setOperation(.minus, .keyPath("B"), .keyPath("C")))
        #expect(try rightOperand("A IN B union C") == rightOperand("A IN B UNION C"))
        #expect(try rightOperand("A IN B Minus C") == rightOperand("A IN B MINUS C"))
        #expect(try rightOperand("A IN B intersect C") == rightOperand("A IN B INTERSECT C"))
        #expect(try rightOperand("A IN B UNION C").range == SourceRange(5, 14))
    }

    @Test func setExpressionsBindLooserThanArithmeticAndGroupToTheLeft() throws {
        #expect(try expression("a + b UNION c") == .setOperation(.union, .function(.add, [a, b]), c))
        #expect(try expression("a UNION b + c") == .setOperation(.union, a, .function(.add, [b, c])))
        #expect(try expression("a | b MINUS c") == .setOperation(.minus, .function(.bitwiseOr, [a, b]), c))
        #expect(try expression("a UNION b MINUS c") == .setOperation(.minus, .setOperation(.union, a, b), c))
        #expect(try expression("a MINUS b INTERSECT c") == .setOperation(.intersect, .setOperation(.minus, a, b), c))
        #expect(try expression("a UNION (b MINUS c)") == .setOperation(.union, a, .setOperation(.minus, b, c)))
        #expect(try expression("(a UNION b).@count") == ExpressionNode(.path(.setOperation(.union, a, b), ["@count"])))
        // An assignment takes the whole set expression; a set expression
        // takes no assignment on its right.
        #expect(try expression("$s := a UNION b") == ExpressionNode(.assignment(variable: "s", .setOperation(.union, a, b))))
        #expect(throws: ParseError.self) { try expression("a UNION $s := b") }
        // A bracketed expression followed by a set operator is an expression,
        // not a bracketed predicate.
        let p = try FormatParser.parsePredicate("(a) UNION b CONTAINS 1")
        #expect(p == .compare(.setOperation(.union, a, b), .contains, .constant(1)))
    }

    @Test func setKeywordsAreReservedWords() throws {
        for word in ["union", "UNION", "Intersect", "minus"] {
            do {
                _ = try FormatParser.parsePredicate("\(word) == 1")
                Issue.record("\(word) parsed as a key")
            } catch {
                #expect(error.message == "'\(word)' is a reserved word; write #\(word) to use it as a key")
                #expect(error.range == SourceRange(0, word.utf8.count))
            }
        }
        #expect(try FormatParser.parsePredicate("#union == 1") == .compare(.keyPath("union"), .equalTo, .constant(1)))
        #expect(try FormatParser.parsePredicate("a.#minus == 1") == .compare(.keyPath("a.minus"), .equalTo, .constant(1)))
        #expect(throws: ParseError.self) { try FormatParser.parsePredicate("x IN a UNION") }
        #expect(throws: ParseError.self) { try FormatParser.parsePredicate("x IN UNION b") }
        #expect(throws: ParseError.self) { try FormatParser.parsePredicate("a.minus == 1") }
    }
}

extension PrinterTests {
    @Test(arguments: [
        ("A IN B UNION C", "A IN B UNION C"),
        ("a in b union c intersect d minus e", "a IN b UNION c INTERSECT d MINUS e"),
        ("x IN a UNION (b MINUS c)", "x IN a UNION (b MINUS c)"),
        ("x IN (a UNION b) MINUS c", "x IN a UNION b MINUS c"),
        ("x IN a + b UNION c", "x IN a + b UNION c"),
        ("x IN (a UNION b) + 1", "x IN (a UNION b) + 1"),
        ("x IN ($s := a) UNION b", "x IN ($s := a) UNION b"),
        ("x IN $s := a UNION b", "x IN $s := a UNION b"),
        ("(a UNION b).@count == 2", "(a UNION b).@count == 2"),
        ("x IN {1, 2} UNION {'a'}", #"x IN {1, 2} UNION {"a"}"#),
        ("#union IN #minus INTERSECT #Intersect", "#union IN #minus INTERSECT #Intersect"),
    ])
    func setExpressionsPrintAndReadBack(input: String, expected: String) throws {
        let p = try FormatParser.parsePredicate(input)
        let printed = FormatPrinter.format(p)
        #expect(printed == expected)
        #expect(try FormatParser.parsePredicate(printed) == p)
    }

    @Test func treeDumpShowsSetExpressions() throws {
        let dump = TreeDump.dump(try FormatParser.parsePredicate("x IN a UNION b"))
        #expect(dump.contains("UNION"))
        #expect(dump.contains("keyPath a") && dump.contains("keyPath b"))
    }
}

private let sets: Value = [
    "ints": [1, 2, 3], "more": [3, 4], "set": .set([2, 5]), "dict": ["k": 4, "j": 9], "absent": .null,
    "placeholder": .nsNull, "number": 7, "text": "abc", "mixed": [1.0, true, "a"],
]

private func value(_ format: String, on object: Value = sets) throws -> Value {
    try FormatParser.parseExpression(format).value(with: object)
}

extension EvaluationTests {
    @Test func setExpressionsMakeSets() throws {
        #expect(try value("ints UNION more") == .set([1, 2, 3, 4]))
        #expect(try value("ints INTERSECT more") == .set([3]))
        #expect(try value("ints MINUS more") == .set([1, 2]))
        #expect(try value("set UNION ints") == .set([1, 2, 3, 5]))
        // The right side may be a dictionary: its values.
        #expect(try value("more MINUS dict") == .set([3]))
        #expect(try value("ints UNION dict") == .set([1, 2, 3, 4, 9]))
        // Elements are equal as IN finds them equal: 1, 1.0 and YES are one.
        #expect(try value("mixed INTERSECT ints") == .set([1]))
        #expect(try value("{1} UNION {1.0, YES}") == .set([1]))
        // A nil right side is an empty collection.
        #expect(try value("ints UNION absent") == .set([1, 2, 3]))
        #expect(try value("ints INTERSECT absent") == .set([]))
        #expect(try value("ints MINUS nothing") == .set([1, 2, 3]))
        // Left to right.
        #expect(try value("ints UNION more MINUS {3}") == .set([1, 2, 4]))
        #expect(try value("ints UNION (more MINUS {3})") == .set([1, 2, 3, 4]))
    }

    @Test func setExpressionsInPredicates() throws {
        #expect(try Filter("4 IN ints UNION more").evaluate(with: sets))
        #expect(try !Filter("4 IN ints MINUS more").evaluate(with: sets))
        #expect(try Filter("(ints INTERSECT more).@count == 1").evaluate(with: sets))
        #expect(try Filter("ANY (ints MINUS more) > 1").evaluate(with: sets))
        #expect(try Filter("ints UNION more CONTAINS 4").evaluate(with: sets))
        // The same through the compiled and value-table paths.
        let rows: [Value] = [sets, ["ints": [9], "more": [], "number": 9]]
        #expect(try rows.filter(Filter("number IN ints UNION more").compiled()).count == 1)
        let table = ValueTable(rows)
        #expect(try table.count(where: Filter("number IN ints UNION more")) == 1)
    }

    @Test func setExpressionErrorsPointAtTheSetExpression() throws {
        let cases: [(String, String, SourceRange)] = [
            ("4 IN absent UNION ints", "UNION needs a set or an array on the left, not nil", SourceRange(5, 22)),
            ("4 IN dict INTERSECT ints", "INTERSECT needs a set or an array on the left, not a dictionary", SourceRange(5, 24)),
            ("4 IN number MINUS ints", "MINUS needs a set or an array on the left, not an integer", SourceRange(5, 22)),
            ("4 IN placeholder UNION ints", "UNION needs a set or an array on the left, not nil", SourceRange(5, 27)),
            ("4 IN ints UNION text", "UNION needs an array, a set or a dictionary on the right, not a string", SourceRange(5, 20)),
            ("4 IN ints MINUS placeholder", "MINUS needs an array, a set or a dictionary on the right, not nil", SourceRange(5, 27)),
        ]
        for (format, message, range) in cases {
            let error = evalError(format, on: sets)
            #expect(error?.code == .notACollection, "\(format)")
            #expect(error?.message == message, "\(format)")
            #expect(error?.range == range, "\(format)")
        }
    }

    @Test func setExpressionsCountTheirWork() throws {
        // The sides are hashed whole even when the set made is small, and a
        // variable's value is counted nowhere else: both sides are charged.
        let big = Value.array((0..<1000).map { .int($0) })
        var filter = try Filter("1 IN $A MINUS $A")
        #expect(try !filter.compiled().evaluate(with: .null, variables: ["A": big]))
        filter.evaluationBudget = 1500
        let error = try #require(throws: EvaluationError.self) {
            try filter.compiled().evaluate(with: .null, variables: ["A": big])
        }
        #expect(error.code == .limit)
        #expect(error.range == SourceRange(5, 16))
    }
}

extension CodableTests {
    @Test func setExpressionsRoundTripThroughJSON() throws {
        let p = try FormatParser.parsePredicate("x IN a UNION (b MINUS {1}) INTERSECT $c")
        let data = try JSONEncoder().encode(p)
        let decoded = try JSONDecoder().decode(PredicateNode.self, from: data)
        #expect(decoded == p)
        #expect(FormatPrinter.format(decoded) == "x IN a UNION (b MINUS {1}) INTERSECT $c")
        #expect(String(decoding: data, as: UTF8.self).contains(#""INTERSECT""#))
    }
}

extension SubstitutionTests {
    @Test func substitutesInsideSetExpressions() throws {
        let f = try Filter("x IN $A UNION b MINUS $C")
        #expect(f.variableNames == ["A", "C"])
        let bound = try f.substituting(["A": [1, 2], "C": [2]])
        #expect(bound.format == "x IN {1, 2} UNION b MINUS {2}")
        #expect(try bound.evaluate(with: ["x": 1, "b": [3]]))
        #expect(try !bound.evaluate(with: ["x": 2, "b": [3]]))
    }
}

extension PolicyTests {
    @Test func setExpressionsUseEverythingInBothSides() throws {
        // Hashing compares every element whole: `author` is not allowed,
        // only `author.name`.
        let left = try violation("title IN author UNION {'x'}")
        #expect(left?.part == .keyPath("author"))
        #expect(left?.range == SourceRange(9, 15))
        #expect(try violation("title IN {'x'} MINUS author")?.part == .keyPath("author"))
        #expect(try violation("title IN tags UNION {author.name} INTERSECT {'a'}") == nil)
    }
}
