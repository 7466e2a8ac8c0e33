import Foundation
import Testing

@testable import Sift

/// The operator tables (``ComparisonOperator``, ``CollectionOperator``,
/// ``OperatorTable``) against the language they describe: every operator
/// is read, printed, stored and read back as the table says, and the
/// parser and the printer group operators as its precedences say.
struct OperatorTableTests {
    /// Every spelling of every comparison operator, as the language has them
    /// (Apple's Predicate Format String Syntax), canonical spelling first.
    static let comparisonSpellings: [(ComparisonOperator, [String])] = [
        (.lessThan, ["<"]), (.lessThanOrEqualTo, ["<=", "=<"]), (.greaterThan, [">"]),
        (.greaterThanOrEqualTo, [">=", "=>"]), (.equalTo, ["==", "="]), (.notEqualTo, ["!=", "<>"]),
        (.matches, ["MATCHES"]), (.like, ["LIKE"]), (.beginsWith, ["BEGINSWITH"]), (.endsWith, ["ENDSWITH"]),
        (.in, ["IN"]), (.contains, ["CONTAINS"]), (.between, ["BETWEEN"]), (.utiConformsTo, ["UTI-CONFORMS-TO"]),
        (.utiEquals, ["UTI-EQUALS"]),
    ]

    @Test func everyComparisonOperatorIsInTheTable() {
        #expect(ComparisonOperator.standard == Self.comparisonSpellings.map(\.0))
        for (op, spellings) in Self.comparisonSpellings {
            #expect(op.spellings == spellings)
            #expect(op.symbol == spellings[0])
            guard case .builtin(let builtin) = op.entry else {
                Issue.record("\(op) has no row")
                continue
            }
            #expect(builtin.row.op == op)
        }
    }

    /// Each operator, in each spelling (and words in lower case), parses to
    /// the operator, prints its canonical spelling, reads back as the same
    /// tree, and goes through JSON under its canonical name.
    @Test(arguments: comparisonSpellings.map { $0.0 })
    func comparisonOperatorRoundTrips(op: ComparisonOperator) throws {
        let rhs = op == .between ? "{1, 2}" : "b"
        let printed = "a \(op.symbol) \(rhs)"
        var written = op.spellings
        written += op.spellings.filter { $0.first?.isLetter == true }.map { $0.lowercased() }
        for spelling in written {
            let p = try FormatParser.parsePredicate("a \(spelling) \(rhs)")
            guard case .comparison(let c) = p.kind else {
                Issue.record("\(spelling) is not a comparison")
                continue
            }
            #expect(c.op == op, "\(spelling)")
            #expect(FormatPrinter.format(p) == printed)
            #expect(try FormatParser.parsePredicate(FormatPrinter.format(p)) == p)
        }
        let p = try FormatParser.parsePredicate(printed)
        let json = try JSONEncoder().encode(p)
        #expect(try JSONDecoder().decode(PredicateNode.self, from: json) == p)
        let name = try JSONDecoder().decode(String.self, from: try JSONEncoder().encode(op))
        #expect(name == op.symbol)
        #expect(try JSONDecoder().decode(ComparisonOperator.self, from: JSONEncoder().encode(name)) == op)
    }

    /// Options are read, printed and decoded on the operators whose row
    /// takes them, and refused on the others.
    @Test(arguments: comparisonSpellings.map { $0.0 })
    func comparisonOperatorOptions(op: ComparisonOperator) throws {
        let rhs = op == .between ? "{1, 2}" : "b"
        let withOptions = "a \(op.symbol)[cd] \(rhs)"
        if op.takesOptions {
            // Apple's four, and [s] where Swift's string semantics apply.
            let apple: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive]
            let swift = [ComparisonOperator.like, .matches, .utiConformsTo, .utiEquals].contains(op) ? [] : ComparisonOptions.swiftString
            #expect(op.acceptedOptions == apple.union(swift))
            let p = try FormatParser.parsePredicate(withOptions)
            #expect(FormatPrinter.format(p) == withOptions)
            #expect(try JSONDecoder().decode(PredicateNode.self, from: JSONEncoder().encode(p)) == p)
        } else {
            #expect(op.acceptedOptions.isEmpty)
            #expect(throws: ParseError.self) { try FormatParser.parsePredicate(withOptions) }
            let plain = try FormatParser.parsePredicate("a \(op.symbol) \(rhs)")
            guard case .comparison(var c) = plain.kind else { return }
            c.options = .caseInsensitive
            let json = try JSONEncoder().encode(PredicateNode(.comparison(c)))
            #expect(throws: DecodingError.self) { try JSONDecoder().decode(PredicateNode.self, from: json) }
        }
    }

    @Test func customSelectorsAreNotInTheTable() throws {
        let op = ComparisonOperator.customSelector("hasPrefix:")
        #expect(op.symbol == "hasPrefix:")
        #expect(!op.takesOptions)
        #expect(try JSONDecoder().decode(ComparisonOperator.self, from: JSONEncoder().encode(op)) == op)
        #expect(ComparisonOperator(symbol: "LIKE") == .like)
        #expect(ComparisonOperator(symbol: "like:") == .customSelector("like:"))
    }
}

