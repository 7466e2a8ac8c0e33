import Foundation

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
