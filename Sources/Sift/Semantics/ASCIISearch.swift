/// Allocation-free BEGINSWITH / ENDSWITH / CONTAINS for an ASCII needle
/// known when compiling. It answers only when the part of the haystack that
/// decides the answer is ASCII too (then case folding is a byte operation and
/// there is nothing to normalise or strip); otherwise it returns nil and the
/// caller takes the Unicode path, so both paths always agree.
struct ASCIINeedle: Sendable {
    /// The needle's bytes, in lower case under `[c]`.
    let bytes: [UInt8]
    let foldCase: Bool
    /// A needle of at most 8 bytes (none of them NUL) as a word, first
    /// byte lowest, for haystacks kept inline; 0 bytes otherwise.
    let word: UInt64
    let wordBytes: Int

    init?(_ needle: String, _ options: ComparisonOptions) {
        guard !needle.isEmpty, needle.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let fold = options.contains(.caseInsensitive) && !options.contains(.normalized)
        foldCase = fold
        let bytes = needle.utf8.map { fold ? ASCIINeedle.lower($0) : $0 }
        self.bytes = bytes
        if bytes.count <= 8 && !bytes.contains(0) && InlineString.layoutHolds {
            word = bytes.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * $1.offset) }
            wordBytes = bytes.count
        } else {
            (word, wordBytes) = (0, 0)
        }
    }

    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 {
        b &- 0x41 < 26 ? b | 0x20 : b
    }

    /// The answer, or nil if the Unicode path must decide.
    @inline(__always)
    func search(_ haystack: String, _ kind: StringSemantics.Search) -> Bool? {
        if wordBytes > 0, let answer = searchInline(haystack, kind) { return answer }
        // Native strings give their UTF-8 in place (no copy, no retain).
        let answer = haystack.utf8.withContiguousStorageIfAvailable { h -> Bool? in search(h, kind) }
        return answer ?? nil
    }

    /// The answer for a haystack of ASCII kept inline (at most 15 bytes in
    /// the string value's two words), by whole words, without a loop over
    /// the haystack: folded to lower case eight bytes at a time, each byte
    /// of the needle marks where the haystack has it, and the marks shifted
    /// by the byte's place in the needle and combined leave the offsets
    /// where the whole needle starts. Nil for any other haystack.
    @inline(__always)
    private func searchInline(_ haystack: String, _ kind: StringSemantics.Search) -> Bool? {
        let (low, high) = InlineString.words(of: haystack)
        guard InlineString.isInline(high) else { return nil }
        let count = Int(truncatingIfNeeded: high >> 56) & 0x0F
        let n = wordBytes
        var lo = low
        var hi = high & 0x00FF_FFFF_FFFF_FFFF
        if (lo | hi) & 0x8080_8080_8080_8080 != 0 { return nil }
        if n > count { return false }
        if foldCase {
            lo = Self.lower(word: lo)
            hi = Self.lower(word: hi)
        }
        // The high bit of each byte where the needle can start: from 0 to
        // count - n, one offset for a prefix or a suffix.
        let first = kind == .suffix ? count - n : 0
        let end = kind == .prefix ? 1 : count - n + 1
        var startLo = (Self.below(end) & ~Self.below(first)) & 0x8080_8080_8080_8080
        var startHi = (Self.below(end - 8) & ~Self.below(first - 8)) & 0x8080_8080_8080_8080
        // Byte j of the needle at offset i means byte i + j equals it (the
        // shifts are by 8 to 56 bits: the needle has 1 to 8 bytes).
        let b0 = Self.ones &* (word & 0xFF)
        startLo &= Self.zeroBytes(lo ^ b0)
        startHi &= Self.zeroBytes(hi ^ b0)
        var needle = word &>> 8
        var shift: UInt64 = 8
        while needle != 0 {
            let b = Self.ones &* (needle & 0xFF)
            let (eqLo, eqHi) = (Self.zeroBytes(lo ^ b), Self.zeroBytes(hi ^ b))
            startLo &= eqLo &>> shift | eqHi &<< (64 &- shift)
            startHi &= eqHi &>> shift
            needle &>>= 8
            shift &+= 8
        }
        return startLo | startHi != 0
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101

    /// The bytes of a word below byte `k` (all of them from 8 on, none below 0).
    @inline(__always)
    private static func below(_ k: Int) -> UInt64 {
        k >= 8 ? ~0 : (k <= 0 ? 0 : (1 &<< (8 &* UInt64(k))) &- 1)
    }

    /// The high bit of each byte of `x` (all below 0x80) that is zero.
    @inline(__always)
    private static func zeroBytes(_ x: UInt64) -> UInt64 {
        ~(x &+ 0x7F7F_7F7F_7F7F_7F7F) & 0x8080_8080_8080_8080
    }

    /// The bytes of `w`, all ASCII, with A–Z in lower case.
    @inline(__always)
    static func lower(word w: UInt64) -> UInt64 {
        // A byte's high bit is set in `atLeastA` when it is >= 'A', in
        // `pastZ` when it is > 'Z' (no byte carries into the next: all < 0x80).
        let atLeastA = w &+ 0x3F3F_3F3F_3F3F_3F3F
        let pastZ = w &+ 0x2525_2525_2525_2525
        let upper = atLeastA & ~pastZ & 0x8080_8080_8080_8080
        return w | upper >> 2
    }

    func search(_ h: UnsafeBufferPointer<UInt8>, _ kind: StringSemantics.Search) -> Bool? {
        let n = bytes.count
        if n > h.count {
            // Too short in bytes; the Unicode forms could still be longer
            // (NFD expands), unless the haystack is ASCII.
            for b in h where b >= 0x80 { return nil }
            return false
        }
        switch kind {
        case .prefix:
            // Left to right: a byte that differs while everything before it
            // is ASCII decides (each ASCII character is one scalar of the
            // key, whatever follows).
            for j in 0..<n {
                let b = h[j]
                if b >= 0x80 { return nil }
                if fold(b) != bytes[j] { return false }
            }
            return n < h.count && h[n] >= 0x80 ? nil : true
        case .suffix:
            // Right to left, the same way from the end.
            let start = h.count - n
            var j = n - 1
            while j >= 0 {
                let b = h[start + j]
                if b >= 0x80 { return nil }
                if fold(b) != bytes[j] { return false }
                j -= 1
            }
            return start > 0 && h[start - 1] >= 0x80 ? nil : true
        case .substring:
            // A match among ASCII bytes, with ASCII (or nothing) on both
            // sides, is a match (a byte of the folded haystack that is not
            // ASCII never equals one of the needle); no match says nothing
            // if the haystack has other characters (é folds to e under [d]).
            if n > SearchKey<UInt8>.shortNeedle {
                // A long needle with its table, made for the call (kept with
                // the needle, it made every copy of a short one dearer).
                let long = SearchKey(bytes)
                let folded = h.lazy.map { fold($0) }
                if long.firstMatch(in: folded, where: { asciiAround(h, $0) }) != nil { return true }
                for b in h where b >= 0x80 { return nil }
                return false
            }
            // A short needle place by place: at most ``SearchKey/shortNeedle``
            // comparisons per byte.
            var ascii = true
            let first = bytes[0]
            let last = h.count - n
            var i = 0
            while i < h.count {
                let b = h[i]
                if b >= 0x80 {
                    ascii = false
                } else if i <= last, fold(b) == first, matchAt(h, i), asciiAround(h, i) {
                    return true
                }
                i += 1
            }
            return ascii ? false : nil
        }
    }

    /// Whether the folded needle is at `offset` (its first byte is known to
    /// be; a byte that is not ASCII never equals one of the needle).
    @inline(__always)
    private func matchAt(_ h: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        var j = 1
        while j < bytes.count {
            if fold(h[offset + j]) != bytes[j] { return false }
            j += 1
        }
        return true
    }

    @inline(__always)
    private func fold(_ b: UInt8) -> UInt8 { foldCase ? ASCIINeedle.lower(b) : b }

    /// Whether the characters before and after the needle at `offset` are
    /// ASCII (or the haystack's ends): a combining mark after it, or a
    /// multi-byte sequence before it, needs the Unicode path.
    @inline(__always)
    private func asciiAround(_ h: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool {
        if offset > 0, h[offset - 1] >= 0x80 { return false }
        let end = offset + bytes.count
        return end == h.count || h[end] < 0x80
    }
}
