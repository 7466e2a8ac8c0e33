import Foundation

extension SortKey {
    /// The sort key of a Swift `SortDescriptor`, ordering as the descriptor does.
    ///
    /// The key path becomes keys through `Root`'s ``KeyTable`` (through
    /// to-one relationships given by key path: `\Book.author.name` is
    /// `author.name`). Numbers, dates and other non-string values sort by
    /// `compare:` as Swift's `<` orders them, with nil first, as Swift's
    /// optional comparator puts it; strings by `swiftCompare:`, Swift's `<`
    /// (``SortKey/Comparison/swift``). A descriptor with a
    /// `String.StandardComparator` is refused: `.lexical` (the only one on
    /// Linux) parts from `swiftCompare:` on strings Swift's `<` does not
    /// order, and `.localized` and `.localizedStandard` (Apple platforms
    /// only) collate in the current locale (<doc:SwiftPredicates>).
    ///
    /// - Throws: ``PredicateConversionError`` when the key path is not in a
    ///   table or the order has no exact Sift form.
    public init<Root: KeyValueReadable>(_ descriptor: SortDescriptor<Root>) throws(PredicateConversionError) {
        guard let keyPath = descriptor.keyPath else {
            throw PredicateConversionError(
                expressionType: "SortDescriptor",
                reason: "it compares with a comparator of its own rather than a key path's values")
        }
        let valueType = type(of: keyPath).valueType
        if let comparator = descriptor.stringComparator {
            throw PredicateConversionError(
                expressionType: "SortDescriptor", keyPath: String(describing: keyPath),
                reason: comparator == .lexical ? lexicalReason : localizedReason)
        }
        guard SwiftTypes.ordersAsSwift(valueType) else {
            throw PredicateConversionError(
                expressionType: "SortDescriptor", keyPath: String(describing: keyPath),
                reason: SwiftTypes.unorderedReason(valueType))
        }
        guard let keys = Root.keyTable.keys(for: keyPath) else {
            throw PredicateConversionError(
                expressionType: "SortDescriptor", keyPath: String(describing: keyPath),
                reason: "the key table of \(PredicateConverter.typeName(Root.self)) has no key that reads this key path")
        }
        // Strings by `<` (the comparator a SortDescriptor on a string has
        // on Linux unless given one; on Apple platforms the default is
        // `.localizedStandard`, refused above): Swift's order, `swiftCompare:`.
        let comparison: Comparison = SwiftTypes.isString(valueType) ? .swift : .compare
        self.init(keys.joined(separator: "."), ascending: descriptor.order == .forward, comparison: comparison)
    }
}

extension Array where Element == SortKey {
    /// The sort keys of Swift sort descriptors, in order (``SortKey/init(_:)-(SortDescriptor<Root>)``).
    public init<Root: KeyValueReadable>(_ descriptors: [SortDescriptor<Root>]) throws(PredicateConversionError) {
        var keys: [SortKey] = []
        for descriptor in descriptors { keys.append(try SortKey(descriptor)) }
        self = keys
    }
}

extension FetchSpecification {
    /// A fetch written as SwiftData's `FetchDescriptor` is: a Swift
    /// predicate, sort descriptors, an offset and a limit.
    ///
    /// - Throws: ``PredicateConversionError`` when the predicate or a sort
    ///   descriptor has no exact Sift form.
    public init<Root: KeyValueReadable>(
        entity: String? = nil, predicate: Predicate<Root>? = nil, sortBy: [SortDescriptor<Root>] = [],
        fetchOffset: Int? = nil, fetchLimit: Int? = nil
    ) throws(PredicateConversionError) {
        self.init(
            entity: entity, filter: try predicate.map { p throws(PredicateConversionError) in try Filter(p) },
            sort: try [SortKey](sortBy), offset: fetchOffset ?? 0, limit: fetchLimit)
    }
}

/// Why `String.StandardComparator.lexical` is refused, as measured by
/// `SwiftPredicateTests.lexicalComparatorIsMeasured`: on Linux it is
/// `compare(_:options: [])`, which answers with Swift's `<` and `>`, and
/// those order neither way two strings such as `"cafe\u{301}"` and
/// `"caf\u{E9}e"` that are not equal, where `swiftCompare:` puts the first
/// before the second (the order of their NFC forms).
private let lexicalReason =
    "String.StandardComparator.lexical answers orderedSame for unequal strings that Swift's < orders neither way (\"cafe\\u{301}\" and \"caf\\u{E9}e\"), where swiftCompare: and every other Sift comparison orders them"

/// Why the localized comparators are refused (Apple platforms only: Linux's
/// Foundation neither has nor decodes them).
private let localizedReason =
    "a localized String.StandardComparator collates in Locale.current, where Sift's localized comparisons use the root collation"