// MARK: - Collection operators

/// ``CollectionOperator``'s table against the operators of key-value coding.
struct CollectionOperatorTableTests {
    /// Each collection operator on `nums` = [3, 1, nil, 3] and on `lists` =
    /// [[1, 2], [2]], as the Key-Value Coding guide describes them (nil counts
    /// as 0 in @avg's denominator).
    static let collectionResults: [(String, String, Value)] = [
        ("@count", "nums.@count", .int(4)),
        ("@sum", "nums.@sum.self", .int(7)),
        ("@avg", "nums.@avg.self", .double(7.0 / 4)),
        ("@min", "nums.@min.self", .int(1)),
        ("@max", "nums.@max.self", .int(3)),
        ("@unionOfObjects", "nums.@unionOfObjects.self", .array([.int(3), .int(1), .int(3)])),
        ("@distinctUnionOfObjects", "nums.@distinctUnionOfObjects.self", .array([.int(3), .int(1)])),
        ("@unionOfArrays", "lists.@unionOfArrays.self", .array([.int(1), .int(2), .int(2)])),
        ("@distinctUnionOfArrays", "lists.@distinctUnionOfArrays.self", .array([.int(1), .int(2)])),
        ("@distinctUnionOfSets", "lists.@distinctUnionOfSets.self", .set([.int(1), .int(2)])),
    ]

    @Test func everyCollectionOperatorIsInTheTable() {
        #expect(CollectionOperator.allCases.map(\.name) == Self.collectionResults.map(\.0))
    }

    /// Each operator is read by the lexer, prints as written, and evaluates
    /// as the guide says.
    @Test(arguments: collectionResults.map { $0.1 })
    func collectionOperatorEvaluates(format: String) throws {
        let expected = try #require(Self.collectionResults.first { $0.1 == format }?.2)
        let e = try FormatParser.parseExpression(format)
        #expect(FormatPrinter.format(e) == format)
        let object = Value.dictionary([
            "nums": .array([.int(3), .int(1), .null, .int(3)]),
            "lists": .array([.array([.int(1), .int(2)]), .array([.int(2)])]),
        ])
        let f = try Filter("\(format) == %@", expected)
        #expect(try f.evaluate(with: object), "\(format)")
    }

    @Test func unknownCollectionOperatorListsTheTable() {
        do {
            _ = try FormatParser.parseExpression("nums.@median.self")
            Issue.record("@median parsed")
        } catch {
            let names = CollectionOperator.allCases.map(\.name).joined(separator: ", ")
            #expect(error.message == "unknown collection operator '@median'; expected one of \(names)")
        }
    }

    /// A key that starts with `@` is a collection operator wherever it is
    /// (first in the path or after a key), for the evaluator and the policy
    /// alike, as KVC takes any key path starting with `@`: a combining mark
    /// after the `@` (which makes `@` and the mark one Swift `Character`)
    /// does not make it a plain key.
    @Test func atSignStartsAnOperatorEverywhere() throws {
        let key = "@\u{301}x"
        let object = Value.dictionary([key: .int(1), "a": .dictionary([key: .int(1)])])
        for format in ["%K == 1", "a.%K == 1"] {
            let f = try Filter(format, key)
            #expect(throws: EvaluationError.self, "\(format)") { try f.evaluate(with: object) }
            var policy = PredicatePolicy.unrestricted
            policy.allowsCollectionOperators = false
            #expect(throws: PolicyViolation.self, "\(format)") { try policy.check(f) }
        }
    }
}

