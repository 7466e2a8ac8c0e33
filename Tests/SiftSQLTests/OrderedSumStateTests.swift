import Sift
@testable import SiftSQL
import Testing

/// `sift_sum`'s state: terms added from 0.0 in key order, whatever order
/// they come in, with integer keys, other keys, and keys of both kinds.
/// The doubles are chosen so that another order gives another sum:
/// 1e16 + (-1e16) + 0.1 is 0.1, and 0.1 + 1e16 + (-1e16) is 0.0.
struct OrderedSumStateTests {
    static func sum(_ terms: [(SQLValue, SQLValue)]) throws -> SQLValue {
        var state = OrderedSumState()
        for (key, value) in terms { try state.step(value, key: key) }
        return try state.finalize()
    }

    @Test func testTermsAddInKeyOrder() throws {
        // In key order already, and out of it.
        #expect(try Self.sum([(.integer(1), .real(1e16)), (.integer(2), .real(-1e16)), (.integer(3), .real(0.1))]) == .real(0.1))
        #expect(try Self.sum([(.integer(3), .real(0.1)), (.integer(1), .real(1e16)), (.integer(2), .real(-1e16))]) == .real(0.1))
        #expect(try Self.sum([(.integer(1), .real(0.1)), (.integer(2), .real(1e16)), (.integer(3), .real(-1e16))]) == .real(0.0))
        // Text keys by their bytes, after the numbers; an integer value as a double.
        #expect(try Self.sum([(.text("b"), .real(0.1)), (.text("B"), .real(1e16)), (.text("a"), .real(-1e16))]) == .real(0.1))
        #expect(try Self.sum([(.integer(2), .real(-1e16)), (.text("a"), .real(0.1)), (.integer(1), .integer(10_000_000_000_000_000))])
            == .real(0.1))
        // NULL values are no terms; no terms is NULL; ∞ − ∞ fails.
        #expect(try Self.sum([(.integer(1), .null), (.integer(2), .real(2.5))]) == .real(2.5))
        #expect(try Self.sum([(.integer(1), .null)]) == .null)
        #expect(try Self.sum([]) == .null)
        #expect(throws: SQLiteFunctionFailure.self) {
            try Self.sum([(.integer(1), .real(.infinity)), (.integer(2), .real(-.infinity))])
        }
        #expect(throws: SQLiteFunctionFailure.self) { try Self.sum([(.integer(1), .text("x"))]) }
    }
}
