import Foundation
import Testing

@testable import Sift

private func canonical(_ format: String, _ args: any FormatArgumentConvertible...) throws -> String {
    try Filter(format, arguments: args).format
}

struct PrinterTests {
    @Test(arguments: [
        (#"a == "tab\there""#, #"a == "tab\there""#),
        (#"a == 'q"x'"#, #"a == "q\"x""#),
        (#"a == "\u0001""#, #"a == "\u0001""#),
        ("a == 'it''s'", nil),  // adjacent strings are not concatenated
        ("a == 1.5e300", "a == 1.5e+300"),
        ("a == 0.1", "a == 0.1"),
        ("a == 1e999", "a == 1e999"),
        ("a == 9223372036854775807", "a == 9223372036854775807"),
        ("a == 9223372036854775808", "a == 9.223372036854776e+18"),
        ("a == -b * 2", "a == -b * 2"),
        ("a == -(b + 2)", "a == -(b + 2)"),
        ("a == (-2) ** 2", "a == -2 ** 2"),  // unary minus binds tighter than **
        ("a == 2 ** (3 ** 2)", "a == 2 ** (3 ** 2)"),
        ("a == (2 ** 3) ** 2", "a == 2 ** 3 ** 2"),
        ("a == (b.c).d", "a == b.c.d"),
        ("a == (b + c).d", "a == (b + c).d"),
        ("a == {}", "a == {}"),
        ("a == {{1}, {}}", "a == {{1}, {}}"),
        ("TRUEPREDICATE AND NOT FALSEPREDICATE", "TRUEPREDICATE AND NOT FALSEPREDICATE"),
        ("(a == 1 OR b == 2) AND (c == 3 OR d == 4)", "(a == 1 OR b == 2) AND (c == 3 OR d == 4)"),
        ("NOT (a == 1 OR b == 2)", "NOT (a == 1 OR b == 2)"),
        // Grouping is kept, as in Apple's compound predicates.
        ("a == 1 AND (b == 2 AND c == 3)", "a == 1 AND (b == 2 AND c == 3)"),
    ] as [(String, String?)])
    func printing(input: String, expected: String?) throws {
        if let expected {
            #expect(try canonical(input) == expected)
            #expect(try canonical(expected) == expected)
        } else {
            #expect(throws: ParseError.self) { try canonical(input) }
        }
    }

    @Test func arguments() throws {
        #expect(try canonical("a == %@", Date(timeIntervalSinceReferenceDate: 1.5)) == #"a == CAST(1.5, "NSDate")"#)
        #expect(try canonical("a == %@", Set([3, 1, 2])) == "a == {1, 2, 3}")
        #expect(try canonical("a == %@", Value.nsNull) == "a == <null>")
        #expect(try canonical("a == %@", Decimal(string: "1.25")!) == "a == 1.25")
        #expect(try canonical("a == %@", true) == "a == 1")
        #expect(try canonical("a == %c", 65) == #"a == "A""#)
        #expect(try canonical("a == %g", 2) == "a == 2.0")
        #expect(try canonical("%K == 1", "first name") == "first name == 1")
        #expect(try canonical("%K == 1", "IN") == "#IN == 1")
    }

    @Test func invalidSpecifiers() throws {
        #expect(throws: ParseError.self) { try canonical("a == %q", 1) }
        #expect(throws: ParseError.self) { try canonical("a == %s", 1) }
        #expect(throws: ParseError.self) { try canonical("%K == 1", 1) }
        #expect(throws: ParseError.self) { try canonical("a == 0xFFFFFFFFFFFFFFFFFF") }
    }
}
