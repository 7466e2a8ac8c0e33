import Foundation

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
