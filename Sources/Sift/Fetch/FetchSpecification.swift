/// A fetch request, as Core Data's `NSFetchRequest`: which objects, in which
/// order, which slice, and which of their properties.
///
/// In memory, `execute(on:)` applies the parts in the order a database
/// does: entity and filter, then sort, then distinct, then offset and limit.
/// The SQL lowering of the same request gives the same rows.
public struct FetchSpecification: Sendable, Hashable {
    /// The entity: objects of a ``KeyValueReadable`` type whose name differs
    /// are left out, except, while ``includesSubentities`` is true, objects
    /// of a subclass of the class so named. Dictionaries have no entity and
    /// always qualify.
    public var entity: String?
    /// Which objects to fetch; nil fetches all of them.
    public var filter: Filter?
    /// The order of the results, first key first; empty keeps the input's order.
    public var sort: [SortKey]
    /// How many results to skip, after sorting.
    public var offset: Int
    /// The most results to return, after the offset; nil for all.
    public var limit: Int?
    /// Leave out repeated results (rows equal in every fetched property, or
    /// equal objects when no properties are named).
    public var distinct: Bool
    /// Key paths to fetch: each result is then a dictionary from the key
    /// path (as written, `author.name`) to its value, like Core Data's
    /// dictionary result type.
    public var properties: [String]?
    /// Whether the entity's sub-entities' objects are fetched too, as Core
    /// Data's `includesSubentities` (true by default, as there). In SQL the
    /// sub-entities are the schema's (a Core Data store's `Z_ENT` numbers);
    /// in memory, the subclasses of a ``KeyValueReadable`` class, found
    /// through its superclass mirrors. A struct or a dictionary has no
    /// sub-entities.
    public var includesSubentities: Bool
    /// Key paths to group the matching objects by, as Core Data's
    /// `propertiesToGroupBy` (to-one steps only): a request with a
    /// grouping or ``expressions`` gives one dictionary per group. See
    /// <doc:GroupedFetches>.
    public var groupBy: [String]?
    /// Named aggregates each group's dictionary holds, as Core Data's
    /// `NSExpressionDescription`s in `propertiesToFetch`.
    public var expressions: [ExpressionDescription]
    /// A test of each group's dictionary, as Core Data's `havingPredicate`:
    /// grouped key paths, and an expression's value as `$name` or `name`.
    public var having: Filter?

    /// A request; every part is optional and defaults to "all, in input order".
    public init(
        entity: String? = nil, filter: Filter? = nil, sort: [SortKey] = [], offset: Int = 0, limit: Int? = nil,
        distinct: Bool = false, properties: [String]? = nil, includesSubentities: Bool = true,
        groupBy: [String]? = nil, expressions: [ExpressionDescription] = [], having: Filter? = nil
    ) {
        self.includesSubentities = includesSubentities
        self.groupBy = groupBy
        self.expressions = expressions
        self.having = having
        self.entity = entity
        self.filter = filter
        self.sort = sort
        self.offset = offset
        self.limit = limit
        self.distinct = distinct
        self.properties = properties
    }

    /// Whether the request groups its results (``groupBy`` or ``expressions``
    /// is set): it then gives one dictionary per group.
    public var isGrouped: Bool { groupBy != nil || !expressions.isEmpty }

    /// The matching values, sorted and sliced; for a grouped request, one
    /// dictionary per group.
    public func execute(on objects: [Value]) throws(EvaluationError) -> [Value] {
        if isGrouped { return try GroupedFetch.execute(self, on: try matching(objects)) }
        try GroupedFetch.requireGrouping(self)
        var rows = try matching(objects)
        rows = try Sorting.sorted(rows, by: sort)
        if let properties {
            var projected: [Value] = []
            projected.reserveCapacity(rows.count)
            for row in rows {
                var d: [String: Value] = [:]
                for p in properties {
                    do throws(Failure) {
                        d[p] = try KeyValueAccess.value(row, path: p.split(separator: ".").map(String.init))
                    } catch {
                        throw EvaluationError(error.code, error.message, range: SourceRange(0, p.utf8.count), source: p)
                    }
                }
                projected.append(.dictionary(d))
            }
            rows = projected
        }
        if distinct { rows = KeyValueAccess.distinct(rows) }
        return page(rows)
    }

    /// The typed elements that match, sorted and sliced (`properties` and
    /// `distinct` apply to values; use ``execute(on:)`` for those).
    public func execute<Element: ValueConvertible>(on elements: [Element]) throws(EvaluationError) -> [Element] {
        try requireUngrouped()
        return try execute(valuesOf: elements)
    }

