import Sift

/// PostgreSQL: standard SQL for placeholders (`$N`), booleans, null-safe
/// equality, aggregates and NULL ordering; strings folded with built-in
/// functions (`normalize`, `lower`, `upper`, `regexp_replace`) and compared
/// in code point order (`COLLATE "C"`), lists bound as one array
/// (`= ANY($1)`), and MATCHES translated to POSIX regular expressions where
/// their meaning is the same.
struct PostgreSQLDialect: DialectHooks {
    var name: String { "postgres" }

    /// Code point order, as `compare:` without options orders strings.
    static let codePoints = "\"C\""

    func membership(_ lhs: SQLFragment, _ values: [SQLValue], _ type: AttributeType, _ ctx: LoweringContext) -> SQLFragment {
        // One element type for the array: integers become doubles when
        // the column or another member is a double.
        let real = type == .double || type == .decimal || values.contains { if case .real = $0 { true } else { false } }
        if real, type == .integer || type == .double || type == .decimal {
            let reals = values.map { v -> SQLValue in
                if case .integer(let i) = v { return .real(Double(i)) }
                return v
            }
            let column = type == .integer ? SQLFragment.cast(lhs, "DOUBLE PRECISION") : lhs
            return .binary(column, "=", .function("ANY", [ctx.bind(.array(reals))]))
        }
        return .binary(lhs, "=", .function("ANY", [ctx.bind(.array(values))]))
    }

    func fold(_ column: SQLFragment, _ options: ComparisonOptions) -> SQLFragment {
        // `[s]` overrides the other options: its form is the decomposition.
        if options.contains(.swiftString) { return fold(column, []) }
        if options.contains(.normalized) { return column }
        var s = column
        if options.contains(.caseInsensitive) {
            // As Swift's uppercased().lowercased(), with the full mappings
            // (ß → ss, ﬁ → fi) that PostgreSQL's lower and upper lack.
            s = PostgreSQLCaseFold.fold(s)
        }
        s = .function("normalize", [s, .sql("NFD")])
        if options.contains(.diacriticInsensitive) {
            s = .function("regexp_replace", [s, .literal(Self.combiningMarks), .literal(""), .literal("g")])
        }
        return s
    }

    /// The combining marks `[d]` removes, as a bracket expression of
    /// ranges (`\uXXXX`, `\UXXXXXXXX`): all of the evaluator's, of every
    /// script. PostgreSQL's regular expressions have no Unicode property
    /// classes, and a list of the Latin, Greek and Cyrillic blocks alone
    /// kept the marks of 2,405 scalars that memory removes (Devanagari's
    /// virama, Hebrew points, Thai vowel signs, Arabic harakat).
    static let combiningMarks: String = {
        func escaped(_ v: UInt32) -> String {
            let hex = String(v, radix: 16, uppercase: true)
            return v <= 0xFFFF
                ? "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                : "\\U" + String(repeating: "0", count: 8 - hex.count) + hex
        }
        return "[" + StringOperations.combiningMarkRanges.map { r in
            r.lowerBound == r.upperBound ? escaped(r.lowerBound) : escaped(r.lowerBound) + "-" + escaped(r.upperBound)
        }.joined() + "]"
    }()

    func codePointOrder(_ column: SQLFragment) -> SQLFragment { .group(.collate(column, Self.codePoints)) }

    /// `normalize(column, NFD)`: in code point order, the expression sorting
    /// by the column uses (``sortTerm(_:_:)``), so that one index on it
    /// serves both, and a prefix with other spellings (`ab` also begins
    /// `aḃ…`) is one index search, not one per spelling.
    func decomposition(_ column: SQLFragment) -> SQLFragment? { fold(column, []) }

    /// A column folded, a constant folded now as the evaluator folds it.
    private func side(_ s: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext) -> SQLFragment {
        switch s {
        case .column(let sql): return fold(sql, options)
        case .text(let t): return ctx.bind(.text(StringOperations.folded(t, options)))
        }
    }

    func stringOrdering(
        _ lhs: SQLFragment, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) -> SQLFragment {
        // `[s]` orderings never come here (see comparesSwiftStrings).
        if Lowering.folds(options), let byteOrder = Self.byteOrderOperators[op] {
            return .binary(fold(lhs, options), byteOrder, side(rhs, options, ctx))
        }
        return .binary(codePointOrder(fold(lhs, options)), op, side(rhs, options, ctx))
    }

