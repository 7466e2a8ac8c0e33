import Foundation

/// Grouped and aggregate fetches in memory, with Core Data's rules for a
/// dictionary fetch with `propertiesToGroupBy`, `NSExpressionDescription`s
/// and a `havingPredicate` (its SQLite store's answers, which are SQL's):
///
/// - The matching objects are grouped by the values of ``FetchSpecification/groupBy``
///   (nil is a group of its own); without `groupBy`, all of them are one
///   group, and an aggregate-only fetch gives one result even when nothing
///   matches.
/// - Each result holds the fetched key paths (``FetchSpecification/properties``,
///   by default the grouped ones), each of which must be grouped, and each
///   ``ExpressionDescription``'s value under its name. A nil value is left
///   out of its result, as Core Data leaves it out of the dictionary.
/// - `count:(x)` counts the objects whose `x` is not nil (`count:(SELF)`
///   counts the objects); `sum:` of no values is 0 (SQLite's `total()`,
///   which Core Data uses); `average:`, `min:` and `max:` of no values are
///   nil. Nil values (and NaN, which SQLite stores as nil) are skipped.
///   `average:` is a double. `min:` and `max:`
///   order numbers by value, dates by time, and strings by their Unicode
///   scalars (SQLite's and PostgreSQL's `"C"` order of UTF-8 text).
/// - ``FetchSpecification/having`` then tests each result: its key paths
///   read the grouped values (fetched or not), and `$name` (or `name`) an
///   expression's value. Sorting reads the same keys; `offset` and `limit`
///   apply last, and `distinct` not at all (Core Data writes no DISTINCT
///   beside a GROUP BY).
struct GroupedFetch {
    let request: FetchSpecification

    /// The aggregate functions a description may use: the ones Core Data's
    /// SQLite store has.
    static let aggregates: Set<BuiltinFunction> = [.count, .sum, .average, .min, .max]

    /// One description, compiled once: its function, how to read its
    /// argument from one object (nil for `count:(SELF)`), and the text its
    /// errors point into.
    struct Aggregate {
        var name: String
        var function: BuiltinFunction
        var argument: Compiler<Value>.ValueFunction?
        var source: String
    }

