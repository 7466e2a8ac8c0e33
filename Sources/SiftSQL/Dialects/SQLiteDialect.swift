import Sift

/// The names of the functions and collations the SQLite dialect calls.
/// `SiftSQLite` registers them on every connection it opens (or on a
/// user's own database); they run the evaluator's own string code.
public enum SQLiteFunctions {
    /// `sift_fold(text, options)`: the folded form of `text` under the
    /// option bits (`[c]` 1, `[d]` 2, `[n]` 4): equal folded forms mean
    /// equal strings under the options.
    public static let fold = "sift_fold"
    /// `sift_compare(a, b, options)`: -1, 0 or 1, as `compare:options:`;
    /// NULL when either is NULL.
    public static let compare = "sift_compare"
    /// `sift_search(haystack, needle, kind, options)`: 1 or 0, for prefix
    /// (0), suffix (1) and substring (2) searches; 0 when either is NULL.
    public static let search = "sift_search"
    /// `sift_like(text, pattern, options)`: 1 or 0; 0 for NULL.
    public static let like = "sift_like"
    /// `sift_matches(text, pattern, options)`: 1 or 0 (PCRE2, whole
    /// string); 0 for NULL.
    public static let matches = "sift_matches"
    /// `sift_arithmetic(op, a, b)`: `a + b`, `a - b`, `a * b` or `a / b`
    /// (op 0 to 3, `ArithmeticOperator`) as memory computes them: two
    /// integers give an integer, and overflow or division by zero fails the
    /// statement with memory's message; a double gives a double, NULL for
    /// NaN (which SQLite cannot hold). A NULL operand is read as NaN.
    public static let arithmetic = "sift_arithmetic"
    /// `sift_function(code, a)` or `sift_function(code, a, b)`: the built-in
    /// function numbered `code` (`BuiltinFunction.code`: `abs:`, `sqrt:`,
    /// `modulus:by:`, `lowercase:`, the bitwise ones, …) applied as memory
    /// applies it, by the evaluator's own code: memory's errors fail the
    /// statement; NaN is NULL, and a NULL operand is read as NaN, as for
    /// `sift_arithmetic`.
    public static let function = "sift_function"
    /// `sift_sort_key(text, options)`: a blob whose byte order is the
    /// order of a sort: `compare:` (no options), `caseInsensitiveCompare:`
    /// (`[c]` 1) or `swiftCompare:` (`[s]` 16), 0x00 and the bytes
    /// `StringOperations.sortKey` gives. For a connection that can install
    /// functions but not collations (sqlite-nio); another blob is 0x01 and
    /// its bytes (after every text, as SQLite orders them), a number or
    /// NULL itself.
    public static let sortKey = "sift_sort_key"
    /// `sift_sum(value, key)`, an aggregate: the sum of the doubles
    /// `value` as memory adds them, from 0.0 in the order of `key` (integers
    /// by value, then text by its bytes); NULL terms are left out, and no
    /// term is NULL. Text or a blob as a term fails the statement, as in
    /// memory; so does a NaN sum (∞ − ∞), which SQLite cannot hold.
    public static let orderedSum = "sift_sum"
    /// The collation of each sort comparison.
    public static func collation(_ comparison: SortKey.Comparison) -> String {
        switch comparison {
        case .compare: return "sift_compare"
        case .caseInsensitive: return "sift_case_insensitive"
        case .localized: return "sift_localized"
        case .localizedCaseInsensitive: return "sift_localized_case_insensitive"
        case .localizedStandard: return "sift_localized_standard"
        case .swift: return "sift_swift"
        }
    }

    /// The option bits passed to the functions (`[l]` changes nothing).
    static func bits(_ options: ComparisonOptions) -> SQLFragment {
        .integer(Int(options.intersection([.caseInsensitive, .diacriticInsensitive, .normalized, .swiftString]).rawValue))
    }
}

/// SQLite: numbered `?N` placeholders, booleans as 0 and 1, `IS` for
/// null-safe equality, and the string operations as calls of the
/// functions in ``SQLiteFunctions``, which never answer NULL.
struct SQLiteDialect: DialectHooks {
    var name: String { "sqlite" }
    /// `sift_search` searches as the evaluator does, `[s]` included.
    var comparesSwiftStrings: Bool { true }