// MARK: - Precedence

/// ``OperatorTable`` against the grammar: the levels are the documented
/// ones, the parser groups every pair of operators as their levels say, and
/// the printer's brackets read back as the same tree.
struct PrecedenceTableTests {
    @Test func levelsAreTheGrammars() {
        var levels: [[String]] = []
        var last: Precedence?
        for op in OperatorTable.infix.sorted(by: { $0.precedence < $1.precedence }) {
            if op.precedence == last { levels[levels.count - 1].append(op.spelling) } else { levels.append([op.spelling]) }
            last = op.precedence
        }
        #expect(levels == [["UNION", "INTERSECT", "MINUS"], ["|"], ["^"], ["&"], ["<<", ">>"], ["+", "-"], ["*", "/"], ["**"]])
        #expect(OperatorTable.infix.allSatisfy { $0.associativity == .left })
        #expect(Precedence.or < .and && Precedence.and < .not && Precedence.not < .comparison)
        #expect(Precedence.comparison < OperatorTable.loosestInfix)
    }

    static let pairs: [(String, String)] = OperatorTable.infix.flatMap { a in OperatorTable.infix.map { (a.spelling, $0.spelling) } }

    /// `x A y B z` groups to the left when A binds at least as tightly as
    /// B, else to the right; printed, it reads back as the same tree.
    @Test func everyPairGroupsByTheTable() throws {
        for (a, b) in Self.pairs {
            let first = try #require(OperatorTable.infix.first { $0.spelling == a })
            let second = try #require(OperatorTable.infix.first { $0.spelling == b })
            let e = try FormatParser.parseExpression("x \(a) y \(b) z")
            let (outer, left, right) = try #require(Self.split(e))
            if first.precedence >= second.precedence {
                #expect(outer == second.node && Self.split(left)?.0 == first.node && Self.split(right) == nil, "\(a) \(b)")
            } else {
                #expect(outer == first.node && Self.split(right)?.0 == second.node && Self.split(left) == nil, "\(a) \(b)")
            }
            #expect(try FormatParser.parseExpression(FormatPrinter.format(e)) == e, "\(a) \(b)")
        }
    }

    /// AND binds tighter than OR, NOT tighter than AND, whichever comes
    /// first; a compound inside a compound prints in brackets.
    @Test func connectivesGroupByTheTable() throws {
        let cases = [
            ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
            ("a == 1 AND b == 2 OR c == 3", "(a == 1 AND b == 2) OR c == 3"),
            ("NOT a == 1 AND b == 2", "(NOT a == 1) AND b == 2"),
            ("a == 1 OR NOT b == 2", "a == 1 OR (NOT b == 2)"),
            ("NOT NOT a == 1", "NOT (NOT a == 1)"),
        ]
        for (input, printed) in cases {
            let p = try FormatParser.parsePredicate(input)
            #expect(FormatPrinter.format(p) == printed)
            #expect(try FormatParser.parsePredicate(printed) == p)
        }
    }

    /// The operator of a binary node and its operands.
    static func split(_ e: ExpressionNode) -> (InfixOperator.Node, ExpressionNode, ExpressionNode)? {
        switch e.kind {
        case .function(let f, let arguments) where arguments.count == 2 && OperatorTable.infix(f) != nil:
            return (.function(f), arguments[0], arguments[1])
        case .setOperation(let operation, let left, let right):
            return (.set(operation), left, right)
        default:
            return nil
        }
    }
}

// MARK: - Built-in functions

