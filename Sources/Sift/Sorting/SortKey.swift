import Foundation

/// One key of a sort order, like `NSSortDescriptor`: a key path, a
/// direction, and how values are compared.
///
/// nil (and NSNull) sorts before every value in ascending order and after
/// every value in descending order, as with `NSSortDescriptor`. Values the
/// comparison cannot order (a string against a number) are an error, as
/// `compare:` raises. Sorting is stable.
public struct SortKey: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How two values of a sort key are compared.
    public enum Comparison: String, Sendable, Hashable, Codable, CaseIterable {
        /// `compare:` — numbers by value, dates in time, strings by UTF-16 code unit.
        case compare
        /// `caseInsensitiveCompare:`
        case caseInsensitive
        /// `localizedCompare:` — the locale's collation (the root collation
        /// of ``SortKey/locale``).
        case localized
        /// `localizedCaseInsensitiveCompare:`
        case localizedCaseInsensitive
        /// `localizedStandardCompare:` — Finder-like: case-insensitive with
        /// numbers compared by value (`file2` before `file10`).
        case localizedStandard
        /// `swiftCompare:`, Sift's own: strings in Swift's order (that of
        /// `<`, the Unicode scalars of their NFC forms, as `[s]` orders
        /// them); other values as `compare:`. A `SortDescriptor` on a string
        /// converts to it.
        case swift

        /// The Objective-C selector, as Core Data names it (`swiftCompare:`
        /// is Sift's).
        public var selector: String {
            switch self {
            case .swift: return "swiftCompare:"
            case .compare: return "compare:"
            case .caseInsensitive: return "caseInsensitiveCompare:"
            case .localized: return "localizedCompare:"
            case .localizedCaseInsensitive: return "localizedCaseInsensitiveCompare:"
            case .localizedStandard: return "localizedStandardCompare:"
            }
        }
    }

    /// The key path, split at dots (`["author", "name"]`).
    public var keyPath: [String]
    /// Whether smaller values come first.
    public var ascending: Bool
    /// How two values are compared.
    public var comparison: Comparison

    /// The locale of the localized comparisons: the root locale (Unicode's
    /// default collation), fixed so that a sort gives the same order on every
    /// machine. (`en_US_POSIX` would not do: its collation is code-point order.)
    public static let locale = Locale(identifier: "")

    /// A sort key on `keyPath` (dotted, as in `author.name`).
    public init(_ keyPath: String, ascending: Bool = true, comparison: Comparison = .compare) {
        self.keyPath = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        self.ascending = ascending
        self.comparison = comparison
    }

    /// Ascending order of `keyPath`: `.ascending("year")`.
    public static func ascending(_ keyPath: String, _ comparison: Comparison = .compare) -> SortKey {
        SortKey(keyPath, ascending: true, comparison: comparison)
    }

    /// Descending order of `keyPath`: `.descending("year", .caseInsensitive)`.
    public static func descending(_ keyPath: String, _ comparison: Comparison = .compare) -> SortKey {
        SortKey(keyPath, ascending: false, comparison: comparison)
    }

    /// `author.name ASC`, with the comparison's selector after it unless it is `compare:`.
    public var description: String {
        keyPath.joined(separator: ".") + (ascending ? " ASC" : " DESC")
            + (comparison == .compare ? "" : " " + comparison.selector)
    }

    /// Orders two values under this key's comparison (ascending).
    func order(_ a: Value, _ b: Value) throws(Failure) -> ComparisonResult {
        switch (a.isNull, b.isNull) {
        case (true, true): return .orderedSame
        case (true, false): return .orderedAscending
        case (false, true): return .orderedDescending
        case (false, false): break
        }
        if case .string(let x) = a, case .string(let y) = b { return comparison.order(x, y) }
        return try Ordering.compare(a, b, options: [])
    }
}

