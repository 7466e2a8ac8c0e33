import Foundation
import Testing

@testable import Sift

struct CodableTests {
    static let formats = [
        "name BEGINSWITH[cd] 'ste' AND (year > 1980 OR ANY authors.age >= 60.5)",
        "NOT tags CONTAINS 'draft' AND d > CAST(12.5, 'NSDate') AND x IN {1, 'a', nil, TRUE}",
        "SUBQUERY(authors, $a, $a.age > $MIN).@count > 0 AND sum:(nums) == 10 AND tags[LAST] == 'x'",
        "FUNCTION(name, 'lowercaseString') == 'x' AND TERNARY(a > 1, -b, ~c) == 2 ** 3",
    ]

    @Test(arguments: formats)
    func roundTripsThroughJSON(format: String) throws {
        let p = try FormatParser.parsePredicate(format)
        let data = try JSONEncoder().encode(p)
        let decoded = try JSONDecoder().decode(PredicateNode.self, from: data)
        #expect(decoded == p)
        #expect(decoded.range == p.range)
        #expect(FormatPrinter.format(decoded) == FormatPrinter.format(p))
    }

    @Test func valuesKeepTheirKind() throws {
        let values: [Value] = [
            .int(1), .double(1), .bool(true), .decimal(Decimal(string: "1.25")!), .string("é"), .null, .nsNull,
            .date(Date(timeIntervalSinceReferenceDate: 3.5)), .data(Data([1, 2])), .uuid(UUID()),
            .array([.int(1), .string("x")]), .set([.int(1), .int(2)]), .dictionary(["k": .int(1)]),
            .double(.infinity),
        ]
        for value in values {
            let decoded = try JSONDecoder().decode(Value.self, from: try JSONEncoder().encode(value))
            #expect(decoded == value)
            #expect(decoded.typeName == value.typeName)
        }
    }
}

/// A decoded tree is held to what the parser guarantees: a JSON tree with
/// `add:to:` and no arguments decoded, passed a policy and trapped (index
/// out of range) when evaluated.
struct DecodingValidationTests {
    static func json(_ kind: String) -> String {
        #"{"kind":{"comparison":{"_0":{"lhs":{"kind":\#(kind)},"modifier":"direct","op":"==","options":0,"rhs":{"kind":{"constant":{"_0":{"int":1}}}}}}}}"#
    }

    @Test(arguments: [
        (#"{"function":{"_0":"add:to:","_1":[]}}"#, "add:to: takes 2 arguments, got 0"),
        (#"{"function":{"_0":"lowercase:","_1":[]}}"#, "lowercase: takes 1 argument, got 0"),
        (#"{"function":{"_0":"abs:","_1":[]}}"#, "abs: takes 1 argument, got 0"),
        (#"{"function":{"_0":"sum:","_1":[]}}"#, "sum: takes 1 argument, got 0"),
        (#"{"function":{"_0":"now","_1":[{"kind":{"evaluatedObject":{}}}]}}"#, "now takes 0 arguments, got 1"),
        (#"{"keyPath":{"_0":[]}}"#, "a key path has at least one key"),
        (#"{"keyPath":{"_0":["a",""]}}"#, "a key of a key path is not empty"),
        (#"{"path":{"_0":{"kind":{"evaluatedObject":{}}},"_1":[""]}}"#, "a key of a key path is not empty"),
        (#"{"variable":{"_0":""}}"#, "a variable has a name"),
    ])
    func malformedExpressionIsADecodingError(kind: String, message: String) throws {
        let data = Data(Self.json(kind).utf8)
        #expect {
            try JSONDecoder().decode(PredicateNode.self, from: data)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else { return false }
            return context.debugDescription == message
        }
    }

    @Test(arguments: [
        (#""op":"==","options":32"#, "options are [c], [d], [n], [l] and [s] (raw values 1, 2, 4, 8, 16)"),
        (#""op":"LIKE","options":16"#, "LIKE takes no [s] option"),
        (#""op":"BETWEEN","options":1"#, "BETWEEN takes no options"),
        (#""op":"","options":0"#, "an operator has a name"),
    ])
    func malformedComparisonIsADecodingError(replacement: String, message: String) throws {
        let text = Self.json(#"{"keyPath":{"_0":["a"]}}"#).replacingOccurrences(of: #""op":"==","options":0"#, with: replacement)
        #expect {
            try JSONDecoder().decode(PredicateNode.self, from: Data(text.utf8))
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context)? = error as? DecodingError else { return false }
            return context.debugDescription == message
        }
    }

    /// The well-formed neighbour of the cases above decodes.
    @Test func wellFormedDecodes() throws {
        let node = try JSONDecoder().decode(
            PredicateNode.self, from: Data(Self.json(#"{"function":{"_0":"abs:","_1":[{"kind":{"keyPath":{"_0":["a"]}}}]}}"#).utf8))
        #expect(FormatPrinter.format(node) == "abs:(a) == 1")
    }

    /// A tree built by hand with the public node kinds is not decoded, so
    /// the evaluator checks the arguments too: an error, not a trap.
    @Test func handBuiltFunctionIsAnError() throws {
        let p = PredicateNode.compare(.function(.add, []), .equalTo, .constant(1))
        #expect(throws: EvaluationError.self) { try Filter(p).evaluate(with: ["a": 1]) }
    }
}