/// ``BuiltinFunction``'s table against NSExpression's functions: every
/// function is read in each of its forms, prints as the table says, goes
/// through JSON under its selector, is allowed or refused by the policy as
/// its row says, and costs no more than its estimate.
struct BuiltinFunctionTableTests {
    /// Every function as Apple documents them (NSExpression's
    /// `expressionForFunction:arguments:`, Predicate Programming Guide): the
    /// selector, the operator that builds it if one does, and whether a
    /// predicate from an untrusted client may use it.
    static let functions: [(selector: String, op: String?, untrusted: Bool)] = [
        ("sum:", nil, true), ("count:", nil, true), ("min:", nil, true), ("max:", nil, true),
        ("average:", nil, true), ("median:", nil, false), ("mode:", nil, false), ("stddev:", nil, false),
        ("add:to:", "+", true), ("from:subtract:", "-", true), ("multiply:by:", "*", true),
        ("divide:by:", "/", true), ("modulus:by:", nil, true), ("raise:toPower:", "**", false),
        ("sqrt:", nil, false), ("log:", nil, false), ("ln:", nil, false), ("exp:", nil, false),
        ("floor:", nil, true), ("ceiling:", nil, true), ("abs:", nil, true), ("trunc:", nil, true),
        ("random", nil, false), ("randomn:", nil, false), ("now", nil, false),
        ("lowercase:", nil, true), ("uppercase:", nil, true), ("length:", nil, true),
        ("bitwiseAnd:with:", "&", false), ("bitwiseOr:with:", "|", false), ("bitwiseXor:with:", "^", false),
        ("leftshift:by:", "<<", false), ("rightshift:by:", ">>", false), ("onesComplement:", "~", false),
        ("noindex:", nil, false), ("distinct:", nil, false),
    ]

    @Test func everyFunctionIsInTheTable() {
        #expect(BuiltinFunction.allCases.map(\.selector) == Self.functions.map(\.selector))
        // A one-part selector may be called by its name alone.
        #expect(BuiltinFunction.sqrt.spellings == ["sqrt:", "sqrt"])
        #expect(BuiltinFunction.now.spellings == ["now"])
        #expect(BuiltinFunction.add.spellings == ["add:to:"])
        for (selector, op, untrusted) in Self.functions {
            guard let f = BuiltinFunction(selector: selector) else {
                Issue.record("\(selector) has no row")
                continue
            }
            #expect(f.arity == selector.filter { $0 == ":" }.count, "\(selector)")
            #expect((OperatorTable.infix(f)?.spelling ?? f.row.prefix?.spelling) == op, "\(selector)")
            #expect(f.isAllowedForUntrusted == untrusted, "\(selector)")
            switch f.sql {
            case .refused(let reason):
                #expect(!reason.isEmpty && ArithmeticOperator(f) == nil, "\(selector) is refused")
            case .exact(let operands):
                // + - * / lower where exact (ArithmeticSQLTests), the other
                // functions too (FunctionSQLTests).
                #expect(!operands.isEmpty, "\(selector) lowers")
            }
        }
    }

    /// An argument of the kind a function needs.
    static func argument(_ f: BuiltinFunction) -> String {
        switch f.operands {
        case .none: return ""
        case .collection, .numbersIn, .any: return "nums"
        case .numbers, .integers: return "x"
        case .string: return "name"
        }
    }

    /// The forms a function may be written in, and the one it prints as.
    static func forms(_ f: BuiltinFunction) -> (written: [String], printed: String) {
        let arguments = [String](repeating: argument(f), count: f.arity).joined(separator: ", ")
        var written = f.spellings.map { "\($0)(\(arguments))" }
        if let prefix = f.row.prefix { written.append(prefix.spelling + argument(f)) }
        if let op = OperatorTable.infix(f) {
            let printed = "\(argument(f)) \(op.spelling) \(argument(f))"
            return (written + [printed], printed)
        }
        if let prefix = f.row.prefix, f.arity == 1 { return (written, prefix.spelling + argument(f)) }
        return (written, written[0])
    }

    /// Each function, in each of its forms, parses to the function, prints
    /// in its canonical form, reads back as the same tree and goes through
    /// JSON under its selector; a wrong number of arguments is a parse
    /// error.
    @Test(arguments: BuiltinFunction.allCases)
    func functionRoundTrips(f: BuiltinFunction) throws {
        let (written, printed) = Self.forms(f)
        for form in written {
            let e = try FormatParser.parseExpression(form)
            guard case .function(let parsed, _) = e.kind else {
                Issue.record("\(form) is not a function")
                continue
            }
            #expect(parsed == f, "\(form)")
            if form.hasPrefix("-") { continue }  // -x prints as itself, `from:subtract:(0, x)` as 0 - x.
            #expect(FormatPrinter.format(e) == printed, "\(form)")
            #expect(try FormatParser.parseExpression(FormatPrinter.format(e)) == e, "\(form)")
            #expect(try JSONDecoder().decode(ExpressionNode.self, from: JSONEncoder().encode(e)) == e, "\(form)")
        }
        #expect(try JSONDecoder().decode(String.self, from: JSONEncoder().encode(f)) == f.selector)
        let extra = [String](repeating: "x", count: f.arity + 1).joined(separator: ", ")
        #expect(throws: ParseError.self) { try FormatParser.parseExpression("\(f.selector)(\(extra))") }
    }

