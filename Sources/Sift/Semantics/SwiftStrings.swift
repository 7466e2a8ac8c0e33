import Foundation

/// Swift's `String` semantics, for the `[s]` option: what `==`, `<`,
/// `starts(with:)` and `contains(_:)` answer on Swift strings, so that a
/// converted `#Predicate` answers as it does.
///
/// Equality under `[s]` is canonical equivalence, which the non-literal
/// key of ``StringSemantics`` already compares (two strings are canonically
/// equivalent exactly when their decompositions are equal): only the order
/// and the searches are Swift's own.
enum SwiftStrings {
    /// What Swift's `==` and `<` say of `a` and `b`, for `[s]`'s `<`,
    /// `<=`, `>`, `>=` and BETWEEN: ascending when `a < b`, descending when
    /// `b < a`, and the same otherwise. Swift's `<` is meant to order the
    /// Unicode scalars of the NFC forms, but orders a few pairs of unequal
    /// strings neither way (`"e\u{301}"` and `"\u{E9}e"`): for them `a < b`
    /// and `a > b` are false and `a <= b` and `a >= b` true, as in Swift
    /// (`<=` is `!(b < a)`). `==[s]` is canonical equivalence, apart.
    static func compare(_ a: String, _ b: String) -> ComparisonResult {
        let (x, y) = (bounded(a), bounded(b))
        if x == y { return .orderedSame }
        if x < y { return .orderedAscending }
        return y < x ? .orderedDescending : .orderedSame
    }

    /// The order `swiftCompare:` sorts by: the Unicode scalars of the NFC
    /// forms, lexicographically (the bytes of their UTF-8, as PostgreSQL's
    /// `normalize(x, NFC) COLLATE "C"` orders them). It is Swift's `<`
    /// wherever Swift's `<` orders a pair; a sort needs an order of every
    /// pair, so it orders too the few that Swift's `<` orders neither way,
    /// whose place in Swift's `sorted(using:)` depends on its algorithm.
    ///
    /// Swift's `<` answers first, without making the NFC forms; only a pair
    /// it orders neither way is normalized.
    static func order(_ a: String, _ b: String) -> ComparisonResult {
        let c = compare(a, b)
        guard c == .orderedSame, a != b else { return c }
        let x = bounded(a).precomposedStringWithCanonicalMapping.unicodeScalars
        let y = bounded(b).precomposedStringWithCanonicalMapping.unicodeScalars
        if x.elementsEqual(y) { return .orderedSame }
        return x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
    }

    /// `s`, or its canonical decomposition when it has a run of combining
    /// marks longer than ``StringSemantics/longestFoundationRun``. Swift puts
    /// a run in canonical order in time quadratic in its length (a run of
    /// 120,000 marks took 12.8 s to compare), and reads one already in that
    /// order in linear time; ``StringSemantics/decomposed(_:)`` orders it in
    /// linear time. The two are canonically equivalent, so Swift's `==`, `<`
    /// and characters answer the same of either.
    static func bounded(_ s: String) -> String {
        var run = 0
        for u in s.unicodeScalars {
            guard u.properties.canonicalCombiningClass.rawValue != 0 else {
                run = 0
                continue
            }
            run += 1
            if run > StringSemantics.longestFoundationRun {
                return String(String.UnicodeScalarView(StringSemantics.decomposed(s)))
            }
        }
        return s
    }

    /// Whether `haystack`'s characters (grapheme clusters) begin with, end
    /// with or contain `needle`'s, each pair compared as Swift compares
    /// characters (canonical equivalence). An empty needle is found in every
    /// string, as `starts(with: "")` and `contains("")` find it.
    static func search(_ haystack: String, _ needle: String, _ kind: SearchKind) -> Bool {
        let (haystack, needle) = (bounded(haystack), bounded(needle))
        switch kind {
        case .prefix: return haystack.starts(with: needle)
        case .suffix: return haystack.reversed().starts(with: needle.reversed())
        case .substring: return contains(Array(haystack), Array(needle))
        }
    }

    /// Knuth–Morris–Pratt over characters: time linear in the two lengths.
    private static func contains(_ h: [Character], _ n: [Character]) -> Bool {
        if n.isEmpty { return true }
        if n.count > h.count { return false }
        var fallback = [Int](repeating: 0, count: n.count)
        var k = 0
        for i in 1..<n.count {
            while k > 0 && n[i] != n[k] { k = fallback[k - 1] }
            if n[i] == n[k] { k += 1 }
            fallback[i] = k
        }
        k = 0
        for c in h {
            while k > 0 && c != n[k] { k = fallback[k - 1] }
            if c == n[k] { k += 1 }
            if k == n.count { return true }
        }
        return false
    }
}
