import Foundation
import Sift
@testable import SiftSQL
import Testing

/// `MATCHES[c]` on PostgreSQL and DuckDB runs a case-sensitive match of a
/// pattern with each letter's caseless variants spelled out: the variants
/// are PCRE2's (the evaluator's) over every scalar, and PCRE2 reads the
/// translation case-sensitively as it reads the pattern caselessly.
struct CaselessRegexTests {
    /// Every scalar, as a string.
    static let everyScalar: [String] = (1...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)).map { String($0) } }

    /// The scalars PCRE2 matches caselessly with an ASCII letter are those
    /// of `caselessVariants`, letter by letter.
    @Test func testVariantsAreThoseOfPCRE2() throws {
        let anyLetter = try MatchesPattern("[a-z]", options: [.caseInsensitive])
        let matched = try Self.everyScalar.filter { try anyLetter.matches($0) }
        #expect(matched.count == 54, "\(matched.count) scalars match an ASCII letter caselessly")
        for letter in Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".unicodeScalars) {
            let pcre2 = try MatchesPattern(String(letter), options: [.caseInsensitive])
            let expected = Set(try matched.filter { try pcre2.matches($0) })
            let variants = Set(POSIXRegex.caselessVariants(letter).map { String($0) })
            #expect(variants == expected, "\(letter): \(variants.sorted()) against PCRE2's \(expected.sorted())")
        }
    }

    /// A caseless pattern and its translation, read case-sensitively by
    /// PCRE2, match the same subjects: the scalars that have a case, and
    /// words.
    @Test(arguments: [
        "k", "K", "s+", "[a-z]+", "[j-l]elvin", "[-k]", "[k-]x", "[]s]", "[0-9a-c]*", "S{2}", "(ab|cd)*?", "x.y", "[Ss]",
        "[!-z]", "\\.k", "[K-k]",
    ])
    func testTranslationMatchesAsThePattern(_ pattern: String) throws {
        let original = try MatchesPattern(pattern, options: [.caseInsensitive])
        let translated = try #require(POSIXRegex.translate(pattern, caseless: true))
        let exact = try MatchesPattern(translated, options: [])
        let cased = Self.everyScalar.filter { s in
            let p = s.unicodeScalars.first!.properties
            return p.isCased || p.changesWhenCaseMapped || s.unicodeScalars.first!.isASCII
        }
        let words = ["kelvin", "\u{212A}elvin", "KELVIN", "ſs", "SS", "ſſ", "abcd", "ABCD", "aBcD", "x\ny", "xKy", "X.Y", "k-", "-x", "]"]
        for subject in cased + words {
            #expect(
                try original.matches(subject) == exact.matches(subject),
                "\(pattern) → \(translated) on \(subject.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    /// A caseless pattern with a letter outside ASCII is refused on both
    /// dialects, with the reason.
    @Test(arguments: [Dialect.postgreSQL, .duckDB])
    func testNonASCIICaselessPatternsAreRefused(_ dialect: Dialect) throws {
        let schema = StoreSchema([Entity("Word", table: "words", attributes: [Attribute("s", .string)])])
        for pattern in ["ß", "σ.*", "[à-ÿ]"] {
            let request = FetchSpecification(entity: "Word", filter: try Filter("s MATCHES[c] %@", pattern))
            let message = Self.refusal(request, schema, dialect)
            #expect(message?.contains("takes ASCII patterns only") == true, "\(message ?? "lowered")")
            // Case-sensitive, the same pattern lowers.
            _ = try FetchSpecification(entity: "Word", filter: try Filter("s MATCHES %@", pattern)).sql(in: schema, dialect: dialect)
        }
    }

    static func refusal(_ request: FetchSpecification, _ schema: StoreSchema, _ dialect: Dialect) -> String? {
        do {
            _ = try request.sql(in: schema, dialect: dialect)
            return nil
        } catch {
            return error.message
        }
    }
}
