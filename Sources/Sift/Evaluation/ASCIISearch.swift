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
    func search(_ haystack: String, _ kind: StringSemantics.Search) -> Bool? {
        var s = haystack
        return s.withUTF8 { h -> Bool? in
            let n = bytes.count
            if n > h.count {
                // Too short in bytes; the Unicode forms could still be longer
                // (NFD expands), unless the haystack is ASCII.
                for b in h where b >= 0x80 { return nil }
                return false
            }
            switch kind {
            case .prefix: return matchAt(h, 0)
            case .suffix: return matchAt(h, h.count - n)
            case .substring:
                for b in h where b >= 0x80 { return nil }
                let first = bytes[0]
                var i = 0
                let last = h.count - n
                while i <= last {
                    let c = foldCase ? ASCIINeedle.lower(h[i]) : h[i]
                    if c == first, matchAt(h, i) == true { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether the needle is at `offset`; nil if a byte there is not ASCII,
    /// or the character around the match is not ASCII (a combining mark
    /// after it, or a multi-byte sequence before it, needs the Unicode path).
    @inline(__always)
    private func matchAt(_ h: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Bool? {
        var equal = true
        for j in 0..<bytes.count {
            let b = h[offset + j]
            if b >= 0x80 { return nil }
            if (foldCase ? ASCIINeedle.lower(b) : b) != bytes[j] { equal = false }
        }
        if offset > 0, h[offset - 1] >= 0x80 { return nil }
        let end = offset + bytes.count
        if end < h.count, h[end] >= 0x80 { return nil }
        return equal
    }
}
