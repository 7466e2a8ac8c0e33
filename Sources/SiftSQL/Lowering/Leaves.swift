import Foundation
import Sift

/// Comparison leaves: one operator between two operands, each a column (or
/// scalar subquery) or a constant, written so that the condition holds
/// exactly where the evaluator answers true (or, when `negated`, exactly
/// where it answers false).
extension Lowering {
    func leaf(
        _ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand, _ options: ComparisonOptions, negated: Bool,
        range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        if let why = unfoldableCase(options), op != .matches, [lhs, rhs].contains(where: Self.isText) {
            throw error(.unsupported, "\(hooks.name): [c] is refused: \(why)", entity: scope.entity, range: range)
        }
        switch (lhs, rhs) {
        case (.constant(let a), .constant(let b)):
            return try constantLeaf(a, op, b, options, negated: negated, range: range, scope)
        case (.column(let c), .constant(let v)):
            return try columnConstant(c, op, v, options, negated: negated, range: range, scope)
        case (.constant(let v), .column(let c)):
            switch op.family {
            case .equality, .ordering, .membership(containerOnLeft: false):
                // `30 < age` is `age > 30`; `'x' IN name` is `name CONTAINS 'x'`.
                guard let converse = op.converse else { break }
                return try columnConstant(c, converse, v, options, negated: negated, range: range, scope)
            case .membership(containerOnLeft: true):
                // `{1, 2} CONTAINS age` is `age IN {1, 2}`; `'abc' CONTAINS name` a substring search.
                if case .string(let s) = v {
                    return try search(.text(bound: s), .column(c.sql), .substring, options, negated: negated, range: range, scope)
                }
                guard let converse = op.converse else { break }
                return try columnConstant(c, converse, v, options, negated: negated, range: range, scope)
            case .search(let kind):
                guard case .string(let s) = v else {
                    if v.isNull { return polarity(false, negated) }
                    throw mismatch(op, c, v, scope, range)
                }
                try requireText(c, op, scope, range)
                return try search(.text(bound: s), .column(c.sql), kind, options, negated: negated, range: range, scope)
            default:
                break
            }
            throw error(
                .unsupported, "\(op.symbol) with a key path on its right has no SQL form", entity: scope.entity,
                key: c.key, range: range)
        case (.column(let a), .column(let b)):
            return try columnColumn(a, op, b, options, negated: negated, range: range, scope)
        default:
            throw error(.unsupported, "this comparison has no SQL form", entity: scope.entity, range: range)
        }
    }

    /// A comparison of two constants, answered now by the evaluator, with
    /// the filter's limit on the strings a custom selector makes.
    private func constantLeaf(
        _ a: Value, _ op: ComparisonOperator, _ b: Value, _ options: ComparisonOptions, negated: Bool,
        range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        var filter = Filter(PredicateNode.compare(.constant(a), op, .constant(b), options: options))
        filter.maximumFunctionResultLength = ctx.functionResultLimit
        do {
            let answer = try filter.compiled(regexLimits: ctx.options.regexLimits).evaluate(with: Value.null)
            return polarity(answer, negated)
        } catch {
            let limit = error.code == .regexLimit || error.code == .limit
            throw self.error(limit ? .limit : .typeMismatch, "\(error.message)", entity: scope.entity, range: range)
        }
    }

    /// Why `options` fold case where the database cannot (its schema's
    /// ``StoreSchema/caseFoldingRefusal``, on PostgreSQL), or nil.
    /// `MATCHES[c]` spells its letters' variants out and folds nothing.
    func unfoldableCase(_ options: ComparisonOptions) -> String? {
        guard ctx.dialect == .postgreSQL, options.contains(.caseInsensitive), !options.contains(.normalized),
            !options.contains(.swiftString)
        else { return nil }
        return ctx.schema.caseFoldingRefusal
    }

    static func isText(_ operand: Operand) -> Bool {
        if case .column(let c) = operand { return c.type == .string }
        return false
    }

    func polarity(_ answer: Bool, _ negated: Bool) -> SQLFragment {
        .boolean(answer != negated)
    }