    /// The untrusted policy allows the functions its rows allow, and
    /// refuses the others naming them (the operator, for those an operator
    /// builds); a policy that lists no function refuses every one.
    @Test(arguments: BuiltinFunction.allCases)
    func policyNamesEveryFunction(f: BuiltinFunction) throws {
        let (written, _) = Self.forms(f)
        let filter = try Filter("\(written.last ?? "") == 1")
        let untrusted = PredicatePolicy.untrusted(keyPaths: ["nums", "x", "name"])
        let named = OperatorTable.infix(f).map { "the operator \($0.spelling)" } ?? "the function \(f.selector)"
        var none = PredicatePolicy.unrestricted
        none.functions = []
        for policy in [untrusted, none] {
            do throws(PolicyViolation) {
                try policy.check(filter)
                #expect(f.isAllowedForUntrusted && policy == untrusted, "\(filter.format)")
            } catch {
                #expect(!f.isAllowedForUntrusted || policy == none, "\(filter.format)")
                #expect(error.part == .function(f.selector))
                #expect(error.message == named + " is not allowed")
            }
        }
    }

    /// An object with an argument of each kind: `ΐb` upper-cases to six
    /// bytes and a letter, more than three times the input's size.
    static let object: [String: Value] = [
        "nums": .array((0..<200).map { .int($0 % 7) }), "x": 3, "name": .string(String(repeating: "ΐb", count: 300)),
    ]

    /// What each function gives is no larger than the cost model's bound for
    /// it, which its row's result kind decides; and a filter that calls it,
    /// compared with itself, stays within its cost estimate.
    @Test(arguments: BuiltinFunction.allCases)
    func functionStaysWithinItsEstimate(f: BuiltinFunction) throws {
        let key = Self.argument(f)
        let call = "\(f.selector)(\([String](repeating: key, count: f.arity).joined(separator: ", ")))"
        let object = Value.dictionary(Self.object)
        let n = WorkBudget.size(object, cap: .max)
        let arguments = [Value](repeating: Self.object[key] ?? .null, count: f.arity)
        if let value = try? Functions.call(f, arguments) {
            let bound = CostModel().size(try FormatParser.parseExpression(call))
            #expect(WorkBudget.size(value, cap: .max) <= CostEstimate(bound.coefficients).units(forInputSize: n), "\(call)")
        }
        let filter = try Filter("\(call) == \(call)")
        let units = filter.costEstimate.units(forInputSize: n)
        #expect(!CostEstimateTests.runsOut(filter, object, budget: units), "\(call): \(filter.costEstimate)")
    }
}

// MARK: - Options and modifiers

/// ``ComparisonOptions``' table against the option letters of the language.
struct ComparisonOptionsTableTests {
    /// Apple's options: the letter, the option and its raw value (also its
    /// value in JSON).
    static let options: [(String, ComparisonOptions, Int)] = [
        ("c", .caseInsensitive, 1), ("d", .diacriticInsensitive, 2), ("n", .normalized, 4), ("l", .localeSensitive, 8),
    ]

    /// Sift's own option, after Apple's.
    static let swift: (String, ComparisonOptions, Int) = ("s", .swiftString, 16)

    @Test func everyOptionIsInTheTable() {
        let every = Self.options + [Self.swift]
        #expect(ComparisonOptions.table.map(\.option) == every.map(\.1))
        #expect(ComparisonOptions.table.map { String(Unicode.Scalar($0.letter)) } == every.map(\.0))
        #expect(every.allSatisfy { $0.1.rawValue == $0.2 })
        #expect(ComparisonOptions.all == ComparisonOptions(Self.options.map(\.1)))
        #expect(ComparisonOptions.all.rawValue == 15)
        #expect(ComparisonOptions.known == ComparisonOptions(ComparisonOptions.table.map(\.option)))
    }

