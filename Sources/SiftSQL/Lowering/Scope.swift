import Sift

/// The state of one lowering: the schema, the dialect, the bound values and
/// the table aliases handed out so far.
final class LoweringContext {
    let schema: StoreSchema
    let dialect: Dialect
    let source: String
    let options: SQLLoweringOptions
    /// The values bound so far, in the order they were made: for the
    /// limit on their number and the check for NUL characters.
    private(set) var bindings: [SQLValue] = []
    private var aliasCount = 0

    init(schema: StoreSchema, dialect: Dialect, source: String, options: SQLLoweringOptions) {
        self.schema = schema
        self.dialect = dialect
        self.source = source
        self.options = options
    }

    /// Whether more values are bound than ``SQLLoweringOptions/maximumBindings``.
    var bindingsOverLimit: Bool { bindings.count > options.maximumBindings }

    /// `value` as a parameter; its placeholder is numbered when the
    /// statement is rendered.
    func bind(_ value: SQLValue) -> SQLFragment {
        bindings.append(value)
        return .parameter(SQLParameter(id: bindings.count, value: value))
    }

    /// A fresh table alias: `t0`, `t1`, …
    func alias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    /// The dialect's hooks.
    var hooks: any DialectHooks { dialect.hooks }

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
    private(set) var joins: [SQLJoin] = []
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
        var on: [SQLFragment] = [.binary(.column(a, destination.primaryKey), "=", .column(from, column))]
        if let d = destination.discriminator { on.append(Scope.discriminate(d, alias: a)) }
        joins.append(SQLJoin(left: true, table: SQLTable(name: destination.table, alias: a), on: .and(on, grouped: false)))
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
    static func discriminate(_ d: Discriminator, alias: String) -> SQLFragment {
        if d.values.count == 1 { return .binary(.column(alias, d.column), "=", .integer(d.values[0])) }
        return .inList(.column(alias, d.column), d.values.map(SQLFragment.integer))
    }
}

/// A value in SQL: a column or a scalar subquery, with the storage type that
/// decides how constants are bound against it.
struct Column {
    var sql: SQLFragment
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
