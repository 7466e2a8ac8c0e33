import Sift

/// The state of one lowering: the schema, the dialect, the bound values and
/// the table aliases handed out so far.
final class LoweringContext {
    let schema: Schema
    let dialect: SQLDialect
    let source: String
    let options: SQLLoweringOptions
    private(set) var bindings: [SQLValue] = []
    private var aliasCount = 0
    /// The last BEGINSWITH lowered to more than one index range, as its
    /// condition and the disjoint ranges whose OR it is (see
    /// `Lowering.conjuncts`).
    var prefixRanges: (condition: String, ranges: [String])?

    init(schema: Schema, dialect: SQLDialect, source: String, options: SQLLoweringOptions) {
        self.schema = schema
        self.dialect = dialect
        self.source = source
        self.options = options
    }

    /// Whether more values are bound than ``SQLLoweringOptions/maximumBindings``.
    var bindingsOverLimit: Bool { bindings.count > options.maximumBindings }

    /// Binds `value` and returns its placeholder.
    func bind(_ value: SQLValue) -> String {
        bindings.append(value)
        return dialect.placeholder(bindings.count)
    }

    /// A fresh table alias: `t0`, `t1`, …
    func alias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    func q(_ identifier: String) -> String { dialect.quote(identifier) }

    func entity(_ name: String) -> Entity? { schema.entity(named: name) }
}

/// One `SELECT` level: the root table, the objects of which the predicate
/// speaks, and the `LEFT JOIN`s its to-one key paths need (one per distinct
/// path).
final class Scope {
    let entity: Entity
    let alias: String
    /// The `SUBQUERY` variable naming this scope's rows, if any.
    let variable: String?
    let parent: Scope?
    private(set) var joins: [String] = []
    private var joined: [String: String] = [:]

    init(entity: Entity, alias: String, variable: String? = nil, parent: Scope? = nil) {
        self.entity = entity
        self.alias = alias
        self.variable = variable
        self.parent = parent
    }

    /// The alias of the destination of to-one relationship `r` from the
    /// table aliased `from`, joining it on first use.
    func join(from: String, _ r: Relationship, column: String, to destination: Entity, _ ctx: LoweringContext) -> String {
        let key = from + "." + r.name
        if let existing = joined[key] { return existing }
        let a = ctx.alias()
        var on = "\(a).\(ctx.q(destination.primaryKey)) = \(from).\(ctx.q(column))"
        if let d = destination.discriminator { on += " AND " + Scope.discriminate(d, alias: a, ctx) }
        joins.append(" LEFT JOIN \(ctx.q(destination.table)) \(a) ON \(on)")
        joined[key] = a
        return a
    }

    /// The outermost scope: the rows of the evaluated object. A key path
    /// not starting with a variable (`name`, `SELF.name`) reads that
    /// object at every depth, inside a `SUBQUERY` too (see
    /// `Lowering.operand`).
    var root: Scope { parent?.root ?? self }

    /// The innermost scope (this one or an enclosing one) whose rows a
    /// `SUBQUERY` variable names.
    var subquery: Scope? { variable != nil ? self : parent?.subquery }

    /// The scope whose rows `$name` stands for.
    func scope(forVariable name: String) -> Scope? {
        if variable == name { return self }
        return parent?.scope(forVariable: name)
    }

    /// `alias.Z_ENT IN (…)` for entities sharing a table. The numbers come
    /// from the schema and are written as integers.
    static func discriminate(_ d: Discriminator, alias: String, _ ctx: LoweringContext) -> String {
        if d.values.count == 1 { return "\(alias).\(ctx.q(d.column)) = \(d.values[0])" }
        return "\(alias).\(ctx.q(d.column)) IN (" + d.values.map(String.init).joined(separator: ", ") + ")"
    }
}

/// A value in SQL: a column or a scalar subquery, with the storage type that
/// decides how constants are bound against it.
struct Column {
    var sql: String
    var type: AttributeType
    var nullable: Bool
    /// A to-one relationship's key column: it can only be compared with nil.
    var isRelationship = false
    /// The key path as written, for messages.
    var key: String
}

/// A to-many relationship reached by a key path, with the rest of the path
/// after it (`["name"]`, `["@count"]`, `["@sum", "price"]`, or nothing).
struct ToMany {
    var ownerAlias: String
    var owner: Entity
    var relationship: Relationship
    var destination: Entity
    var rest: [String]
    var key: String
}

/// What an expression of a comparison stands for.
enum Operand {
    case constant(Value)
    case column(Column)
    case toMany(ToMany)
}
