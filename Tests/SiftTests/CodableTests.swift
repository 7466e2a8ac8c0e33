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