    /// A comparison of a column with a constant it cannot be compared with.
    /// A UUID attribute compared with anything but a UUID or nil comes here
    /// too, even for `==`: memory answers false (a UUID equals no string),
    /// but a string holding a UUID's text is what JSON and the command line
    /// give by default, and an empty answer would look like "no such row".
    func mismatch(_ op: ComparisonOperator, _ c: Column, _ v: Value, _ scope: SelectScope, _ range: SourceRange?)
        -> SQLLoweringError
    {
        var message = "\(op.symbol) cannot compare \(c.key) (\(c.isRelationship ? "a relationship" : c.type.name)) with \(describe(v))"
        if case .uuid = c.type, !c.isRelationship {
            let text = v.stringValue.flatMap(UUID.init(uuidString:))?.uuidString ?? "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
            message += "; a UUID is written CAST('\(text)', 'NSUUID'), or passed as a UUID (--arg '{\"$uuid\": \"\(text)\"}')"
        }
        return error(.typeMismatch, message, entity: scope.entity, key: c.key, range: range)
    }

    func requireText(_ c: Column, _ op: ComparisonOperator, _ scope: SelectScope, _ range: SourceRange?)
        throws(SQLLoweringError)
    {
        guard c.type == .string, !c.isRelationship else {
            throw error(
                .typeMismatch, "\(op.symbol) needs a string; \(c.key) is \(c.isRelationship ? "a relationship" : c.type.name)",
                entity: scope.entity, key: c.key, range: range)
        }
    }

    func describe(_ v: Value) -> String {
        switch v {
        case .string(let s): return "the string \"\(s)\""
        case .null, .nsNull: return "nil"
        default: return "\(v.typeName) \(FormatPrinter.format(ExpressionNode.constant(v)))"
        }
    }

    // MARK: - Column against constant

