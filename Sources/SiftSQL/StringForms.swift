import Foundation
import Sift

/// One side of a string operation: SQL (a column or subquery) or a
/// constant to bind.
enum TextSide {
    case column(String)
    case text(bound: String)
}

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
    /// The collation of each sort comparison.
    public static func collation(_ comparison: SortKey.Comparison) -> String {
        switch comparison {
        case .compare: return "sift_compare"
        case .caseInsensitive: return "sift_case_insensitive"
        case .localized: return "sift_localized"
        case .localizedCaseInsensitive: return "sift_localized_case_insensitive"
        case .localizedStandard: return "sift_localized_standard"
        }
    }
}

extension Lowering {
    /// The option bits passed to the SQLite functions (`[l]` changes nothing).
    static func bits(_ options: ComparisonOptions) -> Int {
        options.intersection([.caseInsensitive, .diacriticInsensitive, .normalized]).rawValue
    }

    /// A string column in the form compared under `options`.
    func fold(_ sql: String, _ options: ComparisonOptions) -> String {
        switch dialect {
        case .sqlite:
            return "\(SQLiteFunctions.fold)(\(sql), \(Self.bits(options)))"
        case .postgreSQL:
            if options.contains(.normalized) { return sql }
            var s = sql
            if options.contains(.caseInsensitive) {
                // As Swift's uppercased().lowercased(): İ lowers to i + U+0307,
                // and ß folds to ss (PostgreSQL's upper and lower keep it).
                s = "replace(lower(upper(replace(\(s), chr(304), 'i' || chr(775)))), chr(223), 'ss')"
            }
            s = "normalize(\(s), NFD)"
            if options.contains(.diacriticInsensitive) {
                s = "regexp_replace(\(s), '\(Self.combiningMarks)', '', 'g')"
            }
            return s
        }
    }

    /// The combining-mark blocks PostgreSQL strips for `[d]`: the Latin,
    /// Greek and Cyrillic marks (other scripts' marks are kept).
    static let combiningMarks = "[\\u0300-\\u036F\\u0483-\\u0489\\u1AB0-\\u1AFF\\u1DC0-\\u1DFF\\u20D0-\\u20FF\\uFE20-\\uFE2F]"

    /// A constant in the form compared under `options`, as the evaluator
    /// folds it.
    func fold(_ v: Value, _ options: ComparisonOptions) -> String {
        StringOperations.folded(v.stringValue ?? "", options)
    }

    private func side(_ s: TextSide, _ options: ComparisonOptions) -> String {
        switch (s, dialect) {
        case (.column(let sql), .sqlite): return sql
        case (.text(let t), .sqlite): return ctx.bind(.text(t))
        case (.column(let sql), .postgreSQL): return fold(sql, options)
        case (.text(let t), .postgreSQL): return ctx.bind(.text(StringOperations.folded(t, options)))
        }
    }

    /// `lhs OP rhs` for strings, ordered as `compare:options:` orders them.
    func stringOrdering(_ lhs: String, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions) -> String {
        switch dialect {
        case .sqlite:
            return "\(SQLiteFunctions.compare)(\(lhs), \(side(rhs, options)), \(Self.bits(options))) \(op) 0"
        case .postgreSQL:
            return "(\(fold(lhs, options)) COLLATE \"C\") \(op) \(side(rhs, options))"
        }
    }

    /// BEGINSWITH / ENDSWITH / CONTAINS. An empty needle never matches.
    func search(
        _ haystack: TextSide, _ needle: TextSide, _ kind: StringOperations.SearchKind, _ options: ComparisonOptions,
        negated: Bool, range: SourceRange?, _ scope: Scope
    ) throws(SQLLoweringError) -> String {
        if case .text(let n) = needle, n.isEmpty { return polarity(false, negated) }
        if case .text(let h) = haystack, case .text(let n) = needle {
            return polarity(StringOperations.search(h, n, kind, options), negated)
        }
        if kind == .prefix, case .column(let column) = haystack, case .text(let n) = needle, !Self.folds(options) {
            if let condition = prefixRange(column, n, options) { return negated ? not(condition) : condition }
        }
        return searchCall(haystack, needle, kind, options, negated: negated)
    }

