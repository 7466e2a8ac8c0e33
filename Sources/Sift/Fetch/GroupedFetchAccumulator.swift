import Foundation

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
///
/// Threads can share the work: each adds its run of objects to a part
/// (``init(partOf:)``), and one accumulator takes the parts in input order
/// (``merge(_:)``), with the answer of adding every object to it.
public struct GroupedFetchAccumulator: Sendable {
    private let request: FetchSpecification
    private let keys: [String]
    /// Each grouped key path's keys (`["category", "name"]`).
    private let keyPaths: [[String]]
    private let fetched: Set<String>
    private let aggregates: [GroupedFetch.Aggregate]
    /// Each aggregate's function, and whether it has an argument
    /// (`count:(SELF)` has none): what adding an object reads of them.
    private let functions: [(function: BuiltinFunction, hasArgument: Bool)]
    private var order: [[Value]] = []
    private var index: [[Value]: Int] = [:]
    /// Each group's running aggregates, one group after another.
    private var running: [RunningAggregate] = []
    private var keyBuffer: [Value] = []
    /// For a grouping by one key, the group of each small non-negative
    /// integer key looked up so far (-1: not yet): a cache in front of
    /// `index`, which alone makes groups, so that a key equal to another
    /// type of number (`30.0`) still finds the group of `30`. A hash of a
    /// one-element array of `Value` for every object took an eighth of a
    /// grouped filter's time.
    private var smallIntegerGroups: [Int] = []
    /// For a grouping by one key, the group of each key looked up so far:
    /// the same cache for other keys (no array to hash).
    private var singleKeyGroups: [Value: Int] = [:]
    /// The largest integer key that ``smallIntegerGroups`` holds.
    private static let largestCachedInteger = 1 << 16
    /// For a grouping by one key read from JSON, the group of each string
    /// key met so far, by its UTF-8 bytes (the few of a low-cardinality
    /// key, up to ``byteKeyLimit``): making the key's `String` and hashing
    /// it as a `Value` took a sixth of a grouped filter's time. Each key's
    /// group comes from the general lookup, so that canonically equal
    /// spellings (`é`, `e` and U+0301) still meet.
    private var byteKeyGroups: [(bytes: [UInt8], group: Int)] = []
    /// Whether more string keys came than ``byteKeyGroups`` holds: the
    /// cache is then left alone, as a search of it would not pay.
    private var byteKeysOverflowed = false
    private static let byteKeyLimit = 32
    /// Whether this is a part, whose aggregates keep their terms.
    private let isPart: Bool

    /// An accumulator for `request`, which must be grouped
    /// (``FetchSpecification/isGrouped``); its mistakes (a fetched key that
    /// is not grouped, a name used twice, an expression that is not an
    /// aggregate) are errors here, before any object is read.
    public init(_ request: FetchSpecification) throws(EvaluationError) {
        try self.init(request, isPart: false)
    }

    /// A part of the accumulator for `request`: it takes a run of the
    /// objects, and ``merge(_:)`` adds its groups to the accumulator that
    /// took the objects before them. A part keeps the numeric terms of its
    /// sums and averages in order (a double sum depends on its order), so
    /// that its memory grows with its objects: give it a bounded run.
    public init(partOf request: FetchSpecification) throws(EvaluationError) {
        try self.init(request, isPart: true)
    }

    private init(_ request: FetchSpecification, isPart: Bool) throws(EvaluationError) {
        self.isPart = isPart
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
        functions = aggregates.map { ($0.function, $0.argument != nil) }
        keyBuffer.reserveCapacity(keys.count)
    }

    /// The number of groups so far.
    public var groupCount: Int { order.count }

    /// Adds one object that matches the request to its group.
    public mutating func add(_ object: Value) throws(EvaluationError) {
        let (keys, keyPaths, aggregates) = (self.keys, self.keyPaths, self.aggregates)
        let scope = EvaluationScope(variables: [:])
        try add(
            key: { i throws(EvaluationError) in try GroupedFetch.read(object, keys[i], keys: keyPaths[i]) },
            argument: { i throws(EvaluationError) in try aggregates[i].argument!(object, scope) })
    }

    /// Adds one object, read by `key` (the value of grouped key path `i`)
    /// and `argument` (the value of aggregate `i`'s argument, asked only of
    /// an aggregate that has one: `count:(SELF)` has none).
    mutating func add(
        key: (Int) throws(EvaluationError) -> Value, argument: (Int) throws(EvaluationError) -> Value
    ) throws(EvaluationError) {
        try accumulate(group: try group(key: key), argument: argument)
    }

