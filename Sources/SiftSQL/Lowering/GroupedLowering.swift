import Sift

/// A grouped or aggregate fetch (``FetchSpecification/groupBy``,
/// ``FetchSpecification/expressions``, ``FetchSpecification/having``) as SQL
/// that gives memory's dictionaries (`GroupedFetch`, whose rules are Core
/// Data's):
///
/// ```sql
/// SELECT g."k0", g."e0" FROM (
///   SELECT t1."name" AS "k0", COUNT(*) AS "e0" FROM "books" t0 LEFT JOIN "authors" t1 ON …
///   WHERE <filter> GROUP BY 1) g
/// WHERE <having> ORDER BY <sort> LIMIT … OFFSET …
/// ```
///
/// The grouped rows are a derived table, so that `having` and the sort read
/// plain columns of it (a grouped key path or an expression's name, as
/// memory reads each group's dictionary) and the `GROUP BY` names its
/// columns by position. Its columns are named `k0`, `k1`, … and `e0`, `e1`,
/// …: an expression's name is the caller's text, not the schema's, and
/// PostgreSQL would cut a long one at 63 bytes; the names the results are
/// reported under are the query's ``SQLQuery/columns``. Each aggregate is written so that its value is
/// memory's; what cannot be is refused (see ``aggregate(_:)``).
struct GroupedLowering {
    let fetch: FetchLowering
    var request: FetchSpecification { fetch.request }
    var entity: Entity { fetch.entity }
    var ctx: LoweringContext { fetch.ctx }
    var hooks: any DialectHooks { ctx.hooks }

    /// The alias of the derived table of groups.
    static let groups = "g"
    /// The aggregate functions with a SQL form: those of memory's grouped
    /// fetch, which are Core Data's SQLite store's.
    static let functions: Set<BuiltinFunction> = [.count, .sum, .average, .min, .max]

    /// One column of the grouped rows.
    private struct Output {
        var name: String
        /// The column's name in the derived table.
        var alias: String
        var sql: SQLFragment
        var type: AttributeType
        var nullable: Bool
        /// The value a NULL stands for: a `sum:` of doubles with no terms
        /// is memory's integer 0 (a sum of nothing), kept NULL in the
        /// grouped rows so that the result can say so, and read as 0 by
        /// `having` and the sort.
        var whenNull: Value? = nil
    }