    /// BEGINSWITH without `[c]`/`[d]` as index ranges. With `[n]` the
    /// prefix is literal: the strings from `p` up to `p` with its last
    /// character incremented. Without options a string also begins with an
    /// ASCII prefix when its canonical decomposition does
    /// (`CanonicalPrefixes`): `aḃ…` begins with `ab`, `\u{212A}a…` (Kelvin
    /// sign) with `Ka`. Each other spelling is a range of its own, checked
    /// exactly: the literal head followed by the scalars that decompose to
    /// begin with the last character, and, for a head character with a
    /// singleton (`K`, `;`, `` ` ``), the head up to it followed by the
    /// singleton. A prefix with neither (`ab` has `ḃ`, but `a1` or `aq` have
    /// none) is the one literal range.
    private func prefixRange(_ column: String, _ prefix: String, _ options: ComparisonOptions) -> String? {
        let c = dialect == .postgreSQL ? "(\(column) COLLATE \"C\")" : column
        func range(_ low: String, _ high: String?) -> String {
            var r = "\(c) >= \(ctx.bind(.text(low)))"
            if let high { r += " AND \(c) < \(ctx.bind(.text(high)))" }
            return r
        }
        if options.contains(.normalized) { return "(" + range(prefix, Self.successor(prefix)) + ")" }
        guard let last = prefix.utf8.last, prefix.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let literal = "(" + range(prefix, Self.successor(prefix)) + ")"
        let bounds = CanonicalPrefixes.bounds(last)
        let head = prefix.utf8.dropLast()
        let singletons = head.contains { CanonicalPrefixes.singleton($0) != nil }
        if bounds == nil && !singletons { return literal }
        let exact = searchCall(.column(column), .text(bound: prefix), .prefix, options, negated: false)
        // `before` followed by a scalar from `low` to `high`, checked exactly.
        func other(_ before: Substring.UTF8View, _ low: UInt32, _ high: UInt32) -> String {
            var from = String(decoding: before, as: UTF8.self)
            var to = from
            from.unicodeScalars.append(Unicode.Scalar(low)!)
            to.unicodeScalars.append(Unicode.Scalar(high + 1)!)
            return "(" + range(from, to) + " AND " + exact + ")"
        }
        // Disjoint: each range fixes a different character (ASCII in the
        // others) at a different place, except the coarse one below.
        var ranges = [literal]
        var disjoint = true
        if let bounds { ranges.append(other(head, bounds.low, bounds.high)) }
        if singletons {
            // Past the first `singletonRanges` head characters with a
            // singleton, one range takes every string that begins with the
            // head up to the next one (a superset, checked exactly): the
            // number of ranges stays bounded (`;;;…` would otherwise nest too
            // deep for SQLite).
            var count = 0
            for i in head.indices {
                guard let u = CanonicalPrefixes.singleton(head[i]) else { continue }
                let before = head[..<i]
                if count == Self.singletonRanges {
                    let coarse = String(decoding: before, as: UTF8.self)
                    ranges.append("(" + range(coarse, Self.successor(coarse)) + " AND " + exact + ")")
                    disjoint = false
                    break
                }
                count += 1
                ranges.append(other(before, u.value, u.value))
            }
        }
        let sql = "(" + ranges.joined(separator: " OR ") + ")"
        if disjoint { ctx.prefixRanges = (sql, ranges) }
        return sql
    }

    /// How many head characters with a singleton get a range of their own.
    static let singletonRanges = 2

