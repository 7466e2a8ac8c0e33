import Foundation
import Testing

@testable import Sift

/// Sift's JSON reader: what it keeps of numbers.
struct JSONValueTests {
    /// The error of reading `text`, or nil when it reads.
    func failure(_ text: String) -> JSONError? {
        do {
            _ = try JSONValue(parsing: text)
            return nil
        } catch {
            return error
        }
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
        for text in [hundred, "3.14159265358979323846", "1e-400", "2.5e-320", "0.30000000000000000001"] {
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
    }

    @Test func numbersBeyondADoubleAreAnError() {
        for text in ["1e400", "-1.8e308", "1" + String(repeating: "0", count: 400)] {
            let error = failure("[0, \(text)]")
            #expect(error?.offset == 4)
            #expect(error?.message.contains("beyond the range of a double") == true)
        }
    }
}
