import Sift

/// The SQL flavour a statement is written in: ``sqlite``,
/// ``postgreSQL`` or ``duckDB``.
///
/// Each dialect is one file (`SQLiteDialect.swift`,
/// `PostgreSQLDialect.swift`, `DuckDBDialect.swift`) that overrides the hooks of
/// `DialectHooks` where it differs from standard SQL.
public struct Dialect: Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    let hooks: any DialectHooks

    init(_ hooks: any DialectHooks) { self.hooks = hooks }

    /// SQLite, with the functions and collations `SiftSQLite` registers
    /// (``SQLiteFunctions``).
    public static let sqlite = Dialect(SQLiteDialect())
    /// PostgreSQL 13 or later, with nothing to install.
    public static let postgreSQL = Dialect(PostgreSQLDialect())
    /// DuckDB 1.1 or later, with nothing to install. Strings are compared
    /// as stored: a string comparison that reads the canonical
    /// decomposition (every one without `[n]`), arithmetic and functions
    /// of stored values, and sorting by strings other than
    /// `swiftCompare:` are refused (the article "SQL lowering" says why).
    public static let duckDB = Dialect(DuckDBDialect())

    /// Every dialect: a new one is listed here.
    public static let allCases: [Dialect] = [.sqlite, .postgreSQL, .duckDB]

    /// The dialect's name: `sqlite`, `postgres` or `duckdb`.
    public var rawValue: String { hooks.name }

    /// The dialect named `rawValue` (`sqlite`, `postgres` or `duckdb`).
    public init?(rawValue: String) {
        guard let d = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = d
    }

    /// The dialect's name, as ``rawValue``.
    public var description: String { rawValue }

    /// Dialects are equal when their names are.
    public static func == (a: Dialect, b: Dialect) -> Bool { a.rawValue == b.rawValue }

    /// Hashes the dialect's name.
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// Decodes the dialect's name (`"sqlite"`, `"postgres"`, `"duckdb"`); another
    /// name is an error.
    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let d = Dialect(rawValue: name) else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "unknown SQL dialect \(name)"))
        }
        self = d
    }

    /// Encodes the dialect's name.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }

    /// `name` as a quoted identifier, embedded quotes doubled.
    public func quote(_ name: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(name.utf8.count + 2)
        hooks.quote(name, into: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// The placeholder of the `n`th bound value (1-based): `?1` on SQLite,
    /// `$1` on PostgreSQL and DuckDB.
    public func placeholder(_ n: Int) -> String { hooks.placeholder(n) }
}

/// What a dialect decides: each hook has the standard SQL form as its
/// default, and a dialect overrides only those it writes otherwise (as
/// sqlglot's generators override the base generator's methods). Hooks
/// that render take fragments and give fragments; hooks that bind values
/// take the lowering's context.
protocol DialectHooks: Sendable {
    /// The name `Dialect(rawValue:)` reads and the command line takes.
    var name: String { get }
    /// Whether the dialect answers `[s]` searches and orderings as Swift
    /// does: searches by characters (grapheme clusters), orderings by
    /// Swift's own `<`, which orders a few pairs of unequal strings neither
    /// way. Only a dialect with the evaluator's own functions does (false
    /// unless the dialect says so).
    var comparesSwiftStrings: Bool { get }

    // MARK: Rendering

    /// `name` as a quoted identifier, appended to UTF-8 text.
    func quote(_ name: String, into text: inout [UInt8])
    /// The placeholder of the `n`th bound value (1-based).
    func placeholder(_ n: Int) -> String
    /// Whether a placeholder names its value by number, so that a value
    /// appearing twice is bound once; with positional placeholders (`?`)
    /// it is bound at each place.
    var placeholdersAreNumbered: Bool { get }
    /// TRUE or FALSE.
    func boolean(_ value: Bool) -> String
    /// `a = b` where NULL equals NULL (negated: `a` is distinct from `b`).
    func nullSafeEqual(_ a: SQLFragment, _ b: SQLFragment, negated: Bool) -> SQLFragment
    /// True exactly where `condition` is not true (false or NULL).
    func notTrue(_ condition: SQLFragment) -> SQLFragment
    /// ` LIMIT … OFFSET …` after the ORDER BY clause.
    func limitClause(limit: SQLFragment?, offset: SQLFragment?) -> SQLFragment
    /// Whether ORDER BY terms say where NULLs go (`NULLS FIRST`); a dialect
    /// that already sorts them first ascending and last descending, as the
    /// in-memory sort does, leaves it out.
    var writesNullsOrdering: Bool { get }

    // MARK: Values

    /// A boolean bound against a boolean column.
    func booleanValue(_ value: Bool) -> SQLValue
    /// A column as a number (a boolean one cast to an integer where
    /// booleans are not numbers).
    func numeric(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment
    /// `lhs` differs from the bound `value` or `column` is NULL.
    func notEqualOrNull(_ lhs: SQLFragment, _ value: SQLFragment, column: SQLFragment) -> SQLFragment
    /// Where the database orders NaN above every number (PostgreSQL), the
    /// condition that `column`, of `type`, holds a number or NULL: `x > 0` and
    /// `x >= 0` take it, since in memory NaN is neither greater nor less
    /// than anything. Nil where no stored value is NaN (SQLite stores NaN
    /// as NULL).
    func notNaN(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment?
    /// Whether the dialect computes `+ - * /` and the other built-in
    /// functions with the evaluator's own code (`sift_arithmetic` and
    /// `sift_function` on SQLite), so that any operands have an exact form;
    /// otherwise only those whose standard SQL form gives memory's value and
    /// cannot raise where memory does not (see `Lowering.arithmetic` and
    /// `Lowering.function`). False unless the dialect says so.
    var computesArithmetic: Bool { get }
    /// Why `+ - * /` and the built-in functions of stored values have no
    /// exact form in the dialect at all (constants are folded before), or
    /// nil where `Lowering.arithmetic` and `Lowering.function` choose each
    /// one's form (nil unless the dialect says so).
    var computedValueRefusal: String? { get }
    /// `lhs` equals one of `values` (of the column's `type`), bound.
    func membership(_ lhs: SQLFragment, _ values: [SQLValue], _ type: AttributeType, _ ctx: LoweringContext) -> SQLFragment
    /// A key compared in a membership test that the planner should not
    /// answer from an index of its own (see `Lowering.toOneMembership`).
    func unindexedKey(_ key: SQLFragment) -> SQLFragment

    // MARK: Aggregates

    /// The sum of `value` over the rows, 0 when there are none.
    func total(_ value: SQLFragment) -> SQLFragment
    /// `sum`, a grouped fetch's `COALESCE(SUM(x), 0)` of integers, as a
    /// 64-bit integer that fails the statement past 64 bits, where memory's
    /// sum becomes a double.
    func integerSum(_ sum: SQLFragment) -> SQLFragment
    /// The sum of the doubles `value` as memory adds them: from 0.0, one
    /// term after another in the order of `key` (the objects' primary key,
    /// of `keyType`), nil terms left out; NULL when there are none. Memory
    /// adds a collection's or a group's doubles in the order it is given
    /// the objects, and a database's objects come in key order, so the
    /// last bits agree. Nil when the dialect has no such sum: a sum of
    /// doubles is then refused.
    func orderedSum(_ value: SQLFragment, by key: SQLFragment, _ keyType: AttributeType) -> SQLFragment?

    // MARK: Strings

    /// A string column in the form compared under `options`. The string
    /// hooks throw where the dialect has no exact form for the options.
    func fold(_ column: SQLFragment, _ options: ComparisonOptions) throws(Problem) -> SQLFragment
    /// A string column in code point order, for index ranges.
    func codePointOrder(_ column: SQLFragment) -> SQLFragment
    /// A string column's canonical decomposition, when the dialect has a
    /// function for it: BEGINSWITH an ASCII prefix without options (a
    /// string begins with it when its decomposition does) is then one range
    /// of it; nil: one range for each spelling of the prefix, on the column.
    func decomposition(_ column: SQLFragment) -> SQLFragment?
    /// `lhs op rhs` for strings, ordered as `compare:options:` orders them.
    func stringOrdering(
        _ lhs: SQLFragment, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment
    /// BEGINSWITH / ENDSWITH / CONTAINS with a non-empty needle.
    func search(
        _ haystack: TextSide, _ needle: TextSide, _ kind: SearchKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment
    /// The whole string matches `pattern`, of the pattern language
    /// `kind`: wildcards (`*`, `?` and backslash escapes), or a regular
    /// expression the lowering has already compiled as the evaluator does.
    /// A problem where the dialect has no form for the pattern.
    func pattern(
        _ column: SQLFragment, _ pattern: String, _ kind: OperatorFamily.PatternKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment
    /// A string column as an ORDER BY term sorted by `comparison`.
    func sortTerm(_ column: SQLFragment, _ comparison: SortKey.Comparison) throws(Problem) -> SQLFragment
    /// Whether ``sortTerm(_:_:)`` calls collations of Sift's own, which a
    /// connection must have (`SQLLoweringOptions.siftCollations`).
    var sortTermsNeedSiftCollations: Bool { get }

    // MARK: Tables

    /// The type of primary and foreign key columns.
    var keyType: String { get }
    /// The column type storing an attribute of `type`.
    func columnType(_ type: AttributeType) -> String
}

extension DialectHooks {
    var sortTermsNeedSiftCollations: Bool { false }

    /// In double quotes, embedded quotes doubled. Written straight into
    /// the statement's bytes: quoting happens for every identifier of
    /// every statement.
    func quote(_ name: String, into text: inout [UInt8]) {
        let quote = UInt8(ascii: "\"")
        text.append(quote)
        for b in name.utf8 {
            if b == quote { text.append(quote) }
            text.append(b)
        }
        text.append(quote)
    }

    func placeholder(_ n: Int) -> String { "$\(n)" }

    var placeholdersAreNumbered: Bool { true }

    func boolean(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }

    func nullSafeEqual(_ a: SQLFragment, _ b: SQLFragment, negated: Bool) -> SQLFragment {
        .binary(a, negated ? "IS DISTINCT FROM" : "IS NOT DISTINCT FROM", b)
    }

    func notTrue(_ condition: SQLFragment) -> SQLFragment {
        .not(.function("COALESCE", [condition, .boolean(false)]))
    }

    func limitClause(limit: SQLFragment?, offset: SQLFragment?) -> SQLFragment {
        var parts: [SQLFragment] = []
        if let limit { parts += [.sql(" LIMIT "), limit] }
        if let offset { parts += [.sql(" OFFSET "), offset] }
        return .sequence(parts)
    }

    var writesNullsOrdering: Bool { true }

    func booleanValue(_ value: Bool) -> SQLValue { .boolean(value) }

    func numeric(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment {
        type == .boolean ? .cast(column, "INTEGER") : column
    }

    func notEqualOrNull(_ lhs: SQLFragment, _ value: SQLFragment, column: SQLFragment) -> SQLFragment {
        .or([.binary(lhs, "<>", value), .isNull(column, negated: false)])
    }

    func notNaN(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment? {
        // True for NULL too, so that `a == b` still holds where both are nil.
        type == .double || type == .decimal ? nullSafeEqual(column, .literal("NaN"), negated: true) : nil
    }

    func membership(_ lhs: SQLFragment, _ values: [SQLValue], _ type: AttributeType, _ ctx: LoweringContext) -> SQLFragment {
        .inList(lhs, values.map(ctx.bind))
    }

    var computesArithmetic: Bool { false }

    var computedValueRefusal: String? { nil }

    func unindexedKey(_ key: SQLFragment) -> SQLFragment { key }

    func total(_ value: SQLFragment) -> SQLFragment {
        .function("COALESCE", [.function("SUM", [value]), .integer(0)])
    }

    /// Cast back to the key type: PostgreSQL's SUM of bigints is numeric
    /// and DuckDB's a 128-bit HUGEINT, exact past 64 bits; the cast fails
    /// there.
    func integerSum(_ sum: SQLFragment) -> SQLFragment { .cast(sum, keyType) }

    /// `SUM(CAST(value AS DOUBLE PRECISION) ORDER BY key)`, to which 0.0 is
    /// added: PostgreSQL's sum of doubles (`float8pl`) adds one term after
    /// another in the order given, from the first term, and 0.0 + that is
    /// memory's sum from 0.0 (they differ only in the sign of a zero). The
    /// cast makes each term the double memory reads: a `numeric` column's
    /// SUM would be exact, a `real` column's would add in single precision.
    /// It fails the statement where a finite sum overflows, where memory's
    /// becomes an infinity. A key read as a string is ordered by the code
    /// points of its text (`CAST(key AS TEXT) COLLATE "C"`), as SQLite
    /// orders text: the cast keeps a `citext` key from ordering by its
    /// lower case, and gives `uuid` and the other types PostgreSQL's
    /// catalog reads as strings the text memory reads.
    func orderedSum(_ value: SQLFragment, by key: SQLFragment, _ keyType: AttributeType) -> SQLFragment? {
        let order = keyType == .string ? SQLFragment.collate(.cast(key, "TEXT"), "\"C\"") : key
        let term = SQLFragment.cast(value, columnType(.double))
        let sum = SQLFragment.sequence([.sql("SUM("), term, .sql(" ORDER BY "), order, .sql(")")])
        return .group(.binary(.cast(.integer(0), columnType(.double)), "+", sum))
    }

    func codePointOrder(_ column: SQLFragment) -> SQLFragment { column }

    /// Without a decomposition function (SQLite): the ranges of each spelling.
    func decomposition(_ column: SQLFragment) -> SQLFragment? { nil }

    var keyType: String { "BIGINT" }

    func columnType(_ type: AttributeType) -> String { standardColumnType(type) }

    /// The standard SQL type for `type`, which a dialect's `columnType`
    /// falls back on.
    func standardColumnType(_ type: AttributeType) -> String {
        switch type {
        case .integer: return keyType
        case .double, .decimal, .date(.referenceSeconds), .date(.unixSeconds): return "DOUBLE PRECISION"
        case .string, .uuid(.text), .date(.iso8601): return "TEXT"
        case .boolean: return "BOOLEAN"
        case .uuid(.bytes), .blob, .unsupported: return "BLOB"
        }
    }
}

/// One side of a string operation: SQL (a column or subquery) or a
/// constant to bind.
enum TextSide {
    case column(SQLFragment)
    case text(bound: String)
}
