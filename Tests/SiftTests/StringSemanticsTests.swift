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
        for _ in 0..<3000 {
            let length = Int(rng.next() % 6)
            let hay = (0..<length).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let needle = needles[Int(rng.next() % UInt64(needles.count))]
            for options in optionSets {
                guard let fast = ASCIINeedle(needle, options) else { continue }
                for kind in [StringSemantics.Search.prefix, .suffix, .substring] {
                    guard let answer = fast.search(hay, kind) else { continue }
                    checked += 1
                    let slow = StringSemantics.search(hay, needle, kind, options)
                    #expect(answer == slow, "\(hay.unicodeScalars.map { String($0.value, radix: 16) }) \(kind) \(needle) \(options.letters)")
                }
            }
        }
        #expect(checked > 10_000)
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
