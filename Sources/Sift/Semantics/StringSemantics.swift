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
        let key: [UInt32]
        let ascii: ASCIINeedle?
        let kind: Search
        let options: ComparisonOptions
        /// The keys of Latin scalars under the options (not under `[n]`).
        let latin: LatinKeys.Table?

        /// Without `fastPaths` (``EvaluationPaths/generalOnly``) every
        /// haystack takes the Unicode path.
        init(_ needle: String, _ kind: Search, _ options: ComparisonOptions, fastPaths: Bool = true) {
            key = StringSemantics.key(needle, options)
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

/// LIKE: a whole-string glob where `*` matches any run of characters, `?`
/// exactly one (one Unicode scalar), and a backslash makes the next
/// character literal.
package enum LikePattern {
    /// One element of a pattern, after folding: the one form of a LIKE
    /// pattern that the evaluator, the SQLite function and the PostgreSQL
    /// dialect read.
    package enum Element: Equatable, Sendable {
        /// A scalar that stands for itself.
        case literal(UInt32)
        /// `?`: any one scalar (SQL's `_`).
        case any
        /// `*`: any run of scalars (SQL's `%`).
        case star
    }

    /// The pattern `pattern` (a key, ``StringSemantics/key(_:_:)``) in
    /// elements; a run of stars is one.
    static func compile(_ pattern: [UInt32]) -> [Element] {
        var out: [Element] = []
        var i = 0
        while i < pattern.count {
            let c = pattern[i]
            switch c {
            case 0x5C where i + 1 < pattern.count:  // backslash
                out.append(.literal(pattern[i + 1]))
                i += 2
                continue
            case 0x2A:  // *
                if out.last != .star { out.append(.star) }
            case 0x3F:  // ?
                out.append(.any)
            default:
                out.append(.literal(c))
            }
            i += 1
        }
        return out
    }

    /// The elements of `pattern` folded under `options`.
    package static func elements(_ pattern: String, _ options: ComparisonOptions) -> [Element] {
        compile(StringSemantics.key(pattern, options))
    }

    /// Whether `s` matches `pattern` as a whole under `options`.
    package static func matches(_ s: String, _ pattern: String, _ options: ComparisonOptions) -> Bool {
        matches(StringSemantics.key(s, options), elements(pattern, options))
    }

    /// Whether the key `s` matches the pattern `p` as a whole.
    static func matches(_ s: [UInt32], _ p: [Element]) -> Bool {
        Matcher(p).matches(s)
    }

    /// A pattern split at its stars, matched without backtracking.
    ///
    /// Between stars are segments of literals and `?`, each a fixed number
    /// of scalars. With no star the one segment must be the whole string.
    /// Otherwise the first segment is matched at the start, the last at the
    /// end, and each one in between at its leftmost place after the one
    /// before: that greedy choice is exact, because a segment placed further
    /// left leaves more of the string (a superset of the places) to the
    /// segments after it, and a star takes up whatever lies between. Each
    /// segment's search goes on from where the one before ended, so the
    /// string is read once, not once per way of placing the stars.
    struct Matcher: Sendable {
        let segments: [Segment]

        init(_ p: [Element]) {
            segments = p.split(separator: .star, omittingEmptySubsequences: false).map { Segment(Array($0)) }
        }

        func matches(_ s: [UInt32]) -> Bool {
            let first = segments[0]
            if segments.count == 1 { return s.count == first.count && first.matches(s, at: 0) }
            let last = segments[segments.count - 1]
            let end = s.count - last.count
            guard first.count <= end, first.matches(s, at: 0), last.matches(s, at: end) else { return false }
            var place = first.count
            for segment in segments[1..<(segments.count - 1)] {
                guard let found = segment.firstMatch(in: s, from: place, to: end) else { return false }
                place = found + segment.count
            }
            return true
        }
    }

    /// Literals and `?` between two stars.
    struct Segment: Sendable {
        let elements: [Element]
        /// The runs of literals, each with where it starts in the segment.
        let runs: [(offset: Int, key: SearchKey<UInt32>)]
        /// Shift-and's masks, for a segment with more runs than it has
        /// words of 64 elements.
        let masks: ShiftAndMasks?

        init(_ elements: [Element]) {
            self.elements = elements
            var runs: [(offset: Int, key: SearchKey<UInt32>)] = []
            var run: [UInt32] = []
            for (i, e) in elements.enumerated() {
                if case .literal(let c) = e {
                    run.append(c)
                } else if !run.isEmpty {
                    runs.append((i - run.count, SearchKey(run, automaton: true)))
                    run = []
                }
            }
            if !run.isEmpty { runs.append((elements.count - run.count, SearchKey(run, automaton: true))) }
            self.runs = runs
            masks = runs.count > (elements.count + 63) / 64 ? ShiftAndMasks(elements) : nil
        }

        var count: Int { elements.count }

        /// Whether the segment is in `s` at `offset`.
        func matches(_ s: [UInt32], at offset: Int) -> Bool {
            for (j, e) in elements.enumerated() {
                if case .literal(let c) = e, s[offset + j] != c { return false }
            }
            return true
        }

        /// The leftmost place in `from...end - count` where the segment is
        /// in `s`, in time O(n·min(r, ⌈m/64⌉)) for a string of n scalars
        /// and a segment of m elements in r runs of literals, where
        /// comparing the segment at each place could cost n·m.
        ///
        /// A segment without `?` is one run, found by its ``SearchKey``.
        /// Otherwise, with few runs (a long segment with a few `?`s), each
        /// run's automaton reads the string once, together, and counts at
        /// each place where the segment would start how many runs are
        /// there; a place where all of them are is a match, decided as soon
        /// as the segment's last element is read, so the first one decided
        /// is the leftmost: one step per run and scalar. With more runs than
        /// words of 64 elements (`?`s spread through the segment), shift-and
        /// (``ShiftAndMasks``) takes one step per word and scalar.
        func firstMatch(in s: [UInt32], from: Int, to end: Int) -> Int? {
            if count > end - from { return nil }
            if runs.isEmpty { return from }
            if runs.count == 1 && runs[0].key.count == count { return runs[0].key.firstMatch(in: s, from: from, to: end) }
            if let masks { return masks.firstMatch(in: s, from: from, to: end) }
            var states = [Int](repeating: 0, count: runs.count)
            // Runs found for the place i are counted at i % count: the place
            // is decided, and its slot cleared, before a run of place
            // i + count can end.
            var found = [Int](repeating: 0, count: count)
            var i = from
            while i < end {
                let c = s[i]
                i += 1
                for r in runs.indices {
                    let key = runs[r].key
                    states[r] = key.advance(states[r], c)
                    if states[r] == key.count {
                        let place = i - key.count - runs[r].offset
                        if place >= from { found[place % count] += 1 }
                    }
                }
                let place = i - count
                if place >= from {
                    if found[place % count] == runs.count { return place }
                    found[place % count] = 0
                }
            }
            return nil
        }
    }

    /// The masks of shift-and (Baeza-Yates–Gonnet) for a segment of
    /// literals and `?`: for each scalar of the segment, the positions it
    /// may stand at (its own, and every `?`), in words of 64 positions.
    /// After each scalar of the string, bit j of the state says whether the
    /// segment's first j + 1 elements end there; the first time the last
    /// bit is set the place is decided, and it is the leftmost.
    struct ShiftAndMasks: Sendable {
        let count: Int
        let words: Int
        /// The positions of the `?`s: the mask of a scalar not in the segment.
        let any: [UInt64]
        /// Each literal's row in `rows`.
        let row: [UInt32: Int]
        /// `words` masks per distinct literal, one after another.
        let rows: [UInt64]

        init(_ elements: [Element]) {
            count = elements.count
            words = (elements.count + 63) / 64
            var any = [UInt64](repeating: 0, count: words)
            for (j, e) in elements.enumerated() where e == .any { any[j / 64] |= 1 << UInt64(j % 64) }
            var row: [UInt32: Int] = [:]
            var rows: [UInt64] = []
            for (j, e) in elements.enumerated() {
                guard case .literal(let c) = e else { continue }
                let r: Int
                if let known = row[c] {
                    r = known
                } else {
                    r = row.count
                    row[c] = r
                    rows.append(contentsOf: any)
                }
                rows[r * words + j / 64] |= 1 << UInt64(j % 64)
            }
            self.any = any
            self.row = row
            self.rows = rows
        }

        func firstMatch(in s: [UInt32], from: Int, to end: Int) -> Int? {
            let lastWord = (count - 1) / 64
            let lastBit: UInt64 = 1 << UInt64((count - 1) % 64)
            if words == 1 {
                var state: UInt64 = 0
                var i = from
                while i < end {
                    let mask = row[s[i]].map { rows[$0] } ?? any[0]
                    state = ((state << 1) | 1) & mask
                    i += 1
                    if state & lastBit != 0 { return i - count }
                }
                return nil
            }
            var state = [UInt64](repeating: 0, count: words)
            var i = from
            while i < end {
                let base = row[s[i]].map { $0 * words }
                var carry: UInt64 = 1
                for w in 0..<words {
                    let shifted = (state[w] << 1) | carry
                    carry = state[w] >> 63
                    state[w] = shifted & (base.map { rows[$0 + w] } ?? any[w])
                }
                i += 1
                if state[lastWord] & lastBit != 0 { return i - count }
            }
            return nil
        }
    }
}

/// Keys of strings made only of scalars below U+0250 (ASCII, Latin-1 and
/// the Latin Extended letters), without Foundation's normalisation: each
/// scalar's key is looked up in a table made by ``StringSemantics/unicodeKey``
/// from the scalar alone. That is exact because, for such strings, the key
/// of the whole is the keys of the scalars one after another: case mapping is
/// per scalar, none of these scalars is a combining mark, and each one's
/// decomposition starts with a base character, so canonical reordering never
/// moves a mark from one scalar's part into another's.
enum LatinKeys {
    static let limit: UInt32 = 0x250

    /// Tables by option: [plain, [c], [d], [cd]]; entry `v - 0x80`.
    static let tables: [[[UInt32]]] = (0..<4).map { n in
        var options: ComparisonOptions = []
        if n & 1 != 0 { options.insert(.caseInsensitive) }
        if n & 2 != 0 { options.insert(.diacriticInsensitive) }
        return (0x80..<limit).map { v in
            StringSemantics.unicodeKey(String(Character(Unicode.Scalar(v)!)), options)
        }
    }

    /// The tables of one set of options in one array: the keys of every
    /// scalar one after another, and where each one's key is (its start
    /// times 256 plus its length).
    struct Table: Sendable {
        let keys: [UInt32]
        let places: [UInt32]
        let fold: Bool
        /// The most scalars a key has.
        let longest: Int

        /// Whether `haystack` begins with, ends with or contains the key
        /// `n`, from the haystack's key made on the stack; nil when the
        /// haystack has a scalar at or above U+0250, or is long.
        func search(_ haystack: String, _ n: [UInt32], _ kind: StringSemantics.Search) -> Bool? {
            // Native strings give their UTF-8 in place; others are copied.
            if let answer = haystack.utf8.withContiguousStorageIfAvailable({ search(utf8: $0, n, kind) }) {
                return answer
            }
            var copy = haystack
            return copy.withUTF8 { search(utf8: $0, n, kind) }
        }

        /// The same, for a haystack given as valid UTF-8 (a string's, or
        /// bytes checked as decoding checks them). Every scalar below
        /// U+0250 and not ASCII is two bytes with a lead of 0xC2 to 0xC9;
        /// any other lead is of a scalar beyond the tables.
        func search(utf8 h: UnsafeBufferPointer<UInt8>, _ n: [UInt32], _ kind: StringSemantics.Search) -> Bool? {
            let capacity = h.count * longest
            guard capacity <= 512 else { return nil }
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { buffer -> Bool? in
                keys.withUnsafeBufferPointer { keys -> Bool? in
                    places.withUnsafeBufferPointer { places -> Bool? in
                        var k = 0
                        var i = 0
                        while i < h.count {
                            let b = h[i]
                            if b < 0x80 {
                                let v = UInt32(b)
                                buffer[k] = fold && v &- 0x41 < 26 ? v | 0x20 : v
                                k += 1
                                i += 1
                                continue
                            }
                            guard b &- 0xC2 < 8, i + 1 < h.count else { return nil }
                            let v = UInt32(b & 0x1F) << 6 | UInt32(h[i + 1] & 0x3F)
                            guard v < LatinKeys.limit else { return nil }
                            let place = places[Int(v - 0x80)]
                            let start = Int(place >> 8)
                            let count = Int(place & 0xFF)
                            for j in 0..<count { buffer[k + j] = keys[start + j] }
                            k += count
                            i += 2
                        }
                        return StringSemantics.search(UnsafeBufferPointer(rebasing: buffer[..<k]), n, kind)
                    }
                }
            }
        }
    }

    static let flatTables: [Table] = tables.enumerated().map { n, table in
        var keys: [UInt32] = []
        var places: [UInt32] = []
        for key in table {
            places.append(UInt32(keys.count) << 8 | UInt32(key.count))
            keys += key
        }
        return Table(keys: keys, places: places, fold: n & 1 != 0, longest: max(1, table.map(\.count).max() ?? 1))
    }

    static func table(fold: Bool, stripMarks: Bool) -> Table {
        flatTables[(fold ? 1 : 0) | (stripMarks ? 2 : 0)]
    }

    /// The key, or nil when the string has a scalar at or above U+0250.
    static func key(_ s: String, fold: Bool, stripMarks: Bool) -> [UInt32]? {
        let table = tables[(fold ? 1 : 0) | (stripMarks ? 2 : 0)]
        var out: [UInt32] = []
        out.reserveCapacity(s.utf8.count)
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x80 {
                out.append(fold && v &- 0x41 < 26 ? v | 0x20 : v)
            } else if v < limit {
                out.append(contentsOf: table[Int(v - 0x80)])
            } else {
                return nil
            }
        }
        return out
    }
}