    /// `[s]` stands alone, and follows only the operators that compare or
    /// search strings; it reads back, and goes through JSON as 16.
    @Test func swiftStringOption() throws {
        for op in ["==", "!=", "<", "<=", ">", ">=", "IN", "CONTAINS", "BEGINSWITH", "ENDSWITH"] {
            let p = try FormatParser.parsePredicate("a \(op)[S] b")
            #expect(FormatPrinter.format(p) == "a \(op)[s] b")
            #expect(try JSONDecoder().decode(PredicateNode.self, from: JSONEncoder().encode(p)) == p)
        }
        for (format, message, start) in [
            ("a LIKE[s] 'x'", "LIKE takes no [s] option", 6),
            ("a MATCHES[s] 'x'", "MATCHES takes no [s] option", 9),
            ("a ==[cs] 'x'", "[s] (Swift's string semantics) takes no other option", 4),
            ("a BETWEEN[s] {1, 2}", "BETWEEN takes no options", 9),
        ] {
            do {
                _ = try FormatParser.parsePredicate(format)
                Issue.record("\(format) parsed")
            } catch {
                #expect(error.message == message, "\(format)")
                #expect(error.range.lowerBound == start, "\(format)")
            }
        }
        var c = Comparison(ExpressionNode(.keyPath(["a"])), .like, ExpressionNode(.constant(.string("x"))))
        for (raw, message) in [(16, "LIKE takes no [s] option"), (17, "[s] (Swift's string semantics) takes no other option")] {
            c.op = raw == 16 ? .like : .equalTo
            c.options = ComparisonOptions(rawValue: raw)
            do {
                _ = try JSONDecoder().decode(PredicateNode.self, from: JSONEncoder().encode(PredicateNode(.comparison(c))))
                Issue.record("options \(raw) decoded")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.debugDescription == message)
            }
        }
    }

    /// Every combination, written in any order and case, is read, prints
    /// its letters in the table's order, and goes through JSON as its raw
    /// value.
    @Test func everyCombinationRoundTrips() throws {
        for mask in 1..<16 {
            let chosen = Self.options.filter { mask & $0.2 != 0 }
            let written = chosen.reversed().map { mask % 3 == 0 ? $0.0.uppercased() : $0.0 }.joined()
            let p = try FormatParser.parsePredicate("a CONTAINS[\(written)] b")
            guard case .comparison(let c) = p.kind else {
                Issue.record("\(written) is not a comparison")
                continue
            }
            #expect(c.options.rawValue == mask, "\(written)")
            #expect(FormatPrinter.format(p) == "a CONTAINS[\(chosen.map(\.0).joined())] b")
            let json = String(decoding: try JSONEncoder().encode(c.options), as: UTF8.self)
            #expect(json == "\(mask)")
            #expect(try JSONDecoder().decode(PredicateNode.self, from: JSONEncoder().encode(p)) == p)
        }
    }

    /// The messages for a wrong option name the table's letters.
    @Test func wrongOptionsListTheTable() throws {
        for (format, message) in [
            ("a == [x] b", "unknown option 'x'; options are c (case-insensitive), d (diacritic-insensitive), "
                + "n (normalized), l (locale-sensitive) and s (Swift's string semantics)"),
            ("a ==[cx] b", "unknown option 'cx'; options are c (case-insensitive), d (diacritic-insensitive), "
                + "n (normalized), l (locale-sensitive) and s (Swift's string semantics)"),
            ("a == [] b", "expected option letters (c, d, n, l, s) inside '[]'"),
        ] {
            #expect(throws: ParseError.self) { try FormatParser.parsePredicate(format) }
            do { _ = try FormatParser.parsePredicate(format) } catch { #expect(error.message == message) }
        }
        var c = Comparison(ExpressionNode(.keyPath(["a"])), .contains, ExpressionNode(.keyPath(["b"])))
        c.options = ComparisonOptions(rawValue: 32)
        let json = try JSONEncoder().encode(PredicateNode(.comparison(c)))
        do {
            _ = try JSONDecoder().decode(PredicateNode.self, from: json)
            Issue.record("an unknown option decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "options are [c], [d], [n], [l] and [s] (raw values 1, 2, 4, 8, 16)")
        }
    }
}

/// ``ComparisonModifier``'s table against the modifier words.
struct ComparisonModifierTableTests {
    /// The words, what each makes of `a == 1`, and how that prints.
    static let words: [(String, ComparisonModifier, negated: Bool, printed: String)] = [
        ("ANY", .any, false, "ANY a == 1"), ("SOME", .any, false, "ANY a == 1"), ("ALL", .all, false, "ALL a == 1"),
        ("NONE", .any, true, "NOT ANY a == 1"),
    ]

    @Test func everyWordIsInTheTable() {
        #expect(ComparisonModifier.words == Self.words.map(\.0))
        #expect(ComparisonModifier.allCases.map(\.rawValue) == ["direct", "any", "all"])
        #expect(ComparisonModifier.allCases.map(\.keyword) == [nil, "ANY", "ALL"])
    }

    /// Each word, in any case, is a reserved word, gives its modifier
    /// (and NOT for NONE), prints as the table says, reads back and goes
    /// through JSON under the modifier's name.
    @Test func everyWordRoundTrips() throws {
        for (word, modifier, negated, printed) in Self.words {
            #expect(Lexer.isReserved(word) && Lexer.isReserved(word.lowercased()), "\(word)")
            for spelling in [word, word.lowercased()] {
                let p = try FormatParser.parsePredicate("\(spelling) a == 1")
                var inner = p
                if case .not(let child) = p.kind, negated { inner = child }
                guard case .comparison(let c) = inner.kind else {
                    Issue.record("\(spelling) is not a comparison")
                    continue
                }
                #expect(c.modifier == modifier, "\(spelling)")
                #expect(FormatPrinter.format(p) == printed, "\(spelling)")
                #expect(try FormatParser.parsePredicate(printed) == p, "\(spelling)")
                let json = String(decoding: try JSONEncoder().encode(p), as: UTF8.self)
                #expect(json.contains("\"modifier\":\"\(modifier.rawValue)\""), "\(json)")
                #expect(try JSONDecoder().decode(PredicateNode.self, from: JSONEncoder().encode(p)) == p)
            }
        }
    }
}

// MARK: - Symbols

/// The lexer's character switch against ``OperatorTable/symbols``: every
/// operator spelled with symbols lexes to its token, and no other run of
/// operator characters lexes to an operator.
struct SymbolLexingTests {
    /// Every operator the language spells with symbols (Apple's Predicate
    /// Format String Syntax, and C's for arithmetic and bitwise ones).
    static let spellings: Set<String> = [
        "<", "<=", "=<", ">", ">=", "=>", "==", "=", "!=", "<>", "|", "^", "&", "<<", ">>", "+", "-", "*", "/", "**",
        "~", "||", "&&", "!",
    ]

    static func kinds(_ source: String) throws -> [(TokenKind, String)] {
        var copy = source
        return try copy.withUTF8 { bytes in
            let lexer = Lexer(bytes: bytes, source: source)
            return try lexer.tokenize().map { ($0.kind, lexer.text(Int($0.start), Int($0.end))) }
        }
    }

    @Test func theTableListsEverySymbol() {
        #expect(Set(OperatorTable.symbols.map(\.spelling)) == Self.spellings)
        // One token for each spelling (`-` is infix and prefix, one token).
        for (spelling, rows) in Dictionary(grouping: OperatorTable.symbols, by: \.spelling) {
            #expect(Set(rows.map(\.token)).count == 1, "\(spelling)")
        }
    }

    @Test func everySymbolLexesToItsToken() throws {
        for (spelling, token) in OperatorTable.symbols {
            for source in ["a\(spelling)b", "a \(spelling) b"] {
                let tokens = try Self.kinds(source)
                #expect(tokens.map(\.0) == [.identifier, token, .identifier, .end], "\(source)")
                #expect(tokens.count == 4 && tokens[1].1 == spelling, "\(source)")
            }
        }
    }

    /// Every run of up to three operator characters lexes into tokens of
    /// which each operator is one of the table's spellings of it.
    @Test func nothingElseLexesToAnOperator() throws {
        let spellingsByToken = Dictionary(grouping: OperatorTable.symbols, by: \.token).mapValues { Set($0.map(\.spelling)) }
        let alphabet = Array("=!<>&|*+-/^~").map(String.init)
        var runs = alphabet
        for _ in 0..<2 { runs += runs.flatMap { run in alphabet.map { run + $0 } }.filter { $0.count > runs.last!.count } }
        #expect(runs.count == 12 + 144 + 1728)
        for run in runs {
            for (kind, text) in try Self.kinds(run) where kind != .end {
                #expect(spellingsByToken[kind]?.contains(text) == true, "'\(text)' in '\(run)' lexes to \(kind)")
            }
        }
    }
}
