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
enum GroupedFetch {

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
        /// The argument (`count:(SELF)`'s too).
        var expression: ExpressionNode
        var source: String

        /// `failure` as an error of this description's, pointing at it.
        func error(_ failure: Failure) -> EvaluationError {
            EvaluationError(failure.code, "\(name): " + failure.message, range: SourceRange(0, source.utf8.count), source: source)
        }
    }

    static func execute(_ request: FetchSpecification, on objects: [Value]) throws(EvaluationError) -> [Value] {
        var accumulator = try GroupedFetchAccumulator(request)
        for object in objects { try accumulator.add(object) }
        return try accumulator.results()
    }

    /// `having` tests groups, so it needs a grouping, as Core Data's
    /// `havingPredicate` needs `propertiesToGroupBy`.
    static func requireGrouping(_ request: FetchSpecification) throws(EvaluationError) {
        guard let having = request.having else { return }
        let source = having.source ?? having.format
        guard request.groupBy != nil else {
            throw EvaluationError(
                .unsupported, "having tests groups: give the request a groupBy", range: SourceRange(0, source.utf8.count),
                source: source)
        }
        let names = Set(request.expressions.map(\.name))
        let grouped = Set(request.groupBy ?? [])
        if let (node, problem) = unreadable(in: .predicate(having.predicate), names: names, grouped: grouped) {
            throw EvaluationError(.unsupported, problem, range: node.range ?? SourceRange(0, source.utf8.count), source: source)
        }
    }

    /// Each sort key of a grouped request must name a grouped key path (or
    /// its first step) or an expression: any other key would read nil from
    /// every group, and sort nothing, where Core Data reports the key.
    static func checkSort(_ request: FetchSpecification) throws(EvaluationError) {
        let names = Set(request.expressions.map(\.name))
        let grouped = Set(request.groupBy ?? [])
        for key in request.sort {
            let path = key.keyPath.joined(separator: ".")
            if names.contains(path) || grouped.contains(path) { continue }
            if key.keyPath.count == 1, grouped.contains(where: { $0.hasPrefix(path + ".") }) { continue }
            throw error(
                .unsupported,
                "sort key \(path) is neither grouped nor an expression's name: a grouped fetch sorts its groups"
                    + known(names.union(grouped)), path)
        }
    }

    /// The first part of a `having` predicate that a group's dictionary
    /// cannot answer, and why: an aggregate function (the dictionary is
    /// what `having` reads, so it would aggregate the dictionary, not the
    /// group; Core Data's `havingPredicate` reads an aggregate as `$name`
    /// too), a variable that names no expression, or a key path that is
    /// neither grouped nor an expression's name (it would read nil, and
    /// no group would match, where Core Data reports the key).
    private static func unreadable(in node: SyntaxChild, names: Set<String>, grouped: Set<String>)
        -> (ExpressionNode, String)?
    {
        switch node.node {
        case .expression(let e):
            switch e.kind {
            case .function(let f, _) where aggregates.contains(f):
                return (e, "having reads an aggregate by its name: fetch it as an expression (n = count:(SELF)) and test $n")
            case .variable(let v) where !names.contains(v):
                return (e, "$\(v) names no expression of the request" + Self.known(names))
            case .keyPath(let keys) where node.binds == nil:
                let path = keys.joined(separator: ".")
                if names.contains(path) || grouped.contains(path) { return nil }
                if keys.count == 1, grouped.contains(where: { $0.hasPrefix(path + ".") }) { return nil }
                return (e, "\(path) is neither grouped nor an expression's name: having reads a group's keys" + Self.known(names.union(grouped)))
            default:
                break
            }
            for child in e.kind.children {
                // A SUBQUERY's variable reads its own elements.
                if child.binds != nil { continue }
                if let found = unreadable(in: child, names: names, grouped: grouped) { return found }
            }
        case .predicate(let p):
            for child in p.kind.children {
                if let found = unreadable(in: child, names: names, grouped: grouped) { return found }
            }
        }
        return nil
    }

    private static func known(_ names: Set<String>) -> String {
        names.isEmpty ? "" : " (" + names.sorted().joined(separator: ", ") + ")"
    }

    /// The key paths each result holds: those fetched, each of which must
    /// be grouped, or the grouped ones.
    static func fetchedKeys(_ request: FetchSpecification) throws(EvaluationError) -> [String] {
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

    static func compiledAggregates(_ request: FetchSpecification) throws(EvaluationError) -> [Aggregate] {
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
            out.append(Aggregate(name: d.name, function: f, argument: argument, expression: args[0], source: source))
        }
        return out
    }

    /// Adds the value of an aggregate's argument for an object, `v`, to
    /// the running aggregate of its group, for `function`: nil values (and
    /// NaN, which SQLite stores as nil) are skipped. A failure is the
    /// aggregate's to report (``Aggregate/error(_:)``).
    static func add(_ v: Value, to running: inout RunningAggregate, _ function: BuiltinFunction) throws(Failure) {
        switch v {
        case .array, .set:
            // Core Data counts (and sums) a to-many's related rows
            // through a join; a key path's value here is the collection.
            throw Failure(
                .unsupported, "its argument is a collection; aggregate one of its keys per object, as in sum:(tags.@count)")
        case .double(let d) where d.isNaN:
            return
        default:
            if v.isNull { return }
            try running.add(v, function)
        }
    }

    /// A grouped key's value as the group is told by: NSNull is nil, and
    /// NaN is nil too, as SQLite stores it (so all of them make one group,
    /// where NaN equals nothing); a collection is an error, since a
    /// grouping cannot cross a to-many relationship (Core Data's rule).
    static func groupValue(_ value: Value, _ path: String) throws(EvaluationError) -> Value {
        switch value {
        case .nsNull: return .null
        case .double(let d) where d.isNaN: return .null
        case .array, .set:
            throw error(.unsupported, "\(path) is a collection: group by key paths through to-one relationships only", path)
        default: return value
        }
    }

    /// The value of key path `path` (as written, `author.name`) of `object`.
    static func read(_ object: Value, _ path: String, keys: [String]) throws(EvaluationError) -> Value {
        do throws(Failure) {
            return try KeyValueAccess.value(object, path: keys)
        } catch {
            throw EvaluationError(error.code, error.message, range: SourceRange(0, path.utf8.count), source: path)
        }
    }

    private static func error(_ code: EvaluationError.Code, _ message: String, _ source: String) -> EvaluationError {
        EvaluationError(code, message, range: SourceRange(0, source.utf8.count), source: source)
    }
}
