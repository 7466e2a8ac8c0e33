import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// Long runs of combining marks are put in canonical order in linear time
/// (up to a log factor): Foundation's own decomposition exchanges
/// neighbours, quadratic in a run's length (a grapheme of 120,000 marks
/// took 17.5 s under CONTAINS[cd]), and beyond some length leaves a long
/// run out of canonical order (the reference here is the standard's
/// algorithm).
struct MarkRunTests {
    /// Marks of several combining classes (230 above, 220 below, 202
    /// attached below, 1 overlay, 9 virama, 216 attached above right),
    /// precomposed letters whose decomposition adds marks to a run, one
    /// that decomposes into two marks (U+0344), a Tibetan vowel sign (U+0F71,
    /// class 129; Foundation leaves U+0F73, its decomposition, out of order),
    /// and Hangul syllables.
    static let pieces: [String] = [
        "\u{301}", "\u{300}", "\u{316}", "\u{317}", "\u{327}", "\u{334}", "\u{94D}", "\u{31B}", "\u{344}", "\u{F71}",
        "é", "ǘ", "\u{1E69}", "a", "가", "Å", "\u{1F87}", "x",
    ]

    /// Unicode's canonical ordering as the standard writes it: exchange
    /// two neighbouring marks while the first has the higher class. (Long
    /// runs only here: it is quadratic.)
    static func reference(_ s: String) -> [Unicode.Scalar] {
        var out = s.unicodeScalars.flatMap { Array(String($0).decomposedStringWithCanonicalMapping.unicodeScalars) }
        func ccc(_ u: Unicode.Scalar) -> UInt8 { u.properties.canonicalCombiningClass.rawValue }
        var exchanged = true
        while exchanged {
            exchanged = false
            for i in out.indices.dropLast() where ccc(out[i + 1]) != 0 && ccc(out[i]) > ccc(out[i + 1]) {
                out.swapAt(i, i + 1)
                exchanged = true
            }
        }
        return out
    }

    @Test func longRunsAreInCanonicalOrder() {
        var rng = SeededRandom(seed: 0x3A5C)
        for length in [1, 10, 20, 33, 40, 100, 300] {
            for _ in 0..<20 {
                var s = "a"
                for _ in 0..<length {
                    // Mostly marks, so that runs are long.
                    let i = Int(rng.next() % UInt64(Self.pieces.count))
                    s += rng.next() % 4 == 0 ? Self.pieces[i] : Self.pieces[i % 10]
                }
                let shown = s.unicodeScalars.map { String($0.value, radix: 16) }
                #expect(StringSemantics.decomposed(s) == Self.reference(s), "\(shown)")
                // Short runs are Foundation's own decomposition.
                if length <= 20 {
                    #expect(StringSemantics.decomposed(s) == Array(s.decomposedStringWithCanonicalMapping.unicodeScalars), "\(shown)")
                }
            }
        }
    }

    @Test func reversedRunsAreCanonicallyEqual() throws {
        let a = "a" + String(repeating: "\u{301}", count: 60_000) + String(repeating: "\u{316}", count: 60_000)
        let b = "a" + String(repeating: "\u{316}", count: 60_000) + String(repeating: "\u{301}", count: 60_000)
        #expect(try Filter("s ==[c] t").evaluate(with: ["s": .string(a), "t": .string(b)]))
        #expect(try !Filter("s CONTAINS[cd] 'x'").evaluate(with: ["s": .string(a)]))
        #expect(try Filter("s BEGINSWITH[d] 'a'").evaluate(with: ["s": .string(a)]))
        #expect(try !Filter("s < t").evaluate(with: ["s": .string(a), "t": .string(b)]))
    }
}
