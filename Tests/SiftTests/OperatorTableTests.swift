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
            #expect(op.acceptedOptions == [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive])
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
