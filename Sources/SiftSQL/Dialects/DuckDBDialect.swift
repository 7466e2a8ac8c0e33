import Sift

/// DuckDB: standard SQL where DuckDB reads it as PostgreSQL does (`$N`
/// placeholders, `TRUE`/`FALSE`, `IS [NOT] DISTINCT FROM`, `LIMIT`/`OFFSET`,
/// `NULLS FIRST`, NaN equal to itself and above every number, `LIKE …
/// ESCAPE`), strings compared as stored (DuckDB orders `VARCHAR` by its
/// bytes, code point order), and MATCHES as RE2's `regexp_full_match` where
/// RE2 reads the pattern as PCRE2 does.
///
/// What DuckDB has no exact form for is refused, never approximated (each
/// reason is in ``DuckDBDialect/noDecomposition(_:)`` and the hooks below):
/// DuckDB has no canonical decomposition (NFD; `nfc_normalize` only), which
/// string comparisons without `[n]` read, and its `/` divides integers as
/// doubles.
struct DuckDBDialect: DialectHooks {
    var name: String { "duckdb" }

    /// DuckDB's `/` of two integers is a double (`//` truncates, but gives
    /// NULL for 0 where memory raises), and its functions are not checked
    /// against memory's bit for bit.
    var computedValueRefusal: String? {
        "arithmetic and functions of stored values are not lowered for DuckDB: its / of two integers gives a double, "
            + "where memory truncates, and its functions are not checked against memory's"
    }

    /// None: DuckDB adds doubles in parallel, in no fixed order (its
    /// documentation's "non-deterministic behavior"), and whether
    /// `SUM(x ORDER BY k)` adds one term after another as memory does is
    /// not checked; a sum or average of doubles is refused.
    func orderedSum(_ value: SQLFragment, by key: SQLFragment, _ keyType: AttributeType) -> SQLFragment? { nil }

    /// NaN typed as a double: DuckDB's `SUM` of integers is a `HUGEINT`,
    /// to which the text `'NaN'` does not convert (a `HUGEINT` compared
    /// with a double is converted, and is never NaN).
    func notNaN(_ column: SQLFragment, _ type: AttributeType) -> SQLFragment? {
        type == .double || type == .decimal
            ? nullSafeEqual(column, .cast(.literal("NaN"), "DOUBLE"), negated: true) : nil
    }

    /// Why `options` have no DuckDB form: every comparison of strings
    /// without `[n]` reads their canonical decomposition (NFD), which DuckDB
    /// cannot compute. Nil for `[n]` alone (strings compared as stored).
    static func noDecomposition(_ options: ComparisonOptions) -> String? {
        if options.contains(.swiftString) {
            return "[s] compares canonical decompositions (NFD), and DuckDB has no NFD (nfc_normalize only)"
        }
        if options.contains(.normalized) { return nil }
        if options.contains(.diacriticInsensitive) {
            return "[d] removes combining marks from the canonical decomposition (NFD), which DuckDB cannot compute "
                + "(nfc_normalize only)"
        }
        if options.contains(.caseInsensitive) {
            return "[c] compares Swift's case folding of the canonical decomposition (NFD), which DuckDB cannot compute "
                + "(nfc_normalize only); use [cn] where the strings are stored normalized"
        }
        return "strings compare by their canonical decomposition (NFD: \"e\\u{301}\" begins with \"e\", sorts as \"e\"), "
            + "which DuckDB cannot compute (nfc_normalize only); add [n] to compare them as stored"
    }

    /// The column as stored under `[n]`; refused otherwise.
    func fold(_ column: SQLFragment, _ options: ComparisonOptions) throws(Problem) -> SQLFragment {
        if let why = Self.noDecomposition(options) { throw Problem(message: why) }
        return column
    }

    /// A column as stored, a constant as the evaluator folds it under `[n]`.
    private func side(_ s: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext) -> SQLFragment {
        switch s {
        case .column(let sql): return sql
        case .text(let t): return ctx.bind(.text(StringOperations.folded(t, options)))
        }
    }

