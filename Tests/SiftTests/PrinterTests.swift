import Foundation
import Testing

@testable import Sift

private func canonical(_ format: String, _ args: any FormatArgumentConvertible...) throws -> String {
    try Filter(format, arguments: args).format
}

/// `input` prints as `expected`, which prints as itself and reads back as
/// the same tree.
private func expectPrinted(
    _ input: String, as expected: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    #expect(try canonical(input) == expected, sourceLocation: sourceLocation)
    #expect(try canonical(expected) == expected, sourceLocation: sourceLocation)
    #expect(try Filter(expected) == Filter(input), sourceLocation: sourceLocation)
}

struct PrinterTests {
    @Test(arguments: [
        // Control characters print raw, as Apple prints them (see
        // controlCharactersPrintRaw); a line feed as \n.
        (#"a == "tab\there""#, "a == \"tab\there\""),
        (#"a == 'q"x'"#, #"a == "q\"x""#),
        (#"a == "\u0001""#, "a == \"\u{1}\""),
        (#"a == 'line\nbreak'"#, #"a == "line\nbreak""#),
        ("a == 'it''s'", nil),  // adjacent strings are not concatenated
        ("a == 1.5e300", "a == 1.5e+300"),
        ("a == 0.1", "a == 0.1"),
        ("a == 1e999", "a == 1e999"),
        ("a == 9223372036854775807", "a == 9223372036854775807"),
        ("a == 9223372036854775808", "a == 9223372036854775808"),
        ("a == -b * 2", "a == -b * 2"),
        ("a == -(b + 2)", "a == -(b + 2)"),
        ("a == (-2) ** 2", "a == -2 ** 2"),  // unary minus binds tighter than **
        ("a == 2 ** (3 ** 2)", "a == 2 ** (3 ** 2)"),
        ("a == 2 ** 3 ** 2", "a == (2 ** 3) ** 2"),
        ("a == (b.c).d", "a == b.c.d"),
        ("a == (b + c).d", "a == (b + c).d"),
        ("a == {}", "a == {}"),
        ("a == {{1}, {}}", "a == {{1}, {}}"),
        ("TRUEPREDICATE AND NOT FALSEPREDICATE", "TRUEPREDICATE AND (NOT FALSEPREDICATE)"),
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

    /// Apple prints a string's control characters as they are: on iOS the
    /// `predicateFormat` of `identifier == %@` with `"Can't Do i\t"` holds a
    /// real tab, inside `BETWEEN {…}` too (zmian/xcore's
    /// PredicateQueryTests; conformance cases ob-185 to ob-187). `"` and
    /// `\` are escaped; a line feed prints as `\n`, which Apple's parser
    /// needs (a raw one inside quotes is an error), and NUL as `\u0000`.
    /// Every such text reads back as the same tree.
    @Test func controlCharactersPrintRaw() throws {
        #expect(try canonical("identifier == %@", "Can't Do i\t") == "identifier == \"Can't Do i\t\"")
        #expect(
            try canonical("identifier BETWEEN {%@, %@}", "Can't Do i\t", "Lowe's")
                == "identifier BETWEEN {\"Can't Do i\t\", \"Lowe's\"}")
        var controls = (0x01...0x1F).map { String(UnicodeScalar(UInt8($0))) }.filter { $0 != "\n" }
        controls += ["\u{7F}", "\u{85}", "\u{9B}", "\u{2028}"]
        for control in controls {
            let printed = try canonical("a == %@", "x" + control + "y")
            #expect(printed == "a == \"x" + control + "y\"", "\(control.unicodeScalars.map(\.value))")
            #expect(try Filter(printed) == Filter("a == %@", arguments: ["x" + control + "y"]))
        }
        for (value, text) in [("x\ny", #""x\ny""#), ("x\0y", #""x\u0000y""#), ("q\"b\\", #""q\"b\\""#),
                              ("\r\n\t", "\"\r\\n\t\"")] {
            let printed = try canonical("a == %@", value)
            #expect(printed == "a == " + text)
            #expect(try Filter(printed) == Filter("a == %@", arguments: [value]))
            #expect(try canonical(printed) == printed)
        }
    }

    /// A NOT inside AND, OR or NOT is a compound inside a compound and is
    /// parenthesised; at the top, and as the predicate of a SUBQUERY or
    /// TERNARY, it prints bare (Apple's output, SPEC §11.1).
    @Test(arguments: [
        ("a == 1 AND NOT b IN {1, 2}", "a == 1 AND (NOT b IN {1, 2})"),
        ("a == 1 OR b == 2 AND NOT c == 3", "a == 1 OR (b == 2 AND (NOT c == 3))"),
        ("NOT a == 1 OR NOT b == 2", "(NOT a == 1) OR (NOT b == 2)"),
        ("a == 1 AND NONE tags == 'x'", #"a == 1 AND (NOT ANY tags == "x")"#),
        ("NOT name BEGINSWITH 'bob'", #"NOT name BEGINSWITH "bob""#),
        ("NOT NOT a == 1", "NOT (NOT a == 1)"),
        ("NOT (NOT a == 1 AND b == 2)", "NOT ((NOT a == 1) AND b == 2)"),
        ("SUBQUERY(xs, $x, NOT $x.a == 1).@count > 0", "SUBQUERY(xs, $x, NOT $x.a == 1).@count > 0"),
        ("SUBQUERY(xs, $x, NOT $x.a == 1 AND $x.b == 2).@count > 0",
         "SUBQUERY(xs, $x, (NOT $x.a == 1) AND $x.b == 2).@count > 0"),
        ("TERNARY(NOT a == 1, 1, 2) == 1", "TERNARY(NOT a == 1, 1, 2) == 1"),
    ])
    func notInsideCompound(input: String, expected: String) throws {
        try expectPrinted(input, as: expected)
    }

    @Test func notInsideCompoundAsObserved() throws {
        #expect(
            try canonical("%K == %ld && NOT (%K IN %@)", "yearRaw", 2021, "eventTypeRaw", [0, 1, 2])
                == "yearRaw == 2021 AND (NOT eventTypeRaw IN {0, 1, 2})")
        #expect(
            try canonical("exists == true OR value CONTAINS[cd] %@ AND NOT attribute ENDSWITH[cd] %@", "test", "END")
                == #"exists == 1 OR (value CONTAINS[cd] "test" AND (NOT attribute ENDSWITH[cd] "END"))"#)
        // Trees built in code follow the same rule.
        let a = PredicateNode.compare(.keyPath("a"), .equalTo, .constant(1))
        let b = PredicateNode.compare(.keyPath("b"), .equalTo, .constant(2))
        #expect(FormatPrinter.format(.or([a, .and([b, .not(a)])])) == "a == 1 OR (b == 2 AND (NOT a == 1))")
        #expect(FormatPrinter.format(.not(.not(a))) == "NOT (NOT a == 1)")
    }

    /// An infix operation that is an operand of another is parenthesised on
    /// either side, whatever the precedences; prefix minus, and arguments of
    /// calls, subscripts, aggregates and the special forms, print bare.
    @Test(arguments: [
        ("a + b + c == 6", "(a + b) + c == 6"),
        ("a * b + c == 1", "(a * b) + c == 1"),
        ("a + b * c == 1", "a + (b * c) == 1"),
        ("a - (b - c) == 1", "a - (b - c) == 1"),
        ("2 ** 3 ** 2 == 64", "(2 ** 3) ** 2 == 64"),
        ("a & 3 == 3", "a & 3 == 3"),
        ("a & 3 | 4 == 7", "(a & 3) | 4 == 7"),
        ("a + b == c * d", "a + b == c * d"),
        ("-b * 2 == 1", "-b * 2 == 1"),
        ("-(b * 2) + 1 == 1", "-(b * 2) + 1 == 1"),
        ("a - -b == 1", "a - -b == 1"),
        ("abs(a - b) == 1", "abs:(a - b) == 1"),
        ("tags[i + 1] == 1", "tags[i + 1] == 1"),
        ("{a + b, c * d} == 1", "{a + b, c * d} == 1"),
        ("CAST(a + b, 'NSString') == '3'", #"CAST(a + b, "NSString") == "3""#),
        ("TERNARY(a == 1, b + c, d) == 1", "TERNARY(a == 1, b + c, d) == 1"),
        ("(a + b).c == 1", "(a + b).c == 1"),
    ])
    func nestedArithmetic(input: String, expected: String) throws {
        try expectPrinted(input, as: expected)
    }

    @Test func nestedArithmeticAsObserved() throws {
        // A key named "$single" prints as it is, as Apple prints it (it
        // would read back as a variable).
        let template = try Filter("%K like %@+$b+$c", "$single", #"b""#)
        #expect(template.format == #"$single LIKE ("b\"" + $b) + $c"#)
        let bound = try template.substituting(["b": "val_for_$b", "c": "val_for_$c"])
        #expect(bound.format == #"$single LIKE ("b\"" + "val_for_$b") + "val_for_$c""#)
    }

    /// FUNCTION writes a blank before the comma after the selector when
    /// arguments follow, and none when they don't (SPEC §11.1).
    @Test(arguments: [
        (#"FUNCTION(a, "pow:", 3) == 8"#, #"FUNCTION(a, "pow:" , 3) == 8"#),
        ("FUNCTION('a', 'uppercase') == 'A'", #"FUNCTION("a", "uppercase") == "A""#),
        ("FUNCTION(a, 'x:y:', b + 1, 2) == 1", #"FUNCTION(a, "x:y:" , b + 1, 2) == 1"#),
    ])
    func functionSelectorBlank(input: String, expected: String) throws {
        try expectPrinted(input, as: expected)
    }

    @Test func equalsInsideAny() throws {
        #expect(try canonical("ANY %K = %@", "districtsRaw.keyRaw", "2018fim") == #"ANY districtsRaw.keyRaw == "2018fim""#)
        #expect(try canonical("ALL a = 1") == "ALL a == 1")
    }

    /// The parentheses printing adds do not count against the depth limit:
    /// the printed form of the deepest tree each nesting form accepts parses
    /// back to the same tree.
    @Test(arguments: 0..<5)
    func deepestTreesRoundTrip(form: Int) throws {
        func nested(_ depth: Int) -> String {
            switch form {
            case 0: return String(repeating: "NOT ", count: depth) + "a == 1"
            case 1: return "a == " + Array(repeating: "1", count: depth + 1).joined(separator: " + ")
            case 2:
                return "a == 1" + String(repeating: " AND NOT (b == 1", count: depth / 2)
                    + String(repeating: ")", count: depth / 2)
            case 3:
                return "a == " + String(repeating: "b * (c + ", count: depth / 2) + "d"
                    + String(repeating: ")", count: depth / 2)
            default: return "a == " + String(repeating: "b ** (", count: depth) + "c" + String(repeating: ")", count: depth)
            }
        }
        var deepest: Filter?
        for depth in 1...300 {
            guard let filter = try? Filter(nested(depth)) else { break }
            deepest = filter
        }
        let filter = try #require(deepest)
        #expect(try Filter(filter.format) == filter)
        #expect(try Filter(filter.format).format == filter.format)
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
