/// Renders fragments as one statement's text for a dialect and gathers
/// the bound values: each ``SQLParameter`` is numbered where it first
/// appears, and appears again under the same number (bound again at each
/// place where the dialect's placeholders are positional).
struct SQLGenerationContext {
    let dialect: any DialectHooks
    /// The text so far, as UTF-8: appending bytes costs less than
    /// appending to a `String` piece by piece.
    private var text: [UInt8] = []
    private(set) var bindings: [SQLValue] = []
    /// The number of each parameter rendered so far, by its id (ids are
    /// the lowering's count of values bound, so small and dense).
    private var numbers: [Int] = []
    /// Where each placeholder was written: its UTF-8 range in the text and
    /// the index of its value in ``bindings``, so that a client which
    /// writes its own placeholders (SQLKit) can bind each value where
    /// it stands.
    private(set) var placeholders: [(range: Range<Int>, binding: Int)] = []

    init(dialect: Dialect) {
        self.dialect = dialect.hooks
        // Most statements are a few hundred bytes: growing from empty
        // would copy the text several times.
        text.reserveCapacity(512)
    }

    /// The statement `fragment` renders to, with its bound values.
    static func statement(_ fragment: SQLFragment, dialect: Dialect) -> BoundStatement {
        var context = SQLGenerationContext(dialect: dialect)
        context.append(fragment)
        return BoundStatement(sql: context.sql, bindings: context.bindings)
    }

    static func statement(_ select: SQLSelect, dialect: Dialect) -> BoundStatement {
        var context = SQLGenerationContext(dialect: dialect)
        context.append(select)
        return BoundStatement(sql: context.sql, bindings: context.bindings)
    }

    /// The text from UTF-8 offset `start` on, cut at its placeholders:
    /// text and the index of the value bound at each placeholder.
    func pieces(from start: Int) -> [SQLPiece] {
        var pieces: [SQLPiece] = []
        var at = start
        for (range, binding) in placeholders where range.lowerBound >= start {
            if range.lowerBound > at { pieces.append(.sql(String(decoding: text[at..<range.lowerBound], as: UTF8.self))) }
            pieces.append(.binding(binding))
            at = range.upperBound
        }
        if text.count > at { pieces.append(.sql(String(decoding: text[at...], as: UTF8.self))) }
        return pieces
    }

    /// The statement's text so far.
    var sql: String { String(decoding: text, as: UTF8.self) }

    private mutating func write(_ s: StaticString) {
        text.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    private mutating func write(_ s: String) { text.append(contentsOf: s.utf8) }

    /// Appends the text of `fragment`.
    mutating func append(_ fragment: SQLFragment) {
        switch fragment {
        case .sql(let s): write(s)
        case .sequence(let parts): for p in parts { append(p) }
        case .boolean(let b): write(dialect.boolean(b))
        case .integer(let i): write(String(i))
        case .literal(let s): write("'" + s.replacingOccurrences(of: "'", with: "''") + "'")
        case .column(let table, let name):
            if let table {
                write(table)
                write(".")
            }
            dialect.quote(name, into: &text)
        case .parameter(let p):
            let start = text.count
            if p.id < numbers.count, numbers[p.id] > 0, dialect.placeholdersAreNumbered {
                write(dialect.placeholder(numbers[p.id]))
                placeholders.append((start..<text.count, numbers[p.id] - 1))
            } else {
                bindings.append(p.value)
                if p.id >= numbers.count { numbers += repeatElement(0, count: p.id - numbers.count + 1) }
                numbers[p.id] = bindings.count
                write(dialect.placeholder(bindings.count))
                placeholders.append((start..<text.count, bindings.count - 1))
            }
        case .binary(let a, let op, let b):
            append(a)
            write(" ")
            write(op)
            write(" ")
            append(b)
        case .and(let parts, let grouped):
            if grouped { write("(") }
            append(parts, separator: " AND ")
            if grouped { write(")") }
        case .or(let parts), .indexRanges(let parts):
            write("(")
            append(parts, separator: " OR ")
            write(")")
        case .not(let a):
            write("NOT ")
            append(a)
        case .notTrue(let a): append(dialect.notTrue(a))
        case .isNull(let a, let negated):
            append(a)
            write(negated ? " IS NOT NULL" : " IS NULL")
        case .nullSafeEqual(let a, let b, let negated): append(dialect.nullSafeEqual(a, b, negated: negated))
        case .function(let name, let arguments):
            write(name)
            write("(")
            append(arguments, separator: ", ")
            write(")")
        case .cast(let a, let type):
            write("CAST(")
            append(a)
            write(" AS ")
            write(type)
            write(")")
        case .collate(let a, let collation):
            append(a)
            write(" COLLATE ")
            write(collation)
        case .group(let a):
            write("(")
            append(a)
            write(")")
        case .inList(let a, let members):
            append(a)
            write(" IN (")
            append(members, separator: ", ")
            write(")")
        case .inSelect(let a, let select):
            append(a)
            write(" IN ")
            append(.subquery(select))
        case .exists(let select, let negated):
            write(negated ? "NOT EXISTS " : "EXISTS ")
            append(.subquery(select))
        case .subquery(let select):
            write("(")
            append(select)
            write(")")
        }
    }

    private mutating func append(_ parts: [SQLFragment], separator: String) {
        for (i, p) in parts.enumerated() {
            if i > 0 { write(separator) }
            append(p)
        }
    }

    /// Appends the text of `select`.
    mutating func append(_ select: SQLSelect) {
        write(select.distinct ? "SELECT DISTINCT " : "SELECT ")
        for (i, column) in select.columns.enumerated() {
            if i > 0 { write(", ") }
            append(column.0)
            if let alias = column.alias {
                write(" AS ")
                dialect.quote(alias, into: &text)
            }
        }
        if let from = select.from {
            write(" FROM ")
            append(from)
        }
        for join in select.joins { append(join) }
        if !select.conditions.isEmpty {
            write(" WHERE ")
            append(select.conditions, separator: " AND ")
        }
        if !select.groupBy.isEmpty {
            write(" GROUP BY ")
            append(select.groupBy, separator: ", ")
        }
        if !select.orderBy.isEmpty {
            write(" ORDER BY ")
            for (i, term) in select.orderBy.enumerated() {
                if i > 0 { write(", ") }
                append(term.expression)
                if let ascending = term.ascending { write(ascending ? " ASC" : " DESC") }
                if let first = term.nullsFirst, dialect.writesNullsOrdering { write(first ? " NULLS FIRST" : " NULLS LAST") }
            }
        }
        if select.limit != nil || select.offset != nil {
            append(dialect.limitClause(limit: select.limit, offset: select.offset))
        }
    }

    private mutating func append(_ source: SQLSelect.SQLSource) {
        switch source {
        case .table(let t): append(t)
        case .join(let t, let join):
            append(t)
            append(join)
        case .derived(let select, let alias):
            write("(")
            append(select)
            write(") ")
            write(alias)
        case .fragment(let f): append(f)
        }
    }

    private mutating func append(_ table: SQLTable) {
        dialect.quote(table.name, into: &text)
        write(" ")
        write(table.alias)
    }

    mutating func append(_ join: SQLJoin) {
        write(join.left ? " LEFT JOIN " : " JOIN ")
        append(join.table)
        write(" ON ")
        append(join.on)
    }
}
