import Foundation
import Sift

/// A fetch request lowered to SQL, with what the executor needs to read its
/// rows back.
public struct SQLQuery: Sendable, Hashable {
    /// The SQL text and its bound values.
    public var statement: BoundStatement
    /// The selected columns, in order: the key each row's value is reported
    /// under and its storage type.
    public var columns: [ResultColumn]
    /// The entity fetched.
    public var entity: Entity
    /// Whether the rows are a grouped fetch's groups: a nil value is then
    /// left out of its row's dictionary (``object(_:)``), as memory and
    /// Core Data leave it out.
    public var isGrouped = false

    /// One selected column of a ``SQLQuery``.
    public struct ResultColumn: Sendable, Hashable {
        /// The attribute name, or the key path as written for fetched
        /// properties (`author.name`); the primary key under its column name.
        public var name: String
        /// The column's storage type, which says how to read its value back.
        public var type: AttributeType
        /// Whether this is the entity's primary key.
        public var isPrimaryKey: Bool
        /// For an element of a composite attribute, the composite's name;
        /// ``name`` is then the element's path inside it.
        public var composite: String? = nil
        /// The value a NULL in this column stands for, if not nil: a
        /// grouped fetch's `sum:` of doubles over no terms is 0, memory's
        /// sum of nothing. The readers of rows put it in the NULL's place.
        public var whenNull: Value? = nil
    }

    /// A fetched row as an object: a dictionary from each column's name to
    /// its value (`values` in the order of ``columns``), with the elements
    /// of each composite attribute gathered into a dictionary of their own
    /// under the composite's name (nested composites nested); a composite
    /// whose elements are all nil is nil, as Core Data stores an unset one.
    public func object(_ values: [Value]) -> [String: Value] {
        var object: [String: Value] = [:]
        var composites: [String: [String: Value]] = [:]
        var order: [String] = []
        for (column, value) in zip(columns, values) {
            if isGrouped && value.isNull { continue }
            guard let composite = column.composite else {
                object[column.name] = value
                continue
            }
            if composites[composite] == nil { order.append(composite) }
            composites[composite, default: [:]][column.name] = value
        }
        for name in order { object[name] = Value.nested(paths: composites[name] ?? [:], nilWhenAllNil: true) }
        return object
    }
}

extension FetchSpecification {
    /// The SQL that fetches this request's rows: the primary key and every
    /// attribute of the entity (or the fetched properties), filtered,
    /// sorted (primary key last, for a stable order), and sliced.
    ///
    /// ```swift
    /// let request = FetchSpecification(entity: "Book", filter: try Filter("year > %d", 1980), sort: [.ascending("title")], limit: 20)
    /// let query = try request.sql(in: schema, dialect: .sqlite)
    /// query.statement.sql   // SELECT t0."id", t0."title", … FROM "books" t0 WHERE t0."year" > ?1 ORDER BY … LIMIT ?2
    /// ```
    public func sql(in schema: StoreSchema, dialect: Dialect, options: SQLLoweringOptions = .default)
        throws(SQLLoweringError) -> SQLQuery
    {
        try FetchLowering(request: self, schema: schema, dialect: dialect, options: options).select(counting: false)
    }

    /// The SQL that counts this request's rows (offset and limit apply).
    public func countSQL(in schema: StoreSchema, dialect: Dialect, options: SQLLoweringOptions = .default)
        throws(SQLLoweringError) -> BoundStatement
    {
        try FetchLowering(request: self, schema: schema, dialect: dialect, options: options).select(counting: true)
            .statement
    }

    /// The SQL that fetches the identities of this request's rows, in its
    /// order: the primary key and, for a table its entity shares with
    /// sub-entities, the entity number of each row (`Z_ENT`). Fetched
    /// properties and `distinct` do not apply. ``StoreSchema/objectID(of:in:)``
    /// turns each row into an identifier.
    public func objectIDSQL(in schema: StoreSchema, dialect: Dialect, options: SQLLoweringOptions = .default)
        throws(SQLLoweringError) -> SQLQuery
    {
        var request = self
        request.properties = nil
        request.distinct = false
        return try FetchLowering(request: request, schema: schema, dialect: dialect, options: options)
            .select(counting: false, identitiesOnly: true)
    }
}