extension SortKey.Comparison {
    /// Orders two strings under this comparison (ascending); the SQLite
    /// collations of the SQL lowering call it too.
    package func order(_ x: String, _ y: String) -> ComparisonResult {
        switch self {
        case .compare: return StringSemantics.compare(x, y, [])
        case .swift: return SwiftStrings.order(x, y)
        case .caseInsensitive: return StringSemantics.compare(x, y, [.caseInsensitive])
        case .localized: return x.compare(y, options: [], range: nil, locale: SortKey.locale)
        case .localizedCaseInsensitive:
            return x.compare(y, options: [.caseInsensitive], range: nil, locale: SortKey.locale)
        case .localizedStandard:
            return x.compare(y, options: [.caseInsensitive, .numeric], range: nil, locale: SortKey.locale)
        }
    }
}

extension SortKey {
    /// Parses a sort order: comma-separated keys, each a key path followed by
    /// `ASC`/`DESC` (also `ASCENDING`/`DESCENDING`; ascending if absent) and
    /// optionally a comparison, by selector or short name:
    /// `author.name ASC caseInsensitive, year DESC`.
    /// Comparison names: `compare`, `caseInsensitive`, `localized`,
    /// `localizedCaseInsensitive`, `localizedStandard` (with or without
    /// `Compare:`), or `[c]` for case-insensitive.
    public static func parse(_ text: String) throws(ParseError) -> [SortKey] {
        var keys: [SortKey] = []
        var offset = 0
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            defer { offset += part.utf8.count + 1 }
            var words: [(String, SourceRange)] = []
            var i = part.utf8.startIndex
            var position = offset
            while i < part.utf8.endIndex {
                let b = part.utf8[i]
                if b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") || b == UInt8(ascii: "\n") {
                    i = part.utf8.index(after: i)
                    position += 1
                    continue
                }
                let start = i
                let startPosition = position
                while i < part.utf8.endIndex, ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n")].contains(part.utf8[i]) {
                    i = part.utf8.index(after: i)
                    position += 1
                }
                words.append((String(part[start..<i]), SourceRange(startPosition, position)))
            }
            guard let (path, pathRange) = words.first else {
                throw ParseError(.syntax, "expected a key path to sort by", range: .at(offset), source: text)
            }
            guard path.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isKey) else {
                throw ParseError(.syntax, "'\(path)' is not a key path", range: pathRange, source: text)
            }
            var key = SortKey(path)
            var sawDirection = false
            var sawComparison = false
            for (word, range) in words.dropFirst() {
                switch word.lowercased() {
                case "asc" where !sawDirection, "ascending" where !sawDirection:
                    key.ascending = true
                    sawDirection = true
                case "desc" where !sawDirection, "descending" where !sawDirection:
                    key.ascending = false
                    sawDirection = true
                default:
                    guard !sawComparison, let c = comparison(named: word) else {
                        throw ParseError(
                            .syntax,
                            "unexpected '\(word)': expected ASC, DESC or a comparison "
                                + "(caseInsensitive, localized, localizedCaseInsensitive, localizedStandard)",
                            range: range, source: text)
                    }
                    key.comparison = c
                    sawComparison = true
                }
            }
            keys.append(key)
        }
        return keys
    }

    private static func isKey(_ s: Substring) -> Bool {
        guard let first = s.utf8.first else { return false }
        let ok: (UInt8) -> Bool = { b in
            (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x5F
        }
        return (first == UInt8(ascii: "@") || !(first >= 0x30 && first <= 0x39)) && s.utf8.dropFirst().allSatisfy(ok)
            && (ok(first) || first == UInt8(ascii: "@"))
    }

    private static func comparison(named word: String) -> Comparison? {
        var w = word
        if w == "[c]" { return .caseInsensitive }
        if w.hasSuffix(":") { w.removeLast() }
        if w.hasSuffix("Compare") { w.removeLast("Compare".count) }
        switch w {
        case "compare", "": return .compare
        case "caseInsensitive": return .caseInsensitive
        case "localized": return .localized
        case "localizedCaseInsensitive": return .localizedCaseInsensitive
        case "localizedStandard": return .localizedStandard
        case "swift": return .swift
        default: return nil
        }
    }
}