    func execute(on objects: [Value]) throws(EvaluationError) -> [Value] {
        try Self.requireGrouping(request)
        let keys = request.groupBy ?? []
        let fetched = try fetchedKeys()
        let aggregates = try compiledAggregates()
        // Groups in the order their first object comes.
        var order: [[Value]] = []
        var members: [[Value]: [Value]] = [:]
        for object in objects {
            var groupKey: [Value] = []
            groupKey.reserveCapacity(keys.count)
            for k in keys { groupKey.append(try Self.groupValue(try Self.read(object, k), k)) }
            if members[groupKey] == nil { order.append(groupKey) }
            members[groupKey, default: []].append(object)
        }
        if request.groupBy == nil && order.isEmpty {
            order = [[]]
            members[[]] = []
        }
        var results: [(flat: [String: Value], nested: Value, variables: [String: Value])] = []
        for groupKey in order {
            let group = members[groupKey] ?? []
            // `flat` is the result; `readable` also holds the grouped keys
            // not fetched, which `having` and the sort may read.
            var flat: [String: Value] = [:]
            var readable: [String: Value] = [:]
            var variables: [String: Value] = [:]
            for (i, k) in keys.enumerated() where !groupKey[i].isNull {
                readable[k] = groupKey[i]
                if fetched.contains(k) { flat[k] = groupKey[i] }
            }
            for a in aggregates {
                let value = try Self.aggregate(a, over: group)
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
        let order2 = try Sorting.permutation(results.map(\.nested), by: request.sort)
        // `distinct` does not apply: Core Data writes no DISTINCT beside a
        // GROUP BY, and each group is one result already.
        return request.page(order2.map { Value.dictionary(results[$0].flat) })
    }

    /// `having` tests groups, so it needs a grouping, as Core Data's
    /// `havingPredicate` needs `propertiesToGroupBy`.
    static func requireGrouping(_ request: FetchSpecification) throws(EvaluationError) {
        guard let having = request.having, request.groupBy == nil else { return }
        let source = having.source ?? having.format
        throw EvaluationError(
            .unsupported, "having tests groups: give the request a groupBy", range: SourceRange(0, source.utf8.count),
            source: source)
    }

    /// The key paths each result holds: those fetched, each of which must
    /// be grouped, or the grouped ones.
    private func fetchedKeys() throws(EvaluationError) -> [String] {
        let keys = request.groupBy ?? []
        let fetched = request.properties ?? keys
        for p in fetched where !keys.contains(p) {
            throw Self.error(
                .unsupported,
                request.groupBy == nil
                    ? "\(p) is fetched beside aggregates without groupBy: group by it, or fetch only aggregates"
                    : "\(p) is fetched but not grouped: a grouped fetch can only fetch the key paths it groups by and aggregates",
                p)
        }
        var names = Set(fetched)
        for d in request.expressions {
            guard names.insert(d.name).inserted else {
                throw Self.error(.unsupported, "\(d.name) names two fetched values: give the expression another name", d.name)
            }
        }
        return fetched
    }

    private func compiledAggregates() throws(EvaluationError) -> [Aggregate] {
        var out: [Aggregate] = []
        for d in request.expressions {
            let source = d.source
            guard case .function(let f, let args) = d.expression.kind, Self.aggregates.contains(f), args.count == 1 else {
                throw EvaluationError(
                    .unsupported,
                    "\(d.name): a grouped fetch computes count:, sum:, average:, min: or max: of an expression, as in sum:(price)",
                    range: d.expression.range ?? SourceRange(0, source.utf8.count), source: source)
            }
            let argument: Compiler<Value>.ValueFunction?
            if f == .count, case .evaluatedObject = args[0].kind {
                argument = nil
            } else {
                argument = Compiler(source: source, root: .dynamic).expression(args[0])
            }
            out.append(Aggregate(name: d.name, function: f, argument: argument, source: source))
        }
        return out
    }

    /// The aggregate of `group`: nil values skipped.
    static func aggregate(_ a: Aggregate, over group: [Value]) throws(EvaluationError) -> Value {
        guard let argument = a.argument else { return .int(group.count) }
        let source = a.source
        let scope = EvaluationScope(variables: [:])
        var values: [Value] = []
        values.reserveCapacity(group.count)
        for object in group {
            let v = try argument(object, scope)
            switch v {
            case .array, .set:
                // Core Data counts (and sums) a to-many's related rows
                // through a join; a key path's value here is the collection.
                throw EvaluationError(
                    .unsupported,
                    "\(a.name): its argument is a collection; aggregate one of its keys per object, as in sum:(tags.@count)",
                    range: SourceRange(0, source.utf8.count), source: source)
            case .double(let d) where d.isNaN:
                continue  // nil, as SQLite stores NaN
            default:
                if !v.isNull { values.append(v) }
            }
        }
        do throws(Failure) {
            switch a.function {
            case .count: return .int(values.count)
            case .sum: return values.isEmpty ? .int(0) : try Aggregates.sum(values, what: "sum:")
            case .average: return try Aggregates.average(values)
            case .min: return try extreme(values, smallest: true)
            default: return try extreme(values, smallest: false)
            }
        } catch {
            throw EvaluationError(error.code, "\(a.name): " + error.message, range: SourceRange(0, source.utf8.count), source: source)
        }
    }

    /// The smallest or largest value: numbers by value, dates by time,
    /// strings by their Unicode scalars; nil for none.
    static func extreme(_ values: [Value], smallest: Bool) throws(Failure) -> Value {
        guard var best = values.first else { return .null }
        for v in values.dropFirst() {
            if smallest ? try precedes(v, best) : try precedes(best, v) { best = v }
        }
        return best
    }

    private static func precedes(_ a: Value, _ b: Value) throws(Failure) -> Bool {
        if let x = NumericValue(a), let y = NumericValue(b) { return NumericValue.compare(x, y) == .orderedAscending }
        switch (a, b) {
        case (.string(let x), .string(let y)): return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        case (.date(let x), .date(let y)): return x < y
        default:
            throw Failure(.typeMismatch, "min: and max: compare numbers, dates or strings, not \(Functions.describe(a)) with \(Functions.describe(b))")
        }
    }

    /// A grouped key's value as the group is told by: NSNull is nil, and
    /// NaN is nil too, as SQLite stores it (so all of them make one group,
    /// where NaN equals nothing); a collection is an error, since a
    /// grouping cannot cross a to-many relationship (Core Data's rule).
    private static func groupValue(_ value: Value, _ path: String) throws(EvaluationError) -> Value {
        switch value {
        case .nsNull: return .null
        case .double(let d) where d.isNaN: return .null
        case .array, .set:
            throw error(.unsupported, "\(path) is a collection: group by key paths through to-one relationships only", path)
        default: return value
        }
    }

    /// The value of key path `path` (as written, `author.name`) of `object`.
    private static func read(_ object: Value, _ path: String) throws(EvaluationError) -> Value {
        do throws(Failure) {
            return try KeyValueAccess.value(object, path: path.split(separator: ".").map(String.init))
        } catch {
            throw EvaluationError(error.code, error.message, range: SourceRange(0, path.utf8.count), source: path)
        }
    }

    private static func error(_ code: EvaluationError.Code, _ message: String, _ source: String) -> EvaluationError {
        EvaluationError(code, message, range: SourceRange(0, source.utf8.count), source: source)
    }
}
