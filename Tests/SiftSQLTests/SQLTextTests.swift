import Testing

@testable import SiftSQL

/// The upper bound of BEGINSWITH's index range: the least string above every
/// string that begins with the prefix, in code point order.
struct SuccessorTests {
    @Test func testSuccessor() {
        #expect(Lowering.successor("ab") == "ac")
        #expect(Lowering.successor("a") == "b")
        #expect(Lowering.successor("a~") == "a\u{7F}")
        #expect(Lowering.successor("a\u{7F}") == "a\u{80}", "past ASCII")
        #expect(Lowering.successor("é") == "ê")
        #expect(Lowering.successor("a\u{D7FF}") == "a\u{E000}", "over the surrogates")
        #expect(Lowering.successor("a\u{10FFFF}") == "b", "the last scalar has none: the one before goes up")
        #expect(Lowering.successor("\u{10FFFF}") == nil)
        #expect(Lowering.successor("") == nil)
        // Every ASCII ending agrees with going through the scalars.
        for b in UInt8(0x20)..<0x7F {
            let s = "x" + String(UnicodeScalar(b))
            #expect(Lowering.successor(s) == ("x" + String(UnicodeScalar(b + 1))))
        }
    }
}

/// Identifiers in double quotes, embedded quotes doubled, in both dialects.
struct QuoteTests {
    @Test func testQuote() {
        for dialect in Dialect.allCases {
            #expect(dialect.quote("name") == #""name""#)
            #expect(dialect.quote("") == #""""#)
            #expect(dialect.quote("a long column name over fifteen bytes") == #""a long column name over fifteen bytes""#)
            #expect(dialect.quote(#"odd "col"; --"#) == #""odd ""col""; --""#)
            #expect(dialect.quote(#"""#) == #""""""#)
            #expect(dialect.quote("Zoë_表") == "\"Zoë_表\"")
        }
    }
}

/// The tables of `CanonicalPrefixes`, recomputed over every Unicode scalar
/// with Foundation's canonical decomposition: a difference would make
/// BEGINSWITH's index ranges miss strings the evaluator matches.
struct CanonicalPrefixTests {
    @Test func testTablesMatchFoundation() {
        var bounds = [(low: UInt32, high: UInt32)?](repeating: nil, count: 128)
        var singletons = [Unicode.Scalar?](repeating: nil, count: 128)
        for v in UInt32(0x80)...0x10FFFF {
            guard let u = Unicode.Scalar(v) else { continue }
            let d = Array(String(Character(u)).decomposedStringWithCanonicalMapping.unicodeScalars)
            guard let first = d.first, first.value < 0x80 else { continue }
            let c = Int(first.value)
            bounds[c] = (min(bounds[c]?.low ?? v, v), max(bounds[c]?.high ?? v, v))
            if d.count == 1 {
                #expect(singletons[c] == nil, "two singletons for \(first)")
                singletons[c] = u
            } else {
                // What the lowering relies on: after the ASCII character
                // comes a non-ASCII scalar, never a second ASCII one.
                #expect(d[1].value >= 0x80, "U+\(String(v, radix: 16)) decomposes to two ASCII characters")
            }
        }
        for c in 0..<128 {
            let ch = String(UnicodeScalar(UInt8(c)))
            let table = CanonicalPrefixes.bounds(UInt8(c))
            #expect(table?.low == bounds[c]?.low, "lowest for \(ch.debugDescription)")
            #expect(table?.high == bounds[c]?.high, "highest for \(ch.debugDescription)")
            #expect(CanonicalPrefixes.singleton(UInt8(c)) == singletons[c], "singleton for \(ch.debugDescription)")
        }
        #expect(CanonicalPrefixes.bounds(UInt8(ascii: "b"))?.low == 0x1E03)
        #expect(CanonicalPrefixes.bounds(UInt8(ascii: "q")) == nil)
        #expect(CanonicalPrefixes.bounds(UInt8(ascii: "1")) == nil)
    }
}
