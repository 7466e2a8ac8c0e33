import Foundation
import Testing

@testable import Sift

/// Sift's JSON reader: what it keeps of numbers, member names and bytes.
struct JSONValueTests {
    /// The error of reading `bytes`, or nil when they read.
    func failure(_ bytes: some Collection<UInt8>) -> JSONError? {
        do {
            _ = try JSONValue(parsingUTF8: bytes)
            return nil
        } catch {
            return error
        }
    }

    @Test func bytesThatAreNotUTF8AreAnErrorAtTheFirstOfThem() throws {
        // {"a":"x\xFF"}: the bad byte is at offset 7.
        let bad: [UInt8] = Array(#"{"a":"x"#.utf8) + [0xFF] + Array(#""}"#.utf8)
        #expect(failure(bad) == JSONError(message: "invalid UTF-8 in string", offset: 7))
        // A truncated sequence after an escape and a valid é.
        let truncated: [UInt8] = Array(#"["\n\u00e9é"#.utf8) + [0xE2, 0x82] + Array(#"x"]"#.utf8)
        #expect(failure(truncated)?.offset == truncated.count - 5)
        // An encoded surrogate (ED A0 80) is not UTF-8 either.
        #expect(failure([0x22, 0xED, 0xA0, 0x80, 0x22])?.offset == 1)
        // Outside strings a non-ASCII byte is an unexpected character.
        #expect(failure([0x5B, 0xC3, 0xA9, 0x5D])?.offset == 1)
        #expect(try JSONValue(parsingUTF8: Array(#"{"é":"ü"}"#.utf8)) == JSONValue.object(JSONObject([("é", .string("ü"))])))
        #expect(try JSONValue(parsingUTF8: Array("x 7 ".utf8)[1...]) == JSONValue.int(7), "a slice reads from its start")
        #expect(failure(Array("x 7 x".utf8)[1...]) == JSONError(message: "unexpected text after the value", offset: 3))
    }

    @Test func integersBeyondIntAreExactDecimals() throws {
        let big = try JSONValue(parsing: "123456789012345678901234567890")
        #expect(big == .number(JSONNumber(text: "123456789012345678901234567890", value: .decimal(Decimal(string: "123456789012345678901234567890")!))))
        #expect(big.jsonText == "123456789012345678901234567890")
        let record = try JSONValue(parsing: #"{"id": 123456789012345678901234567890}"#)
        let filter = try Filter("id == %@", try JSONValue(parsing: "123456789012345678901234567890").predicateValue).compiled()
        #expect(try filter.evaluate(with: record))
        let next = try JSONValue(parsing: #"{"id": 123456789012345678901234567891}"#)
        #expect(try !filter.evaluate(with: next), "one more is not equal, as it would be in doubles")
        #expect(try Filter("id > 9223372036854775807").evaluate(with: record.predicateValue))
        // 38 significant digits, negative, and a power of ten with 160 zeros.
        for text in ["-99999999999999999999999999999999999999", "-9223372036854775809", "1" + String(repeating: "0", count: 160)] {
            let value = try JSONValue(parsing: text)
            guard case .number(let n) = value, case .decimal = n.value else {
                Issue.record("\(text) read as \(value)")
                continue
            }
            #expect(value.jsonText == text)
        }
    }

    @Test func numbersADoubleCannotGiveBackKeepTheirText() throws {
        // More digits than a double keeps: the nearest double, text kept.
        let hundred = "1" + String(repeating: "2345678901", count: 10)
        for text in [hundred, "3.14159265358979323846", "1e-400", "4.9406564584124654e-324", "0.30000000000000000001"] {
            let value = try JSONValue(parsing: "[\(text)]")
            guard case .array(let items) = value, case .number(let n) = items[0], case .double(let d) = n.value else {
                Issue.record("\(text) read as \(value)")
                continue
            }
            #expect(d == Double(text))
            #expect(value.jsonText == "[\(text)]")
        }
        // Up to 15 significant digits a double's shortest form is the same number.
        #expect(try JSONValue(parsing: "0.1") == .double(0.1))
        #expect(try JSONValue(parsing: "123456789012345e-3") == .double(123456789012.345))
        #expect(try JSONValue(parsing: "-0.0") == .double(-0.0))
        #expect(try JSONValue(parsing: "1E+2") == .double(100))
        #expect(try JSONValue(parsing: "1.5e308") == .double(1.5e308))
        // 17 digits that are the double's own shortest form stay a double.
        #expect(try JSONValue(parsing: "13.436424411240122") == .double(13.436424411240122))
        #expect(try JSONValue(parsing: "0.30000000000000004") == .double(0.1 + 0.2))
        #expect(try JSONValue(parsing: "2.5e-320") == .double(2.5e-320), "a subnormal that prints back as written")
    }

    @Test func numbersBeyondADoubleAreAnError() {
        for text in ["1e400", "-1.8e308", "1" + String(repeating: "0", count: 400)] {
            let error = failure(Array("[0, \(text)]".utf8))
            #expect(error?.offset == 4)
            #expect(error?.message.contains("beyond the range of a double") == true)
        }
    }

    @Test func canonicallyEquivalentMemberNamesAreRefusedNotMerged() throws {
        // café precomposed, then with a combining acute accent.
        let text = "{\"a\": 1, \"caf\u{E9}\": 1, \"cafe\u{301}\": 2}"
        let error = failure(Array(text.utf8))
        #expect(error?.offset == Array("{\"a\": 1, \"caf\u{E9}\": 1, ".utf8).count)
        #expect(error?.message.contains(#""cafe\u{301}" is canonically equivalent to the earlier "caf\u{e9}""#) == true)
        // In nested objects too; distinct names stay.
        #expect(failure(Array("[{\"x\": {\"\u{212B}\": 1, \"\u{C5}\": 2}}]".utf8)) != nil)
        #expect(try JSONValue(parsing: "{\"caf\u{E9}\": 1, \"cafe\": 2}")["cafe"] == .int(2))
    }

    @Test func aRepeatedMemberNameKeepsItsLastValue() throws {
        let value = try JSONValue(parsing: #"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value.jsonText == #"{"a":3,"b":2}"#)
        #expect(try Filter("a == 3").evaluate(with: value.predicateValue))
    }
}

extension JSONValueTests {
    @Test func aNumberKeptWithItsTextDoesNotMakeEveryValueLarger() {
        // Inline, .number(JSONNumber) would make each value, array element
        // and member as large as a String and a Value together.
        #expect(MemoryLayout<JSONValue>.size <= MemoryLayout<String>.size + 1)
    }
}