    private func columnConstant(
        _ c: Column, _ op: ComparisonOperator, _ v: Value, _ options: ComparisonOptions, negated: Bool,
        range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        if !c.isRelationship, let mixed = Self.mixedNumber(op, v, c.type) {
            switch mixed {
            case .compare(let exactOp, let exactValue):
                return try columnConstant(c, exactOp, exactValue, options, negated: negated, range: range, scope)
            case .always(let answer):
                // Equality answers so for nil too; an ordering is false for nil.
                if case .equality = op.family { return polarity(answer, negated) }
                guard answer, c.nullable || c.nanIsNull else { return polarity(answer, negated) }
                return .isNull(c.sql, negated: !negated)
            }
        }
        let folds = c.type == .string && Self.folds(options)
        // A search, a pattern or membership with nil is false (a type test
        // has no SQL form, nil or not).
        if v.isNull, op.family.isFalseForNilOperand {
            if case .typeTest = op.family {} else { return polarity(false, negated) }
        }
        switch op.family {
        case .equality(let equal):
            let neg = negated != !equal
            if v.isNull {
                guard c.nullable else { return polarity(false, neg) }
                return .isNull(c.sql, negated: neg)
            }
            guard !c.isRelationship else {
                throw error(
                    .unsupported, "\(c.key) is a relationship: compare it with nil, with an object (ObjectReference; {\"$id\": 3} "
                        + "on the command line), or compare one of its keys",
                    entity: scope.entity, key: c.key, range: range)
            }
            guard let bound = equalityValue(v, for: c.type) else {
                if case .uuid = c.type { throw mismatch(op, c, v, scope, range) }
                return polarity(false, neg)
            }
            let (lhs, value) =
                folds ? (try fold(c.sql, options, scope, key: c.key, range: range), SQLValue.text(fold(v, options))) : (c.sql, bound)
            let p = ctx.bind(value)
            if !neg { return .binary(lhs, ComparisonOperator.equalTo.sqlOperator, p) }
            if !c.nullable && !c.nanIsNull { return .binary(lhs, ComparisonOperator.notEqualTo.sqlOperator, p) }
            return hooks.notEqualOrNull(lhs, p, column: c.sql)

        case .ordering(_, let inclusive):
            if v.isNull {
                // Ordering against nil: only nil <= nil and nil >= nil hold.
                guard inclusive, c.nullable else { return polarity(false, negated) }
                return .isNull(c.sql, negated: negated)
            }
            guard !c.isRelationship, let bound = orderingValue(v, for: c.type) else { throw mismatch(op, c, v, scope, range) }
            if c.type == .string {
                let condition = try stringOrdering(
                    c.sql, op.sqlOperator, .text(bound: v.stringValue ?? ""), options, scope, range: range)
                return negated ? .notTrue(condition) : condition
            }
            let op = Self.numericOperator(op, v, c.type)
            let number = op == .greaterThan || op == .greaterThanOrEqualTo ? notNaN(c) : nil
            if negated && !c.nullable && notNaN(c) == nil {
                return .binary(numeric(c), op.negatedOrdering.sqlOperator, ctx.bind(bound))
            }
            var condition = SQLFragment.binary(numeric(c), op.sqlOperator, ctx.bind(bound))
            if let number { condition = .and([condition, number], grouped: true) }
            return negated ? .notTrue(condition) : condition

        case .range:
            guard case .array(let bounds) = v, bounds.count == 2 else {
                throw error(.typeMismatch, "\(op.symbol) needs a collection of two bounds, as in {1, 10}", entity: scope.entity,
                            range: range)
            }
            if bounds[0].isNull || bounds[1].isNull { return polarity(false, negated) }
            guard !c.isRelationship, let lo = orderingValue(bounds[0], for: c.type),
                let hi = orderingValue(bounds[1], for: c.type)
            else { throw mismatch(op, c, bounds[orderingValue(bounds[0], for: c.type) == nil ? 0 : 1], scope, range) }
            let condition: SQLFragment
            if c.type == .string {
                condition = .and([
                    try stringOrdering(
                        c.sql, ComparisonOperator.greaterThanOrEqualTo.sqlOperator, .text(bound: bounds[0].stringValue ?? ""),
                        options, scope, range: range),
                    try stringOrdering(
                        c.sql, ComparisonOperator.lessThanOrEqualTo.sqlOperator, .text(bound: bounds[1].stringValue ?? ""),
                        options, scope, range: range),
                ])
            } else {
                let from = Self.numericOperator(.greaterThanOrEqualTo, bounds[0], c.type)
                let to = Self.numericOperator(.lessThanOrEqualTo, bounds[1], c.type)
                if from == .greaterThanOrEqualTo && to == .lessThanOrEqualTo {
                    condition = .binary(numeric(c), "BETWEEN", .binary(ctx.bind(lo), "AND", ctx.bind(hi)))
                } else {
                    let low = SQLFragment.binary(numeric(c), from.sqlOperator, ctx.bind(lo))
                    condition = .and([low, .binary(numeric(c), to.sqlOperator, ctx.bind(hi))])
                }
            }
            return negated ? .notTrue(condition) : condition

        case .membership(containerOnLeft: false):
            let members: [Value]
            switch v {
            case .array(let items): members = items
            case .set(let items): members = Array(items)
            case .dictionary(let d): members = Array(d.values)
            case .string(let s):
                // `name IN 'text'`: name is a substring of the text.
                try requireText(c, op, scope, range)
                return try search(.text(bound: s), .column(c.sql), .substring, options, negated: negated, range: range, scope)
            default: throw mismatch(op, c, v, scope, range)
            }
            return try membership(c, members, options, negated: negated, range: range, scope)

        case .membership(containerOnLeft: true), .search:
            try requireText(c, op, scope, range)
            guard case .string(let s) = v, let kind = op.family.stringSearch?.kind else {
                throw mismatch(op, c, v, scope, range)
            }
            return try search(.column(c.sql), .text(bound: s), kind, options, negated: negated, range: range, scope)

        case .pattern(let kind):
            return try pattern(c, op, kind, v, options, negated: negated, range: range, scope)

        default:
            throw error(.unsupported, "\(op.symbol) has no SQL form", entity: scope.entity, range: range)
        }
    }

