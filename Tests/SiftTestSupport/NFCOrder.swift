import Foundation

/// The indices of `words` in the order of their NFC forms' Unicode scalars
/// (equal forms in index order): what `swiftCompare:` sorts by, computed
/// apart from Sift, for the tests that check it.
package func nfcOrder(_ words: [String]) -> [Int] {
    let nfc = words.map { Array($0.precomposedStringWithCanonicalMapping.unicodeScalars) }
    return words.indices.sorted { a, b in
        nfc[a].lexicographicallyPrecedes(nfc[b]) || nfc[a].elementsEqual(nfc[b]) && a < b
    }
}