extension Filter {
    /// This predicate as a SQL condition on the rows of `entity` (aliased
    /// `t0`), with the `LEFT JOIN`s its to-one key paths need.
    public func sqlCondition(
        in schema: StoreSchema, entity: String, dialect: Dialect, options: SQLLoweringOptions = .default
    ) throws(SQLLoweringError) -> LoweredCondition {
        let request = FetchSpecification(entity: entity, filter: self)
        let lowering = try FetchLowering(request: request, schema: schema, dialect: dialect, options: options)
        let fragment = try lowering.lowering.predicate(predicate, lowering.root, negated: false)
        // One context for both, so that their placeholders are numbered
        // as one statement's.
        var context = SQLGenerationContext(dialect: dialect)
        for join in lowering.root.joins { context.append(join) }
        let joins = context.sql
        let joinPieces = context.pieces(from: 0)
        context.append(fragment)
        let condition = String(decoding: context.sql.utf8.dropFirst(joins.utf8.count), as: UTF8.self)
        var lowered = LoweredCondition(joins: joins, condition: condition, bindings: context.bindings)
        lowered.joinPieces = joinPieces
        lowered.conditionPieces = context.pieces(from: joins.utf8.count)
        return lowered
    }
}

/// A predicate lowered to a condition for SQL of your own
/// (`Filter.sqlCondition(in:entity:dialect:options:)`): put ``joins``
/// after `FROM table t0` and ``condition`` after `WHERE`, and bind
/// ``bindings`` in order; the placeholders of both are numbered as one
/// statement's.
public struct LoweredCondition: Sendable, Hashable {
    /// The `LEFT JOIN`s the condition's to-one key paths need, each with a
    /// leading space; empty when it needs none.
    public var joins: String
    /// The condition on the rows of `t0`.
    public var condition: String
    /// The values of the placeholders, in order.
    public var bindings: [SQLValue]
    /// ``joins`` and ``condition`` cut at their placeholders, for a client
    /// that numbers placeholders itself (SiftSQLKit's Fluent filter).
    package var joinPieces: [SQLPiece] = []
    package var conditionPieces: [SQLPiece] = []

    /// A condition with its joins and bindings.
    public init(joins: String, condition: String, bindings: [SQLValue]) {
        self.joins = joins
        self.condition = condition
        self.bindings = bindings
    }
}

struct FetchLowering {
    let request: FetchSpecification
    let entity: Entity
    let ctx: LoweringContext
    let root: SelectScope
    var lowering: Lowering { Lowering(ctx: ctx) }

    init(request: FetchSpecification, schema: StoreSchema, dialect: Dialect, options: SQLLoweringOptions)
        throws(SQLLoweringError)
    {
        let source = request.filter.map { $0.source ?? $0.format } ?? ""
        self.request = request
        guard let name = request.entity, let entity = schema.entity(named: name) else {
            throw SQLLoweringError(
                .unknownEntity,
                request.entity.map(schema.unknownEntityMessage) ?? "a SQL fetch needs an entity (one of \(schema.entityList))",
                entity: request.entity ?? "", range: SourceRange(0, 0), source: source)
        }
        self.entity = entity
        ctx = LoweringContext(
            schema: schema, dialect: dialect, source: source, options: options,
            functionResultLimit: request.filter?.maximumFunctionResultLength ?? Filter.defaultMaximumFunctionResultLength)
        root = SelectScope(entity: entity, alias: ctx.alias())
    }

    /// Which of the shared table's rows are the entity's: its own and its
    /// sub-entities' numbers, or only its own when the request leaves
    /// sub-entities out (``FetchSpecification/includesSubentities``).
    func discriminator() throws(SQLLoweringError) -> Discriminator? {
        guard var d = entity.discriminator, !request.includesSubentities else { return entity.discriminator }
        guard let own = entity.entityNumber else {
            throw SQLLoweringError(
                .unsupported,
                "the schema does not say which of the entity numbers \(d.values) is \(entity.name)'s own, so its "
                    + "sub-entities cannot be left out: read the schema from the store again",
                entity: entity.name, range: SourceRange(0, 0), source: ctx.source)
        }
        d.values = [own]
        return d
    }