    // MARK: - Column against column

    private func columnColumn(
        _ a: Column, _ op: ComparisonOperator, _ b: Column, _ options: ComparisonOptions, negated: Bool,
        range: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        let same = Self.kind(a) == Self.kind(b)
        switch op.family {
        case .equality(let equal):
            let neg = negated != !equal
            guard same else {
                // Values of different kinds are never equal; nil equals nil
                // (NaN, NULL on SQLite, is not nil).
                if a.nanIsNull || b.nanIsNull { return polarity(false, neg) }
                let bothNil = SQLFragment.and([.isNull(a.sql, negated: false), .isNull(b.sql, negated: false)])
                return neg ? .notTrue(bothNil) : bothNil
            }
            let folds = a.type == .string && Self.folds(options)
            let x = folds ? try fold(a.sql, options, scope, key: a.key, range: range) : numeric(a)
            let y = folds ? try fold(b.sql, options, scope, key: b.key, range: range) : numeric(b)
            // NaN equals nothing in memory, itself included; PostgreSQL
            // says NaN = NaN, and SQLite's NULL for a computed NaN IS NULL.
            let numbers = [notNaN(a), b.nanIsNull ? notNaN(b) : nil].compactMap { $0 }
            if !numbers.isEmpty {
                let equal = SQLFragment.and([.nullSafeEqual(x, y, negated: false)] + numbers, grouped: true)
                return neg ? .notTrue(equal) : equal
            }
            return .nullSafeEqual(x, y, negated: neg)
        case .ordering(_, let inclusive):
            guard same, !a.isRelationship, !b.isRelationship, a.type != .blob else {
                throw error(
                    .typeMismatch, "\(op.symbol) cannot order \(a.key) (\(a.type.name)) against \(b.key) (\(b.type.name))",
                    entity: scope.entity, key: b.key, range: range)
            }
            var condition =
                a.type == .string
                ? try stringOrdering(a.sql, op.sqlOperator, .column(b.sql), options, scope, range: range)
                : .binary(numeric(a), op.sqlOperator, numeric(b))
            // NaN is neither greater nor less than anything in memory.
            let numbers = [notNaN(a), notNaN(b)].compactMap { $0 }
            if !numbers.isEmpty { condition = .and([condition] + numbers, grouped: true) }
            if inclusive, a.nullable, b.nullable {
                condition = .or([condition, .and([.isNull(a.sql, negated: false), .isNull(b.sql, negated: false)])])
            }
            return negated ? .notTrue(condition) : condition
        case .membership, .search:
            try requireText(a, op, scope, range)
            try requireText(b, op, scope, range)
            guard let (kind, needleOnRight) = op.family.stringSearch else { break }
            let (haystack, needle) = needleOnRight ? (a, b) : (b, a)
            return try search(
                .column(haystack.sql), .column(needle.sql), kind, options, negated: negated, range: range, scope)
        default:
            break
        }
        throw error(
            .unsupported, "\(op.symbol) between two key paths has no SQL form", entity: scope.entity, key: b.key,
            range: range)
    }

    // MARK: - Values

    /// The kinds of column values that can equal each other.
    static func kind(_ c: Column) -> Int {
        if c.isRelationship { return 7 }
        switch c.type {
        case .integer, .double, .decimal, .boolean: return 0
        case .string: return 1
        case .date(let e): return 2 + (e == .iso8601 ? 10 : 0)
        case .blob: return 3
        case .uuid(let e): return 4 + (e == .bytes ? 10 : 0)
        case .unsupported: return 5
        }
    }

    /// Whether string options change the comparison (`[c]`, `[d]` without
    /// `[n]`; `[s]`, whose equality is that of the decompositions).
    static func folds(_ options: ComparisonOptions) -> Bool {
        options.contains(.swiftString)
            || !options.contains(.normalized)
                && (options.contains(.caseInsensitive) || options.contains(.diacriticInsensitive))
    }

