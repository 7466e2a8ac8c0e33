import Foundation
import Sift

extension DialectHooks {
    var comparesSwiftStrings: Bool { false }
}

extension Lowering {
    /// A string column in the form compared under `options`, or refused
    /// where the dialect has no exact form for them.
    func fold(
        _ sql: SQLFragment, _ options: ComparisonOptions, _ scope: SelectScope, key: String? = nil, range: SourceRange?
    ) throws(SQLLoweringError) -> SQLFragment {
        try dialectForm(scope, key: key, range: range) { () throws(Problem) in try hooks.fold(sql, options) }
    }

    /// What a string hook gives, or its refusal (a dialect without an
    /// exact form) as `.unsupported` at `range`.
    func dialectForm<T>(
        _ scope: SelectScope, key: String? = nil, range: SourceRange?, _ body: () throws(Problem) -> T
    ) throws(SQLLoweringError) -> T {
        do throws(Problem) {
            return try body()
        } catch {
            throw self.error(.unsupported, "\(hooks.name): \(error.message)", entity: scope.entity, key: key, range: range)
        }
    }

    /// A constant in the form compared under `options`, as the evaluator
    /// folds it.
    func fold(_ v: Value, _ options: ComparisonOptions) -> String {
        StringOperations.folded(v.stringValue ?? "", options)
    }

    /// BEGINSWITH / ENDSWITH / CONTAINS. An empty needle never matches
    /// (except under `[s]`, where it is found everywhere).
    func search(
        _ haystack: TextSide, _ needle: TextSide, _ kind: SearchKind, _ options: ComparisonOptions,
        negated: Bool, range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        if case .text(let h) = haystack, case .text(let n) = needle {
            return polarity(StringOperations.search(h, n, kind, options), negated)
        }
        if options.contains(.swiftString) {
            // Swift searches grapheme clusters, which only the registered
            // functions of SQLite can find.
            guard hooks.comparesSwiftStrings else {
                throw error(
                    .unsupported,
                    "[s] searches compare characters (grapheme clusters), which \(hooks.name) cannot find in its text",
                    entity: scope.entity, range: range)
            }
            return try dialectForm(scope, range: range) { () throws(Problem) in
                try hooks.search(haystack, needle, kind, options, negated: negated, ctx)
            }
        }
        if case .text(let n) = needle, n.isEmpty { return polarity(false, negated) }
        return try dialectForm(scope, range: range) { () throws(Problem) in
            if kind == .prefix, case .column(let column) = haystack, case .text(let n) = needle, !Self.folds(options) {
                if let condition = try prefixRange(column, n, options) { return negated ? .notTrue(condition) : condition }
            }
            return try hooks.search(haystack, needle, kind, options, negated: negated, ctx)
        }
    }

    /// `lhs op rhs` on strings under `options`. `[s]` orders by Swift's own
    /// `<`, which orders a few pairs of unequal strings neither way
    /// (`"e\u{301}"` and `"\u{E9}e"`, where their NFC forms order): only the
    /// registered functions of SQLite answer as it does.
    func stringOrdering(
        _ lhs: SQLFragment, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions, _ scope: SelectScope,
        range: SourceRange?
    ) throws(SQLLoweringError) -> SQLFragment {
        if options.contains(.swiftString) && !hooks.comparesSwiftStrings {
            throw error(
                .unsupported,
                "[s] orderings are Swift's <, which orders some unequal strings neither way (\"e\u{301}\" and "
                    + "\"\u{E9}e\"); \(hooks.name) orders every pair",
                entity: scope.entity, range: range)
        }
        return try dialectForm(scope, range: range) { () throws(Problem) in try hooks.stringOrdering(lhs, op, rhs, options, ctx) }
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
    /// none) is the one literal range. A dialect with an expression for the
    /// decomposition (PostgreSQL's `normalize`) makes one range of it instead.
    private func prefixRange(_ column: SQLFragment, _ prefix: String, _ options: ComparisonOptions) throws(Problem) -> SQLFragment? {
        // The strings of `column` from `low` up to `high`, in code point order.
        func range(_ low: String, _ high: String?, of column: SQLFragment = column) -> [SQLFragment] {
            let c = hooks.codePointOrder(column)
            var r = [SQLFragment.binary(c, ">=", ctx.bind(.text(low)))]
            if let high { r.append(.binary(c, "<", ctx.bind(.text(high)))) }
            return r
        }
        if options.contains(.normalized) { return .and(range(prefix, Self.successor(prefix))) }
        guard let last = prefix.utf8.last, prefix.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        if let decomposed = hooks.decomposition(column) {
            return .and(range(prefix, Self.successor(prefix), of: decomposed))
        }
        let literal = SQLFragment.and(range(prefix, Self.successor(prefix)))
        let bounds = CanonicalPrefixes.bounds(last)
        let head = prefix.utf8.dropLast()
        let singletons = head.contains { CanonicalPrefixes.singleton($0) != nil }
        if bounds == nil && !singletons { return literal }
        let exact = try hooks.search(.column(column), .text(bound: prefix), .prefix, options, negated: false, ctx)
        // `before` followed by a scalar from `low` to `high`, checked exactly.
        func other(_ before: Substring.UTF8View, _ low: UInt32, _ high: UInt32) -> SQLFragment {
            var from = String(decoding: before, as: UTF8.self)
            var to = from
            from.unicodeScalars.append(Unicode.Scalar(low)!)
            to.unicodeScalars.append(Unicode.Scalar(high + 1)!)
            return .and(range(from, to) + [exact])
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
                    ranges.append(.and(range(coarse, Self.successor(coarse)) + [exact]))
                    disjoint = false
                    break
                }
                count += 1
                ranges.append(other(before, u.value, u.value))
            }
        }
        return disjoint ? .indexRanges(ranges) : .or(ranges)
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

    /// A pattern (`op`, of the pattern family) that the whole string of
    /// `c` matches: wildcards, or a regular expression, which is compiled
    /// first as the evaluator compiles it, so that a pattern the evaluator
    /// refuses (or that is over its limits) is refused here too. The
    /// constant `v` is the pattern; nil is handled before (false).
    func pattern(
        _ c: Column, _ op: ComparisonOperator, _ kind: OperatorFamily.PatternKind, _ v: Value,
        _ options: ComparisonOptions, negated: Bool, range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        try requireText(c, op, scope, range)
        guard case .string(let pattern) = v else { throw mismatch(op, c, v, scope, range) }
        if kind == .regularExpression {
            do {
                _ = try MatchesPattern(pattern, options: options, limits: ctx.options.regexLimits)
            } catch {
                throw self.error(
                    error.code == .regexLimit ? .limit : .typeMismatch, "\(op.symbol): \(error.message)",
                    entity: scope.entity, key: c.key, range: range)
            }
        }
        do throws(Problem) {
            return try hooks.pattern(c.sql, pattern, kind, options, negated: negated, ctx)
        } catch {
            throw self.error(.unsupported, error.message, entity: scope.entity, key: c.key, range: range)
        }
    }

    /// `column IN (…)`: members of another kind, and nil, never match; a
    /// UUID attribute refuses members that are not UUIDs (see `mismatch`).
    func membership(
        _ c: Column, _ members: [Value], _ options: ComparisonOptions, negated: Bool, range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
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
        let lhs = folds ? try fold(c.sql, options, scope, key: c.key, range: range) : c.sql
        let condition = hooks.membership(lhs, values, c.type, ctx)
        return negated ? .notTrue(condition) : condition
    }
}