    func select(counting: Bool, identitiesOnly: Bool = false) throws(SQLLoweringError) -> SQLQuery {
        if request.isGrouped || request.having != nil {
            // Never lowered without its grouping: that would return rows
            // where memory returns groups.
            if identitiesOnly {
                throw SQLLoweringError(
                    .unsupported, "a grouped fetch gives one dictionary per group, not objects: it has no object IDs",
                    entity: entity.name, range: SourceRange(0, 0), source: ctx.source)
            }
            return try GroupedLowering(fetch: self).select(counting: counting)
        }
        let l = lowering
        // Selected columns first: their joins come before the WHERE
        // clause's.
        var columns: [SQLQuery.ResultColumn] = []
        var selected: [(SQLFragment, alias: String?)] = []
        // The primary key, read as its attribute's text form where it has
        // one (a `citext` key), as the other columns are.
        let keyColumn = SQLFragment.column(root.alias, entity.primaryKey)
        let keyAttribute = entity.attributes.first { $0.column == entity.primaryKey }
        let key: (SQLFragment, alias: String?) =
            keyAttribute.flatMap { Lowering.textFormSQL(keyColumn, $0, ctx.dialect) }.map { ($0, entity.primaryKey) }
            ?? (keyColumn, nil)
        if identitiesOnly {
            selected.append(key)
            columns.append(.init(name: entity.primaryKey, type: .integer, isPrimaryKey: true))
            if let d = entity.discriminator {
                selected.append((.column(root.alias, d.column), nil))
                columns.append(.init(name: d.column, type: .integer, isPrimaryKey: false))
            }
        } else if let properties = request.properties {
            for p in properties {
                let column = try propertyColumn(p)
                selected.append((column.sql, p))
                columns.append(.init(name: p, type: column.type, isPrimaryKey: false))
            }
        } else {
            selected.append(key)
            columns.append(.init(name: entity.primaryKey, type: .integer, isPrimaryKey: true))
            for a in entity.attributes where a.column != entity.primaryKey {
                // A string column of another form is read as the text its
                // comparisons read (``Lowering/attributeSQL``).
                let column = SQLFragment.column(root.alias, a.column)
                if let read = Lowering.textFormSQL(column, a, ctx.dialect) {
                    selected.append((read, a.column))
                } else {
                    selected.append((column, nil))
                }
                columns.append(.init(name: a.name, type: a.type, isPrimaryKey: false))
            }
            for c in entity.composites {
                for a in c.elements {
                    selected.append((.column(root.alias, a.column), nil))
                    columns.append(.init(name: a.name, type: a.type, isPrimaryKey: false, composite: c.name))
                }
            }
        }
        var conditions: [SQLFragment] = []
        if let d = try discriminator() { conditions.append(SelectScope.discriminate(d, alias: root.alias)) }
        var conjuncts: [Lowering.Conjunct] = []
        if let filter = request.filter {
            try l.conjuncts(filter.predicate, root, negated: false, into: &conjuncts)
        }
        let first = conditions.count
        conditions += conjuncts.map(\.sql)
        var order: [SQLOrderingTerm] = []
        if !counting || request.limit != nil || request.offset > 0 {
            order = try orderBy(selectedKeys: request.properties)
        }
        let distinct = request.distinct && request.properties != nil
        let table = SQLSelect.SQLSource.table(SQLTable(name: entity.table, alias: root.alias))
        var select = SQLSelect(distinct: distinct, selected, from: table, joins: root.joins, where: conditions)
        if distinct, let properties = request.properties {
            // Sorted outside, so that the sort sees the distinct rows' columns.
            select = SQLSelect(properties.map { (.column("d", $0), nil) }, from: .derived(select, alias: "d"))
        }
        select.orderBy = order
        if let limit = request.limit { select.limit = ctx.bind(.integer(Int64(max(0, limit)))) }
        if request.offset > 0 { select.offset = ctx.bind(.integer(Int64(request.offset))) }
        if ctx.bindingsOverLimit { throw l.bindingLimitError(entity: entity, range: nil) }
        if counting {
            if request.limit != nil || request.offset > 0 || distinct {
                select = SQLSelect(.countAll, from: .derived(select, alias: "counted"))
            } else {
                func count(_ conditions: [SQLFragment]) -> SQLSelect {
                    SQLSelect(.countAll, from: table, joins: root.joins, where: conditions)
                }
                if let i = conjuncts.firstIndex(where: { $0.ranges != nil }), let ranges = conjuncts[i].ranges {
                    // One count per range, added: an OR of ranges on one
                    // index is a MULTI-INDEX OR in SQLite, which collects
                    // and deduplicates the row ids (2.4x the time of one
                    // range), while each count alone is one index search.
                    // The ranges are disjoint and their OR is the condition,
                    // so the counts add up to the count. Their placeholders
                    // name the same bound values.
                    let counts = ranges.map { r -> SQLFragment in
                        var c = conditions
                        c[first + i] = r
                        return .subquery(count(c))
                    }
                    select = SQLSelect(counts.dropFirst().reduce(counts[0]) { .binary($0, "+", $1) }, from: nil)
                } else {
                    select = count(conditions)
                }
            }
            columns = [.init(name: "count", type: .integer, isPrimaryKey: false)]
        }
        let statement = SQLGenerationContext.statement(select, dialect: ctx.dialect)
        return SQLQuery(statement: statement, columns: columns, entity: entity)
    }