    /// The operators that compare text byte by byte whatever its collation
    /// (those of `text_pattern_ops`): UTF-8's byte order is code point
    /// order, the order `COLLATE "C"` gives. The folded (`[c]`, `[d]`)
    /// orderings use them because `postgres_fdw` sends a condition to a
    /// shard only if it names no collation of its own, and a folded
    /// expression is never the column an index on `COLLATE "C"` covers
    /// anyway. The unfolded orderings keep `COLLATE "C"`, which such
    /// indexes serve.
    static let byteOrderOperators = ["<": "~<~", "<=": "~<=~", ">": "~>~", ">=": "~>=~"]

    /// `column`, for a `LIKE` under `options`: folded strings as they are
    /// (whatever a deterministic collation, `LIKE` compares characters, and
    /// without a `COLLATE` the condition can run on a `postgres_fdw`
    /// shard), the unfolded column in code point order, so that an index on
    /// it in `COLLATE "C"` serves a prefix.
    private func likeSubject(_ column: SQLFragment, _ options: ComparisonOptions) -> SQLFragment {
        Lowering.folds(options) ? column : codePointOrder(column)
    }

    /// A constant needle as a LIKE pattern in code point order; a column
    /// needle with the string functions (an empty one matches nothing).
    func search(
        _ haystack: TextSide, _ needle: TextSide, _ kind: SearchKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) -> SQLFragment {
        let h = side(haystack, options, ctx)
        let condition: SQLFragment
        if case .text(let n) = needle {
            condition = Self.like(likeSubject(h, options), ctx.bind(.text(Self.searchPattern(StringOperations.folded(n, options), kind))))
        } else {
            let n = side(needle, options, ctx)
            let found: SQLFragment
            switch kind {
            case .prefix: found = .function("starts_with", [h, n])
            case .suffix: found = .binary(.function("right", [h, .function("length", [n])]), "=", n)
            case .substring: found = .binary(.function("strpos", [h, n]), ">", .integer(0))
            }
            condition = .and([found, .binary(n, "<>", .literal(""))])
        }
        return negated ? notTrue(condition) : condition
    }

    /// `subject LIKE pattern ESCAPE '\'`, the pattern's `%`, `_` and `\`
    /// escaped by ``likeEscaped(_:)``: the searches with a constant needle
    /// and LIKE.
    static func like(_ subject: SQLFragment, _ pattern: SQLFragment) -> SQLFragment {
        .sequence([.binary(subject, "LIKE", pattern), .sql(" ESCAPE '\\'")])
    }

    /// The LIKE pattern of a search for the (folded) constant `needle`.
    static func searchPattern(_ needle: String, _ kind: SearchKind) -> String {
        let escaped = likeEscaped(needle)
        switch kind {
        case .prefix: return escaped + "%"
        case .suffix: return "%" + escaped
        case .substring: return "%" + escaped + "%"
        }
    }

    /// A LIKE pattern (`*`, `?`, backslash escapes) under `options` as
    /// SQL's LIKE pattern for `LIKE … ESCAPE '\'`.
    static func likePattern(_ pattern: String, _ options: ComparisonOptions) -> String {
        var translated = ""
        for element in LikePattern.elements(pattern, options) {
            switch element {
            case .literal(let v): translated += likeEscaped(String(Unicode.Scalar(v) ?? "\u{FFFD}"))
            case .any: translated += "_"
            case .star: translated += "%"
            }
        }
        return translated
    }

