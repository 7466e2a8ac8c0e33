import Foundation
import SiftSQL
import SiftTestSupport
import Testing

/// `BoundStatement.jsonText` (what `sift sql --output json` prints and the
/// DuckDB differential script reads): every value reads back as itself.
@Suite struct StatementJSONTests {
    @Test func valuesAsJSON() {
        let statement = BoundStatement(
            sql: "SELECT \"a\"\n\t\u{1}é", bindings: [
                .null, .integer(Int64.min), .real(2), .real(-0.0), .real(.nan), .real(.infinity), .real(-.infinity),
                .real(5e-324), .text("q\"\\\u{0}"), .boolean(true), .blob(Data([0, 255])), .array([.integer(1), .real(1)]),
            ])
        #expect(statement.jsonText == #"""
            {"sql": "SELECT \"a\"\n\t\u0001é", "bindings": [null, -9223372036854775808, 2.0, -0.0, {"$double": "NaN"}, {"$double": "Infinity"}, {"$double": "-Infinity"}, 5e-324, "q\"\\\u0000", true, {"$blob": "00ff"}, [1, 1.0]]}
            """#)
        #expect((try? JSONSerialization.jsonObject(with: Data(statement.jsonText.utf8))) != nil)
    }

    /// A double's text always has a point or an exponent (so that a reader
    /// does not take it for an integer) and reads back bit for bit.
    @Test func doublesRoundTrip() {
        var rng = SeededRandom(seed: 38)
        for _ in 0..<20_000 {
            let d = Double(bitPattern: rng.next())
            guard d.isFinite else { continue }
            let text = SQLValue.real(d).jsonText
            #expect(text.contains(".") || text.contains("e"), "\(text)")
            #expect(Double(text)?.bitPattern == d.bitPattern, "\(text)")
        }
    }
}
