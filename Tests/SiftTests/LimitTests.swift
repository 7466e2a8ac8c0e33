import Foundation
import Testing

@testable import Sift

/// Every limit of parsing and evaluation: its default, a way to change it,
/// the error past it (code, message and range), and input just under it
/// that works.
struct LimitTests {
    private func parseError(_ format: String, options: ParseOptions = .default) -> ParseError? {
        do {
            _ = try FormatParser.parsePredicate(format, options: options)
            return nil
        } catch {
            return error
        }
    }

    private func evaluationError(_ body: () throws -> Bool) -> EvaluationError? {
        do {
            _ = try body()
            return nil
        } catch let error as EvaluationError {
            return error
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    // MARK: - Parsing

    @Test func nestingDepth() throws {
        let options = ParseOptions(maximumDepth: 3)
        let under = "(((a == 1)))"
        #expect(try FormatParser.parsePredicate(under, options: options) == FormatParser.parsePredicate("a == 1"))
        let e = try #require(parseError("((((a == 1))))", options: options))
        #expect(e.code == .limit)
        #expect(e.message == "nesting is deeper than the limit of 3 levels")
        #expect(e.range == SourceRange(3, 4), "the first bracket too deep")
        #expect(ParseOptions.default.maximumDepth == 100)
    }

    /// Brackets that only group add no depth of their own: what parses
    /// written plainly parses written as Apple prints it (`NOT (NOT …)`,
    /// `((1 + 1) + 1) + 1`, `a AND (NOT (b AND (NOT …)))`), to the same
    /// tree. A group around an AND or OR still counts, for the compound
    /// inside it.
    @Test func groupsAddNoDepth() throws {
        let options = ParseOptions(maximumDepth: 6)
        let forms: [(plain: (Int) -> String, printed: (Int) -> String)] = [
            ({ String(repeating: "NOT ", count: $0) + "a == 1" },
             { String(repeating: "NOT (", count: $0 - 1) + "NOT a == 1" + String(repeating: ")", count: $0 - 1) }),
            ({ "a == " + Array(repeating: "1", count: $0 + 1).joined(separator: " + ") },
             { "a == " + String(repeating: "(", count: $0 - 1) + "1 + 1" + String(repeating: ") + 1", count: $0 - 1) }),
            ({ "a == 1" + String(repeating: " AND NOT (b == 1", count: $0) + String(repeating: ")", count: $0) },
             {
                "a == 1" + String(repeating: " AND (NOT (b == 1", count: $0 - 1) + " AND (NOT b == 1)"
                    + String(repeating: "))", count: $0 - 1)
             }),
            ({ "a == " + String(repeating: "1 * (1 + ", count: $0) + "1" + String(repeating: ")", count: $0) },
             { "a == " + String(repeating: "1 * (1 + (", count: $0 - 1) + "1 * (1 + 1)" + String(repeating: "))", count: $0 - 1) }),
            ({ "a == 1 OR b == 1 AND " + String(repeating: "NOT ", count: $0) + "c == 1" },
             {
                "a == 1 OR (b == 1 AND " + String(repeating: "(NOT ", count: $0) + "c == 1"
                    + String(repeating: ")", count: $0 + 1)
             }),
        ]
        var deepest: [Int] = []
        for (form, spellings) in forms.enumerated() {
            var accepted = 0
            for depth in 1...10 {
                guard let plain = try? FormatParser.parsePredicate(spellings.plain(depth), options: options)
                else { continue }
                let printed = try? FormatParser.parsePredicate(spellings.printed(depth), options: options)
                #expect(plain == printed, "form \(form) at depth \(depth): \(spellings.printed(depth))")
                accepted = depth
            }
            deepest.append(accepted)
        }
        // NOTs and operators take a level each; the third and fourth forms
        // take two a step (a NOT and the AND inside its group; `*` and `+`);
        // in the last, the AND inside the OR takes one.
        #expect(deepest == [6, 6, 3, 3, 5])
    }

    @Test func predicateLength() throws {
        let options = ParseOptions(maximumLength: 20)
        let under = "name == 'abcdefghij'"
        #expect(under.utf8.count == 20)
        #expect(parseError(under, options: options) == nil)
        let e = try #require(parseError("name == 'abcdefghijk'", options: options))
        #expect(e.code == .limit)
        #expect(e.message == "the format string is 21 bytes long; the limit is 20")
        #expect(e.range == SourceRange(20, 21), "the part past the limit")
        // The default: 1 MiB.
        let filler = String(repeating: "x", count: (1 << 20) - "name == ''".utf8.count)
        #expect(parseError("name == '\(filler)'") == nil)
        #expect(parseError("name == '\(filler)x'")?.code == .limit)
    }

    /// `SUBQUERY(items, $x1, SUBQUERY($x1.items, $x2, … $xN.v == 1).@count > 0).@count > 0`.
    static func nestedSubqueries(_ depth: Int) -> String {
        var format = "$x\(depth).v == 1"
        for level in stride(from: depth, through: 1, by: -1) {
            let collection = level == 1 ? "items" : "$x\(level - 1).items"
            format = "SUBQUERY(\(collection), $x\(level), \(format)).@count > 0"
        }
        return format
    }

    /// An object whose items nest `depth` levels, with `v == 1` at the bottom.
    private func nestedItems(_ depth: Int) -> Value {
        depth == 0 ? ["v": 1] : ["items": [nestedItems(depth - 1)]]
    }

    /// The range of the `n`th (1-based) `SUBQUERY` keyword in `format`.
    private func subqueryKeyword(_ n: Int, in format: String) -> SourceRange? {
        let bytes = Array(format.utf8)
        let keyword = Array("SUBQUERY".utf8)
        var seen = 0
        for start in 0...(bytes.count - keyword.count) where Array(bytes[start..<start + keyword.count]) == keyword {
            seen += 1
            if seen == n { return SourceRange(start, start + keyword.count) }
        }
        return nil
    }

    @Test func subqueryDepth() throws {
        #expect(ParseOptions.default.maximumSubqueryDepth == 8)
        // At the default limit: parses and evaluates.
        let eight = try Filter(Self.nestedSubqueries(8))
        #expect(try eight.evaluate(with: nestedItems(8)))
        #expect(try !eight.evaluate(with: nestedItems(9)))
        let nine = Self.nestedSubqueries(9)
        let e = try #require(parseError(nine))
        #expect(e.code == .limit)
        #expect(e.message == "SUBQUERY is nested deeper than the limit of 8 levels (ParseOptions.maximumSubqueryDepth)")
        #expect(e.range == subqueryKeyword(9, in: nine))
        // Configured.
        let options = ParseOptions(maximumSubqueryDepth: 2)
        #expect(parseError(Self.nestedSubqueries(2), options: options) == nil)
        let three = Self.nestedSubqueries(3)
        let configured = try #require(parseError(three, options: options))
        #expect(configured.code == .limit)
        #expect(configured.range == subqueryKeyword(3, in: three))
        // A SUBQUERY as the collection of another nests too; siblings do not.
        let inCollection = "SUBQUERY(SUBQUERY(SUBQUERY(items, $a, TRUEPREDICATE), $b, TRUEPREDICATE), $c, TRUEPREDICATE).@count > 0"
        #expect(parseError(inCollection, options: options)?.range == SourceRange(18, 26))
        let siblings = "SUBQUERY(items, $a, TRUEPREDICATE).@count > 0 AND SUBQUERY(items, $b, TRUEPREDICATE).@count > 0"
        #expect(parseError(siblings, options: ParseOptions(maximumSubqueryDepth: 1)) == nil)
        #expect(parseError("a == 1", options: ParseOptions(maximumSubqueryDepth: 0)) == nil)
    }

    // MARK: - Regular expressions

    @Test func regexPatternLength() throws {
        #expect(RegexLimits.default.maximumPatternLength == 10_000)
        let subject = Value.string(String(repeating: "a", count: 10_001))
        // At the default limit: compiles and matches.
        let under = try Filter("SELF MATCHES %@", String(repeating: "a", count: 10_000))
        #expect(try !under.evaluate(with: subject))
        #expect(try under.evaluate(with: .string(String(repeating: "a", count: 10_000))))
        let over = try Filter("SELF MATCHES %@", String(repeating: "a", count: 10_001))
        let e = try #require(evaluationError { try over.evaluate(with: subject) })
        #expect(e.code == .regexLimit)
        #expect(e.message == "the regular expression is 10001 bytes long; the limit is 10000 (RegexLimits.maximumPatternLength)")
        #expect(e.range == SourceRange(0, 15), "the comparison")
        // Configured, and also for a pattern that is not a constant.
        let limits = RegexLimits(maximumPatternLength: 5)
        let short = try Filter("SELF MATCHES 'ab.de'").compiled(regexLimits: limits)
        #expect(try short.evaluate(with: "abcde"))
        let long = try Filter("SELF MATCHES 'ab.def'").compiled(regexLimits: limits)
        #expect(evaluationError { try long.evaluate(with: "abcdef") }?.code == .regexLimit)
        let fromKey = try Filter("name MATCHES pattern").compiled(regexLimits: limits)
        #expect(try fromKey.evaluate(with: ["name": "abc", "pattern": "a.c"]))
        #expect(evaluationError { try fromKey.evaluate(with: ["name": "abcdef", "pattern": "abcde."]) }?.code == .regexLimit)
    }

    @Test func regexCompiledSize() throws {
        // Short, but too large for PCRE2 once compiled.
        let e = try #require(evaluationError { try Filter("SELF MATCHES '(?:ab){30000}'").evaluate(with: "ab") })
        #expect(e.code == .regexLimit)
        #expect(e.message.hasPrefix("the regular expression is too large to compile"))
        #expect(try Filter("SELF MATCHES '(?:ab){1000}'").evaluate(with: .string(String(repeating: "ab", count: 1000))))
    }

    @Test func catastrophicBacktracking() throws {
        #expect(RegexLimits.default.matchLimit == 10_000_000)
        // Exponential in the subject's length: without a limit, years.
        let subject = Value.string(String(repeating: "a", count: 64) + "!")
        let e = try #require(evaluationError { try Filter("SELF MATCHES '(a+)+$'").evaluate(with: subject) })
        #expect(e.code == .regexLimit)
        #expect(e.message == "the regular expression went over its limit of backtracking steps (RegexLimits.matchLimit)")
        #expect(e.range == SourceRange(0, 21), "the comparison")
        // The same pattern on a short subject is within the limit.
        #expect(try !Filter("SELF MATCHES '(a+)+$'").evaluate(with: "aaaaaaaaaa!"))
        // Configured: a linear match over 2000 characters takes more than 100 steps.
        let filter = try Filter("SELF MATCHES '(?:a|b)*'")
        let text = Value.string(String(repeating: "ab", count: 1000))
        #expect(try filter.evaluate(with: text))
        #expect(evaluationError { try filter.compiled(regexLimits: RegexLimits(matchLimit: 100)).evaluate(with: text) }?.code == .regexLimit)
    }

    @Test func backtrackingDepth() throws {
        #expect(RegexLimits.default.depthLimit == 100_000)
        let filter = try Filter("SELF MATCHES '(?:a|b)*'")
        // Each character leaves a backtracking point: 200 000 of them are over the default.
        let long = Value.string(String(repeating: "ab", count: 100_000))
        let e = try #require(evaluationError { try filter.evaluate(with: long) })
        #expect(e.code == .regexLimit)
        #expect(e.message == "the regular expression went over its limit of backtracking depth (RegexLimits.depthLimit)")
        let text = Value.string(String(repeating: "ab", count: 2_500))
        #expect(try filter.evaluate(with: text))
        let shallow = filter.compiled(regexLimits: RegexLimits(depthLimit: 1_000))
        #expect(evaluationError { try shallow.evaluate(with: text) }?.message.contains("depthLimit") == true)
        #expect(try shallow.evaluate(with: .string(String(repeating: "ab", count: 200))))
    }

    @Test func backtrackingMemory() throws {
        #expect(RegexLimits.default.heapLimit == 64 * 1024)
        let filter = try Filter("SELF MATCHES '(?:a|b)*'")
        let text = Value.string(String(repeating: "ab", count: 25_000))
        #expect(try filter.evaluate(with: text))
        let small = filter.compiled(regexLimits: RegexLimits(heapLimit: 64))
        let e = try #require(evaluationError { try small.evaluate(with: text) })
        #expect(e.code == .regexLimit)
        #expect(e.message == "the regular expression went over its memory limit (RegexLimits.heapLimit)")
    }

    @Test func typedFiltersTakeTheLimitsToo() throws {
        let filter = try Filter("title MATCHES 'abcdef'")
        let book = Book(title: "abcdef", year: 2000, authors: [], tags: [])
        let typed = filter.compiled(for: Book.self, regexLimits: RegexLimits(maximumPatternLength: 5))
        #expect(evaluationError { try typed.evaluate(with: book) }?.code == .regexLimit)
        #expect(try filter.compiled(for: Book.self).evaluate(with: book))
    }
}

/// Parsing a long key path is linear: each key after a dot was added by
/// copying the path so far (60,000 keys took 14.6 s). The lengths here took
/// seconds each before; the parser's length limit allows about 500,000 keys.
struct LongKeyPathTests {
    static let keys = 60_000
    static let path = Array(repeating: "a", count: keys).joined(separator: ".")

    @Test func plain() throws {
        let filter = try Filter(Self.path + " == 1")
        guard case .comparison(let c) = filter.predicate.kind, case .keyPath(let components) = c.lhs.kind else {
            Issue.record("not a key path comparison: \(filter.predicate)")
            return
        }
        #expect(components.count == Self.keys)
        #expect(c.lhs.range == SourceRange(0, Self.path.utf8.count))
        #expect(filter.format == Self.path + " == 1")
    }

    @Test func afterIndexAndVariable() throws {
        let indexed = try Filter("arr[0]." + Self.path + ".b[1].c == 1")
        guard case .comparison(let c) = indexed.predicate.kind,
            case .path(let base, let tail) = c.lhs.kind, tail == ["c"],
            case .index(let inner, _) = base.kind, case .path(let first, let keys) = inner.kind,
            case .index = first.kind
        else {
            Issue.record("unexpected tree: \(indexed.predicate)")
            return
        }
        #expect(keys.count == Self.keys + 1)
        let variable = try Filter("$x." + Self.path + " == 1")
        guard case .comparison(let v) = variable.predicate.kind, case .path(let root, let path) = v.lhs.kind else {
            Issue.record("unexpected tree: \(variable.predicate)")
            return
        }
        #expect(root.kind == .variable("x"))
        #expect(path.count == Self.keys)
        let x: Value = .dictionary(["b": 1])
        #expect(try !variable.evaluate(with: .dictionary([:]), variables: ["x": x]))
    }
}