    func select(counting: Bool) throws(SQLLoweringError) -> SQLQuery {
        if request.groupBy == nil, let having = request.having {
            // Memory's rule (`GroupedFetch.requireGrouping`), as Core Data's
            // `havingPredicate` needs `propertiesToGroupBy`.
            throw SQLLoweringError(
                .unsupported, "having tests groups: give the request a groupBy", entity: entity.name,
                range: SourceRange(0, 0), source: having.source ?? having.format)
        }
        let keys = request.groupBy ?? []
        let fetched = try fetchedKeys(keys)
        // Inner SELECT: the grouped values, then the aggregates. Their joins
        // are made before the filter's, in the root scope.
        var outputs: [Output] = []
        for (i, k) in keys.enumerated() { outputs.append(try groupKey(k, alias: "k\(i)")) }
        for (i, d) in request.expressions.enumerated() { outputs.append(try aggregate(d, alias: "e\(i)")) }
        var conditions: [SQLFragment] = []
        if let d = try fetch.discriminator() { conditions.append(SelectScope.discriminate(d, alias: fetch.root.alias)) }
        if let filter = request.filter {
            var conjuncts: [Lowering.Conjunct] = []
            try fetch.lowering.conjuncts(filter.predicate, fetch.root, negated: false, into: &conjuncts)
            conditions += conjuncts.map(\.sql)
        }
        var innerColumns = outputs.map { ($0.sql, alias: Optional($0.alias)) }
        var outerConditions: [SQLFragment] = []
        if keys.isEmpty && request.groupBy != nil {
            // `groupBy: []` is one group of every matching row, and no group
            // when none matches; SQL's aggregate without GROUP BY is one row
            // even then (which memory gives for `groupBy == nil`).
            let rows = "n"
            innerColumns.append((.countAll, alias: rows))
            outerConditions.append(.binary(.column(Self.groups, rows), ">", .integer(0)))
        }
        let table = SQLSelect.SQLSource.table(SQLTable(name: entity.table, alias: fetch.root.alias))
        var inner = SQLSelect(innerColumns, from: table, joins: fetch.root.joins, where: conditions)
        inner.groupBy = keys.indices.map { .integer($0 + 1) }

        // `having` and the sort read each column, a sum of nothing as 0; the
        // results read it as stored, NULL standing for `whenNull`.
        var columns: [String: Column] = [:]
        for o in outputs {
            let stored = SQLFragment.column(Self.groups, o.alias)
            let read = o.whenNull == nil ? stored : .function("COALESCE", [stored, .integer(0)])
            columns[o.name] = Column(sql: read, type: o.type, nullable: o.nullable && o.whenNull == nil, key: o.name)
        }
        if let having = request.having { outerConditions.append(try condition(having, columns)) }
        let byName = Dictionary(outputs.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let selected = (fetched + request.expressions.map(\.name)).compactMap { byName[$0] }
        var select = SQLSelect(
            selected.map { (SQLFragment.column(Self.groups, $0.alias), alias: nil) }, from: .derived(inner, alias: Self.groups),
            where: outerConditions)
        if !counting { select.orderBy = try orderBy(columns) }
        if let limit = request.limit { select.limit = ctx.bind(.integer(Int64(max(0, limit)))) }
        if request.offset > 0 { select.offset = ctx.bind(.integer(Int64(request.offset))) }
        if ctx.bindingsOverLimit { throw fetch.lowering.bindingLimitError(entity: entity, range: nil) }
        var resultColumns = selected.map { o in
            SQLQuery.ResultColumn(name: o.name, type: o.type, isPrimaryKey: false, whenNull: o.whenNull)
        }
        if counting {
            select = SQLSelect(.countAll, from: .derived(select, alias: "counted"))
            resultColumns = [.init(name: "count", type: .integer, isPrimaryKey: false)]
        }
        let statement = SQLGenerationContext.statement(select, dialect: ctx.dialect)
        var query = SQLQuery(statement: statement, columns: resultColumns, entity: entity)
        query.isGrouped = true
        return query
    }

    /// The key paths each result holds, as memory checks them: each fetched
    /// one must be grouped, and no two values may share a name.
    private func fetchedKeys(_ keys: [String]) throws(SQLLoweringError) -> [String] {
        let fetched = request.properties ?? keys
        for p in fetched where !keys.contains(p) {
            throw refusal(
                request.groupBy == nil
                    ? "\(p) is fetched beside aggregates without groupBy: group by it, or fetch only aggregates"
                    : "\(p) is fetched but not grouped: a grouped fetch can only fetch the key paths it groups by and aggregates",
                p)
        }
        var names = Set(keys)
        for d in request.expressions where !names.insert(d.name).inserted {
            throw refusal("\(d.name) names two fetched values: give the expression another name", d.name)
        }
        return fetched
    }

    /// A grouped key path: an attribute, through to-one relationships.
    private func groupKey(_ keyPath: String, alias: String) throws(SQLLoweringError) -> Output {
        let c = try fetch.propertyColumn(keyPath)
        if c.isRelationship {
            throw refusal(
                "\(keyPath) is a relationship: memory groups by its objects, SQL by their keys; group by one of their "
                    + "attributes, as in \(keyPath).name", keyPath)
        }
        // NaN is nil, one group with the nils (PostgreSQL keeps NaN, a group
        // of its own); -0.0 and 0.0 are one group both ways (the key shown
        // is one of them, equal as values).
        return Output(name: keyPath, alias: alias, sql: value(c), type: c.type, nullable: true)
    }

    /// A column's value as memory's aggregates and groups see it: NaN as
    /// nil, where the dialect stores NaN (it has a `notNaN` test). SQLite
    /// stores NaN as NULL already; a double computed by
    /// `sift_arithmetic` there is NULL for NaN (``Column/nanIsNull``) and
    /// never nil, so NULL is nil's place too.
    private func value(_ c: Column) -> SQLFragment {
        guard hooks.notNaN(c.sql, c.type) != nil, c.type == .double || c.type == .decimal else { return c.sql }
        return .function("NULLIF", [c.sql, .cast(.literal("NaN"), hooks.columnType(.double))])
    }

    /// One expression description as SQL with memory's value, or refused.
    ///
    /// - `count:(SELF)` is `COUNT(*)`; `count:(x)` counts the non-nil,
    ///   non-NaN values.
    /// - `sum:` and `average:` of doubles add them in key order
    ///   (``doubleAggregate(_:_:_:alias:_:)``); of decimals, refused: SQL
    ///   adds their stored doubles, where memory adds decimals exactly.
    /// - `sum:` and `average:` of integers (and Booleans, as 0 and 1):
    ///   memory adds integers exactly while no partial sum overflows, and
    ///   averages by adding doubles in the objects' order. An integer sum is
    ///   SQL's own: PostgreSQL adds bigints as numeric, exactly, and the
    ///   cast back fails past 64 bits, where memory's sum becomes a double;
    ///   SQLite's SUM fails as soon as a partial sum overflows, and is exact
    ///   otherwise. Either answers memory's exact integer or fails the
    ///   statement. An average is checked group by group: while count × the
    ///   largest magnitude stays within 2^53, memory's doubles add exactly
    ///   in any order; beyond, the statement fails (see
    ///   ``SQLFragment/exactIntegerAggregate(_:of:bound:)``).
    /// - `min:` and `max:` of numbers, dates, strings (by their UTF-8 bytes,
    ///   which is Unicode scalar order: `COLLATE "C"` on PostgreSQL, the
    ///   result then in the default collation) and
    ///   Booleans (`bool_and`/`bool_or` on PostgreSQL).
    private func aggregate(_ d: ExpressionDescription, alias: String) throws(SQLLoweringError) -> Output {
        let source = d.source
        let whole = SourceRange(0, source.utf8.count)
        func refuse(_ message: String) -> SQLLoweringError {
            SQLLoweringError(.unsupported, "\(d.name): " + message, entity: entity.name, key: d.name, range: whole, source: source)
        }
        guard case .function(let f, let arguments) = d.expression.kind, Self.functions.contains(f), arguments.count == 1
        else {
            throw refuse("a grouped fetch computes count:, sum:, average:, min: or max: of an expression, as in sum:(price)")
        }
        if f == .count, case .evaluatedObject = arguments[0].kind {
            return Output(name: d.name, alias: alias, sql: .countAll, type: .integer, nullable: false)
        }
        let operand: Operand
        do throws(SQLLoweringError) {
            operand = try fetch.lowering.operand(arguments[0], fetch.root)
        } catch {
            var e = error
            e.source = source
            throw e
        }
        guard case .column(let c) = operand else {
            if case .toMany(let many) = operand {
                throw refuse(
                    "\(many.key) is a collection; aggregate one of its keys per object, as in sum:(\(many.key).@count)")
            }
            throw refuse("aggregate a key path (or arithmetic of key paths), not a constant")
        }
        let x = value(c)
        if f == .count {
            return Output(name: d.name, alias: alias, sql: .function("COUNT", [x]), type: .integer, nullable: false)
        }
        if c.isRelationship {
            throw refuse("\(c.key) is a relationship: only count: has a SQL form for it")
        }
        switch f {
        case .sum, .average:
            if c.type == .double {
                return try doubleAggregate(d, f, x, alias: alias, refuse)
            }
            guard c.type == .integer || c.type == .boolean else {
                let why: String
                switch c.type {
                case .decimal: why = "SQL adds decimals as doubles, rounding where memory's decimals do not"
                default: why = "memory adds numbers only, not \(c.type.name) values"
                }
                throw refuse("\(FormatPrinter.format(d.expression)) of \(c.key) has no exact SQL form: " + why)
            }
            let n = hooks.numeric(x, c.type)
            let count = SQLFragment.function("COUNT", [x])
            if f == .sum {
                // SQLite's SUM of integers is an integer (TOTAL, Core Data's,
                // a double); PostgreSQL's and DuckDB's are wider, cast back
                // (`integerSum`). No check is needed: each fails where it
                // would not be exact (above).
                let sum = SQLFragment.function("COALESCE", [.function("SUM", [n]), .integer(0)])
                let typed = hooks.integerSum(sum)
                return Output(name: d.name, alias: alias, sql: typed, type: .integer, nullable: false)
            }
            let double = hooks.columnType(.double)
            let mean = SQLFragment.binary(
                .cast(.function("SUM", [n]), double), "/", .function("NULLIF", [count, .integer(0)]))
            return Output(name: d.name, alias: alias, sql: SQLFragment.exactIntegerAggregate(mean, of: n, bound: 1 << 53), type: .double, nullable: true)
        default:
            let smallest = f == .min
            switch c.type {
            case .integer, .double, .decimal, .date(.referenceSeconds), .date(.unixSeconds):
                return Output(name: d.name, alias: alias, sql: .function(smallest ? "MIN" : "MAX", [x]), type: c.type, nullable: true)
            case .string, .date(.iso8601):
                var extreme = SQLFragment.function(smallest ? "MIN" : "MAX", [hooks.codePointOrder(x)])
                if ctx.dialect == .postgreSQL {
                    // The value takes its argument's collation, "C", under
                    // which PostgreSQL's lower() and upper() change ASCII
                    // letters only: a `having` or sort with [c] would then
                    // fold it otherwise than a column's. Back to the
                    // database's default collation, which columns have.
                    extreme = .group(.collate(extreme, "\"default\""))
                }
                return Output(name: d.name, alias: alias, sql: extreme, type: c.type, nullable: true)
            case .boolean:
                let name = ctx.dialect == .postgreSQL ? (smallest ? "BOOL_AND" : "BOOL_OR") : (smallest ? "MIN" : "MAX")
                return Output(name: d.name, alias: alias, sql: .function(name, [x]), type: c.type, nullable: true)
            default:
                throw refuse("min: and max: compare numbers, dates, strings or Booleans, not \(c.type.name) values")
            }
        }
    }

    /// `sum:` or `average:` of the doubles `x` (NaN already nil): the
    /// terms added from 0.0 in the order of the objects' keys
    /// (``DialectHooks/orderedSum(_:by:_:)``), as memory adds a group's
    /// doubles in the order it is given the objects. A sum with no terms
    /// is memory's integer 0 (``Output/whenNull``); an average with none
    /// is nil. Refused where the dialect has no such sum.
    private func doubleAggregate(
        _ d: ExpressionDescription, _ f: BuiltinFunction, _ x: SQLFragment, alias: String,
        _ refuse: (String) -> SQLLoweringError
    ) throws(SQLLoweringError) -> Output {
        let key = SQLFragment.column(fetch.root.alias, entity.primaryKey)
        guard let sum = hooks.orderedSum(x, by: key, entity.primaryKeyType) else {
            throw refuse(
                "\(FormatPrinter.format(d.expression)) has no exact SQL form on \(ctx.dialect): a sum of doubles depends on the "
                    + "order of its terms, and this database does not add them in memory's order")
        }
        if f == .sum {
            return Output(name: d.name, alias: alias, sql: sum, type: .double, nullable: true, whenNull: .int(0))
        }
        let count = SQLFragment.cast(.function("COUNT", [x]), hooks.columnType(.double))
        let mean = SQLFragment.binary(sum, "/", .function("NULLIF", [count, .integer(0)]))
        return Output(name: d.name, alias: alias, sql: mean, type: .double, nullable: true)
    }

    /// `having` as a condition on the grouped rows: its key paths read the
    /// grouped values, its `$name` and `name` the expressions' (through
    /// ``SelectScope/grouped``, which `Lowering.operand` reads first).
    private func condition(_ having: Filter, _ columns: [String: Column]) throws(SQLLoweringError) -> SQLFragment {
        // An entity with no keys: a comparison that would join a to-one
        // relationship of the real one (`Lowering.toOneMembership`) is not
        // made; every key path goes through `grouped`.
        let rows = Entity(entity.name, table: Self.groups, attributes: [])
        let names = Set(request.expressions.map(\.name))
        let scope = SelectScope(
            entity: rows, alias: Self.groups,
            grouped: GroupedColumns(columns: columns, variables: columns.filter { names.contains($0.key) }))
        do throws(SQLLoweringError) {
            return try fetch.lowering.predicate(having.predicate, scope, negated: false)
        } catch {
            var e = error
            e.source = having.source ?? having.format
            throw e
        }
    }

    /// `ORDER BY` terms over the grouped keys and the expressions' names,
    /// as memory sorts the groups' dictionaries. Groups equal in every sort
    /// key come in no set order (memory's: their first objects').
    private func orderBy(_ columns: [String: Column]) throws(SQLLoweringError) -> [SQLOrderingTerm] {
        var terms: [SQLOrderingTerm] = []
        for key in request.sort {
            let written = key.keyPath.joined(separator: ".")
            guard let c = columns[written] else {
                throw refusal(
                    "a grouped fetch sorts by its grouped key paths and expression names; \(written) is neither", written)
            }
            terms.append(try fetch.orderingTerm(c, key, written: written))
        }
        return terms
    }

    private func refusal(_ message: String, _ key: String) -> SQLLoweringError {
        SQLLoweringError(.unsupported, message, entity: entity.name, key: key, range: SourceRange(0, key.utf8.count), source: key)
    }
}

/// What a grouped fetch's `having` reads: each grouped key path (as
/// written) and expression name as a column of the grouped rows, and the
/// expressions also as `$name`.
struct GroupedColumns {
    var columns: [String: Column]
    var variables: [String: Column]

    /// The column `e` names, nil when `e` is not a key path or a variable
    /// (a constant, arithmetic: lowered as usual, its key paths coming
    /// back here); a key path or variable naming none is refused: memory
    /// reads nil there, which is surely not what was meant.
    func column(_ e: ExpressionNode, _ l: Lowering, _ scope: SelectScope) throws(SQLLoweringError) -> Column? {
        let written: String
        switch e.kind {
        case .keyPath(let components):
            written = components.joined(separator: ".")
        case .path(let base, let components):
            guard case .evaluatedObject = base.kind else { return nil }
            written = components.joined(separator: ".")
        case .variable(let name):
            if let c = variables[name] { return c }
            throw l.error(
                .unsupported, "$\(name) is not an expression of the request (\(variables.keys.sorted().joined(separator: ", ")))",
                entity: scope.entity, range: e.range)
        default:
            return nil
        }
        if let c = columns[written] { return c }
        throw l.error(
            .unsupported,
            "having reads the grouped key paths and the expressions' names (\(columns.keys.sorted().joined(separator: ", "))); "
                + "\(written) is neither", entity: scope.entity, key: written, range: e.range)
    }
}
