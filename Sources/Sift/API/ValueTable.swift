/// Objects given as dictionaries (decoded JSON, rows read from a file) kept
/// by key as well as by row: besides the rows, one column of values for
/// each key that many rows have, built once.
///
/// Filtering a `[Value]` looks every key up in every object's dictionary,
/// and that lookup, with the pointer chasing to each dictionary, is most of
/// its time. A table's filters read a key from its column instead: one load
/// from a contiguous array. The answers and the rows returned are the same
/// as filtering the array (a dictionary gives `nil` for a key it lacks, as
/// its column does); keys without a column go to the rows themselves, and a
/// table with a row that is not a dictionary has no columns.
///
/// ```swift
/// let table = ValueTable(rows)          // rows: [Value], e.g. decoded JSON objects
/// let hits = try table.filter(Filter("age > 30 AND name BEGINSWITH[c] 'ab'"))
/// let n = try table.count(where: Filter("ANY tags == 'x'"))
/// ```
///
/// A column of dictionaries (with nils) gets columns of its own for their
/// keys, so that `author.name` is read from a column too; a column of
/// arrays (with nils) also keeps their elements end to end, so that `ANY
/// tags == 'x'` reads them in order; a column of strings (with nils) also
/// keeps them as `String`s, compared without going through ``Value``.
/// Columns take 24 bytes per row and column (40 for strings); a key gets a
/// column when at least one row in eight has it (at most
/// ``maximumColumns`` columns), so that sparse keys do not multiply the
/// memory. Filters given ``EvaluationPaths/generalOnly`` read the rows
/// alone, as filtering the array does.
public struct ValueTable: Sendable {
    /// The rows, as given.
    public let rows: [Value]
    /// `columns[c][row]`: the value of the row's dictionary for the key of
    /// column `c`, `.null` where the row has no such key.
    private let columns: [[Value]]
    private let index: [String: Int]
    /// For a column of dictionaries (and nils): a table of those
    /// dictionaries (a nil as an empty one), whose columns hold the values of
    /// key paths through the column's key (`author.name`).
    private let nested: [Int: ValueTable]
    /// For a column of arrays (and nils): their elements end to end.
    private let lists: [Int: List]
    /// For a column of strings (and nils): the strings themselves.
    private let strings: [Int: Strings]

    /// The strings of a column, `""` where a row has nil; `present` says
    /// which rows have a string (nil when all do).
    struct Strings: Sendable {
        let values: [String]
        let present: [Bool]?
    }

    /// The arrays of a column, end to end: row `r`'s elements are
    /// `elements[bounds[r]..<bounds[r + 1]]` (none for a nil).
    struct List: Sendable {
        let bounds: [Int]
        let elements: [Value]
    }

    /// The most columns a table builds.
    public static let maximumColumns = 256

    /// A table of `rows`, with a column for every key that at least one row in
    /// eight has (at most ``maximumColumns``). Reads every row twice. Rows that
    /// are not all dictionaries make a table without columns, which filters as
    /// the array does.
    public init(_ rows: [Value]) {
        self.rows = rows
        // Which keys are common enough for a column (keys are the
        // dictionaries' own: canonically equivalent strings are one key).
        // A row that is not a dictionary reads keys its own way (an array
        // maps them over its elements, an object has readers): then no
        // columns at all.
        var seen: [String: Int] = [:]
        for row in rows {
            guard case .dictionary(let d) = row else {
                seen = [:]
                break
            }
            for key in d.keys { seen[key, default: 0] += 1 }
        }
        let common = seen.filter { $0.value * 8 >= rows.count }.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
            .prefix(Self.maximumColumns)
        var index: [String: Int] = [:]
        for (c, entry) in common.enumerated() { index[entry.key] = c }
        var columns = [[Value]](repeating: [Value](repeating: .null, count: rows.count), count: index.count)
        if !index.isEmpty {
            for (r, row) in rows.enumerated() {
                guard case .dictionary(let d) = row else { preconditionFailure("a table with columns has only dictionaries") }
                for (key, value) in d {
                    if let c = index[key] { columns[c][r] = value }
                }
            }
        }
        self.columns = columns
        self.index = index
        var nested: [Int: ValueTable] = [:]
        var lists: [Int: List] = [:]
        var strings: [Int: Strings] = [:]
        for (c, column) in columns.enumerated() {
            var dictionaries = 0
            var arrays = 0
            var texts = 0
            var nils = 0
            var elements = 0
            for v in column {
                switch v {
                case .dictionary: dictionaries += 1
                case .array(let items):
                    arrays += 1
                    elements += items.count
                case .string: texts += 1
                case .null, .nsNull: nils += 1
                default: break
                }
            }
            if texts > 0 && texts + nils == column.count {
                strings[c] = Strings(
                    values: column.map { if case .string(let s) = $0 { s } else { "" } },
                    present: nils == 0 ? nil : column.map { if case .string = $0 { true } else { false } })
            }
            if dictionaries > 0 && dictionaries + nils == column.count {
                nested[c] = ValueTable(column.map { if case .dictionary = $0 { $0 } else { .dictionary([:]) } })
            } else if arrays > 0 && arrays + nils == column.count {
                var bounds = [0]
                bounds.reserveCapacity(column.count + 1)
                var all: [Value] = []
                all.reserveCapacity(elements)
                for v in column {
                    if case .array(let items) = v { all += items }
                    bounds.append(all.count)
                }
                lists[c] = List(bounds: bounds, elements: all)
            }
        }
        self.nested = nested
        self.lists = lists
        self.strings = strings
    }

