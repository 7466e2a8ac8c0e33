import Sift

/// One `SELECT` level: the root table, the objects of which the predicate
/// speaks, and the `LEFT JOIN`s its to-one key paths need (one per distinct
/// path).
final class SelectScope {
    let entity: Entity
    let alias: String
    /// The `SUBQUERY` variable naming this scope's rows, if any.
    let variable: String?
    let parent: SelectScope?
    /// For the `having` of a grouped fetch: the columns of the grouped
    /// rows its key paths and variables name (`GroupedLowering`).
    let grouped: GroupedColumns?
    private(set) var joins: [SQLJoin] = []
    private var joined: [String: String] = [:]

    init(
        entity: Entity, alias: String, variable: String? = nil, parent: SelectScope? = nil, grouped: GroupedColumns? = nil
    ) {
        self.grouped = grouped
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
        if let d = destination.discriminator { on.append(SelectScope.discriminate(d, alias: a)) }
        joins.append(SQLJoin(left: true, table: SQLTable(name: destination.table, alias: a), on: .and(on, grouped: false)))
        joined[key] = a
        return a
    }

    /// The outermost scope: the rows of the evaluated object. A key path
    /// not starting with a variable (`name`, `SELF.name`) reads that
    /// object at every depth, inside a `SUBQUERY` too (see
    /// `Lowering.operand`).
    var root: SelectScope { parent?.root ?? self }

    /// The innermost scope (this one or an enclosing one) whose rows a
    /// `SUBQUERY` variable names.
    var subquery: SelectScope? { variable != nil ? self : parent?.subquery }

    /// The scope whose rows `$name` stands for.
    func scope(forVariable name: String) -> SelectScope? {
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
    /// A to-one relationship's key column: it can only be compared with nil,
    /// or with an object (`ObjectComparison.swift`).
    var isRelationship = false
    /// For a to-one relationship's key column, the entity it points at.
    var destination: Entity? = nil
    /// The key path as written, for messages.
    var key: String
    /// Whether NULL here stands for NaN, not nil: a double computed by
    /// `sift_arithmetic` on SQLite, which holds no NaN (see
    /// `Lowering.arithmetic`). Such a value is never nil.
    var nanIsNull = false
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
