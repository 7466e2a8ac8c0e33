import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

struct StringSemanticsTests {
    /// The ASCII fast path never disagrees with the Unicode path.
    @Test func asciiFastPathAgreesWithUnicodePath() {
        var rng = SeededRandom(seed: 42)
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
        var rng = SeededRandom(seed: 1124)
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
                    let expected = naiveSearch(whole, n, kind)
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
        var rng = SeededRandom(seed: 9)
        let alphabet = ["a", "A", "\t", "\n", "\r", "\r\n", "\u{301}", "\u{316}", "é", "e", "ß", "s", "\u{212A}", "k"]
        let needles = ["a", "\t\ta", "a\t\t", "\ta", "ea", "ss", "k", "\t", "e\u{301}"]
        let optionSets: [ComparisonOptions] = [[], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]
        var matches = 0
        for _ in 0..<4000 {
            let hay = (0..<Int(rng.next() % 8)).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] }.joined()
            let needle = needles[Int(rng.next() % UInt64(needles.count))]
            for options in optionSets {
                for kind in [StringSemantics.Search.prefix, .suffix] {
                    let whole = naiveSearch(StringSemantics.key(hay, options), StringSemantics.key(needle, options), kind)
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
        var rng = SeededRandom(seed: 250)
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
        var rng = SeededRandom(seed: 9)
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
                        StringSemantics.search(hay, key: n, kind, options) == naiveSearch(whole, n, kind),
                        "\(hay.unicodeScalars.map { String($0.value, radix: 16) }) \(kind) \(needle.unicodeScalars.map { String($0.value, radix: 16) }) [\(options.letters)]")
                }
            }
        }
    }

    /// The linear searches (place by place for short needles,
    /// Knuth–Morris–Pratt for long ones, on keys, ASCII bytes and the Latin
    /// tables) find what comparing at every place finds: periodic needles
    /// of 1 to 30 scalars (`aab`, `abab`, …) in haystacks made mostly of
    /// their periods, with combining marks, ß and ẞ, the Kelvin sign, under
    /// every option, and the empty string on either side.
    @Test func searchesAgreeWithNaiveSearch() {
        var rng = SeededRandom(seed: 2025)
        let units = ["a", "b", "A", "ab", "aab", "abab", "aba", "é", "e\u{301}", "\u{301}", "ß", "ẞ", "ss", "S", "\u{212A}", "k"]
        let optionSets: [ComparisonOptions] = [
            [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive], [.normalized],
        ]
        func pick() -> String { units[Int(rng.next() % UInt64(units.count))] }
        var matches = 0
        var long = 0
        for round in 0..<2500 {
            // A period repeated, sometimes with other units in it.
            let period = (0..<(1 + Int(rng.next() % 3))).map { _ in pick() }.joined()
            func text(_ repeats: Int) -> String {
                (0..<repeats).map { _ in rng.next() % 6 == 0 ? pick() : period }.joined()
            }
            let needle = round % 50 == 0 ? "" : text(Int(rng.next() % 12))
            let hay = round % 40 == 0 ? "" : text(Int(rng.next() % 30))
            for options in optionSets {
                let n = StringSemantics.key(needle, options)
                let h = StringSemantics.key(hay, options)
                if n.count > SearchKey<UInt32>.shortNeedle { long += 1 }
                for kind in [StringSemantics.Search.prefix, .suffix, .substring] {
                    let expected = naiveSearch(h, n, kind)
                    if expected { matches += 1 }
                    let context = "\(hay.debugDescription) \(kind) \(needle.debugDescription) [\(options.letters)]"
                    #expect(StringSemantics.search(hay, needle, kind, options) == expected, "\(context)")
                    #expect(StringSemantics.search(h, n, kind) == expected, "\(context)")
                    #expect(StringSemantics.Needle(needle, kind, options).found(in: hay) == expected, "\(context)")
                    if let ascii = ASCIINeedle(needle, options), let answer = ascii.search(hay, kind) {
                        #expect(answer == expected, "\(context)")
                    }
                }
            }
        }
        #expect(matches > 5000)
        #expect(long > 3000)
    }

    /// The first match of a search key from any place up to any end is the
    /// first place where comparing finds it, and overlapping matches are
    /// all seen (the automaton goes on from a whole match).
    @Test func searchKeyFindsTheFirstMatch() {
        var rng = SeededRandom(seed: 77)
        for _ in 0..<3000 {
            let period = (0..<(1 + Int(rng.next() % 4))).map { _ in UInt32(rng.next() % 2) }
            let n = (0..<(Int(rng.next() % 20))).map { period[$0 % period.count] }
            let h = (0..<Int(rng.next() % 60)).map { i in rng.next() % 10 == 0 ? UInt32(rng.next() % 3) : period[i % period.count] }
            let from = Int(rng.next() % UInt64(h.count + 1))
            let end = from + Int(rng.next() % UInt64(h.count - from + 1))
            let odd = { (i: Int) in i % 2 == 1 }
            let places = n.count > end - from ? [] : Array(from...(end - n.count)).filter { i in (0..<n.count).allSatisfy { h[i + $0] == n[$0] } }
            let key = SearchKey(n)
            #expect(key.firstMatch(in: h, from: from, to: end) == places.first, "\(h) \(n) \(from) \(end)")
            #expect(key.firstMatch(in: h, from: from, to: end, where: odd) == places.first(where: odd), "\(h) \(n) \(from) \(end)")
        }
    }

    /// LIKE matched segment by segment, without backtracking, answers as
    /// trying every placing of the stars does: random patterns of
    /// literals, `*`, `?` and backslash escapes, under every option.
    @Test func likeAgreesWithBacktracking() {
        var rng = SeededRandom(seed: 31)
        let patternUnits = ["a", "b", "A", "*", "*", "?", "\\*", "\\?", "\\\\", "é", "e\u{301}", "ß", "ss", "\u{212A}"]
        let stringUnits = ["a", "b", "A", "B", "a", "b", "*", "?", "\\", "é", "e", "\u{301}", "ß", "s", "S", "k"]
        let optionSets: [ComparisonOptions] = [
            [], [.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive], [.normalized],
        ]
        var matches = 0
        func unit() -> String { stringUnits[Int(rng.next() % UInt64(stringUnits.count))] }
        for round in 0..<4000 {
            let units = (0..<Int(rng.next() % 9)).map { _ in patternUnits[Int(rng.next() % UInt64(patternUnits.count))] }
            let pattern = units.joined()
            // Half the strings are made from the pattern, to match it more often.
            let string = round % 2 == 0
                ? (0..<Int(rng.next() % 12)).map { _ in unit() }.joined()
                : units.map { u in
                    u == "*" ? (0..<Int(rng.next() % 4)).map { _ in unit() }.joined()
                        : (u == "?" ? unit() : (u.hasPrefix("\\") ? String(u.dropFirst()) : u))
                }.joined()
            for options in optionSets {
                let expected = referenceLike(
                    StringSemantics.key(string, options), LikePattern.compile(StringSemantics.key(pattern, options)))
                if expected { matches += 1 }
                #expect(LikePattern.matches(string, pattern, options) == expected,
                        "\(string.debugDescription) LIKE \(pattern.debugDescription) [\(options.letters)]")
            }
        }
        #expect(matches > 2000)
    }

    /// Segments longer than one word of shift-and (64 elements), and of
    /// lengths at the words' edges, agree with LIKE's definition: the state
    /// carried from word to word, the last bit in the last word.
    @Test func longLikeSegmentsAgreeWithDefinition() {
        var rng = SeededRandom(seed: 77)
        var matches = 0
        for round in 0..<300 {
            let length = [63, 64, 65, 127, 128, 129, 200][round % 7]
            // A segment of `a`, `b` and `?` between two stars, and a string
            // made around it (half the time from the segment itself).
            let segment = (0..<length).map { _ in ["a", "b", "?", "?"][Int(rng.next() % 4)] }
            let filled = segment.map { $0 == "?" ? (rng.next() % 2 == 0 ? "a" : "b") : $0 }.joined()
            let noise = { (n: Int) in (0..<n).map { _ in rng.next() % 3 == 0 ? "b" : "a" }.joined() }
            let string = round % 2 == 0 ? noise(Int(rng.next() % 300)) : noise(Int(rng.next() % 50)) + filled + noise(Int(rng.next() % 50))
            let pattern = "x*" + segment.joined() + "*y"
            let expected = referenceLike(StringSemantics.key("x" + string + "y", []), LikePattern.compile(StringSemantics.key(pattern, [])))
            if expected { matches += 1 }
            #expect(LikePattern.matches("x" + string + "y", pattern, []) == expected, "\(string) LIKE \(pattern)")
        }
        #expect(matches > 100)
    }

    /// Searches and LIKE whose place-by-place or backtracking forms took
    /// time n·m: 200,000 `a`s against `a…ab` (100,000 `a`s). Each took
    /// seconds (tens of seconds in a debug build) before the searches were
    /// linear; the answers are checked, and a return to n·m shows as a
    /// suite that takes minutes.
    @Test func adversarialSearchesAreLinear() throws {
        let hay = String(repeating: "a", count: 200_000)
        let needle = String(repeating: "a", count: 100_000) + "b"
        let found = String(repeating: "a", count: 100_000) + "aa"
        // A constant needle (ASCII bytes), a needle from the object (keys);
        // é keeps the ASCII path out, Ω the Latin tables.
        for format in ["s CONTAINS %@", "s CONTAINS[c] n", "s CONTAINS[cd] n"] {
            for (h, n, expected) in [(hay, needle, false), (hay, found, true), ("é" + hay + "Ω", needle, false), ("Ω" + hay, found, true)] {
                let filter = try Filter(format, arguments: [n])
                #expect(try filter.evaluate(with: ["s": .string(h), "n": .string(n)]) == expected, "\(format)")
            }
        }
        #expect(StringOperations.search("é" + hay, found, .substring, [.caseInsensitive, .diacriticInsensitive]))
        #expect(!StringOperations.search("é" + hay, needle, .substring, [.caseInsensitive]))
        // LIKE: a constant pattern and one from the object (the SQLite function's path).
        let filter = try Filter("s LIKE %@", arguments: ["*" + needle])
        #expect(try !filter.evaluate(with: ["s": .string(hay)]))
        #expect(try filter.evaluate(with: ["s": .string(hay + "b")]))
        #expect(!LikePattern.matches(hay, "*" + needle + "*", [.caseInsensitive]))
        #expect(LikePattern.matches(hay + "b", "*" + needle + "*", [.caseInsensitive]))
        // With a `?`, the segment is two runs of literals, found together;
        // with 2,000 `?`s (2,000 runs, each followed through the string
        // before), shift-and takes 63 words a scalar.
        let withAny = needle.prefix(50_000) + "?" + needle.dropFirst(50_001)
        #expect(!LikePattern.matches(hay, "*" + withAny + "*", []))
        #expect(LikePattern.matches("b" + hay + "b", "*" + withAny + "*", []))
        #expect(LikePattern.matches(hay + "ab", "*a?" + found.dropFirst(3) + "?b", []))
        let manyAny = String(repeating: "a?", count: 2_000) + "b"
        let shortHay = String(repeating: "a", count: 20_000)
        #expect(!LikePattern.matches(shortHay, "*" + manyAny + "*", []))
        #expect(LikePattern.matches(shortHay + "b", "*" + manyAny + "*", []))
        #expect(LikePattern.matches(shortHay + "b" + shortHay, "*" + manyAny + "*", [.caseInsensitive]))
    }

    /// `doubleValue` of a string: the longest prefix `Double` reads, found by
    /// one scan, is the one converting every prefix in turn finds (signs,
    /// points, exponents with and without digits, hexadecimal, `inf`,
    /// `infinity`, `nan(…)`, `snan`, whitespace before the number).
    @Test func leadingNumbersAgreeWithEveryPrefix() {
        func everyPrefix(_ s: String) -> Double {
            let trimmed = s.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
            var best: Double = 0
            var end = trimmed.startIndex
            while end < trimmed.endIndex {
                end = trimmed.index(after: end)
                if let d = Double(trimmed[..<end]) { best = d }
            }
            return best
        }
        var rng = SeededRandom(seed: 4)
        let units = [
            "0", "1", "7", "9", ".", "e", "E", "p", "P", "x", "X", "+", "-", "a", "f", "F", "i", "n", "N", "t", "y",
            "s", "(", ")", "_", " ", "\t", "\n", "\r", "é", "inf", "INFINITY", "nan", "nan(", "snan", "0x", "1e", "e-",
        ]
        var numbers = 0
        for _ in 0..<20_000 {
            let s = (0..<Int(rng.next() % 8)).map { _ in units[Int(rng.next() % UInt64(units.count))] }.joined()
            let expected = everyPrefix(s)
            let d = Conversions.leadingDouble(s)
            #expect(d.bitPattern == expected.bitPattern || (d.isNaN && expected.isNaN), "\(s.debugDescription)")
            if expected != 0 { numbers += 1 }
        }
        #expect(numbers > 3000)
    }

    /// 100,000 digits: `doubleValue` converting every prefix took seconds
    /// (minutes in a debug build); one scan and one conversion take
    /// milliseconds.
    @Test func longLeadingNumbers() throws {
        let zeros = String(repeating: "0", count: 100_000)
        let object: Value = ["d": .string(" " + zeros + "42.5e0x"), "e": .string(String(repeating: "1", count: 100_000) + "x")]
        #expect(try Filter("d.doubleValue == 42.5 AND d.floatValue == 42.5").evaluate(with: object))
        #expect(try Filter("d.intValue == 42 AND d.integerValue == 42 AND d.longLongValue == 42").evaluate(with: object))
        #expect(try Filter("e.doubleValue == %@", arguments: [Double.infinity]).evaluate(with: object))
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

/// BEGINSWITH / ENDSWITH / CONTAINS by their definition: the needle's key
/// compared with the haystack's at each place.
func naiveSearch(_ h: [UInt32], _ n: [UInt32], _ kind: StringSemantics.Search) -> Bool {
    if n.isEmpty || n.count > h.count { return false }
    let places = kind == .prefix ? 0...0 : (kind == .suffix ? (h.count - n.count)...(h.count - n.count) : 0...(h.count - n.count))
    return places.contains { i in (0..<n.count).allSatisfy { h[i + $0] == n[$0] } }
}

/// LIKE by its definition: whether the first `i` scalars of `s` match the
/// first `j` elements of `p`, for every `i` and `j` (a star matches any run,
/// `?` one scalar, a literal itself).
func referenceLike(_ s: [UInt32], _ p: [LikePattern.Element]) -> Bool {
    var match = Array(repeating: Array(repeating: false, count: p.count + 1), count: s.count + 1)
    match[0][0] = true
    for i in 0...s.count {
        for j in 1...max(1, p.count) where j <= p.count {
            switch p[j - 1] {
            case .star: match[i][j] = match[i][j - 1] || (i > 0 && match[i - 1][j])
            case .any: match[i][j] = i > 0 && match[i - 1][j - 1]
            case .literal(let c): match[i][j] = i > 0 && s[i - 1] == c && match[i - 1][j - 1]
            }
        }
    }
    return match[s.count][p.count]
}