    func placeholder(_ n: Int) -> String { "?\(n)" }

    func boolean(_ value: Bool) -> String { value ? "1" : "0" }

    func nullSafeEqual(_ a: SQLFragment, _ b: SQLFragment, negated: Bool) -> SQLFragment {
        .binary(a, negated ? "IS NOT" : "IS", b)
    }

    /// An OFFSET needs a LIMIT before it: -1 is none.
    func limitClause(limit: SQLFragment?, offset: SQLFragment?) -> SQLFragment {
        var parts: [SQLFragment] = []
        if let limit {
            parts += [.sql(" LIMIT "), limit]
        } else if offset != nil {
            parts.append(.sql(" LIMIT -1"))
        }
        if let offset { parts += [.sql(" OFFSET "), offset] }
        return .sequence(parts)
    }

    /// SQLite sorts NULL first ascending and last descending already.
    var writesNullsOrdering: Bool { false }

    func booleanValue(_ value: Bool) -> SQLValue { .integer(value ? 1 : 0) }

    func numeric(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment { column }

    func notEqualOrNull(_ lhs: SQLFragment, _ value: SQLFragment, column: SQLFragment) -> SQLFragment {
        .binary(lhs, "IS NOT", value)
    }

    func notNaN(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment? { nil }

    /// SQLite's SUM of integers is an integer already, and fails as soon
    /// as a partial sum overflows.
    func integerSum(_ sum: SQLFragment) -> SQLFragment { sum }

    /// `sift_arithmetic`, the evaluator's own arithmetic.
    var computesArithmetic: Bool { true }

    /// Up to 32 members as a list of placeholders; more as one JSON array
    /// read with `json_each`, which keeps the statement short and bound as
    /// one value.
    func membership(_ lhs: SQLFragment, _ values: [SQLValue], _ type: AttributeType, _ ctx: LoweringContext) -> SQLFragment {
        if values.count > 32, let json = SQLValue.jsonArray(values) {
            return .inSelect(lhs, SQLSelect(.sql("value"), from: .fragment(.function("json_each", [ctx.bind(.text(json))]))))
        }
        return .inList(lhs, values.map(ctx.bind))
    }

    /// `+key`: SQLite then does not plan an OR with other conditions as a
    /// union of index searches.
    func unindexedKey(_ key: SQLFragment) -> SQLFragment { .sequence([.sql("+"), key]) }

    func total(_ value: SQLFragment) -> SQLFragment { .function("TOTAL", [value]) }

    /// `sift_sum(value, key)`, which sorts its terms by key and adds them
    /// as memory does (SQLite's own SUM and TOTAL add in the order the rows
    /// come, compensating rounding since 3.43).
    func orderedSum(_ value: SQLFragment, by key: SQLFragment, _ keyType: AttributeType) -> SQLFragment? {
        .function(SQLiteFunctions.orderedSum, [value, key])
    }

    func fold(_ column: SQLFragment, _ options: ComparisonOptions) -> SQLFragment {
        .function(SQLiteFunctions.fold, [column, SQLiteFunctions.bits(options)])
    }

    /// The functions fold both sides themselves: a constant is bound as
    /// written.
    private func side(_ s: TextSide, _ ctx: LoweringContext) -> SQLFragment {
        switch s {
        case .column(let sql): return sql
        case .text(let t): return ctx.bind(.text(t))
        }
    }

    func stringOrdering(
        _ lhs: SQLFragment, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) -> SQLFragment {
        .binary(.function(SQLiteFunctions.compare, [lhs, side(rhs, ctx), SQLiteFunctions.bits(options)]), op, .integer(0))
    }

    func search(
        _ haystack: TextSide, _ needle: TextSide, _ kind: SearchKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) -> SQLFragment {
        let call = SQLFragment.function(
            SQLiteFunctions.search, [side(haystack, ctx), side(needle, ctx), .integer(kind.code), SQLiteFunctions.bits(options)])
        guard case .column(let column) = haystack, case .column = column, case .text(let n) = needle,
            let ascii = asciiSearch(column, n, kind, options, ctx)
        else { return negated ? .not(call) : call }
        var guards = [
            SQLFragment.binary(.function("typeof", [column]), "=", .literal("text")),
            .binary(.function("length", [column]), "=", .function("length", [.cast(column, "BLOB")])),
        ]
        if ascii.needsCaselessLike { guards.append(.sql("'a' LIKE 'A'")) }
        let condition = SQLFragment.group(.sequence([
            .sql("CASE WHEN "), .and(guards, grouped: false), .sql(" THEN "), ascii.condition, .sql(" ELSE "), call, .sql(" END"),
        ]))
        return negated ? .not(condition) : condition
    }

    /// A search for an ASCII needle in text of ASCII characters only, in
    /// SQLite's own C functions instead of `sift_search`, which converts
    /// each value to a Swift string: a substring search in 1,000,000
    /// names ran 3× faster. Memory's key of ASCII text is the text itself
    /// (no mark for `[d]` to remove, nothing for NFD to change), with its
    /// letters lowered for `[c]`, which SQLite's `LIKE` folds as it does.
    /// The caller takes this form only for a value whose length in
    /// characters is its length in bytes (which a NUL, where `length`
    /// stops, or any other character breaks; a blob is read by
    /// `sift_search`, as memory reads it) and, for `LIKE`, while
    /// `'a' LIKE 'A'` (a connection with `PRAGMA case_sensitive_like` on
    /// takes `sift_search` for every value: a constant SQLite tests once).
    /// Nil where the search needs memory's function (`[s]`, a needle
    /// beyond ASCII).
    private func asciiSearch(
        _ column: SQLFragment, _ needle: String, _ kind: SearchKind, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) -> (condition: SQLFragment, needsCaselessLike: Bool)? {
        guard !options.contains(.swiftString), !needle.isEmpty, needle.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let key = StringOperations.folded(needle, options)
        if options.contains(.caseInsensitive) && !options.contains(.normalized) {
            return (PostgreSQLDialect.like(column, ctx.bind(.text(PostgreSQLDialect.searchPattern(key, kind)))), true)
        }
        let bound = ctx.bind(.text(key))
        switch kind {
        case .substring: return (.binary(.function("instr", [column, bound]), ">", .integer(0)), false)
        // The length as `length(?)` of the bound key, so that the
        // statement's text does not depend on the value.
        case .prefix: return (.binary(.function("substr", [column, .integer(1), .function("length", [bound])]), "=", bound), false)
        case .suffix:
            return (.binary(.function("substr", [column, .sequence([.sql("-"), .function("length", [bound])])]), "=", bound), false)
        }
    }

    /// The function of the pattern's language (`sift_like`,
    /// `sift_matches`), which never answers NULL.
    func pattern(
        _ column: SQLFragment, _ pattern: String, _ kind: OperatorFamily.PatternKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment {
        let function: String
        switch kind {
        case .wildcard: function = SQLiteFunctions.like
        case .regularExpression: function = SQLiteFunctions.matches
        }
        let call = SQLFragment.function(function, [column, ctx.bind(.text(pattern)), SQLiteFunctions.bits(options)])
        return negated ? .not(call) : call
    }

    func sortTerm(_ column: SQLFragment, _ comparison: SortKey.Comparison) throws(Problem) -> SQLFragment {
        .collate(column, SQLiteFunctions.collation(comparison))
    }

    /// The collations of ``SQLiteFunctions/collation(_:)``.
    var sortTermsNeedSiftCollations: Bool { true }

    /// `INTEGER PRIMARY KEY` makes the key the row id.
    var keyType: String { "INTEGER" }

    func columnType(_ type: AttributeType) -> String {
        switch type {
        case .double, .decimal, .date(.referenceSeconds), .date(.unixSeconds): return "REAL"
        case .boolean: return "INTEGER"
        default: return standardColumnType(type)
        }
    }
}
