import Foundation

extension SortKey {
    /// The sort key of a Swift `SortDescriptor`, ordering as the descriptor does.
    ///
    /// The key path becomes keys through `Root`'s ``KeyTable`` (through
    /// to-one relationships given by key path: `\Book.author.name` is
    /// `author.name`). Numbers, dates and other non-string values sort by
    /// `compare:` as Swift's `<` orders them, with nil first, as Swift's
    /// optional comparator puts it. Strings are refused: the comparators
    /// Foundation has on Linux order them by Unicode scalars or by ICU
    /// collation, and no NSSortDescriptor comparison gives those orders
    /// exactly (<doc:SwiftPredicates>).
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
        if SwiftTypes.isString(valueType) || descriptor.stringComparator != nil {
            throw PredicateConversionError(
                expressionType: "SortDescriptor", keyPath: String(describing: keyPath),
                reason: "Swift orders strings by their Unicode scalars (or by ICU collation when localized), which no NSSortDescriptor comparison reproduces exactly")
        }
        guard let keys = Root.keyTable.keys(for: keyPath) else {
            throw PredicateConversionError(
                expressionType: "SortDescriptor", keyPath: String(describing: keyPath),
                reason: "the key table of \(PredicateConverter.typeName(Root.self)) has no key that reads this key path")
        }
        self.init(keys.joined(separator: "."), ascending: descriptor.order == .forward, comparison: .compare)
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
