/// A grouped fetch fed one object at a time: it keeps each group's key and
/// running aggregates, never the objects, so that its memory grows with the
/// number of groups and not with the input (`sift filter --group-by` reads
/// a file this way).
///
/// ```swift
/// let request = FetchSpecification(
///     groupBy: ["category.name"], expressions: [try ExpressionDescription(name: "n", format: "count:(SELF)")])
/// var groups = try GroupedFetchAccumulator(request)
/// try groups.add(["category": ["name": "sf"]])
/// try groups.add(["category": ["name": "sf"]])
/// try groups.results()   // [["category.name": "sf", "n": 2]]
/// ```
///
/// ``add(_:)`` takes objects that already passed the request's entity and
/// filter; ``results()`` applies `having`, the sort, the offset and the
/// limit, and gives what `FetchSpecification.execute(on:)` gives for
/// the same objects in the same order.
public struct GroupedFetchAccumulator {
    private let request: FetchSpecification
    private let keys: [String]
    /// Each grouped key path's keys (`["category", "name"]`).
    private let keyPaths: [[String]]
    private let fetched: Set<String>
    private let aggregates: [GroupedFetch.Aggregate]
    private var order: [[Value]] = []
    private var index: [[Value]: Int] = [:]
    private var running: [[RunningAggregate]] = []
    private var keyBuffer: [Value] = []

    /// An accumulator for `request`, which must be grouped
    /// (``FetchSpecification/isGrouped``); its mistakes (a fetched key that
    /// is not grouped, a name used twice, an expression that is not an
    /// aggregate) are errors here, before any object is read.
    public init(_ request: FetchSpecification) throws(EvaluationError) {
        try GroupedFetch.requireGrouping(request)
        guard request.isGrouped else {
            throw EvaluationError(
                .unsupported, "the request is not grouped: give it a groupBy or expressions",
                range: SourceRange(0, 0), source: "")
        }
        self.request = request
        keys = request.groupBy ?? []
        keyPaths = keys.map { $0.split(separator: ".").map(String.init) }
        fetched = Set(try GroupedFetch.fetchedKeys(request))
        try GroupedFetch.checkSort(request)
        aggregates = try GroupedFetch.compiledAggregates(request)
        keyBuffer.reserveCapacity(keys.count)
    }

    /// The number of groups so far.
    public var groupCount: Int { order.count }

    /// Adds one object that matches the request to its group.
    public mutating func add(_ object: Value) throws(EvaluationError) {
        keyBuffer.removeAll(keepingCapacity: true)
        for (k, path) in zip(keys, keyPaths) {
            keyBuffer.append(try GroupedFetch.groupValue(try GroupedFetch.read(object, k, keys: path), k))
        }
        let g: Int
        if let existing = index[keyBuffer] {
            g = existing
        } else {
            g = order.count
            index[keyBuffer] = g
            order.append(keyBuffer)
            running.append(Array(repeating: RunningAggregate(), count: aggregates.count))
        }
        for i in aggregates.indices { try GroupedFetch.add(object, to: &running[g][i], aggregates[i]) }
    }

    /// One dictionary per group, tested by `having`, sorted and sliced.
    /// Without a `groupBy`, there is one result even when nothing was added.
    public func results() throws(EvaluationError) -> [Value] {
        var order = self.order
        var running = self.running
        if request.groupBy == nil && order.isEmpty {
            order = [[]]
            running = [Array(repeating: RunningAggregate(), count: aggregates.count)]
        }
        var results: [(flat: [String: Value], nested: Value, variables: [String: Value])] = []
        results.reserveCapacity(order.count)
        for (g, groupKey) in order.enumerated() {
            // `flat` is the result; `readable` also holds the grouped keys
            // not fetched, which `having` and the sort may read.
            var flat: [String: Value] = [:]
            var readable: [String: Value] = [:]
            var variables: [String: Value] = [:]
            for (i, k) in keys.enumerated() where !groupKey[i].isNull {
                readable[k] = groupKey[i]
                if fetched.contains(k) { flat[k] = groupKey[i] }
            }
            for (i, a) in aggregates.enumerated() {
                let value: Value
                do throws(Failure) { value = try running[g][i].value(a.function) } catch { throw a.error(error) }
                variables[a.name] = value
                if !value.isNull {
                    flat[a.name] = value
                    readable[a.name] = value
                }
            }
            results.append((flat, Value.nested(paths: readable, nilWhenAllNil: false), variables))
        }
        if let having = request.having {
            let compiled = having.compiled()
            var kept: [(flat: [String: Value], nested: Value, variables: [String: Value])] = []
            for r in results where try compiled.evaluate(with: r.nested, variables: r.variables) { kept.append(r) }
            results = kept
        }
        let sorted = try Sorting.permutation(results.map(\.nested), by: request.sort)
        // `distinct` does not apply: Core Data writes no DISTINCT beside a
        // GROUP BY, and each group is one result already.
        return request.page(sorted.map { Value.dictionary(results[$0].flat) })
    }
}