    /// The bound form of `v` for an equality test against a column of
    /// `type`, or nil when no value of the column can equal it.
    func equalityValue(_ v: Value, for type: AttributeType) -> SQLValue? {
        // A decimal with more digits than a double holds equals no double:
        // a stored number is compared by the decimal its double stands for
        // (an integer column's by its exact value, bound as an integer).
        if case .decimal(let d) = v, Value.shortestDecimal(of: Value.nearestDouble(to: d)) != d,
            type != .integer || Self.wholeNumber(d) == nil
        {
            return nil
        }
        switch (type, v) {
        case (.boolean, _):
            guard let d = Self.number(v) else { return nil }
            if d == 0 { return hooks.booleanValue(false) }
            if d == 1 { return hooks.booleanValue(true) }
            return nil
        default:
            return orderingValue(v, for: type)
        }
    }

    /// The bound form of `v` for ordering against a column of `type`, or nil
    /// for a value of another kind.
    func orderingValue(_ v: Value, for type: AttributeType) -> SQLValue? {
        switch (type, v) {
        case (.integer, .int(let i)), (.double, .int(let i)), (.decimal, .int(let i)), (.boolean, .int(let i)):
            return .integer(Int64(i))
        case (.integer, .bool(let b)), (.double, .bool(let b)), (.decimal, .bool(let b)), (.boolean, .bool(let b)):
            return .integer(b ? 1 : 0)
        case (.integer, .decimal(let d)) where Self.wholeNumber(d) != nil:
            return Self.wholeNumber(d).map(SQLValue.integer)
        case (.integer, _), (.double, _), (.decimal, _), (.boolean, _):
            guard let d = Self.number(v) else { return nil }
            return .real(d)
        case (.string, .string(let s)): return .text(s)
        case (.date(let e), .date(let d)): return Self.date(d, e)
        case (.blob, .data(let d)): return .blob(d)
        case (.uuid(.text), .uuid(let u)): return .text(u.uuidString)
        case (.uuid(.bytes), .uuid(let u)): return .blob(withUnsafeBytes(of: u.uuid) { Data($0) })
        default: return nil
        }
    }

    static func number(_ v: Value) -> Double? {
        switch v {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .bool(let b): return b ? 1 : 0
        // Correctly rounded: `NSDecimalNumber.doubleValue` may miss the
        // nearest double by one, and then `price == 19.99` as a decimal
        // would not find the stored 19.99.
        case .decimal(let d): return Value.nearestDouble(to: d)
        default: return nil
        }
    }

    /// The operator that compares a stored number with `v` as memory does.
    /// Memory compares a double by the decimal it stands for (its shortest
    /// form), so a decimal constant with more digits than a double holds
    /// lies strictly between two stored values: when its nearest double t
    /// stands for less than it, `x < c` and `x <= c` hold where `x <= t`,
    /// `x > c` and `x >= c` where `x > t`; when t stands for more, where
    /// `x < t` and `x >= t`.
    /// (An integer column compares a whole decimal bound as an integer.)
    static func numericOperator(_ op: ComparisonOperator, _ v: Value, _ type: AttributeType) -> ComparisonOperator {
        guard case .decimal(let c) = v, type != .integer || wholeNumber(c) == nil,
            let shortest = Value.shortestDecimal(of: Value.nearestDouble(to: c)), shortest != c
        else { return op }
        switch op {
        case .lessThan, .lessThanOrEqualTo: return shortest < c ? .lessThanOrEqualTo : .lessThan
        default: return shortest < c ? .greaterThan : .greaterThanOrEqualTo
        }
    }

    /// `d` when it is a whole number that `Int64` holds (2^53 + 1, which
    /// no double is, included).
    static func wholeNumber(_ d: Decimal) -> Int64? {
        guard d.isFinite else { return nil }
        var whole = Decimal()
        var x = d
        NSDecimalRound(&whole, &x, 0, .plain)
        guard whole == d else { return nil }
        return Int64(whole.description)
    }

    static func date(_ d: Date, _ e: DateEncoding) -> SQLValue {
        switch e {
        case .referenceSeconds: return .real(d.timeIntervalSinceReferenceDate)
        case .unixSeconds: return .real(d.timeIntervalSince1970)
        case .iso8601: return .text(iso8601(d))
        }
    }