    /// The keys that have a column, most common first.
    public var columnKeys: [String] { index.sorted { $0.value < $1.value }.map(\.key) }

    /// The column of `key`, if it has one.
    func column(_ key: String) -> [Value]? {
        guard let c = index[key] else { return nil }
        return columns[c]
    }

    /// The table and column that the key path `keys` reaches through the
    /// tables of nested dictionaries (as far as there are columns), and how
    /// many keys that took.
    private func reach(_ keys: ArraySlice<LiteralString>) -> (table: ValueTable, column: Int, keys: Int)? {
        guard let first = keys.first, let c = index[first.key] else { return nil }
        if keys.count > 1, let inner = nested[c], let deeper = inner.reach(keys.dropFirst()) {
            return (deeper.table, deeper.column, deeper.keys + 1)
        }
        return (self, c, 1)
    }

    /// The column of the longest start of the key path `keys` that has
    /// one, and how many keys that is.
    func column(_ keys: [LiteralString]) -> (column: [Value], keys: Int)? {
        reach(keys[...]).map { ($0.table.columns[$0.column], $0.keys) }
    }

    /// The strings at the key path `keys`, if its column holds only strings
    /// and nils.
    func strings(_ keys: [LiteralString]) -> Strings? {
        guard let r = reach(keys[...]), r.keys == keys.count else { return nil }
        return r.table.strings[r.column]
    }

    /// The arrays at the key path `keys`, end to end, if its column holds
    /// only arrays and nils.
    func list(_ keys: [LiteralString]) -> List? {
        guard let r = reach(keys[...]), r.keys == keys.count else { return nil }
        return r.table.lists[r.column]
    }

    /// The test of `filter`'s predicate on this table's rows.
    private func compile(_ filter: Filter, _ regexLimits: RegexLimits, _ paths: EvaluationPaths) -> CompiledTest<Int> {
        Compiler(
            source: filter.source ?? filter.format, root: RootAccess<Int>.rows(of: self), regexLimits: regexLimits,
            budget: filter.evaluationBudget, paths: paths, functionResultLimit: filter.maximumFunctionResultLength
        ).test(filter.predicate, budget: filter.evaluationBudget)
    }

    /// The indices of the rows that match, in order.
    public func indices(
        where filter: Filter, variables: [String: Value] = [:], regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) throws(EvaluationError) -> [Int] {
        try indices(where: filter, variables: variables, regexLimits: regexLimits, paths: paths, until: nil) ?? []
    }

    /// The indices of the rows that match, in order, or nil when `until`
    /// says to stop (it is asked before each row): for an evaluation a
    /// person may interrupt.
    package func indices(
        where filter: Filter, variables: [String: Value] = [:], regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default, until stop: (() -> Bool)?
    ) throws(EvaluationError) -> [Int]? {
        let test = compile(filter, regexLimits, paths)
        let scope = EvaluationScope(variables: variables)
        var out: [Int] = []
        for row in rows.indices {
            if let stop, stop() { return nil }
            if try test(row, scope) { out.append(row) }
        }
        return out
    }

    /// The rows that match, in order: what `rows.filter(filter)` gives.
    public func filter(
        _ filter: Filter, variables: [String: Value] = [:], regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) throws(EvaluationError) -> [Value] {
        try indices(where: filter, variables: variables, regexLimits: regexLimits, paths: paths).map { rows[$0] }
    }

    /// The first row that matches.
    public func first(
        where filter: Filter, variables: [String: Value] = [:], regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) throws(EvaluationError) -> Value? {
        let test = compile(filter, regexLimits, paths)
        let scope = EvaluationScope(variables: variables)
        for row in rows.indices where try test(row, scope) { return rows[row] }
        return nil
    }

    /// How many rows match.
    public func count(
        where filter: Filter, variables: [String: Value] = [:], regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) throws(EvaluationError) -> Int {
        let test = compile(filter, regexLimits, paths)
        let scope = EvaluationScope(variables: variables)
        var n = 0
        for row in rows.indices where try test(row, scope) { n += 1 }
        return n
    }
}

extension RootAccess {
    /// How compiled predicates read the rows of `table`, given by index
    /// (`Root` is `Int`): a key from the row, or on the fast paths from its
    /// column when it has one (``EvaluationPlan``). Generic, so that the
    /// readers are made as the compiler of `Root` calls them, without
    /// re-abstraction thunks.
    static func rows(of table: ValueTable) -> RootAccess {
        precondition(Root.self == Int.self)
        let rows = table.rows
        return RootAccess(
            kind: .table(table), value: { rows[unsafeBitCast($0, to: Int.self)] },
            reader: { key in
                { r throws(Failure) in try KeyValueAccess.value(rows[unsafeBitCast(r, to: Int.self)], key: key) }
            })
    }
}
