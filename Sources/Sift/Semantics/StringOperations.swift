import Foundation

/// The string semantics of the evaluator, for the SQL lowering and the
/// functions it registers on a database: one implementation, so that a
/// predicate answers the same in memory and in SQL. The patterns have
/// theirs where they are implemented: ``LikePattern`` and
/// ``MatchesPattern`` (`Regex.swift`).
package enum StringOperations {
    /// Where a search looks for its needle (the one ``SearchKind``).
    package typealias SearchKind = Sift.SearchKind

    /// The form in which strings are compared under `options`: canonical
    /// decomposition, case-folded for `[c]`, without combining marks for
    /// `[d]`, untouched for `[n]`. Two strings are equal under the options
    /// exactly when their folded forms are equal.
    package static func folded(_ s: String, _ options: ComparisonOptions) -> String {
        var out = String.UnicodeScalarView()
        for v in StringSemantics.key(s, options) {
            if let u = Unicode.Scalar(v) { out.append(u) }
        }
        return String(out)
    }

    /// The scalars that `[d]` removes from the canonical decomposition: the
    /// combining marks of every script (general categories Mn, Mc and Me,
    /// as this runtime's Unicode tables assign them), as ranges in
    /// ascending order, for a dialect that strips them with a character
    /// class. Read from the same test the evaluator uses, once.
    package static let combiningMarkRanges: [ClosedRange<UInt32>] = {
        var ranges: [ClosedRange<UInt32>] = []
        for v in UInt32(0x80)...0x10FFFF {
            guard let u = Unicode.Scalar(v), StringSemantics.isCombiningMark(u) else { continue }
            if let last = ranges.last, last.upperBound == v - 1 {
                ranges[ranges.count - 1] = last.lowerBound...v
            } else {
                ranges.append(v...v)
            }
        }
        return ranges
    }()

    /// Bytes whose order is the order of a sort of strings: the UTF-16
    /// code units (big-endian) of the folded form for `compare:` (no
    /// options) and `caseInsensitiveCompare:` (`[c]`), which compare by
    /// them; the UTF-8 of the NFC form for `swiftCompare:` (`[s]`), which
    /// orders their scalars.
    package static func sortKey(_ s: String, _ options: ComparisonOptions) -> [UInt8] {
        var key: [UInt8] = []
        if options.contains(.swiftString) {
            key.append(contentsOf: SwiftStrings.bounded(s).precomposedStringWithCanonicalMapping.utf8)
            return key
        }
        for unit in folded(s, options).utf16 { key += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        return key
    }

    /// `compare:options:` as the evaluator orders strings: -1, 0 or 1.
    package static func compare(_ a: String, _ b: String, _ options: ComparisonOptions) -> Int {
        switch StringSemantics.compare(a, b, options) {
        case .orderedAscending: return -1
        case .orderedSame: return 0
        case .orderedDescending: return 1
        }
    }

    /// Whether `haystack` has `needle` where `kind` says.
    package static func search(_ haystack: String, _ needle: String, _ kind: SearchKind, _ options: ComparisonOptions)
        -> Bool
    {
        StringSemantics.search(haystack, needle, kind, options)
    }
}