    /// A fetched property: an attribute, or one through to-one relationships.
    func propertyColumn(_ keyPath: String) throws(SQLLoweringError) -> Column {
        let range = SourceRange(0, keyPath.utf8.count)
        let components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let resolved: Operand
        do {
            resolved = try lowering.resolve(components, from: root.alias, entity, root, nullable: false, range: range)
        } catch {
            // The range is in the key path, not in the filter's text.
            var located = error
            located.source = keyPath
            throw located
        }
        switch resolved {
        case .column(let c): return c
        default:
            throw SQLLoweringError(
                .toManyKey, "fetched property \(keyPath) must be an attribute (through to-one relationships)",
                entity: entity.name, key: keyPath, range: range, source: keyPath)
        }
    }

    /// The `ORDER BY` term sorting by `c` as `key` says, with its collation
    /// and the nil placement of the in-memory sort.
    func orderingTerm(_ c: Column, _ key: SortKey, written: String) throws(SQLLoweringError) -> SQLOrderingTerm {
        var term = lowering.numeric(c)
        if c.type == .string {
            if ctx.hooks.sortTermsNeedSiftCollations && !ctx.options.siftCollations {
                // Without the collations, the orders a byte key gives.
                switch key.comparison {
                case .compare, .caseInsensitive, .swift:
                    let options: ComparisonOptions = [.compare: [], .caseInsensitive: [.caseInsensitive]][key.comparison] ?? [.swiftString]
                    return SQLOrderingTerm(
                        expression: .function(SQLiteFunctions.sortKey, [c.sql, SQLiteFunctions.bits(options)]),
                        ascending: key.ascending, nullsFirst: c.nullable ? key.ascending : nil)
                default:
                    throw SQLLoweringError(
                        .unsupported,
                        "a sort by \(key.comparison.selector) needs Sift's SQLite collations (\(SQLiteFunctions.collation(key.comparison))), "
                            + "which this connection does not have: sqlite-nio installs functions but not collations "
                            + "(compare:, caseInsensitiveCompare: and swiftCompare: sort by sift_sort_key)",
                        entity: entity.name, key: written, range: SourceRange(0, written.utf8.count), source: key.description)
                }
            }
            if ctx.dialect == .postgreSQL, let why = ctx.schema.caseFoldingRefusal,
                key.comparison == .caseInsensitive || key.comparison == .localizedCaseInsensitive
            {
                throw SQLLoweringError(
                    .unsupported, "postgres: sorting by \(key.comparison.selector) is refused: \(why)", entity: entity.name, key: written,
                    range: SourceRange(0, written.utf8.count), source: key.description)
            }
            do throws(Problem) {
                term = try ctx.hooks.sortTerm(c.sql, key.comparison)
            } catch {
                throw SQLLoweringError(
                    .unsupported, error.message, entity: entity.name, key: written,
                    range: SourceRange(0, written.utf8.count), source: key.description)
            }
        }
        // NULLs first ascending and last descending, as in memory: the
        // opposite of PostgreSQL's default. A column that holds no NULL
        // says nothing of them, so that an index in the default order
        // serves the sort.
        return SQLOrderingTerm(expression: term, ascending: key.ascending, nullsFirst: c.nullable ? key.ascending : nil)
    }

    /// `ORDER BY` terms: each sort key with its collation and the nil
    /// placement of the in-memory sort, then the primary key.
    private func orderBy(selectedKeys: [String]?) throws(SQLLoweringError) -> [SQLOrderingTerm] {
        var terms: [SQLOrderingTerm] = []
        for key in request.sort {
            let written = key.keyPath.joined(separator: ".")
            let range = SourceRange(0, written.utf8.count)
            if request.distinct, let selectedKeys, !selectedKeys.contains(written) {
                throw SQLLoweringError(
                    .unsupported, "a distinct fetch can only sort by fetched properties; \(written) is not one",
                    entity: entity.name, key: written, range: range, source: written)
            }
            guard case .column(var c) = try lowering.resolve(key.keyPath, from: root.alias, entity, root, nullable: false, range: range)
            else { throw KeyResolver.sortKeyError(written, entity: entity) }
            if request.distinct, selectedKeys != nil { c.sql = .column("d", written) }
            terms.append(try orderingTerm(c, key, written: written))
        }
        if request.distinct, let selectedKeys {
            // Rows equal in every sort key come in the order of their columns.
            for (i, _) in selectedKeys.enumerated() { terms.append(SQLOrderingTerm(expression: .integer(i + 1))) }
        } else {
            terms.append(SQLOrderingTerm(expression: .column(root.alias, entity.primaryKey)))
        }
        return terms
    }
}

/// A piece of SQL text cut at its placeholders: text, or the index in the
/// statement's bindings of the value bound at a placeholder.
package enum SQLPiece: Sendable, Hashable {
    case sql(String)
    case binding(Int)
}
