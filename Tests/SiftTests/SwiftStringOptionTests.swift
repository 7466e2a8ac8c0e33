import Foundation
import Sift
import Testing

/// `[s]`, Swift's string semantics, against Swift itself: `==`, `<`,
/// `starts(with:)` and `contains(_:)` of `#Predicate` (the oracle) on
/// strings where they differ from NSString's: decomposed and precomposed
/// letters, CR LF, emoji with modifiers and joiners, regional indicators,
/// Hangul jamo, the Kelvin sign, characters past U+FFFF, empty strings.
/// Typed, on values and on the general path alone.
struct SwiftStringOptionTests {
    struct Pair: KeyValueReadable {
        var a: String
        var b: String
        static let keyTable = KeyTable<Pair>(typed: ["a": .string(\.a), "b": .string(\.b)])
    }

    static let strings = [
        "", "e", "é", "e\u{301}", "e\u{301}x", "xe\u{301}", "f", "ef", "E", "\r", "\n", "\r\n", "a\r\nb", "a\r",
        "👍", "👍🏽", "👩‍💻", "👩", "🇫🇷", "🇺🇸🇫🇷", "🇸🇫", "\u{1100}\u{1161}", "\u{1100}", "\u{AC00}", "K",
        "\u{212A}", "Kelvin", "\u{212A}elvin", "\u{FFFF}", "\u{10000}", "\u{E000}", "a\u{308}\u{301}", "a\u{301}\u{308}",
        "ß", "ss", "İ", "i\u{307}",
    ]

    static let cases: [(String, Predicate<Pair>)] = [
        ("a ==[s] b", #Predicate<Pair> { $0.a == $0.b }),
        ("a !=[s] b", #Predicate<Pair> { $0.a != $0.b }),
        ("a <[s] b", #Predicate<Pair> { $0.a < $0.b }),
        ("a <=[s] b", #Predicate<Pair> { $0.a <= $0.b }),
        ("a >[s] b", #Predicate<Pair> { $0.a > $0.b }),
        ("a >=[s] b", #Predicate<Pair> { $0.a >= $0.b }),
        ("a CONTAINS[s] b", #Predicate<Pair> { $0.a.contains($0.b) }),
        ("a BEGINSWITH[s] b", #Predicate<Pair> { $0.a.starts(with: $0.b) }),
    ]

    @Test func answersAsSwift() throws {
        var pairs: [Pair] = []
        for a in Self.strings { for b in Self.strings { pairs.append(Pair(a: a, b: b)) } }
        for (format, predicate) in Self.cases {
            let filter = try Filter(format)
            #expect(try Filter(predicate).format == format)
            let typed = filter.compiled(for: Pair.self)
            let general = filter.compiled(for: Pair.self, paths: .generalOnly)
            let dynamic = filter.compiled()
            var wrong = 0
            for pair in pairs {
                let swift = try predicate.evaluate(pair)
                for (path, answer) in [
                    ("typed", try typed.evaluate(with: pair)), ("general", try general.evaluate(with: pair)),
                    ("values", try dynamic.evaluate(with: pair.predicateValue)),
                ] where answer != swift {
                    wrong += 1
                    if wrong < 5 { Issue.record("\(format) \(path) on \(pair.a.debugDescription), \(pair.b.debugDescription): \(answer), Swift \(swift)") }
                }
            }
            #expect(wrong == 0, "\(format)")
        }
    }

    /// With a constant needle (prepared once) the answers are Swift's too,
    /// ENDSWITH[s] included (Swift's `hasSuffix` compares characters).
    @Test func constantNeedles() throws {
        for needle in Self.strings {
            let contains = try Filter("a CONTAINS[s] %@", needle).compiled(for: Pair.self)
            let prefix = try Filter("a BEGINSWITH[s] %@", needle).compiled(for: Pair.self)
            let suffix = try Filter("a ENDSWITH[s] %@", needle).compiled(for: Pair.self)
            let member = try Filter("a IN[s] %@", [needle, "zz"]).compiled(for: Pair.self)
            for a in Self.strings {
                let pair = Pair(a: a, b: "")
                let chars = Array(a), n = Array(needle)
                let found = n.isEmpty || (0...max(0, chars.count - n.count)).contains { i in
                    i + n.count <= chars.count && Array(chars[i..<(i + n.count)]) == n
                }
                #expect(try contains.evaluate(with: pair) == found, "\(a.debugDescription) CONTAINS[s] \(needle.debugDescription)")
                #expect(try prefix.evaluate(with: pair) == a.starts(with: needle))
                #expect(try suffix.evaluate(with: pair) == a.reversed().starts(with: needle.reversed()))
                #expect(try member.evaluate(with: pair) == (a == needle || a == "zz"))
            }
        }
    }
}