    /// `%`, `_` and `\` escaped for `LIKE … ESCAPE '\'`.
    static func likeEscaped(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            if ch == "%" || ch == "_" || ch == "\\" { out.append("\\") }
            out.unicodeScalars.append(ch)
        }
        return out
    }

    /// Wildcards as `LIKE` on the folded column; a regular expression as
    /// `~` (`~*` for `[c]`) where POSIX reads it as PCRE2 does.
    func pattern(
        _ column: SQLFragment, _ pattern: String, _ kind: OperatorFamily.PatternKind, _ options: ComparisonOptions,
        negated: Bool, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment {
        let condition: SQLFragment
        switch kind {
        case .wildcard: condition = wildcards(column, pattern, options, ctx)
        case .regularExpression: condition = try regularExpression(column, pattern, options, ctx)
        }
        return negated ? notTrue(condition) : condition
    }

    private func wildcards(
        _ column: SQLFragment, _ pattern: String, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) -> SQLFragment {
        Self.like(likeSubject(fold(column, options), options), ctx.bind(.text(Self.likePattern(pattern, options))))
    }

    private func regularExpression(
        _ column: SQLFragment, _ pattern: String, _ options: ComparisonOptions, _ ctx: LoweringContext
    ) throws(Problem) -> SQLFragment {
        let folding = Lowering.folds(options) && options.contains(.diacriticInsensitive)
        let source = folding ? StringOperations.folded(pattern, [.diacriticInsensitive]) : pattern
        let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
        if caseless, let why = POSIXRegex.noCaselessForm(source) { throw Problem(message: "MATCHES[c] on PostgreSQL " + why) }
        guard let translated = POSIXRegex.translate(source, caseless: caseless) else {
            throw Problem(
                message: "MATCHES on PostgreSQL takes literal characters, ., [...] sets, groups, | and quantifiers; this pattern has a construct whose meaning differs there")
        }
        let subject = folding ? fold(column, [.diacriticInsensitive]) : column
        // Case-sensitive `~`: a caseless pattern has each letter's
        // variants spelled out (PostgreSQL's `~*` pairs letters by
        // `towlower`/`towupper`, not as PCRE2 does).
        return .binary(subject, "~", ctx.bind(.text("^(?:" + translated + ")$")))
    }

    func sortTerm(_ column: SQLFragment, _ comparison: SortKey.Comparison) throws(Problem) -> SQLFragment {
        switch comparison {
        case .compare: return codePointOrder(fold(column, []))
        // Swift's order: the code points of the NFC form.
        case .swift: return codePointOrder(.function("normalize", [column, .sql("NFC")]))
        case .caseInsensitive: return codePointOrder(fold(column, [.caseInsensitive]))
        case .localized: return .group(.collate(column, "\"und-x-icu\""))
        case .localizedCaseInsensitive: return .group(.collate(.function("lower", [column]), "\"und-x-icu\""))
        case .localizedStandard:
            throw Problem(
                message: "localizedStandardCompare: has no PostgreSQL collation built in; sort with localizedCompare: or in memory")
        }
    }

    func columnType(_ type: AttributeType) -> String {
        switch type {
        case .uuid(.bytes), .blob, .unsupported: return "BYTEA"
        default: return standardColumnType(type)
        }
    }
}


/// The part of PCRE2's syntax whose meaning PostgreSQL's regular
/// expressions share, translated: literal characters, escaped punctuation,
/// `.` (not matching a newline, as in PCRE2), bracket sets of literal
/// characters and ranges, groups, `|`, and the quantifiers `* + ? {m,n}`
/// (greedy or lazy). Anything else (classes such as `\d`, look-around,
/// back-references, anchors, possessive quantifiers, inline options) is
/// refused.
///
/// A caseless pattern (`MATCHES[c]`) is translated for a case-sensitive
/// match with each letter's variants spelled out, as PCRE2 pairs them
/// (Unicode's simple case folding): `k` is `[kK\u{212A}]` (the Kelvin
/// sign), `s` is `[sS\u{17F}]` (long s). The patterns are ASCII: for
/// other letters PostgreSQL's `~*` and PCRE2 pair other characters (`ß`
/// and `ẞ`, `σ` and `ς`), and the variants would need PCRE2's tables.
enum POSIXRegex {
    /// Why a caseless pattern has no form here, or nil.
    static func noCaselessForm(_ pattern: String) -> String? {
        pattern.unicodeScalars.allSatisfy(\.isASCII)
            ? nil
            : "takes ASCII patterns only: caseless matching of other letters follows each engine's own case tables "
                + "(PostgreSQL's ~* pairs neither ẞ with ß nor ς with σ, as PCRE2 does)"
    }

    /// The characters PCRE2's caseless matching takes for the ASCII
    /// character `c`: itself, its other case, and for `k` and `s` the
    /// Kelvin sign and the long s, whose simple case folding is theirs
    /// (`PostgreSQLRegexTests` checks this against PCRE2 over every scalar).
    static func caselessVariants(_ c: Unicode.Scalar) -> [Unicode.Scalar] {
        guard c.properties.isAlphabetic, c.isASCII else { return [c] }
        let lower = Unicode.Scalar(UInt8(c.value) | 0x20), upper = Unicode.Scalar(UInt8(c.value) & ~0x20)
        switch lower {
        case "k": return [lower, upper, "\u{212A}"]
        case "s": return [lower, upper, "\u{17F}"]
        default: return [lower, upper]
        }
    }

