/// Allocation-free BEGINSWITH / ENDSWITH / CONTAINS for an ASCII needle
/// known when compiling. It answers only when the part of the haystack that
/// decides the answer is ASCII too (then case folding is a byte operation and
/// there is nothing to normalise or strip); otherwise it returns nil and the
/// caller takes the Unicode path, so both paths always agree.
struct ASCIINeedle: Sendable {
    let bytes: [UInt8]
    let foldCase: Bool

    init?(_ needle: String, _ options: ComparisonOptions) {
        guard !needle.isEmpty, needle.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let fold = options.contains(.caseInsensitive) && !options.contains(.normalized)
        foldCase = fold
        bytes = needle.utf8.map { fold ? ASCIINeedle.lower($0) : $0 }
    }

    @inline(__always)
    static func lower(_ b: UInt8) -> UInt8 {
        b &- 0x41 < 26 ? b | 0x20 : b
    }

    /// The answer, or nil if the Unicode path must decide.
    @inline(__always)
    func search(_ haystack: String, _ kind: StringSemantics.Search) -> Bool? {
        // Native strings give their UTF-8 in place (no copy, no retain).
        let answer = haystack.utf8.withContiguousStorageIfAvailable { h -> Bool? in search(h, kind) }
        return answer ?? nil
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
            // sides, is a match; no match says nothing if the haystack has
            // other characters (é folds to e under [d]).
            var ascii = true
            let first = bytes[0]
            let last = h.count - n
            var i = 0
            while i < h.count {
                let b = h[i]
                if b >= 0x80 {
                    ascii = false
                } else if i <= last, fold(b) == first, matchAt(h, i) == true {
                    return true
                }
                i += 1
            }
            return ascii ? false : nil
        }
    }

    @inline(__always)
    private func fold(_ b: UInt8) -> UInt8 { foldCase ? ASCIINeedle.lower(b) : b }

    /// Whether the needle is at `offset`; nil if a byte there is not ASCII,
    /// or the character around the match is not ASCII (a combining mark
    /// after it, or a multi-byte sequence before it, needs the Unicode path).
    @inline(__always)
    private func matchAt(_ h: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool? {
        var equal = true
        for j in 0..<bytes.count {
            let b = h[offset + j]
            if b >= 0x80 { return nil }
            if fold(b) != bytes[j] { equal = false }
        }
        if offset > 0, h[offset - 1] >= 0x80 { return nil }
        let end = offset + bytes.count
        if end < h.count, h[end] >= 0x80 { return nil }
        return equal
    }
}