    /// Adds one object whose one grouped key is the string of the UTF-8
    /// `bytes` (`key(0)` makes its value), read by `argument` as
    /// ``add(key:argument:)`` reads it.
    mutating func add(
        stringKey bytes: UnsafeBufferPointer<UInt8>, key: (Int) throws(EvaluationError) -> Value,
        argument: (Int) throws(EvaluationError) -> Value
    ) throws(EvaluationError) {
        guard keys.count == 1, !byteKeysOverflowed else { return try add(key: key, argument: argument) }
        for entry in byteKeyGroups where entry.bytes.count == bytes.count {
            let same = entry.bytes.withUnsafeBufferPointer { known in
                bytes.isEmpty || memcmp(known.baseAddress!, bytes.baseAddress!, bytes.count) == 0
            }
            if same { return try accumulate(group: entry.group, argument: argument) }
        }
        let g = try group(key: key)
        if byteKeyGroups.count < Self.byteKeyLimit {
            byteKeyGroups.append((Array(bytes), g))
        } else {
            byteKeysOverflowed = true
        }
        try accumulate(group: g, argument: argument)
    }

    /// The group of the object whose grouped key path `i` is `key(i)`.
    private mutating func group(key: (Int) throws(EvaluationError) -> Value) throws(EvaluationError) -> Int {
        keyBuffer.removeAll(keepingCapacity: true)
        for i in keys.indices { keyBuffer.append(try GroupedFetch.groupValue(try key(i), keys[i])) }
        let g: Int
        if keyBuffer.count == 1, case .int(let i) = keyBuffer[0], i >= 0, i <= Self.largestCachedInteger {
            if i < smallIntegerGroups.count, smallIntegerGroups[i] >= 0 {
                g = smallIntegerGroups[i]
            } else {
                g = group(keyBuffer)
                if i >= smallIntegerGroups.count {
                    smallIntegerGroups.append(contentsOf: repeatElement(-1, count: i + 1 - smallIntegerGroups.count))
                }
                smallIntegerGroups[i] = g
            }
        } else if keyBuffer.count == 1 {
            if let known = singleKeyGroups[keyBuffer[0]] {
                g = known
            } else {
                g = group(keyBuffer)
                singleKeyGroups[keyBuffer[0]] = g
            }
        } else {
            g = group(keyBuffer)
        }
        return g
    }

    /// Adds the object read by `argument` to the aggregates of group `g`.
    private mutating func accumulate(
        group g: Int, argument: (Int) throws(EvaluationError) -> Value
    ) throws(EvaluationError) {
        let first = g * functions.count
        for (i, f) in functions.enumerated() {
            if f.hasArgument {
                let v = try argument(i)
                do throws(Failure) { try GroupedFetch.add(v, to: &running[first + i], f.function) } catch {
                    throw aggregates[i].error(error)
                }
            } else {
                running[first + i].countOne()
            }
        }
    }

    /// The grouped key paths, as the request gives them.
    var groupedKeyPaths: [[String]] { keyPaths }

    /// The key path each aggregate's argument is, nil for `count:(SELF)`;
    /// nil when an argument is another expression.
    var argumentKeyPaths: [[String]?]? {
        var paths: [[String]?] = []
        for a in aggregates {
            guard a.argument != nil else {
                paths.append(nil)
                continue
            }
            guard case .keyPath(let keys) = a.expression.kind else { return nil }
            paths.append(keys)
        }
        return paths
    }

    /// The number of the group of `key`, a new one (after the others) if
    /// no object had that key.
    private mutating func group(_ key: [Value]) -> Int {
        if let existing = index[key] { return existing }
        let g = order.count
        index[key] = g
        order.append(key)
        running.append(contentsOf: repeatElement(RunningAggregate(keepingTerms: isPart), count: aggregates.count))
        return g
    }

    /// Adds the groups of `part`, a part (``init(partOf:)``) of the same
    /// request that took the objects after those added here, as if they had
    /// been added here one by one: the groups it saw first come in its
    /// order, and each group's aggregates take its values in their order.
    public mutating func merge(_ part: GroupedFetchAccumulator) throws(EvaluationError) {
        guard part.isPart, part.request == request else {
            throw EvaluationError(
                .unsupported, "merge takes a part of the same request, made with init(partOf:)",
                range: SourceRange(0, 0), source: "")
        }
        for (p, key) in part.order.enumerated() {
            let g = group(key)
            for (i, a) in aggregates.enumerated() {
                do throws(Failure) { try running[g * aggregates.count + i].merge(part.running[p * aggregates.count + i], a.function) } catch { throw a.error(error) }
            }
        }
    }

    /// One dictionary per group, tested by `having`, sorted and sliced.
    /// Without a `groupBy`, there is one result even when nothing was added.
    public func results() throws(EvaluationError) -> [Value] {
        if isPart {
            // Its sums are in its terms: fold them as the whole would.
            var whole = try GroupedFetchAccumulator(request)
            try whole.merge(self)
            return try whole.results()
        }
        var order = self.order
        var running = self.running
        if request.groupBy == nil && order.isEmpty {
            order = [[]]
            running = Array(repeating: RunningAggregate(), count: aggregates.count)
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
                do throws(Failure) { value = try running[g * aggregates.count + i].value(a.function) } catch { throw a.error(error) }
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
