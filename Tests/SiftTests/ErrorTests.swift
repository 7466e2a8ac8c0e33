import Foundation
import Testing

@testable import Sift

private func error(_ format: String, _ args: [FormatArgument] = [], options: ParseOptions = .default) -> ParseError? {
    do {
        _ = try FormatParser.parsePredicate(format, arguments: args, options: options)
        return nil
    } catch {
        return error
    }
}

struct ErrorTests {
    @Test(arguments: [
        // format, start of the range, words the message must contain
        ("", 0, "empty"),
        ("a ==", 4, "expected an expression"),
        ("a == (1", 5, "never closed"),
        ("a == 1)", 6, "unmatched ')'"),
        ("a beginswith[x] 'b'", 13, "unknown option 'x'"),
        ("a == 'abc", 5, "unterminated string"),
        ("a == 'ab\ncd'", 5, "line break inside a quoted string"),
        ("a == \"ab\\\ncd\" OR b == 1", 5, "line break inside a quoted string"),
        ("a NOT IN {1}", 2, "NOT (x IN y)"),
        ("a BEGINSWTH 'x'", 2, "did you mean BEGINSWITH"),
        ("a == 1 b == 2", 7, "unexpected 'b'"),
        ("a < b < c", 6, "cannot be chained"),
        ("$ == 1", 0, "variable name"),
        ("a == 1.", 5, "digit after the decimal point"),
        ("a == 0x", 5, "digits after '0x'"),
        ("SUBQUERY(a, x, x == 1).@count == 0", 12, "must be a variable"),
        ("foo:(a) == 1", 0, "unknown function"),
        ("a ? 1", 2, "'?'"),
    ])
    func syntaxErrors(format: String, start: Int, words: String) throws {
        let e = try #require(error(format))
        #expect(e.code == .syntax)
        #expect(e.range.lowerBound == start, "\(e)")
        #expect(e.message.contains(words), "\(e.message)")
        #expect(!e.message.contains("\n"))
    }

    @Test func argumentErrorsPointAtTheSpecifier() throws {
        let missing = try #require(error("a == %@ AND b == %@", [.value(1)]))
        #expect(missing.code == .argument)
        #expect(missing.range == SourceRange(17, 19))
        let keyNotString = try #require(error("%K == 1", [.value(5)]))
        #expect(keyNotString.code == .argument)
        #expect(keyNotString.range == SourceRange(0, 2))
        let predicate = try #require(error("NOT (%@)", [.predicate(.truePredicate)]))
        #expect(predicate.code.stage == "bind" || predicate.code.stage == "parse")
    }

    @Test func wrongArgumentForATypeOrSelectorIsABindError() throws {
        #expect(error("CAST(x, %@) == 1", [.value(3)])?.code == .argument)
        #expect(error("FUNCTION(x, %@) == 1", [.value("")])?.code == .argument)
        #expect(error("CAST(x, 3) == 1")?.code == .syntax)
        #expect(error("CAST(x, %d) == 1", [.value(3)])?.code == .syntax)
        #expect(error("CAST(x, %@) == 1", [.value("NSNumber")]) == nil)
    }

