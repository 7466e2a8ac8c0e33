/// A needle (the scalars of a key, or ASCII bytes) prepared for finding
/// where it occurs in a haystack of the same elements in time linear in the
/// haystack, whatever the two are.
///
/// Comparing the needle at each place in turn costs up to n·m comparisons
/// for a haystack of n and a needle of m elements: `aaa…ab` against
/// `aaa…a` fails only at the needle's last element, at every place. So
/// needles longer than ``shortNeedle`` use Knuth–Morris–Pratt: `borders[j]`
/// is the length of the longest proper prefix of the needle's first `j + 1`
/// elements that is also their suffix, and after a mismatch the search goes
/// on from that border instead of from the next place, never going back in
/// the haystack: at most 2n comparisons. Short needles keep the place-by-place
/// comparison, the fastest on ordinary text, whose cost is then at most
/// ``shortNeedle`` comparisons per haystack element.
///
/// Knuth–Morris–Pratt rather than Two-Way (glibc's `memmem`): its whole
/// state is one number (how much of the needle ends at the current place),
/// so LIKE runs one such automaton for each literal run of a segment over
/// the same haystack, in one pass (``LikePattern``); and the table, O(m), is
/// built once for a constant needle.
struct SearchKey<Element: Equatable & Sendable>: Sendable {
    let elements: [Element]
    let borders: [Int]

    /// Needles up to this many elements are compared place by place.
    static var shortNeedle: Int { 8 }

    /// `automaton`: the table is made for every length, for ``advance(_:_:)``
    /// (LIKE); otherwise a short needle, compared place by place, has none
    /// (an empty array allocates nothing, and copying the key then costs
    /// nothing more than copying its elements).
    init(_ elements: [Element], automaton: Bool = false) {
        self.elements = elements
        guard automaton || elements.count > Self.shortNeedle else {
            self.borders = []
            return
        }
        var borders = [Int](repeating: 0, count: elements.count)
        var k = 0
        var i = 1
        while i < elements.count {
            while k > 0 && elements[i] != elements[k] { k = borders[k - 1] }
            if elements[i] == elements[k] { k += 1 }
            borders[i] = k
            i += 1
        }
        self.borders = borders
    }

    var count: Int { elements.count }

    /// The automaton's next state (for a key made with `automaton`, or
    /// longer than ``shortNeedle``): how many elements of the needle end at
    /// `c`, given that `state` of them ended just before it. From a whole
    /// match (`count`) it goes on from the needle's longest border, so
    /// overlapping matches are all found.
    @inline(__always)
    func advance(_ state: Int, _ c: Element) -> Int {
        var k = state == elements.count ? borders[state - 1] : state
        while k > 0 && elements[k] != c { k = borders[k - 1] }
        return elements[k] == c ? k + 1 : 0
    }

    /// The first place `i` in `from...end - count` where the needle is in
    /// `h` (indexed from 0) and `accept(i)` holds, or nil.
    func firstMatch<H: RandomAccessCollection<Element>>(
        in h: H, from: Int = 0, to end: Int? = nil, where accept: (Int) -> Bool = { _ in true }
    ) -> Int? where H.Index == Int {
        let end = end ?? h.count
        let m = elements.count
        if m > end - from { return nil }
        if m == 0 { return (from...end).first(where: accept) }
        if m <= Self.shortNeedle {
            let first = elements[0]
            var i = from
            while i <= end - m {
                if h[i] == first && matches(h, at: i) && accept(i) { return i }
                i += 1
            }
            return nil
        }
        var state = 0
        var i = from
        while i < end {
            state = advance(state, h[i])
            i += 1
            if state == m && accept(i - m) { return i - m }
        }
        return nil
    }

    /// Whether the needle is in `h` at `offset` (its first element is
    /// already known to be).
    @inline(__always)
    private func matches<H: RandomAccessCollection<Element>>(_ h: H, at offset: Int) -> Bool where H.Index == Int {
        var j = 1
        while j < elements.count {
            if h[offset + j] != elements[j] { return false }
            j += 1
        }
        return true
    }
}
