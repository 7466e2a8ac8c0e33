import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// `Value`'s `==` is an equivalence and agrees with `hash(into:)`, over
/// values of every kind chosen to collide: integers, doubles and decimals
/// at 2^53, 2^60 and the edges of `Int`, the doubles nearest 0.1 and 1e23
/// and the decimals they stand for, infinities, Booleans, canonically equal
/// strings, and arrays, sets and dictionaries of them.
struct ValueHashingTests {
    static let numbers: [Value] = {
        let two53 = 9_007_199_254_740_992
        let two60 = 1_152_921_504_606_846_976
        var values: [Value] = [
            .int(0), .int(1), .int(-1), .int(3), .int(two53), .int(two53 + 1), .int(two60), .int(.max), .int(.min),
            .bool(true), .bool(false),
            .double(0), .double(-0.0), .double(1), .double(3), .double(Double(two53)), .double(Double(two53) + 2),
            .double(Double(two60)), .double(9.223372036854775807e18), .double(-9.223372036854775808e18),
            .double(0.1), .double(0.3), .double(0.1 + 0.2), .double(1e23), .double(1e300), .double(-2.5),
            .double(.infinity), .double(-.infinity), .double(.leastNonzeroMagnitude),
        ]
        for text in [
            "0", "1", "3", "-1", "9007199254740992", "9007199254740993", "1152921504606846976", "1152921504606847000",
            "0.1", "0.3", "0.30000000000000004", "0.1000000000000000055511151231257827", "1e23",
            "99999999999999991611392", "-2.5", "-2.50", "9223372036854775807", "9223372036854775808",
        ] {
            values.append(.decimal(Decimal(string: text)!))
        }
        return values
    }()

    static func random(_ rng: inout SeededRandom, depth: Int = 0) -> Value {
        let pick = Int(rng.next() % 10)
        switch pick {
        case 0..<6: return numbers[Int(rng.next() % UInt64(numbers.count))]
        case 6: return [.string("é"), .string("e\u{301}"), .string("a"), .null, .nsNull][Int(rng.next() % 5)]
        case 7 where depth < 2: return .array((0..<Int(rng.next() % 3)).map { _ in random(&rng, depth: depth + 1) })
        case 8 where depth < 2: return .set(Set((0..<Int(rng.next() % 3)).map { _ in random(&rng, depth: depth + 1) }))
        case 9 where depth < 2: return .dictionary(["k": random(&rng, depth: depth + 1)])
        default: return numbers[Int(rng.next() % UInt64(numbers.count))]
        }
    }

    /// Every pair of the numbers: equal values hash alike, `==` agrees with
    /// the ordering, and every triple is transitive.
    @Test func numbersAreAnEquivalenceThatAgreesWithHashing() {
        let numbers = Self.numbers
        for a in numbers {
            #expect(a == a)
            for b in numbers {
                let equal = a == b
                #expect(equal == (b == a), "\(a) \(b)")
                if equal { #expect(a.hashValue == b.hashValue, "\(a) == \(b) but hashed apart") }
                let order = NumericValue.compare(NumericValue(a)!, NumericValue(b)!)
                #expect((order == .orderedSame) == equal, "\(a) \(b) \(String(describing: order))")
                #expect(order?.reversed == NumericValue.compare(NumericValue(b)!, NumericValue(a)!), "\(a) \(b)")
                #expect(Set([a, b]).count == (equal ? 1 : 2), "\(a) \(b)")
                if equal {
                    for c in numbers where b == c { #expect(a == c, "\(a) == \(b) == \(c)") }
                }
            }
        }
        // What the rule says, by example.
        #expect(Value.decimal(Decimal(string: "0.1")!) == .double(0.1))
        #expect(Value.decimal(Decimal(string: "9007199254740993")!) != .double(9_007_199_254_740_992))
        #expect(Value.decimal(Decimal(string: "9007199254740993")!) == .int(9_007_199_254_740_993))
        #expect(Value.decimal(Decimal(string: "1e23")!) == .double(1e23))
        #expect(Value.int(1_152_921_504_606_846_976) == .double(1_152_921_504_606_846_976))
        #expect(Value.decimal(Decimal(string: "1152921504606847000")!) != .double(1_152_921_504_606_846_976))
    }

    /// A double made a decimal is the decimal it equals: `CAST(123.456,
    /// "NSDecimalNumber")` is 123.456 (`Decimal(Double)` gives
    /// 123.45599999999997952, which the double 123.456 does not equal), and
    /// decimal arithmetic on such values is exact.
    @Test func doublesBecomeTheDecimalsTheyEqual() throws {
        #expect(try Filter(#"CAST(123.456, "NSDecimalNumber") == 123.456"#).evaluate(with: Value.null))
        #expect(try Filter("x.decimalValue == 123.456 AND x.decimalValue == %@", arguments: [Decimal(string: "123.456")!])
            .evaluate(with: ["x": 123.456] as Value))
        #expect(try Filter(#"CAST(0.1, "NSDecimalNumber") + CAST(0.2, "NSDecimalNumber") == CAST(0.3, "NSDecimalNumber")"#)
            .evaluate(with: Value.null))
        #expect(try !Filter("0.1 + 0.2 == 0.3").evaluate(with: Value.null))
    }

    /// Random values of every kind, nested: equal values hash alike.
    @Test func randomValuesHashAsTheyCompare() {
        var rng = SeededRandom(seed: 2053)
        var equalPairs = 0
        for _ in 0..<20_000 {
            let a = Self.random(&rng)
            let b = Self.random(&rng)
            if a == b {
                equalPairs += 1
                #expect(a.hashValue == b.hashValue, "\(a) == \(b) but hashed apart")
            }
            #expect((a == b) == (b == a))
        }
        #expect(equalPairs > 300)
    }
}