    /// The elements that match, each read through its value.
    @usableFromInline
    func execute<Element: ValueConvertible>(valuesOf elements: [Element]) throws(EvaluationError) -> [Element] {
        let values = elements.map { $0.predicateValue }
        var indices: [Int] = []
        let compiled = filter?.compiled()
        for (i, v) in values.enumerated() where qualifies(v) {
            if let compiled, !(try compiled.evaluate(with: v)) { continue }
            indices.append(i)
        }
        let order = try Sorting.permutation(indices.map { values[$0] }, by: sort)
        return page(order.map { elements[indices[$0]] })
    }

    /// The objects of a ``KeyValueReadable`` type that match, sorted and
    /// sliced, as the same request answers on their values: the filter is
    /// compiled for `Element` and tests each element where it is in the
    /// array (as a ``TypedFilter`` does), and sorting reads only the matches'
    /// sort keys, through the type's key table.
    ///
    /// A class's objects may be of subclasses, whose entity names differ:
    /// with an ``entity``, they take the path of values, which checks each
    /// (``includesSubentities`` decides whether a subclass's object qualifies).
    @inlinable
    public func execute<Element: KeyValueReadable>(on elements: [Element]) throws(EvaluationError) -> [Element] {
        try requireUngrouped()
        if let entity {
            if Element.self is AnyClass { return try execute(valuesOf: elements) }
            guard String(describing: Element.self) == entity else { return [] }
        }
        var indices = try filter.map { f throws(EvaluationError) in try elements.indices(where: f.compiled(for: Element.self)) }
            ?? Array(elements.indices)
        if !sort.isEmpty { indices = try Sorting.permutation(indices, of: elements, by: sort) }
        return page(indices).map { elements[$0] }
    }

    /// A grouped request's dictionaries for elements of a ``KeyValueReadable``
    /// type: the filter is compiled for `Element` and tests each element
    /// where it is (as `execute(on:)` does for elements), and the
    /// matches are grouped and aggregated through the type's key table. The
    /// answer is the one `execute(on:)` gives for the elements' values.
    public func groupedResults<Element: KeyValueReadable>(on elements: [Element]) throws(EvaluationError) -> [Value] {
        guard isGrouped else { return try requireGroupedForDictionaries() }
        // A class's objects may be of subclasses, whose entity names the
        // values' path checks one by one.
        if entity != nil && (Element.self is AnyClass || String(describing: Element.self) != entity) {
            return try execute(on: elements.map(\.predicateValue))
        }
        var accumulator = try GroupedFetchAccumulator(self)
        if let filter {
            for i in try elements.indices(where: filter.compiled(for: Element.self)) {
                try accumulator.add(elements[i].predicateValue)
            }
        } else {
            for e in elements { try accumulator.add(e.predicateValue) }
        }
        return try accumulator.results()
    }

    /// A grouped request's dictionaries for elements read through their
    /// values: `execute(on:)` on the values.
    public func groupedResults<Element: ValueConvertible>(on elements: [Element]) throws(EvaluationError) -> [Value] {
        guard isGrouped else { return try requireGroupedForDictionaries() }
        return try execute(on: elements.map(\.predicateValue))
    }

    private func requireGroupedForDictionaries() throws(EvaluationError) -> [Value] {
        try GroupedFetch.requireGrouping(self)
        throw EvaluationError(
            .unsupported, "the request is not grouped: give it a groupBy or expressions, or use execute(on:)",
            range: SourceRange(0, 0), source: "")
    }

    /// How many values match (offset and limit apply, as to a count fetch);
    /// for a grouped request, how many dictionaries it gives (one for an
    /// ungrouped fetch of aggregates, even when nothing matches).
    public func count(on objects: [Value]) throws(EvaluationError) -> Int {
        var request = self
        request.sort = []
        return try request.execute(on: objects).count
    }

    private func matching(_ objects: [Value]) throws(EvaluationError) -> [Value] {
        let compiled = filter?.compiled()
        var out: [Value] = []
        for object in objects where qualifies(object) {
            if let compiled, !(try compiled.evaluate(with: object)) { continue }
            out.append(object)
        }
        return out
    }

    /// A grouped request gives dictionaries, not elements: it runs on values.
    @usableFromInline
    func requireUngrouped() throws(EvaluationError) {
        if isGrouped {
            throw EvaluationError(
                .unsupported, "a grouped fetch gives one dictionary per group: run it with groupedResults(on:), or on values",
                range: SourceRange(0, 0), source: "")
        }
        try GroupedFetch.requireGrouping(self)
    }

    /// The part of `rows` that `offset` and `limit` select.
    @usableFromInline
    func page<T>(_ rows: [T]) -> [T] {
        let start = min(max(0, offset), rows.count)
        let end = limit.map { min(rows.count, start + max(0, $0)) } ?? rows.count
        return Array(rows[start..<end])
    }

    private func qualifies(_ object: Value) -> Bool {
        guard let entity, case .object(let o) = object else { return true }
        return o.isOfEntity(entity, includingSubentities: includesSubentities)
    }
}