    func stringOrdering(
        _ lhs: SQLFragment, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment {
        .binary(try fold(lhs, options), op, side(rhs, options, ctx))
    }

    /// Under `[n]`: a constant needle as PostgreSQL's escaped LIKE pattern,
    /// a column needle with `starts_with`, `ends_with` and `contains` (an
    /// empty one matches nothing).
    func search(
        _ haystack: TextSide, _ needle: TextSide, _ kind: SearchKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment {
        if let why = Self.noDecomposition(options) { throw Problem(message: why) }
        let h = side(haystack, options, ctx)
        let condition: SQLFragment
        if case .text(let n) = needle {
            let pattern = PostgreSQLDialect.searchPattern(StringOperations.folded(n, options), kind)
            condition = PostgreSQLDialect.like(h, ctx.bind(.text(pattern)))
        } else {
            let n = side(needle, options, ctx)
            let function: String
            switch kind {
            case .prefix: function = "starts_with"
            case .suffix: function = "ends_with"
            case .substring: function = "contains"
            }
            condition = .and([.function(function, [h, n]), .binary(n, "<>", .literal(""))])
        }
        return negated ? notTrue(condition) : condition
    }

    /// Wildcards as LIKE on the stored column under `[n]`; a regular
    /// expression as `regexp_full_match` where RE2 reads it as PCRE2 does.
    func pattern(
        _ column: SQLFragment, _ pattern: String, _ kind: OperatorFamily.PatternKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment {
        let condition: SQLFragment
        switch kind {
        case .wildcard:
            let subject = try fold(column, options)
            condition = PostgreSQLDialect.like(subject, ctx.bind(.text(PostgreSQLDialect.likePattern(pattern, options))))
        case .regularExpression:
            // [d] folds the pattern and the subject (as PostgreSQL does): NFD again.
            if Lowering.folds(options) && options.contains(.diacriticInsensitive) {
                throw Problem(message: Self.noDecomposition([.diacriticInsensitive]) ?? "")
            }
            let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
            if caseless, let why = POSIXRegex.noCaselessForm(pattern) { throw Problem(message: "MATCHES[c] on DuckDB " + why) }
            guard let translated = RE2Regex.translate(pattern, caseless: caseless) else {
                throw Problem(
                    message: "MATCHES on DuckDB takes literal characters, ., [...] sets, groups, | and quantifiers; "
                        + "this pattern has a construct whose meaning differs between RE2 and PCRE2")
            }
            // Letters' caseless variants spelled out, as for PostgreSQL:
            // RE2's `(?i)` folds with its own Unicode tables.
            condition = .function("regexp_full_match", [column, ctx.bind(.text("(?:" + translated + ")"))])
        }
        return negated ? notTrue(condition) : condition
    }

    /// Swift's order (the NFC forms' code points) with `nfc_normalize`;
    /// the others need the decomposition or a collation DuckDB does not
    /// have built in.
    func sortTerm(_ column: SQLFragment, _ comparison: SortKey.Comparison) throws(Problem) -> SQLFragment {
        switch comparison {
        case .swift: return .function("nfc_normalize", [column])
        case .compare, .caseInsensitive:
            let options: ComparisonOptions = comparison == .compare ? [] : [.caseInsensitive]
            throw Problem(message: "sorting by \(comparison.selector) (" + (Self.noDecomposition(options) ?? "") + ")")
        case .localized, .localizedCaseInsensitive, .localizedStandard:
            throw Problem(
                message: "\(comparison.selector) orders by the locale's collation, and DuckDB has none built in (its ICU extension is "
                    + "loaded separately, with its own ICU version); sort with swiftCompare: or in memory")
        }
    }
}

/// MATCHES patterns for RE2 (DuckDB's `regexp_full_match`): the subset
/// whose meaning PCRE2 and PostgreSQL share (``POSIXRegex``), which RE2
/// shares too, for a whole-string match is a question of the language
/// alone, not of which alternative matches first. Escapes are written in
/// RE2's `\x{…}` form (RE2 refuses some escaped punctuation, as `\_`, and
/// PostgreSQL's `\uXXXX`); so is every character outside printable ASCII.
enum RE2Regex {
    static func translate(_ pattern: String, caseless: Bool = false) -> String? {
        guard let posix = POSIXRegex.translate(pattern, caseless: caseless) else { return nil }
        var out = ""
        var escaped = false
        for c in posix.unicodeScalars {
            if escaped {
                // `\n` (the newline `.` leaves out) is the one escape of a letter.
                out += c == "n" ? "\\n" : hex(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c.value < 0x20 || c.value > 0x7E {
                out += hex(c)
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    private static func hex(_ c: Unicode.Scalar) -> String { "\\x{" + String(c.value, radix: 16, uppercase: true) + "}" }
}
