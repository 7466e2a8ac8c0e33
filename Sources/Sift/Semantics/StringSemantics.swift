import Foundation

/// String comparison under the options `[c]`, `[d]`, `[n]`, as NSString's
/// `compare:options:` and `rangeOfString:options:` do them.
///
/// - Without `[n]` comparisons are *non-literal*: canonically equivalent
///   strings (`"café"` and `"cafe\u{301}"`) are the same. Both sides are put in
///   canonical decomposition (NFD) before comparing.
/// - `[c]` folds case fully (`"ß"` matches `"SS"`), `[d]` drops combining
///   marks (`"é"` matches `"e"`).
/// - `[n]` compares code units literally and ignores `[c]`/`[d]`.
/// - ASCII strings take a fast path: they are already in NFD, and case
///   folding is a byte operation.
enum StringSemantics {
    /// The form in which two strings are compared under `options`: a
    /// sequence of Unicode scalars (UTF-8 bytes for ASCII input).
    static func key(_ s: String, _ options: ComparisonOptions) -> [UInt32] {
        // `[s]` overrides the other options: its key is the decomposition.
        if options.contains(.swiftString) { return key(s, []) }
        if options.contains(.normalized) {
            return s.unicodeScalars.map { $0.value }
        }
        let fold = options.contains(.caseInsensitive)
        if s.utf8.allSatisfy({ $0 < 0x80 }) {
            return s.utf8.map { b in
                fold && b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z") ? UInt32(b | 0x20) : UInt32(b)
            }
        }
        if let latin = LatinKeys.key(s, fold: fold, stripMarks: options.contains(.diacriticInsensitive)) {
            return latin
        }
        return unicodeKey(s, options)
    }

    /// The key of any string: full case folding, canonical decomposition,
    /// and without combining marks under `[d]`.
    static func unicodeKey(_ s: String, _ options: ComparisonOptions) -> [UInt32] {
        var t = s
        if options.contains(.caseInsensitive) { t = t.uppercased().lowercased() }
        let scalars = decomposed(t)
        if options.contains(.diacriticInsensitive) {
            return scalars.lazy.filter { !isCombiningMark($0) }.map { $0.value }
        }
        return scalars.map { $0.value }
    }

    /// The longest run of combining marks (canonical combining class not 0)
    /// that Foundation's decomposition is given whole: it puts a run in
    /// canonical order by exchanging neighbours, in time quadratic in the
    /// run's length (a grapheme of 120,000 marks took 17.5 s).
    static let longestFoundationRun = 32

    /// The canonical decomposition (NFD) of `s`, in time linear in its
    /// length up to a log factor: Foundation's when no run of combining
    /// marks is longer than ``longestFoundationRun``; else each scalar
    /// decomposed alone and each run of marks put in canonical order by a
    /// stable sort on the combining class, which is the same result.
    static func decomposed(_ s: String) -> [Unicode.Scalar] {
        var run = 0
        var longest = 0
        for u in s.unicodeScalars {
            run = u.properties.canonicalCombiningClass.rawValue == 0 ? 0 : run + 1
            longest = max(longest, run)
        }
        guard longest > longestFoundationRun else { return Array(s.decomposedStringWithCanonicalMapping.unicodeScalars) }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(s.unicodeScalars.count)
        for u in s.unicodeScalars {
            if u.isASCII {
                out.append(u)
            } else {
                out += String(u).decomposedStringWithCanonicalMapping.unicodeScalars
            }
        }
        // Canonical ordering: each run of non-starters sorted by class,
        // keeping the order of marks of one class.
        var start = 0
        while start < out.count {
            guard out[start].properties.canonicalCombiningClass.rawValue != 0 else {
                start += 1
                continue
            }
            var end = start
            while end < out.count, out[end].properties.canonicalCombiningClass.rawValue != 0 { end += 1 }
            if end - start > 1 {
                let ordered = out[start..<end].enumerated()
                    .sorted { a, b in
                        let (x, y) = (a.element.properties.canonicalCombiningClass.rawValue, b.element.properties.canonicalCombiningClass.rawValue)
                        return x != y ? x < y : a.offset < b.offset
                    }
                    .map(\.element)
                out.replaceSubrange(start..<end, with: ordered)
            }
            start = end
        }
        return out
    }

