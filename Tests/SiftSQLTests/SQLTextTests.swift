import XCTest

@testable import SiftSQL

/// The upper bound of BEGINSWITH's index range: the least string above every
/// string that begins with the prefix, in code point order.
final class SuccessorTests: XCTestCase {
    func testSuccessor() {
        XCTAssertEqual(Lowering.successor("ab"), "ac")
        XCTAssertEqual(Lowering.successor("a"), "b")
        XCTAssertEqual(Lowering.successor("a~"), "a\u{7F}")
        XCTAssertEqual(Lowering.successor("a\u{7F}"), "a\u{80}", "past ASCII")
        XCTAssertEqual(Lowering.successor("é"), "ê")
        XCTAssertEqual(Lowering.successor("a\u{D7FF}"), "a\u{E000}", "over the surrogates")
        XCTAssertEqual(Lowering.successor("a\u{10FFFF}"), "b", "the last scalar has none: the one before goes up")
        XCTAssertNil(Lowering.successor("\u{10FFFF}"))
        XCTAssertNil(Lowering.successor(""))
        // Every ASCII ending agrees with going through the scalars.
        for b in UInt8(0x20)..<0x7F {
            let s = "x" + String(UnicodeScalar(b))
            XCTAssertEqual(Lowering.successor(s), "x" + String(UnicodeScalar(b + 1)))
        }
    }
}

/// Identifiers in double quotes, embedded quotes doubled, in both dialects.
final class QuoteTests: XCTestCase {
    func testQuote() {
        for dialect in SQLDialect.allCases {
            XCTAssertEqual(dialect.quote("name"), #""name""#)
            XCTAssertEqual(dialect.quote(""), #""""#)
            XCTAssertEqual(dialect.quote("a long column name over fifteen bytes"), #""a long column name over fifteen bytes""#)
            XCTAssertEqual(dialect.quote(#"odd "col"; --"#), #""odd ""col""; --""#)
            XCTAssertEqual(dialect.quote(#"""#), #""""""#)
            XCTAssertEqual(dialect.quote("Zoë_表"), "\"Zoë_表\"")
        }
    }
}
