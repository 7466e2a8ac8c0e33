import Foundation
import Sift
import SiftTestSupport
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
        // Swift's < orders these neither way against "e\u{301}" and "cafe\u{301}".
        "\u{E9}e", "\u{E9}a", "cafe\u{301}", "caf\u{E9}e",
        // Runs of marks longer than the bound past which [s] decomposes first.
        "a" + String(repeating: "\u{301}\u{316}", count: 20), "a" + String(repeating: "\u{316}\u{301}", count: 20),
        "a" + String(repeating: "\u{316}", count: 40) + "x", "a\u{316}",
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

    /// `swiftCompare:` sorts by the NFC forms' scalars, which Swift's `<`
    /// follows wherever it orders a pair.
    @Test func swiftCompareSortsByTheNFCForms() throws {
        let words = Self.strings
        let expected = nfcOrder(words)
        let values: [Value] = words.enumerated().map { .dictionary(["i": .int($0.offset), "w": .string($0.element)]) }
        let sorted = try FetchSpecification(sort: [.ascending("w", .swift)]).execute(on: values)
        #expect(sorted.map { v -> Int in
            guard case .dictionary(let d) = v, case .int(let i)? = d["i"] else { return -1 }
            return i
        } == expected)
    }

    /// A run of 120,000 combining marks, which Swift's own comparison takes
    /// seconds to put in order, is compared, searched and sorted in linear
    /// time, and canonically (the two runs are equivalent).
    @Test func longRunsOfMarks() throws {
        let a = "a" + String(repeating: "\u{301}\u{316}", count: 60_000)
        let b = "a" + String(repeating: "\u{316}\u{301}", count: 60_000)
        let pair = Pair(a: a, b: b)
        for (format, expected) in [
            ("a ==[s] b", true), ("a <[s] b", false), ("a <=[s] b", true), ("a CONTAINS[s] b", true),
            ("a BEGINSWITH[s] 'a'", false), ("a ENDSWITH[s] b", true),
        ] {
            #expect(try Filter(format).compiled(for: Pair.self).evaluate(with: pair) == expected, "\(format)")
        }
        // Its NFC form begins with "á" (U+00E1), after "b", as in Swift.
        let sorted = try [pair, Pair(a: "b", b: "")].sorted(by: [SortKey("a", comparison: .swift)])
        #expect(sorted.map { $0.a.unicodeScalars.first } == ["b", "a"])
        #expect(("a\u{301}\u{316}" < "b") == false)
    }

    /// `[s]` overrides options given beside it in a tree built in code (the
    /// parser and the decoder refuse them): `[cs]` is `[s]`.
    @Test func swiftStringOverridesOtherOptions() throws {
        for op in [ComparisonOperator.equalTo, .lessThan, .contains, .in] {
            let mixed = Filter(.compare(.keyPath("a"), op, .keyPath("b"), options: [.caseInsensitive, .swiftString]))
            let alone = Filter(.compare(.keyPath("a"), op, .keyPath("b"), options: .swiftString))
            for a in Self.strings {
                for b in ["ANN", "Ann", "E", "e\u{301}", "\u{212A}"] {
                    let pair = Pair(a: a, b: b)
                    #expect(try mixed.compiled(for: Pair.self).evaluate(with: pair) == alone.compiled(for: Pair.self).evaluate(with: pair))
                }
            }
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