/// Sorting values by sort keys.
public enum Sorting {
    /// `values` in the order of `keys` (stable: equal elements keep their
    /// order). Each key path is read once per element.
    public static func sorted(_ values: [Value], by keys: [SortKey]) throws(EvaluationError) -> [Value] {
        try permutation(values, by: keys).map { values[$0] }
    }

    /// The indices of `values` in sorted order (stable).
    public static func permutation(_ values: [Value], by keys: [SortKey]) throws(EvaluationError) -> [Int] {
        try permutation(count: values.count, by: keys) { i, n throws(Failure) in
            try KeyValueAccess.value(values[i], path: keys[n].keyPath)
        }
    }

    /// The order of `count` elements (stable), whose value for each sort key
    /// is read once, by `keyValue(element, key)` (their positions).
    static func permutation(
        count: Int, by keys: [SortKey], keyValue: (Int, Int) throws(Failure) -> Value
    ) throws(EvaluationError) -> [Int] {
        guard !keys.isEmpty, count > 1 else { return Array(0..<count) }
        // The key values in one array, element after element, and the
        // elements' positions sorted: moving a position moves an `Int`, and
        // comparing reads the values where they are. (Rows of an index and
        // an array of keys took twice the time, half of it in reference
        // counting as the rows moved, and an allocation per element.)
        let width = keys.count
        var values: [Value] = []
        values.reserveCapacity(count * width)
        for i in 0..<count {
            for (n, key) in keys.enumerated() {
                do throws(Failure) {
                    values.append(try keyValue(i, n))
                } catch {
                    throw sortError(error, key)
                }
            }
        }
        var order = Array(0..<count)
        var failure: EvaluationError?
        values.withUnsafeBufferPointer { values in
            keys.withUnsafeBufferPointer { keys in
                order.sort { a, b in
                    if failure != nil { return false }
                    for n in 0..<width {
                        do throws(Failure) {
                            let order = try keys[n].order(values[a * width + n], values[b * width + n])
                            if order != .orderedSame { return keys[n].ascending == (order == .orderedAscending) }
                        } catch {
                            failure = sortError(error, keys[n])
                            return false
                        }
                    }
                    return a < b
                }
            }
        }
        if let failure { throw failure }
        return order
    }

    /// The order of the elements of `objects` at `indices` (stable), each
    /// sort key read through the type's key table: the first key by its
    /// reader, the rest of the key path from the value it gives.
    @usableFromInline
    static func permutation<Root: KeyValueReadable>(
        _ indices: [Int], of objects: [Root], by keys: [SortKey]
    ) throws(EvaluationError) -> [Int] {
        let table = Root.keyTable
        let readers = keys.map { key in key.keyPath.first.flatMap { table.reader(forKey: $0) } }
        return try permutation(count: indices.count, by: keys) { i, n throws(Failure) in
            let object = objects[indices[i]]
            guard let read = readers[n] else {
                // `self`, or a key the table lacks: as the object's value answers.
                return try KeyValueAccess.value(object.predicateValue, path: keys[n].keyPath)
            }
            return try KeyValueAccess.value(read(object), path: keys[n].keyPath.dropFirst())
        }.map { indices[$0] }
    }

    private static func sortError(_ f: Failure, _ key: SortKey) -> EvaluationError {
        let text = key.description
        return EvaluationError(
            f.code, "sorting by \(text): \(f.message)", range: SourceRange(0, text.utf8.count), source: text)
    }
}

extension Sequence where Element: ValueConvertible {
    /// The elements sorted by `keys` (stable).
    public func sorted(by keys: [SortKey]) throws(EvaluationError) -> [Element] {
        let elements = Array(self)
        return try Sorting.permutation(elements.map { $0.predicateValue }, by: keys).map { elements[$0] }
    }
}
