/// SQL as a value: what the lowering builds and a ``SQLGenerationContext``
/// renders for one dialect. Values are never written into the text: they
/// are ``SQLParameter``s, numbered when the statement is rendered.
/// Identifiers come from the schema and are quoted by the dialect; `.sql`
/// holds only keywords and operators that the lowering itself writes.
///
/// The lowering decides from the structure, never from rendered text: TRUE
/// is `.boolean(true)`, an OR of index ranges is `.indexRanges`, a
/// subquery is a ``SQLSelect``.
indirect enum SQLFragment: Sendable {
    /// Keywords, operators and punctuation written by the lowering.
    case sql(String)
    /// Pieces written one after the other.
    case sequence([SQLFragment])
    /// TRUE or FALSE, in the dialect's spelling.
    case boolean(Bool)
    /// An integer from the schema or the lowering (a discriminator value,
    /// a `COUNT(*)`'s zero), written as digits.
    case integer(Int)
    /// A string literal written by the lowering itself (never a value of
    /// the predicate's, which is bound): `'…'`, quotes doubled.
    case literal(String)
    /// A quoted identifier, after the table alias when there is one.
    case column(table: String?, name: String)
    /// A bound value.
    case parameter(SQLParameter)
    /// `lhs op rhs`.
    case binary(SQLFragment, String, SQLFragment)
    /// `(a AND b …)`, or without parentheses when not `grouped` (the
    /// conditions of a WHERE clause).
    case and([SQLFragment], grouped: Bool = true)
    /// `(a OR b …)`.
    case or([SQLFragment])
    /// `NOT a`, where `a` is never NULL.
    case not(SQLFragment)
    /// True exactly where `a` is not true (false or NULL).
    case notTrue(SQLFragment)
    /// `a IS NULL`, or `a IS NOT NULL` when `negated`.
    case isNull(SQLFragment, negated: Bool)
    /// Equality in which NULL equals NULL (negated: distinctness).
    case nullSafeEqual(SQLFragment, SQLFragment, negated: Bool)
    /// `name(a, b, …)`.
    case function(String, [SQLFragment])
    /// `CAST(a AS type)`.
    case cast(SQLFragment, String)
    /// `a COLLATE name`, the name already in the dialect's spelling.
    case collate(SQLFragment, String)
    /// `(a)`.
    case group(SQLFragment)
    /// `a IN (b, c, …)`.
    case inList(SQLFragment, [SQLFragment])
    /// `a IN (SELECT …)`.
    case inSelect(SQLFragment, SQLSelect)
    /// `EXISTS (SELECT …)` or `NOT EXISTS (SELECT …)`.
    case exists(SQLSelect, negated: Bool)
    /// `(SELECT …)`: a scalar subquery.
    case subquery(SQLSelect)
    /// `(r₁ OR r₂ …)` where each `rᵢ` is one search of an index and no row
    /// meets two of them: a count can add the counts of each.
    case indexRanges([SQLFragment])
}

/// A value bound to a statement, with the identity that lets one value
/// appear at several places of a statement under one placeholder.
struct SQLParameter: Sendable {
    let id: Int
    let value: SQLValue
}

/// A table in a FROM clause: `"books" t0`.
struct SQLTable: Sendable {
    var name: String
    var alias: String
}

/// ` LEFT JOIN "authors" t1 ON …` or ` JOIN … ON …`.
struct SQLJoin: Sendable {
    var left: Bool
    var table: SQLTable
    var on: SQLFragment
}

/// One term of ORDER BY: an expression, its direction, and where NULLs
/// go (rendered only by dialects that need to be told).
struct SQLOrderingTerm: Sendable {
    var expression: SQLFragment
    var ascending: Bool? = nil
    var nullsFirst: Bool? = nil
}

/// A `SELECT` statement or subquery.
struct SQLSelect: Sendable {
    var distinct = false
    /// The selected expressions, each with its alias if any.
    var columns: [(SQLFragment, alias: String?)]
    /// A table, a join of tables, or a derived table `(SELECT …) name`.
    var from: SQLSource?
    var joins: [SQLJoin] = []
    /// Joined with AND.
    var conditions: [SQLFragment] = []
    /// `GROUP BY` terms (an integer names a selected column by position).
    var groupBy: [SQLFragment] = []
    var orderBy: [SQLOrderingTerm] = []
    var limit: SQLFragment?
    var offset: SQLFragment?

    indirect enum SQLSource: Sendable {
        case table(SQLTable)
        /// `a JOIN b ON …`.
        case join(SQLTable, SQLJoin)
        case derived(SQLSelect, alias: String)
        /// A table-valued function: `json_each(?1)`.
        case fragment(SQLFragment)
    }

    init(
        distinct: Bool = false, _ columns: [(SQLFragment, alias: String?)], from: SQLSource?, joins: [SQLJoin] = [],
        where conditions: [SQLFragment] = []
    ) {
        self.distinct = distinct
        self.columns = columns
        self.from = from
        self.joins = joins
        self.conditions = conditions
    }

    init(_ column: SQLFragment, from: SQLSource?, joins: [SQLJoin] = [], where conditions: [SQLFragment] = []) {
        self.init([(column, nil)], from: from, joins: joins, where: conditions)
    }
}

extension SQLFragment {
    /// `COUNT(*)`.
    static let countAll = SQLFragment.sql("COUNT(*)")

    /// `t0."name"`.
    static func column(_ table: String, _ name: String) -> SQLFragment { .column(table: table, name: name) }
}