    /// The least string above every string that begins with `s` (code
    /// point order), or nil if there is none.
    static func successor(_ s: String) -> String? {
        // The usual case: the last character is ASCII below DEL, and the
        // successor changes only that byte.
        if let last = s.utf8.last, last < 0x7F {
            var bytes = Array(s.utf8)
            bytes[bytes.count - 1] = last + 1
            return String(decoding: bytes, as: UTF8.self)
        }
        var scalars = Array(s.unicodeScalars)
        while let last = scalars.popLast() {
            var next = last.value + 1
            if next == 0xD800 { next = 0xE000 }
            if let u = Unicode.Scalar(next) {
                scalars.append(u)
                var out = String.UnicodeScalarView()
                out.append(contentsOf: scalars)
                return String(out)
            }
        }
        return nil
    }

    private func searchCall(
        _ haystack: TextSide, _ needle: TextSide, _ kind: StringOperations.SearchKind, _ options: ComparisonOptions,
        negated: Bool
    ) -> String {
        switch dialect {
        case .sqlite:
            let call =
                "\(SQLiteFunctions.search)(\(side(haystack, options)), \(side(needle, options)), \(kind.rawValue), \(Self.bits(options)))"
            return negated ? "NOT " + call : call
        case .postgreSQL:
            let h = side(haystack, options)
            let condition: String
            if case .text(let n) = needle {
                let folded = StringOperations.folded(n, options)
                let escaped = Self.likeEscaped(folded)
                let pattern: String
                switch kind {
                case .prefix: pattern = escaped + "%"
                case .suffix: pattern = "%" + escaped
                case .substring: pattern = "%" + escaped + "%"
                }
                condition = "(\(h) COLLATE \"C\") LIKE \(ctx.bind(.text(pattern))) ESCAPE '\\'"
            } else {
                let n = side(needle, options)
                switch kind {
                case .prefix: condition = "(starts_with(\(h), \(n)) AND \(n) <> '')"
                case .suffix: condition = "(right(\(h), length(\(n))) = \(n) AND \(n) <> '')"
                case .substring: condition = "(strpos(\(h), \(n)) > 0 AND \(n) <> '')"
                }
            }
            return negated ? not(condition) : condition
        }
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

    /// LIKE with `*`, `?` and backslash escapes, whole-string.
    func like(_ c: Column, _ pattern: String, _ options: ComparisonOptions, negated: Bool) -> String {
        switch dialect {
        case .sqlite:
            let call = "\(SQLiteFunctions.like)(\(c.sql), \(ctx.bind(.text(pattern))), \(Self.bits(options)))"
            return negated ? "NOT " + call : call
        case .postgreSQL:
            var translated = ""
            for element in StringOperations.likeElements(pattern, options) {
                switch element {
                case .literal(let u): translated += Self.likeEscaped(String(u))
                case .one: translated += "_"
                case .any: translated += "%"
                }
            }
            let condition = "(\(fold(c.sql, options)) COLLATE \"C\") LIKE \(ctx.bind(.text(translated))) ESCAPE '\\'"
            return negated ? not(condition) : condition
        }
    }

    /// MATCHES: the whole string matches the regular expression.
    func matches(
        _ c: Column, _ pattern: String, _ options: ComparisonOptions, negated: Bool, range: SourceRange?, _ scope: Scope
    ) throws(SQLLoweringError) -> String {
        do {
            _ = try MatchesPattern(pattern, options: options, limits: ctx.options.regexLimits)
        } catch {
            throw self.error(
                error.code == .regexLimit ? .limit : .typeMismatch, "MATCHES: \(error.message)", entity: scope.entity,
                key: c.key, range: range)
        }
        switch dialect {
        case .sqlite:
            let call = "\(SQLiteFunctions.matches)(\(c.sql), \(ctx.bind(.text(pattern))), \(Self.bits(options)))"
            return negated ? "NOT " + call : call
        case .postgreSQL:
            let folding = Self.folds(options) && options.contains(.diacriticInsensitive)
            let source = folding ? StringOperations.folded(pattern, [.diacriticInsensitive]) : pattern
            guard let translated = POSIXRegex.translate(source) else {
                throw error(
                    .unsupported,
                    "MATCHES on PostgreSQL takes literal characters, ., [...] sets, groups, | and quantifiers; this pattern has a construct whose meaning differs there",
                    entity: scope.entity, key: c.key, range: range)
            }
            let subject = folding ? fold(c.sql, [.diacriticInsensitive]) : c.sql
            let caseless = options.contains(.caseInsensitive) && !options.contains(.normalized)
            let condition = "\(subject) \(caseless ? "~*" : "~") \(ctx.bind(.text("^(?:" + translated + ")$")))"
            return negated ? not(condition) : condition
        }
    }

    /// `column IN (…)`: members of another kind, and nil, never match; a
    /// UUID attribute refuses members that are not UUIDs (see `mismatch`).
    func membership(
        _ c: Column, _ members: [Value], _ options: ComparisonOptions, negated: Bool, range: SourceRange?, _ scope: Scope
    ) throws(SQLLoweringError) -> String {
        guard !c.isRelationship else {
            throw error(.unsupported, "\(c.key) is a relationship: IN needs an attribute", entity: scope.entity,
                        key: c.key, range: range)
        }
        let folds = c.type == .string && Self.folds(options)
        var values: [SQLValue] = []
        // Deduplicated by their bytes: Swift's String equality would merge
        // canonically equivalent strings ("café" and "cafe\u{301}"), which
        // are different values here.
        var seen: Set<[UInt8]> = []
        for m in members where !m.isNull {
            guard let v = folds ? (m.stringValue.map { SQLValue.text(fold(.string($0), options)) }) : equalityValue(m, for: c.type)
            else {
                if case .uuid = c.type { throw mismatch(.in, c, m, scope, range) }
                continue
            }
            if seen.insert(Array(v.literalDescription.utf8)).inserted { values.append(v) }
        }
        if values.isEmpty { return polarity(false, negated) }
        let lhs = folds ? fold(c.sql, options) : c.sql
        let condition: String
        switch dialect {
        case .postgreSQL:
            // One element type for the array: integers become doubles when
            // the column or another member is a double.
            let real = c.type == .double || c.type == .decimal || values.contains { if case .real = $0 { true } else { false } }
            if real, c.type == .integer || c.type == .double || c.type == .decimal {
                let reals = values.map { v -> SQLValue in
                    if case .integer(let i) = v { return .real(Double(i)) }
                    return v
                }
                let column = c.type == .integer ? "CAST(\(lhs) AS DOUBLE PRECISION)" : lhs
                condition = "\(column) = ANY(\(ctx.bind(.array(reals))))"
            } else {
                condition = "\(lhs) = ANY(\(ctx.bind(.array(values))))"
            }
        case .sqlite:
            if values.count > 32, let json = SQLValue.jsonArray(values) {
                condition = "\(lhs) IN (SELECT value FROM json_each(\(ctx.bind(.text(json)))))"
            } else {
                condition = "\(lhs) IN (" + values.map { ctx.bind($0) }.joined(separator: ", ") + ")"
            }
        }
        return negated ? not(condition) : condition
    }
}

/// The part of PCRE2's syntax whose meaning PostgreSQL's regular
/// expressions share, translated: literal characters, escaped punctuation,
/// `.` (not matching a newline, as in PCRE2), bracket sets of literal
/// characters and ranges, groups, `|`, and the quantifiers `* + ? {m,n}`
/// (greedy or lazy). Anything else (classes such as `\d`, look-around,
/// back-references, anchors, possessive quantifiers, inline options) is
/// refused.
enum POSIXRegex {
    static func translate(_ pattern: String) -> String? {
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
                out += set + "]"
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
                out.unicodeScalars.append(c)
                canQuantify = true
                lastWasQuantifier = false
            }
            i += 1
        }
        return out
    }
}