    static func isCombiningMark(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .spacingMark: return true
        default: return false
        }
    }

    /// `compare:options:` — lexicographic by UTF-16 code unit of the
    /// normalised forms.
    static func compare(_ a: String, _ b: String, _ options: ComparisonOptions) -> ComparisonResult {
        if options.contains(.swiftString) { return SwiftStrings.compare(a, b) }
        let x = utf16(key(a, options))
        let y = utf16(key(b, options))
        for (p, q) in zip(x, y) where p != q {
            return p < q ? .orderedAscending : .orderedDescending
        }
        return x.count < y.count ? .orderedAscending : (x.count > y.count ? .orderedDescending : .orderedSame)
    }

    /// Equality under options (`==[c]`); without options equality is literal
    /// and does not come here.
    static func equal(_ a: String, _ b: String, _ options: ComparisonOptions) -> Bool {
        key(a, options) == key(b, options)
    }

    private static func utf16(_ scalars: [UInt32]) -> [UInt16] {
        var out: [UInt16] = []
        out.reserveCapacity(scalars.count)
        for v in scalars {
            if v < 0x10000 {
                out.append(UInt16(v))
            } else {
                let w = v - 0x10000
                out.append(UInt16(0xD800 + (w >> 10)))
                out.append(UInt16(0xDC00 + (w & 0x3FF)))
            }
        }
        return out
    }

    // MARK: - Searching

    /// Where a search looks for its needle (the one ``SearchKind``).
    typealias Search = SearchKind

    /// Equality without options is literal (code unit by code unit), as
    /// `isEqualToString:`: Swift's `==` is canonical equivalence, under which
    /// even an ASCII string has other forms (the Kelvin sign is `K`).
    @inline(__always)
    static func literallyEqual(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// BEGINSWITH / ENDSWITH / CONTAINS on strings. An empty needle never
    /// matches, as in Foundation.
    static func search(_ haystack: String, _ needle: String, _ kind: Search, _ options: ComparisonOptions) -> Bool {
        if options.contains(.swiftString) { return SwiftStrings.search(haystack, needle, kind) }
        if needle.isEmpty { return false }
        return search(haystack, key: key(needle, options), kind, options)
    }

    /// Searches for an already folded needle. For a prefix or suffix only
    /// the characters that can take part are folded: the key of a string is
    /// the keys of its characters one after another, so the first (last)
    /// characters whose keys make at least `n` scalars decide. Most
    /// characters fold to at least one scalar, so `n + 1` characters are
    /// usually enough; a character can fold to none (a combining mark on its
    /// own, after a control character or at the start, under `[d]`), and
    /// then more are taken.
    static func search(_ haystack: String, key n: [UInt32], _ kind: Search, _ options: ComparisonOptions) -> Bool {
        switch kind {
        case .prefix, .suffix:
            var m = n.count + 1
            while true {
                let part = kind == .prefix ? haystack.prefix(m) : haystack.suffix(m)
                let k = key(String(part), options)
                let whole = kind == .prefix ? part.endIndex == haystack.endIndex : part.startIndex == haystack.startIndex
                if k.count >= n.count || whole { return search(k, n, kind) }
                m *= 2
            }
        case .substring:
            return search(key(haystack, options), n, kind)
        }
    }

    /// A constant needle prepared once: folded for the Unicode path, and as
    /// bytes for the ASCII fast path when it is ASCII.
    struct Needle: Sendable {
        /// The needle as written, for `[s]`, which searches characters.
        let text: String
        let key: [UInt32]
        let ascii: ASCIINeedle?
        let kind: Search
        let options: ComparisonOptions
        /// The keys of Latin scalars under the options (not under `[n]`).
        let latin: LatinKeys.Table?

        /// Without `fastPaths` (``EvaluationPaths/generalOnly``) every
        /// haystack takes the Unicode path.
        init(_ needle: String, _ kind: Search, _ options: ComparisonOptions, fastPaths: Bool = true) {
            text = needle
            key = StringSemantics.key(needle, options)
            // Swift's searches compare characters, which no fast path does.
            let fastPaths = fastPaths && !options.contains(.swiftString)
            ascii = fastPaths ? ASCIINeedle(needle, options) : nil
            self.kind = kind
            self.options = options
            latin = !fastPaths || options.contains(.normalized) || key.isEmpty
                ? nil : LatinKeys.table(fold: options.contains(.caseInsensitive), stripMarks: options.contains(.diacriticInsensitive))
        }

        /// Whether `haystack` begins with, ends with or contains the needle.
        func found(in haystack: String) -> Bool {
            // Optional chaining calls on the stored needles in place; `if let`
            // would copy them (and retain their arrays) for every haystack.
            if let answer = ascii?.search(haystack, kind) { return answer }
            if let answer = latin?.search(haystack, key, kind) { return answer }
            if options.contains(.swiftString) { return SwiftStrings.search(haystack, text, kind) }
            return StringSemantics.search(haystack, key: key, kind, options)
        }

        /// Whether the string whose valid UTF-8 is `h` begins with, ends
        /// with or contains the needle, when the fast paths can tell on the
        /// bytes; nil when only the string's Unicode path can (or the fast
        /// paths are off).
        @inline(__always)
        func found(utf8 h: UnsafeBufferPointer<UInt8>) -> Bool? {
            if let answer = ascii?.search(h, kind) { return answer }
            if let answer = latin?.search(utf8: h, key, kind) { return answer }
            return nil
        }
    }

    /// Whether the key `h` begins with, ends with or contains the key `n`,
    /// in time linear in `h`: a needle of up to ``SearchKey/shortNeedle``
    /// scalars place by place (at most that many comparisons a scalar), a
    /// longer one with ``SearchKey`` (its table, O(n), made for the call: a
    /// key kept with the needle would be copied, with its second array, at
    /// every call of the fast paths that share this one).
    static func search<H: RandomAccessCollection<UInt32>>(_ h: H, _ n: [UInt32], _ kind: Search) -> Bool
    where H.Index == Int, H.SubSequence: Collection<UInt32> {
        if n.isEmpty || n.count > h.count { return false }
        switch kind {
        case .prefix: return h.starts(with: n)
        case .suffix: return h[(h.count - n.count)...].elementsEqual(n)
        case .substring:
            guard n.count <= SearchKey<UInt32>.shortNeedle else { return SearchKey(n).firstMatch(in: h) != nil }
            let first = n[0]
            var i = 0
            let last = h.count - n.count
            while i <= last {
                if h[i] == first && h[i..<(i + n.count)].elementsEqual(n) { return true }
                i += 1
            }
            return false
        }
    }
}