    /// `2024-05-01T12:00:00.000Z`.
    static func iso8601(_ d: Date) -> String {
        d.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .gmt))
    }

    /// What an equality or ordering of a column of `type` with the number
    /// `v` becomes when the column is an integer and `v` a double, or the
    /// reverse. Memory compares them exactly; PostgreSQL compares a bigint
    /// with a double as two doubles, so that 2^53 + 1 would equal 2^53. A
    /// whole double is compared as the integer it is; a double beyond every
    /// integer, or NaN, gives the same answer for every row; an integer no
    /// double equals is compared with the double next to it on the side that
    /// keeps the answer. Nil when nothing changes.
    static func mixedNumber(_ op: ComparisonOperator, _ v: Value, _ type: AttributeType) -> MixedNumber? {
        let greater: Bool
        switch op.family {
        case .equality(let equal):
            switch (type, v) {
            case (.integer, .double(let d)):
                if let i = Int(exactly: d) { return .compare(op, .int(i)) }
                return d.isNaN || abs(d) >= 9_223_372_036_854_775_808.0 ? .always(!equal) : nil
            case (.double, .int(let i)):
                return Int(exactly: Double(i)) == i ? nil : .always(!equal)
            default:
                return nil
            }
        case .ordering(let isGreater, _):
            greater = isGreater
        default:
            return nil
        }
        switch (type, v) {
        case (.integer, .double(let d)):
            if let i = Int(exactly: d) { return .compare(op, .int(i)) }
            if d.isNaN { return .always(false) }
            // 2^63 is above every integer, -2^63 - 1 below.
            guard abs(d) >= 9_223_372_036_854_775_808.0 else { return nil }
            return .always(greater == (d < 0))
        case (.double, .int(let i)):
            let t = Double(i)
            guard let exact = Int(exactly: t), exact == i else {
                // t is i rounded: the doubles next to i are t and its neighbour.
                let below = Int(exactly: t).map { $0 < i } ?? false
                let (lo, hi) = below ? (t, t.nextUp) : (t.nextDown, t)
                return .compare(greater ? .greaterThanOrEqualTo : .lessThanOrEqualTo, .double(greater ? hi : lo))
            }
            return nil
        default:
            return nil
        }
    }

    /// See ``mixedNumber(_:_:_:)``.
    enum MixedNumber {
        /// The comparison to make instead.
        case compare(ComparisonOperator, Value)
        /// The answer for every value that is not nil.
        case always(Bool)
    }

    /// A column as a number: where booleans are not numbers, cast.
    func numeric(_ c: Column) -> SQLFragment { hooks.numeric(c.sql, c.type) }

    /// The condition that `c` is not NaN (nil where it cannot be): the
    /// dialect's for a stored number (``DialectHooks/notNaN(_:_:)``), `IS NOT
    /// NULL` for a computed double whose NaN is NULL (``Column/nanIsNull``).
    func notNaN(_ c: Column) -> SQLFragment? {
        c.nanIsNull ? .isNull(c.sql, negated: true) : hooks.notNaN(c.sql, c.type)
    }
}

/// The SQL of the comparison operators that SQL writes as operators, in
/// every dialect: the one place that says how equality is spelled (`=`,
/// `<>`), and which ordering holds where another does not. An ordering is
/// spelled in SQL as in the language (its row's canonical spelling).
extension ComparisonOperator {
    /// `=`, `<>`; for an ordering its own symbol: `<`, `<=`, `>`, `>=`.
    var sqlOperator: String {
        switch family {
        case .equality(let equal): return equal ? "=" : "<>"
        default: return symbol
        }
    }

    /// The ordering that holds exactly where this one does not, between
    /// two values that are not nil (`>=` for `<`).
    var negatedOrdering: ComparisonOperator {
        guard case .ordering(let greater, let orEqual) = family,
            let negated = ComparisonOperator(family: .ordering(greater: !greater, orEqual: !orEqual))
        else { return self }
        return negated
    }
}
