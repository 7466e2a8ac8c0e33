import Testing

@testable import Sift

struct StringSemanticsTests {
    /// The ASCII fast path never disagrees with the Unicode path.
    @Test func asciiFastPathAgreesWithUnicodePath() {
        var rng = SplitMix(seed: 42)
        let alphabet: [String] = ["a", "b", "A", "B", "e", "E", "s", "S", "k", "é", "\u{301}", "ß", "\u{212A}", "ﬀ", "f", " "]
        let needles = ["a", "ab", "B", "e", "ss", "k", "ff", "ba", "ae"]
        let optionSets: [ComparisonOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive], [.normalized]]
        var checked = 0
        var mixed = 0  // answered although the haystack is not all ASCII
        for _ in 0..<6000 {
            let length = Int(rng.next() % 9)
            let hay = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let needle = needles[Int(rng.next() % UInt64(needles.count))]
            for options in optionSets {
                guard let fast = ASCIINeedle(needle, options) else { continue }
                for kind in [StringSemantics.Search.prefix, .suffix, .substring] {
                    guard let answer = fast.search(hay, kind) else { continue }
                    checked += 1
                    if !hay.utf8.allSatisfy({ $0 < 0x80 }) { mixed += 1 }
                    let slow = StringSemantics.search(hay, needle, kind, options)
                    #expect(answer == slow, "\(hay.unicodeScalars.map { String($0.value, radix: 16) }) \(kind) \(needle) \(options.letters)")
                }
            }
        }
        #expect(checked > 20_000)
        #expect(mixed > 5_000)
    }

    /// A prepared needle (the ASCII search by words for haystacks kept
    /// inline, by bytes for others, the Latin tables on the stack, the
    /// Unicode path) answers as the whole keys do: haystacks of 0 to 20
    /// bytes, kept inline and not, needles of 1 to 9 bytes, every option.
    @Test func preparedNeedlesAgreeWithWholeKeys() {
        var rng = SplitMix(seed: 1124)
        let ascii = ["a", "b", "A", "B", "e", "E", "r", "R", "y", "s", "S", "[", "@", "`", "{", "Z", "z", " ", "\u{0}"]
        let other = ["é", "É", "ß", "ø", "\u{301}", "ñ", "\u{212A}", "Σ", "ﬀ", "ǅ"]
        let optionSets: [ComparisonOptions] = [
            [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive], [.normalized],
            [.caseInsensitive, .normalized],
        ]
        func word(_ length: Int, otherOneIn: UInt64) -> String {
            (0..<length).map { _ in
                otherOneIn > 0 && rng.next() % otherOneIn == 0
                    ? other[Int(rng.next() % UInt64(other.count))] : ascii[Int(rng.next() % UInt64(ascii.count))]
            }.joined()
        }
        var matches = 0
        for round in 0..<3000 {
            var hay = word(Int(rng.next() % 21), otherOneIn: round % 3 == 0 ? 4 : 0)
            if round % 5 == 0 {
                // The same bytes kept out of line.
                var copy = String()
                copy.reserveCapacity(64)
                copy += hay
                hay = copy
            }
            let needle = round % 4 == 0
                ? String(hay.dropFirst(Int(rng.next() % 4)).prefix(1 + Int(rng.next() % 9)))
                : word(1 + Int(rng.next() % 9), otherOneIn: round % 7 == 0 ? 3 : 0)
            guard !needle.isEmpty else { continue }
            for options in optionSets {
                let whole = StringSemantics.key(hay, options)
                let n = StringSemantics.key(needle, options)
                for kind in [StringSemantics.Search.prefix, .suffix, .substring] {
                    let expected = StringSemantics.search(whole, n, kind)
                    #expect(StringSemantics.Needle(needle, kind, options).found(in: hay) == expected,
                            "\(hay.debugDescription) \(kind) \(needle.debugDescription) [\(options.letters)]")
                    if expected { matches += 1 }
                }
            }
        }
        #expect(matches > 5000)
        // The Latin tables leave long haystacks and other scalars to the Unicode path.
        let table = LatinKeys.table(fold: true, stripMarks: true)
        #expect(table.search("café", [0x65], .suffix) == true)
        #expect(table.search("cafe\u{301}", [0x65], .suffix) == nil)
        #expect(table.search(String(repeating: "é", count: 300), [0x65], .prefix) == nil)
    }

    /// BEGINSWITH / ENDSWITH fold only the characters they need; the answer
    /// must be the one from the keys of the whole strings, also where
    /// characters fold to nothing (a combining mark after a control character
    /// under [d]).
    @Test func prefixAndSuffixAgreeWithWholeKeys() {
        var rng = SplitMix(seed: 9)
        let alphabet = ["a", "A", "\t", "\n", "\r", "\r\n", "\u{301}", "\u{316}", "é", "e", "ß", "s", "\u{212A}", "k"]
        let needles = ["a", "\t\ta", "a\t\t", "\ta", "ea", "ss", "k", "\t", "e\u{301}"]
        let optionSets: [ComparisonOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]
        var matches = 0
        for _ in 0..<4000 {
            let hay = (0..<Int(rng.next() % 8)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let needle = needles[Int(rng.next() % UInt64(needles.count))]
            for options in optionSets {
                for kind in [StringSemantics.Search.prefix, .suffix] {
                    let whole = StringSemantics.search(
                        StringSemantics.key(hay, options), StringSemantics.key(needle, options), kind)
                    #expect(StringSemantics.search(hay, needle, kind, options) == whole,
                            "\(hay.unicodeScalars.map { String($0.value, radix: 16) }) \(kind) \(needle.debugDescription) \(options.letters)")
                    if whole { matches += 1 }
                }
            }
        }
        #expect(matches > 1000)
        #expect(StringSemantics.search("\t\u{301}\t\u{301}a", "\t\ta", .prefix, [.diacriticInsensitive]))
        #expect(StringSemantics.search("a\t\u{301}\t\u{301}", "a\t\t", .suffix, [.diacriticInsensitive]))
    }

    /// The per-scalar keys of Latin strings are the keys Foundation's
    /// normalisation gives: for every pair of scalars below U+0250 next to
    /// ASCII letters, and for random strings of them, under each option.
    @Test func latinKeysAgreeWithUnicodeKeys() {
        let optionSets: [ComparisonOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]
        let latin = (UInt32(0x80)..<LatinKeys.limit).map { String(Character(Unicode.Scalar($0)!)) }
        var checked = 0
        for options in optionSets {
            let fold = options.contains(.caseInsensitive), strip = options.contains(.diacriticInsensitive)
            for (i, a) in latin.enumerated() {
                // Each scalar with every 7th other one, and around ASCII.
                for b in stride(from: i % 7, to: latin.count, by: 7).map({ latin[$0] }) + ["I", "s", "\u{0}"] {
                    let s = "x" + a + b + "S"
                    #expect(LatinKeys.key(s, fold: fold, stripMarks: strip) == StringSemantics.unicodeKey(s, options), "\(s.unicodeScalars.map { String($0.value, radix: 16) }) \(options.letters)")
                    checked += 1
                }
            }
        }
        var rng = SplitMix(seed: 250)
        for _ in 0..<3000 {
            let s = (0..<Int(rng.next() % 8)).map { _ in
                rng.next() % 3 == 0 ? String(UnicodeScalar(UInt8(0x20 + rng.next() % 0x5F))) : latin[Int(rng.next() % UInt64(latin.count))]
            }.joined()
            for options in optionSets {
                let fold = options.contains(.caseInsensitive), strip = options.contains(.diacriticInsensitive)
                #expect(LatinKeys.key(s, fold: fold, stripMarks: strip) == StringSemantics.unicodeKey(s, options))
                checked += 1
            }
        }
        #expect(checked > 50_000)
        // Above the table, the Unicode path decides.
        #expect(LatinKeys.key("e\u{301}", fold: true, stripMarks: true) == nil)
        #expect(LatinKeys.key("Σ", fold: true, stripMarks: false) == nil)
    }

    /// Folding only the first (last) n + 1 characters for a prefix (suffix)
    /// gives the same answer as folding the whole string.
    @Test func boundedFoldingAgreesWithWholeFolding() {
        var rng = SplitMix(seed: 9)
        let alphabet: [String] = ["a", "B", "é", "\u{301}", "\u{308}", "ß", "S", "ﬀ", "f", "İ", "i", "Σ", "ς", "😀", "\u{1F3FB}"]
        let optionSets: [ComparisonOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]
        for _ in 0..<4000 {
            func word(_ max: UInt64) -> String {
                (0..<Int(rng.next() % max)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            }
            let hay = word(7)
            let needle = word(4)
            guard !needle.isEmpty else { continue }
            for options in optionSets {
                let n = StringSemantics.key(needle, options)
                let whole = StringSemantics.key(hay, options)
                for kind in [StringSemantics.Search.prefix, .suffix] {
                    #expect(
                        StringSemantics.search(hay, key: n, kind, options) == StringSemantics.search(whole, n, kind),
                        "\(hay.unicodeScalars.map { String($0.value, radix: 16) }) \(kind) \(needle.unicodeScalars.map { String($0.value, radix: 16) }) [\(options.letters)]")
                }
            }
        }
    }

    @Test func likePatterns() {
        func like(_ s: String, _ p: String) -> Bool {
            LikePattern.matches(StringSemantics.key(s, []), LikePattern.compile(StringSemantics.key(p, [])))
        }
        #expect(like("", "*"))
        #expect(!like("", "?"))
        #expect(like("abc", "a*c") && like("abc", "*") && like("abc", "???") && !like("abc", "??"))
        #expect(like("a*c", "a\\*c") && !like("abc", "a\\*c"))
        #expect(like("aXbXc", "*X*X*") && !like("aXbc", "*X*X*"))
        #expect(like("line\nbreak", "line*break"))
    }
}

/// A small deterministic generator for tests.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
