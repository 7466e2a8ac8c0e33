import Foundation
import Testing

@testable import Sift

/// Conversions that trap in Foundation (`Decimal(Double)` of an infinity),
/// or answer a NaN decimal that then compares equal to everything NaN and
/// below every number, are evaluation errors with the range of the node
/// at fault.
struct ConversionTrapTests {
    static let root: Value = [
        "x": .double(.infinity), "nan": .double(.nan), "big": .double(1e200), "tiny": .double(1e-200),
        "prices": [.double(.infinity)], "mixed": [.double(.infinity), .decimal(1)],
        "d": .decimal(Decimal(string: "1e120")!), "ds": [.decimal(.greatestFiniteMagnitude), .decimal(.greatestFiniteMagnitude)],
    ]

    /// Each of these trapped (SIGILL) or answered through a NaN decimal.
    @Test(arguments: [
        ("x.decimalValue == 1", "x.decimalValue"),
        ("CAST(1e999, \"NSDecimalNumber\") == 1", "CAST(1e999, \"NSDecimalNumber\")"),
        ("CAST(10 ** 400, \"NSDecimalNumber\") == 1", "CAST(10 ** 400, \"NSDecimalNumber\")"),
        ("FUNCTION(1e999, \"decimalValue\") == 1", "FUNCTION(1e999, \"decimalValue\")"),
        ("ANY prices.decimalValue > 0", "prices.decimalValue"),
        ("nan.decimalValue == 1", "nan.decimalValue"),
        ("big.decimalValue > 0", "big.decimalValue"),
        ("d * d > 0", "d * d"),
        ("sum:(mixed) > 0", "sum:(mixed)"),
        ("ds.@sum.self > 0", "ds.@sum.self"),
    ])
    func isAnOverflowError(format: String, atFault: String) throws {
        let filter = try Filter(format).compiled()
        #expect {
            try filter.evaluate(with: Self.root)
        } throws: { error in
            guard let e = error as? EvaluationError, e.code == .overflow else { return false }
            let start = format.utf8.index(format.utf8.startIndex, offsetBy: e.range.lowerBound)
            let end = format.utf8.index(format.utf8.startIndex, offsetBy: e.range.upperBound)
            return String(format[start..<end]) == atFault
        }
    }

    @Test func substitutedVariableToo() throws {
        let filter = try Filter("CAST($a, \"NSDecimalNumber\") == 1").compiled()
        #expect(throws: EvaluationError.self) { try filter.evaluate(with: Self.root, variables: ["a": .double(.infinity)]) }
    }

    /// What still answers: a tiny double underflows to a zero decimal, a
    /// sum of doubles alone stays a double (an infinity is a double sum).
    @Test func stillAnswers() throws {
        #expect(try Filter("tiny.decimalValue == 0").evaluate(with: Self.root))
        #expect(try Filter("prices.@sum.self > 0").evaluate(with: Self.root))
        #expect(try Filter("CAST(1e100, \"NSDecimalNumber\") > 1e99").evaluate(with: Self.root))
        #expect(try Filter("d + d > d").evaluate(with: Self.root))
    }
}