    /// The caseless variants of the members of a bracket set's content
    /// (`a-f`, `xyz`) that the content lacks.
    private static func missingVariants(_ content: [Unicode.Scalar]) -> [Unicode.Scalar] {
        var members: [ClosedRange<UInt32>] = []
        var j = 0
        while j < content.count {
            if j + 2 < content.count, content[j + 1] == "-" {
                members.append(content[j].value...max(content[j].value, content[j + 2].value))
                j += 3
            } else {
                members.append(content[j].value...content[j].value)
                j += 1
            }
        }
        var missing: [Unicode.Scalar] = []
        for range in members {
            for v in range where v < 0x80 {
                for variant in caselessVariants(Unicode.Scalar(UInt8(v)))
                where !members.contains(where: { $0.contains(variant.value) }) && !missing.contains(variant) {
                    missing.append(variant)
                }
            }
        }
        return missing
    }

    static func translate(_ pattern: String, caseless: Bool = false) -> String? {
        let s = Array(pattern.unicodeScalars)
        var out = ""
        var i = 0
        var lastWasQuantifier = false
        var canQuantify = false
        while i < s.count {
            let c = s[i]
            switch c {
            case "\\":
                guard i + 1 < s.count else { return nil }
                let n = s[i + 1]
                guard n.isASCII, !n.properties.isAlphabetic, !("0"..."9").contains(n), n != " " else { return nil }
                out += "\\" + String(n)
                i += 2
                lastWasQuantifier = false
                canQuantify = true
                continue
            case ".":
                out += "[^\\n]"
                canQuantify = true
                lastWasQuantifier = false
            case "[":
                var j = i + 1
                var set = "["
                if j < s.count, s[j] == "^" { return nil }  // negated sets differ on newlines
                if j < s.count, s[j] == "]" {
                    set += "\\]"
                    j += 1
                }
                while j < s.count, s[j] != "]" {
                    let m = s[j]
                    if m == "[" || m == "\\" || m == "&" || m == "~" { return nil }
                    set.unicodeScalars.append(m)
                    j += 1
                }
                guard j < s.count else { return nil }
                let missing = caseless ? missingVariants(Array(s[(i + 1)..<j])) : []
                if missing.isEmpty {
                    out += set + "]"
                } else {
                    out += "(?:" + set + "]|[" + String(String.UnicodeScalarView(missing)) + "])"
                }
                i = j + 1
                canQuantify = true
                lastWasQuantifier = false
                continue
            case "(":
                if i + 1 < s.count, s[i + 1] == "?" { return nil }
                out += "("
                canQuantify = false
                lastWasQuantifier = false
            case ")", "|":
                out.unicodeScalars.append(c)
                canQuantify = c == ")"
                lastWasQuantifier = false
            case "*", "+", "?":
                if lastWasQuantifier {
                    guard c == "?" else { return nil }  // lazy is fine; possessive is not
                    out += "?"
                    lastWasQuantifier = false
                    canQuantify = false
                    break
                }
                guard canQuantify else { return nil }
                out.unicodeScalars.append(c)
                lastWasQuantifier = true
            case "{":
                guard canQuantify, !lastWasQuantifier else { return nil }
                var j = i + 1
                var body = ""
                while j < s.count, s[j] != "}" {
                    guard ("0"..."9").contains(s[j]) || s[j] == "," else { return nil }
                    body.unicodeScalars.append(s[j])
                    j += 1
                }
                guard j < s.count, !body.isEmpty, body.first != ",",
                    body.split(separator: ",", omittingEmptySubsequences: false).count <= 2,
                    body.split(separator: ",").allSatisfy({ (Int($0) ?? 1000) <= 255 })
                else { return nil }
                out += "{" + body + "}"
                i = j + 1
                lastWasQuantifier = true
                continue
            case "^", "$", "}", "]":
                return nil
            default:
                if c.properties.isWhitespace && c != " " { return nil }
                let variants = caseless ? caselessVariants(c) : [c]
                if variants.count == 1 {
                    out.unicodeScalars.append(c)
                } else {
                    out += "[" + String(String.UnicodeScalarView(variants)) + "]"
                }
                canQuantify = true
                lastWasQuantifier = false
            }
            i += 1
        }
        return out
    }
}
