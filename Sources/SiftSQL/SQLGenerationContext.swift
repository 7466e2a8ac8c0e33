/// Renders fragments as one statement's text for a dialect and gathers
/// the bound values: each ``SQLParameter`` is numbered where it first
/// appears, and appears again under the same number.
struct SQLGenerationContext {
    let dialect: any SQLDialectHooks
    private(set) var sql = ""
    private(set) var bindings: [SQLValue] = []
    private var numbers: [Int: Int] = [:]

    init(dialect: SQLDialect) { self.dialect = dialect.hooks }

    /// The statement `fragment` renders to, with its bound values.
    static func statement(_ fragment: SQLFragment, dialect: SQLDialect) -> SQLStatement {
        var context = SQLGenerationContext(dialect: dialect)
        context.append(fragment)
        return SQLStatement(sql: context.sql, bindings: context.bindings)
    }

    static func statement(_ select: SQLSelect, dialect: SQLDialect) -> SQLStatement {
        var context = SQLGenerationContext(dialect: dialect)
        context.append(select)
        return SQLStatement(sql: context.sql, bindings: context.bindings)
    }

    /// Appends the text of `fragment`.
    mutating func append(_ fragment: SQLFragment) {
        switch fragment {
        case .sql(let s): sql += s
        case .sequence(let parts): for p in parts { append(p) }
        case .boolean(let b): sql += dialect.boolean(b)
        case .integer(let i): sql += String(i)
        case .literal(let s): sql += "'" + s.replacingOccurrences(of: "'", with: "''") + "'"
        case .column(let table, let name):
            if let table { sql += table + "." }
            sql += dialect.quote(name)
        case .parameter(let p):
            if let n = numbers[p.id] {
                sql += dialect.placeholder(n)
            } else {
                bindings.append(p.value)
                numbers[p.id] = bindings.count
                sql += dialect.placeholder(bindings.count)
            }
        case .binary(let a, let op, let b):
            append(a)
            sql += " " + op + " "
            append(b)
        case .and(let parts, let grouped):
            if grouped { sql += "(" }
            append(parts, separator: " AND ")
            if grouped { sql += ")" }
        case .or(let parts), .indexRanges(let parts):
            sql += "("
            append(parts, separator: " OR ")
            sql += ")"
        case .not(let a):
            sql += "NOT "
            append(a)
        case .notTrue(let a): append(dialect.notTrue(a))
        case .isNull(let a, let negated):
            append(a)
            sql += negated ? " IS NOT NULL" : " IS NULL"
        case .nullSafeEqual(let a, let b, let negated): append(dialect.nullSafeEqual(a, b, negated: negated))
        case .function(let name, let arguments):
            sql += name + "("
            append(arguments, separator: ", ")
            sql += ")"
        case .cast(let a, let type):
            sql += "CAST("
            append(a)
            sql += " AS " + type + ")"
        case .collate(let a, let collation):
            append(a)
            sql += " COLLATE " + collation
        case .group(let a):
            sql += "("
            append(a)
            sql += ")"
        case .like(let a, let pattern):
            append(a)
            sql += " LIKE "
            append(pattern)
            sql += " ESCAPE '\\'"
        case .inList(let a, let members):
            append(a)
            sql += " IN ("
            append(members, separator: ", ")
            sql += ")"
        case .inSelect(let a, let select):
            append(a)
            sql += " IN "
            append(.subquery(select))
        case .exists(let select, let negated):
            sql += negated ? "NOT EXISTS " : "EXISTS "
            append(.subquery(select))
        case .subquery(let select):
            sql += "("
            append(select)
            sql += ")"
        }
    }

    private mutating func append(_ parts: [SQLFragment], separator: String) {
        for (i, p) in parts.enumerated() {
            if i > 0 { sql += separator }
            append(p)
        }
    }

    /// Appends the text of `select`.
    mutating func append(_ select: SQLSelect) {
        sql += select.distinct ? "SELECT DISTINCT " : "SELECT "
        for (i, column) in select.columns.enumerated() {
            if i > 0 { sql += ", " }
            append(column.0)
            if let alias = column.alias { sql += " AS " + dialect.quote(alias) }
        }
        if let from = select.from {
            sql += " FROM "
            append(from)
        }
        for join in select.joins { append(join) }
        if !select.conditions.isEmpty {
            sql += " WHERE "
            append(select.conditions, separator: " AND ")
        }
        if !select.orderBy.isEmpty {
            sql += " ORDER BY "
            for (i, term) in select.orderBy.enumerated() {
                if i > 0 { sql += ", " }
                append(term.expression)
                if let ascending = term.ascending { sql += ascending ? " ASC" : " DESC" }
                if let first = term.nullsFirst, dialect.writesNullsOrdering { sql += first ? " NULLS FIRST" : " NULLS LAST" }
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
            sql += "("
            append(select)
            sql += ") " + alias
        case .fragment(let f): append(f)
        }
    }

    private mutating func append(_ table: SQLTable) {
        sql += dialect.quote(table.name) + " " + table.alias
    }

    mutating func append(_ join: SQLJoin) {
        sql += join.left ? " LEFT JOIN " : " JOIN "
        append(join.table)
        sql += " ON "
        append(join.on)
    }
}
