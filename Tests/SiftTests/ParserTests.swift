import Foundation
import Testing

@testable import Sift

private func parse(_ format: String, _ args: any FormatArgumentConvertible...) throws -> PredicateNode {
    try FormatParser.parsePredicate(format, arguments: args.map(\.formatArgument))
}

private func canonical(_ format: String, _ args: any FormatArgumentConvertible...) throws -> String {
    FormatPrinter.format(try FormatParser.parsePredicate(format, arguments: args.map(\.formatArgument)))
}

struct ParserTests {
    @Test func comparisonTree() throws {
        let p = try parse("name BEGINSWITH[cd] 'ste'")
        #expect(p == .compare(.keyPath("name"), .beginsWith, .constant("ste"), options: [.caseInsensitive, .diacriticInsensitive]))
        #expect(p.range == SourceRange(0, 25))
    }

    @Test func keywordsAreCaseInsensitive() throws {
        #expect(try parse("a beginswith 'x' and b Contains 'y' Or not c like 'z'")
            == parse("a BEGINSWITH 'x' AND b CONTAINS 'y' OR NOT c LIKE 'z'"))
        #expect(try parse("a == yes") == parse("a == TRUE"))
        #expect(try parse("a == Null") == parse("a == nil"))
    }

    @Test(arguments: [
        ("a = 1", "a == 1"), ("a <> 1", "a != 1"), ("a =< 1", "a <= 1"), ("a => 1", "a >= 1"),
        ("a == 1 && b == 2", "a == 1 AND b == 2"), ("a == 1 || b == 2", "a == 1 OR b == 2"),
        ("!(a == 1)", "NOT a == 1"), ("NOT NOT a == 1", "NOT (NOT a == 1)"),
    ])
    func operatorSpellings(input: String, expected: String) throws {
        #expect(try canonical(input) == expected)
    }

    @Test func andBindsTighterThanOr() throws {
        let p = try parse("a == 1 OR b == 2 AND c == 3")
        guard case .or(let children) = p.kind else {
            Issue.record("expected OR at the top, got \(p)")
            return
        }
        #expect(children.count == 2)
        if case .and = children[1].kind {} else { Issue.record("expected AND on the right") }
    }

    @Test func chainsAreFlat() throws {
        let p = try parse("a == 1 OR b == 2 OR c == 3 OR d == 4")
        guard case .or(let children) = p.kind else { throw CancellationError() }
        #expect(children.count == 4)
    }

    @Test func arithmeticPrecedence() throws {
        // ** binds tighter than *, which binds tighter than +; all left-associative.
        let e = try FormatParser.parseExpression("1 + 2 * 3 ** 2")
        #expect(e == .function(.add, [.constant(1), .function(.multiply, [.constant(2), .function(.raise, [.constant(3), .constant(2)])])]))
        let sub = try FormatParser.parseExpression("10 - 2 - 3")
        #expect(sub == .function(.subtract, [.function(.subtract, [.constant(10), .constant(2)]), .constant(3)]))
        #expect(try canonical("(a + b) * c == 1") == "(a + b) * c == 1")
        #expect(try canonical("a - (b - c) == 1") == "a - (b - c) == 1")
        #expect(try canonical("a + b * c == 1") == "a + (b * c) == 1")
    }

    @Test func numbers() throws {
        #expect(try FormatParser.parseExpression("0x1F") == .constant(31))
        #expect(try FormatParser.parseExpression("0o17") == .constant(15))
        #expect(try FormatParser.parseExpression("0b101") == .constant(5))
        #expect(try FormatParser.parseExpression("2.5e2") == .constant(.double(250)))
        #expect(try FormatParser.parseExpression("-7") == .constant(-7))
        guard case .constant(.double) = try FormatParser.parseExpression("1e3").kind else {
            Issue.record("an exponent makes a double")
            return
        }
    }

    /// A decimal integer literal beyond 64 bits is read as the same number
    /// in JSON is: an exact decimal up to 38 significant digits, so that
    /// `a == 18446744073709551616` matches `{"a": 18446744073709551616}`
    /// (it was a double, which matched `a <` that number instead); beyond
    /// 38 digits the nearest double, as JSON gives; beyond a double's range
    /// an error, as in JSON.
    @Test func integerLiteralsBeyond64BitsAreExact() throws {
        let record = try JSONValue(parsing: #"{"a": 18446744073709551616, "b": -99999999999999999999999999999999999999}"#)
        #expect(try Filter("a == 18446744073709551616").evaluate(with: record.predicateValue))
        #expect(try !Filter("a < 18446744073709551616").evaluate(with: record.predicateValue))
        #expect(try !Filter("a == 18446744073709551617").evaluate(with: record.predicateValue))
        #expect(try Filter("b == -99999999999999999999999999999999999999").evaluate(with: record.predicateValue))
        #expect(try Filter("a == 00018446744073709551616").evaluate(with: record.predicateValue))
        for text in ["18446744073709551616", "-9223372036854775809", "99999999999999999999999999999999999999",
                     "-99999999999999999999999999999999999999", "1" + String(repeating: "0", count: 60)] {
            let json = try JSONValue(parsing: text).predicateValue
            #expect(try FormatParser.parseExpression(text) == .constant(json), "\(text)")
            guard case .decimal = json else {
                Issue.record("\(text) is not a decimal in JSON")
                continue
            }
            // Printed back digit for digit.
            #expect(try canonical("a == " + text) == "a == " + text)
        }
        // 39 significant digits (beyond the 128 bits of a Decimal's
        // significand): the nearest double, in JSON and here alike.
        let long = "987654321098765432109876543210987654321"
        #expect(try FormatParser.parseExpression(long) == .constant(try JSONValue(parsing: long).predicateValue))
        #expect(try FormatParser.parseExpression(long) == .constant(.double(Double(long)!)))
        let beyond = "1" + String(repeating: "0", count: 400)
        #expect(throws: JSONError.self) { try JSONValue(parsing: beyond) }
        #expect(throws: ParseError.self) { try parse("a == " + beyond) }
    }

    @Test func stringEscapes() throws {
        #expect(try FormatParser.parseExpression(#"'it\'s'"#) == .constant("it's"))
        #expect(try FormatParser.parseExpression(#""a\"b\n\t\\""#) == .constant("a\"b\n\t\\"))
        #expect(try FormatParser.parseExpression(#""\u00e9""#) == .constant("é"))
        #expect(try FormatParser.parseExpression(#""\ud83d\ude00""#) == .constant("😀"))
        #expect(try FormatParser.parseExpression("'café'") == .constant("café"))
    }

    @Test func keyPathsAndReservedWords() throws {
        #expect(try parse("author.name == 'x'") == .compare(.keyPath("author.name"), .equalTo, .constant("x")))
        #expect(try parse("SELF.name == 'x'") == parse("name == 'x'"))
        #expect(try parse("#IN == 1") == .compare(.keyPath("IN"), .equalTo, .constant(1)))
        #expect(try canonical("#AND == 2") == "#AND == 2")
        #expect(try canonical("ANDROID == 2") == "ANDROID == 2")
        #expect(try canonical("nums.@max.self == 4") == "nums.@max.self == 4")
    }

    @Test func modifiers() throws {
        #expect(try canonical("SOME tags == 'x'") == #"ANY tags == "x""#)
        #expect(try canonical("NONE tags == 'x'") == #"NOT ANY tags == "x""#)
        #expect(try canonical("ALL tags BEGINSWITH[c] 'x'") == #"ALL tags BEGINSWITH[c] "x""#)
    }

    @Test func optionsInAnyOrder() throws {
        #expect(try canonical("a CONTAINS[dc] 'x'") == #"a CONTAINS[cd] "x""#)
        #expect(try canonical("a LIKE[n] 'x'") == #"a LIKE[n] "x""#)
        #expect(try canonical("a MATCHES[cl] 'x'") == #"a MATCHES[cl] "x""#)
    }

    @Test func collectionsAndIndexing() throws {
        #expect(try canonical("tags[FIRST] == 'a' AND tags[last] == 'b' AND tags[SIZE] == 3 AND d['k'] == 1 AND nums[0] == 1")
            == #"tags[FIRST] == "a" AND tags[LAST] == "b" AND tags[SIZE] == 3 AND d["k"] == 1 AND nums[0] == 1"#)
        #expect(try canonical("age BETWEEN {1,2}") == "age BETWEEN {1, 2}")
        #expect(try canonical("a IN {1, b}") == "a IN {1, b}")
        #expect(try canonical("authors.@count > 2 AND @sum.nums == 3") == "authors.@count > 2 AND @sum.nums == 3")
    }

    @Test func functionsAndSpecialForms() throws {
        #expect(try canonical("sum:(nums) == 10 AND now() > d AND random() < 1") == "sum:(nums) == 10 AND now() > d AND random() < 1")
        #expect(try canonical("FUNCTION(name, 'lowercaseString') == 'x'") == #"FUNCTION(name, "lowercaseString") == "x""#)
        #expect(try canonical("TERNARY(a > 1, 'x', 'y') == 'x'") == #"TERNARY(a > 1, "x", "y") == "x""#)
        #expect(try canonical("SUBQUERY(authors, $a, $a.age > 30).@count > 0") == "SUBQUERY(authors, $a, $a.age > 30).@count > 0")
        #expect(try canonical("CAST(0, 'NSDate') < d") == #"CAST(0, "NSDate") < d"#)
        let cast = try FormatParser.parseExpression("CAST(60, 'NSDate')")
        #expect(cast == .constant(.date(Date(timeIntervalSinceReferenceDate: 60))))
    }

    @Test func formatArguments() throws {
        #expect(try canonical("name == %@ AND age > %d", "ste", 30) == #"name == "ste" AND age > 30"#)
        #expect(try canonical("%K == %@", "author.name", "x") == #"author.name == "x""#)
        #expect(try canonical("a IN %@", [1, 2]) == "a IN {1, 2}")
        #expect(try canonical("a == %@", Int?.none) == "a == nil")
        #expect(try canonical("a == %f", 1.5) == "a == 1.5")
        #expect(try canonical("a == %2$@ AND b == %1$@", "one", "two") == #"a == "two" AND b == "one""#)
        #expect(try canonical("a == '100%%'") == #"a == "100%%""#)
        #expect(try canonical("%@ == 'x'", ExpressionNode.keyPath("name")) == #"name == "x""#)
        let date = Date(timeIntervalSinceReferenceDate: 100)
        #expect(try canonical("d > %@", date) == #"d > CAST(100, "NSDate")"#)
    }

    @Test func extraArgumentsAreIgnoredUnlessAsked() throws {
        #expect(try canonical("a == %@", 1, 2) == "a == 1")
        let strict = ParseOptions(rejectsExtraArguments: true)
        #expect(throws: ParseError.self) {
            try FormatParser.parsePredicate("a == %@", arguments: [.value(1), .value(2)], options: strict)
        }
    }

    @Test func expressionEntryPoint() throws {
        let e = try ExpressionNode(format: "price * %@", 1.2)
        #expect(FormatPrinter.format(e) == "price * 1.2")
        #expect(try PredicateNode(format: "a == %d", 3) == .compare(.keyPath("a"), .equalTo, .constant(3)))
    }
}
