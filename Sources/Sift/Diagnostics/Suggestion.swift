/// Finding the word a misspelling meant, for "did you mean" in messages.
package enum Suggestion {
    /// The number of single-byte insertions, deletions and substitutions
    /// that turn `a` into `b` (Levenshtein's distance), in time
    /// `a.count × b.count`.
    package static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var row = [i] + [Int](repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = row
        }
        return previous[b.count]
    }
}