    @Test func renderedWithACaret() throws {
        let e = try #require(error("name == (1"))
        #expect(e.rendered() == """
            error: this '(' is never closed: expected ')' (column 9)
             | name == (1
             |         ^
            """)
        let wide = try #require(error("a BEGINSWTH 'x'"))
        #expect(wide.rendered().hasSuffix(" | a BEGINSWTH 'x'\n |   ^~~~~~~~~"))
        #expect(wide.description.hasSuffix("(1:3)"))
    }

    /// A raw line feed inside quotes is refused, as Apple's parser refuses
    /// it ("Unable to parse the format string", WebDriverAgent#962;
    /// conformance case str-027): the error underlines the string up to the
    /// line break. Written `\n`, the line feed is part of the string; a raw
    /// tab or carriage return is too.
    @Test func lineBreakInsideQuotes() throws {
        let e = try #require(error("name == 'two\nlines'"))
        #expect(e.code == .syntax)
        #expect(e.range == SourceRange(8, 12))
        #expect(e.rendered() == #"""
            error: line break inside a quoted string; write it as \n (1:9)
             | name == 'two
             |         ^~~~
            """#)
        let filter = try Filter(#"name == 'two\nlines' AND note == "a\#tb\#rc""#)
        #expect(try filter == Filter("name == %@ AND note == %@", "two\nlines", "a\tb\rc"))
        #expect(try Filter(filter.format) == filter)
    }

    /// A position too large for an Int is an error at the specifier, not
    /// the next argument; positions start at 1.
    @Test func argumentPositionsOutOfRange() throws {
        let huge = try #require(error("a == %99999999999999999999$@ AND b == %@", [.value(1), .value(2)]))
        #expect(huge.code == .argument)
        #expect(huge.range == SourceRange(5, 28))
        #expect(huge.message == "the argument position in %99999999999999999999$@ is too large")
        // One past Int.max, and Int.max itself (no such argument either).
        #expect(error("a == %9223372036854775808$@", [.value(1)])?.range == SourceRange(5, 27))
        #expect(error("a == %9223372036854775807$@", [.value(1)])?.message
            == "missing format argument for %9223372036854775807$@: it needs argument 9223372036854775807 but 1 was given")
        let zero = try #require(error("a == %0$@", [.value(1)]))
        #expect(zero.range == SourceRange(5, 7))
        #expect(zero.message.hasPrefix("invalid format specifier '%0'"))
    }

    /// Characters a terminal acts on are shown as escapes in the message
    /// and the source line, and the caret stays under the range; the column
    /// counts characters of the source.
    @Test func renderingShowsControlCharactersAsEscapes() throws {
        let e = try #require(error("a\u{1B}]0;x\u{07} == \u{202E}b"))
        #expect(e.rendered() == #"""
            error: unexpected character '\u{1B}' (column 2)
             | a\u{1B}]0;x\u{7} == \u{202E}b
             |  ^~~~~~
            """#)
        let later = try #require(error("a == '\u{9B}\t' AND =="))
        #expect(later.description.hasSuffix("(1:15)"))
        #expect(later.rendered().hasSuffix(#" | a == '\u{9B} ' AND =="# + "\n" + " | " + String(repeating: " ", count: 19) + "^~"))
        #expect(TerminalText.visible("x\u{200D}y\u{200B}\n\t", keepingLayout: true) == "x\u{200D}y\\u{200B}\n\\u{9}")
        #expect(TerminalText.visible("\u{0}\u{7F}\u{2028}\u{2029}\u{2066}\u{FEFF}") == #"\u{0}\u{7F}\u{2028}\u{2029}\u{2066}\u{FEFF}"#)
    }

    @Test func renderingCountsCharactersNotBytes() throws {
        let e = try #require(error("name == 'café' AND =="))
        let lines = e.rendered().split(separator: "\n")
        // 'é' is two bytes but one column.
        #expect(lines.last == " |                    ^~")
    }

    @Test func multiLineInputShowsTheRightLine() throws {
        let e = try #require(error("a == 1 AND\nb == "))
        #expect(e.description.hasSuffix("(2:6)"))
        #expect(e.rendered().contains(" | b == \n"))
    }

    @Test func invalidUTF8() throws {
        let bytes: [UInt8] = Array("name == '".utf8) + [0xC3, 0x28] + Array("'".utf8)
        #expect {
            _ = try FormatParser.parsePredicate(utf8: bytes)
        } throws: { e in
            guard let e = e as? ParseError else { return false }
            return e.range.lowerBound == 9 && e.message.contains("UTF-8")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() throws {
        let depth = 100_000
        let format = String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        let e = try #require(error(format))
        #expect(e.code == .limit)
        #expect(e.range.lowerBound == 100)
        // Expressions nest too.
        let deepExpression = "a == " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(error(deepExpression)?.code == .limit)
        let deepAggregate = "a IN " + String(repeating: "{", count: depth) + String(repeating: "}", count: depth)
        #expect(error(deepAggregate)?.code == .limit)
        let manyNots = String(repeating: "NOT ", count: depth) + "a == 1"
        #expect(error(manyNots)?.code == .limit)
        let manyMinus = "a == " + String(repeating: "-", count: depth) + "b"
        #expect(error(manyMinus)?.code == .limit)
        let manySubscripts = "a" + String(repeating: "[0]", count: depth) + " == 1"
        #expect(error(manySubscripts)?.code == .limit)
        let longSum = "a == " + (0..<depth).map(String.init).joined(separator: " + ")
        #expect(error(longSum)?.code == .limit)
    }

    @Test func nestingAtTheLimitParsesAndPrints() throws {
        // 99 nested brackets inside the top level: 100 levels, accepted.
        let predicate = String(repeating: "(", count: 99) + "a == 1" + String(repeating: ")", count: 99)
        let expression = "a == " + String(repeating: "(", count: 99) + "1 + b" + String(repeating: ")", count: 99)
        let results = OnThread.run(stackSize: StackSize.bytes) {
            [predicate, expression].map { format in
                (try? FormatParser.parsePredicate(format)).map(FormatPrinter.format) ?? "error"
            }
        }
        #expect(results == ["a == 1", "a == 1 + b"])
        let over = String(repeating: "(", count: 101) + "a == 1" + String(repeating: ")", count: 101)
        #expect(error(over)?.code == .limit)
    }

    @Test func longOrChain() throws {
        let terms = (0..<5_000).map { "a == \($0)" }
        let p = try FormatParser.parsePredicate(terms.joined(separator: " OR "))
        guard case .or(let children) = p.kind else { throw CancellationError() }
        #expect(children.count == 5_000)
        #expect(FormatPrinter.format(p) == terms.joined(separator: " OR "))
    }

    @Test func inputLengthLimit() throws {
        let options = ParseOptions(maximumLength: 10)
        let e = try #require(error("name == 'a long string'", options: options))
        #expect(e.code == .limit)
    }
}

enum StackSize {
    /// A stack that holds the parser at the default depth limit, with room.
    /// Measured: a debug build takes up to 19 KiB of stack per bracket
    /// level (a release build much less); past what the thread has, the
    /// parser stops with a limit error (LimitSweepTests.smallStacks).
    #if DEBUG
        static let bytes = 16 << 20
    #else
        static let bytes = 1 << 20
    #endif
}
