import Foundation
import Sift

/// Lowers predicates to SQL conditions that hold exactly where the
/// evaluator answers true. NOT is pushed down to the leaves, and every leaf
/// is written for its polarity so that a nil never turns a row the
/// evaluator keeps into a row SQL drops.
struct Lowering {
    let ctx: LoweringContext

    var hooks: any DialectHooks { ctx.hooks }

    func error(
        _ code: SQLLoweringError.Code, _ message: String, entity: Entity, key: String? = nil, range: SourceRange?
    ) -> SQLLoweringError {
        keys.error(code, message, entity: entity, key: key, range: range)
    }

    /// Key paths are read as the evaluator of rows in memory reads them.
    var keys: KeyResolver { KeyResolver(schema: ctx.schema, source: ctx.source) }

    // MARK: - Predicates

    /// A condition every row of the result satisfies, lowered. `ranges`:
    /// disjoint conditions whose OR it is, each on one index range
    /// (BEGINSWITH of a prefix with other canonical spellings).
    struct Conjunct {
        var sql: SQLFragment
        var ranges: [SQLFragment]?
    }

    /// The conditions of `p` that every row must satisfy (its operands under
    /// AND, or OR when negated), each lowered as by `predicate`, in order;
    /// none for TRUE.
    func conjuncts(_ p: PredicateNode, _ scope: SelectScope, negated: Bool, into out: inout [Conjunct])
        throws(SQLLoweringError)
    {
        switch p.kind {
        case .not(let inner):
            try conjuncts(inner, scope, negated: !negated, into: &out)
            return
        case .and(let children) where !negated, .or(let children) where negated:
            for child in children { try conjuncts(child, scope, negated: negated, into: &out) }
            return
        default:
            break
        }
        let sql = try predicate(p, scope, negated: negated)
        switch sql {
        case .boolean(true): return
        case .indexRanges(let ranges): out.append(Conjunct(sql: sql, ranges: ranges))
        default: out.append(Conjunct(sql: sql, ranges: nil))
        }
    }

    func predicate(_ p: PredicateNode, _ scope: SelectScope, negated: Bool) throws(SQLLoweringError) -> SQLFragment {
        switch p.kind {
        case .constant(let b):
            return .boolean(b != negated)
        case .not(let inner):
            return try predicate(inner, scope, negated: !negated)
        case .and(let children), .or(let children):
            var isAnd = true
            if case .or = p.kind { isAnd = false }
            if negated { isAnd.toggle() }
            if children.isEmpty { return .boolean(isAnd) }
            var parts: [SQLFragment] = []
            for child in children { parts.append(try predicate(child, scope, negated: negated)) }
            if parts.count == 1 { return parts[0] }
            return isAnd ? .and(parts) : .or(parts)
        case .comparison(let c):
            if let distributed = try loweringTernary(c, range: p.range, scope, negated: negated) { return distributed }
            let first = ctx.bindings.count
            let sql = try comparison(c, range: p.range, scope, negated: negated)
            if ctx.bindingsOverLimit { throw bindingLimitError(entity: scope.entity, range: p.range) }
            if ctx.bindings[first...].contains(where: \.containsNUL) {
                // SQLite's clients cut bound text at a NUL (GRDB does) and
                // PostgreSQL refuses it: the comparison would not mean what
                // it says.
                throw error(
                    .unsupported, "a string with a NUL character (U+0000) cannot be bound as SQL text",
                    entity: scope.entity, range: p.range)
            }
            return sql
        }
    }

    /// The error for the comparison (or, without a range, the request) whose
    /// values went over ``SQLLoweringOptions/maximumBindings``.
    func bindingLimitError(entity: Entity, range: SourceRange?) -> SQLLoweringError {
        let limit = ctx.options.maximumBindings
        return error(
            .limit,
            "the statement would bind \(ctx.bindings.count) values; the limit is \(limit) (SQLLoweringOptions.maximumBindings): "
                + "compare with a list (IN {…}), which is bound as one value",
            entity: entity, range: range)
    }

    private func comparison(_ c: Comparison, range: SourceRange?, _ scope: SelectScope, negated: Bool)
        throws(SQLLoweringError) -> SQLFragment
    {
        if let objects = try objectComparison(c, range: range, scope, negated: negated) { return objects }
        if c.modifier != .direct {
            let lhs = try operand(c.lhs, scope)
            guard case .toMany(let many) = lhs else {
                throw error(
                    .unsupported, "\(c.modifier.keyword ?? "") needs a to-many key path on its left",
                    entity: scope.entity, range: c.lhs.range ?? range)
            }
            let rhs = try operand(c.rhs, scope)
            let all = c.modifier == .all
            return try exists(many, scope, negated: all != negated, range: c.lhs.range) { child throws(SQLLoweringError) in
                let element = try self.element(many, child, range: c.lhs.range)
                return try self.leaf(element, c.op, rhs, c.options, negated: all, range: range, child)
            }
        }
        if !negated, let membership = try toOneMembership(c, range: range, scope) { return membership }
        let lhs = try operand(c.lhs, scope)
        let rhs = try operand(c.rhs, scope)
        switch (lhs, rhs) {
        case (.toMany(let many), .constant), (.toMany(let many), .column):
            // `tags.name CONTAINS 'x'`: membership, as ANY tags.name == 'x'.
            guard c.op.family == .membership(containerOnLeft: true) else {
                throw toManyError(many, scope, c.lhs.range ?? range)
            }
            return try membership(many, rhs, c.options, negated: negated, range: range, c.lhs.range, scope)
        case (.constant, .toMany(let many)), (.column, .toMany(let many)):
            guard c.op.family == .membership(containerOnLeft: false) else {
                throw toManyError(many, scope, c.rhs.range ?? range)
            }
            return try membership(many, lhs, c.options, negated: negated, range: range, c.rhs.range, scope)
        case (.toMany(let many), _):
            throw toManyError(many, scope, c.lhs.range ?? range)
        case (_, .toMany(let many)):
            throw toManyError(many, scope, c.rhs.range ?? range)
        default:
            return try leaf(lhs, c.op, rhs, c.options, negated: negated, range: range, scope)
        }
    }

    /// Whether `op` has a SQL form and answers false when its left side is
    /// nil and the right side is not (``OperatorFamily/isFalseForNilLeft``).
    private static func falseForNil(_ op: ComparisonOperator) -> Bool {
        switch op.family {
        case .typeTest, .selector: return false
        default: return op.family.isFalseForNilLeft
        }
    }

    /// `author.name == 'Ann'` (not negated; false when the author is nil) as
    /// `t0.author_id IN (SELECT t1.id FROM authors t1 WHERE t1.name = ?1)`
    /// rather than through a `LEFT JOIN`: the authors that qualify are found
    /// once, and each row is a membership test instead of a lookup of its
    /// author. On SQLite the key is written `+t0.author_id` so that an OR
    /// with other conditions is not planned as a union of index searches,
    /// and `IS NOT NULL` first keeps a nil key from making the leaf NULL.
    private func toOneMembership(_ c: Comparison, range: SourceRange?, _ scope: SelectScope)
        throws(SQLLoweringError) -> SQLFragment?
    {
        guard c.modifier == .direct, case .keyPath(let keys) = c.lhs.kind, keys.count == 2,
            case .constant(let k) = c.rhs.kind, !k.isNull, Self.falseForNil(c.op),
            case .relationship(let r)? = scope.root.entity.member(named: keys[0]), case .toOne(let column) = r.kind,
            let destination = ctx.entity(r.destination), destination.discriminator == nil,
            case .attribute? = destination.member(named: keys[1])
        else { return nil }
        let a = ctx.alias()
        let child = SelectScope(entity: destination, alias: a, parent: scope)
        let lhs = try resolve([keys[1]], from: a, destination, child, nullable: false, range: c.lhs.range)
        let rhs = try operand(c.rhs, scope)
        let condition = try leaf(lhs, c.op, rhs, c.options, negated: false, range: range, child)
        let key = SQLFragment.column(scope.root.alias, column)
        let rows = SQLSelect(
            .column(a, destination.primaryKey), from: .table(SQLTable(name: destination.table, alias: a)),
            where: [condition])
        return .and([.isNull(key, negated: true), .inSelect(hooks.unindexedKey(key), rows)])
    }

    /// `tags.name CONTAINS x` / `x IN tags.name`: some element equals x;
    /// nil is a member of nothing.
    private func membership(
        _ many: ToMany, _ value: Operand, _ options: ComparisonOptions, negated: Bool, range: SourceRange?,
        _ keyRange: SourceRange?, _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        if case .constant(let v) = value, v.isNull { return polarity(false, negated) }
        return try exists(many, scope, negated: negated, range: keyRange) { child throws(SQLLoweringError) in
            let equal = try self.leaf(
                try self.element(many, child, range: keyRange), .equalTo, value, options, negated: false, range: range, child)
            if case .column(let c) = value, c.nullable { return .and([equal, .isNull(c.sql, negated: true)], grouped: false) }
            return equal
        }
    }

    private func toManyError(_ many: ToMany, _ scope: SelectScope, _ range: SourceRange?) -> SQLLoweringError {
        keys.toManyError(many.key, owner: many.owner, range: range)
    }

    // MARK: - Operands

    private static func containsNUL(_ v: Value) -> Bool {
        switch v {
        case .string(let s): return s.utf8.contains(0)
        case .array(let items): return items.contains(where: containsNUL)
        case .set(let items): return items.contains(where: containsNUL)
        case .dictionary(let d): return d.values.contains(where: containsNUL)
        default: return false
        }
    }

    func operand(_ e: ExpressionNode, _ scope: SelectScope) throws(SQLLoweringError) -> Operand {
        // A grouped fetch's `having` reads the grouped rows' columns.
        if let grouped = scope.root.grouped, let c = try grouped.column(e, self, scope) { return .column(c) }
        switch e.kind {
        case .constant(let v):
            // SQLite's string functions and GRDB's bindings end text at a
            // NUL, and PostgreSQL refuses it in text: `name == "a\0b"` would
            // compare with "a".
            if Self.containsNUL(v) {
                throw error(
                    .unsupported, "a string containing the NUL character (U+0000) has no SQL form",
                    entity: scope.entity, range: e.range)
            }
            return .constant(v)
        case .keyPath(let components):
            // A key path with no variable before it reads the evaluated
            // object, also inside a SUBQUERY's predicate: only the variable
            // is bound to each element, and `SELF` is still the outer object
            // (the language notes, §7.12; Apportable's NSSubqueryExpression
            // evaluates the predicate with the outer object too), as the
            // evaluator reads it. In `SUBQUERY(authors, $a, name BEGINSWITH
            // 'C')`, `name` is the row's, a reference to the outer table;
            // `$a.name` is the author's.
            return try objectKey(components, scope, range: e.range)
        case .path(let base, let components):
            switch base.kind {
            case .variable(let name):
                guard let target = scope.scope(forVariable: name) else {
                    throw error(.unsupported, "$\(name) is not a SUBQUERY variable", entity: scope.entity, range: e.range)
                }
                // The variable's rows are visible here only if they are
                // this scope's or an enclosing scope's rows.
                return try resolve(components, from: target.alias, target.entity, scope, nullable: false, range: e.range)
            case .subquery(let collection, let variable, let inner):
                guard components == [CollectionOperator.count.name] else {
                    throw error(
                        .unsupported, "only SUBQUERY(…).@count has a SQL form", entity: scope.entity, range: e.range)
                }
                return .column(try subqueryCount(collection, variable, inner, scope, range: e.range))
            case .evaluatedObject:
                // SELF is the evaluated object inside a SUBQUERY too.
                return try objectKey(components, scope, range: e.range)
            case .variableKey:
                return try operand(base, scope)
            case .index(let collection, let position):
                return try orderedElement(collection, position, components, scope, range: e.range)
            default:
                throw error(.unsupported, "this key path has no SQL form", entity: scope.entity, range: e.range)
            }
        case .variableKey(_, let key):
            // Substituting the variable makes the piece plain keys, which
            // lower as if written; unsubstituted, the column is unknown.
            throw error(
                .unsupported, "\(key) after '.' names a key only once it is substituted: substitute it before "
                    + "lowering to SQL", entity: scope.entity, range: key.range ?? e.range)
        case .variable(let name):
            throw error(
                .unsupported, "$\(name) stands for an object: compare one of its keys, as in $\(name).name",
                entity: scope.entity, range: e.range)
        case .function(let f, let arguments):
            return try function(e, f, arguments, scope)
        case .cast(let value, let type):
            return try cast(e, value, type, scope)
        case .setOperation:
            return .constant(try constantSet(e, scope))
        case .index(let collection, let position):
            return try orderedElement(collection, position, [], scope, range: e.range)
        case .ternary:
            throw error(
                .unsupported,
                "TERNARY has a SQL form only as an operand of a comparison, or inside a key path, subscript, function or CAST "
                    + "that is one", entity: scope.entity, range: e.range)
        default:
            throw error(
                .unsupported, "this expression has no SQL form: compare key paths and constants", entity: scope.entity,
                range: e.range)
        }
    }

    /// The value of `UNION`, `INTERSECT` or `MINUS` between constants (or
    /// set expressions of constants), worked out now as the evaluator
    /// would: `x IN {1, 2} UNION {2, 3}` compares with the bound values 1, 2
    /// and 3. A side read from a row is refused: SQL's set operations work
    /// on rows, with the database's equality (text collation, 1 and 1.0),
    /// not on one value's collection with the evaluator's.
    private func constantSet(_ e: ExpressionNode, _ scope: SelectScope) throws(SQLLoweringError) -> Value {
        switch e.kind {
        case .constant:
            guard case .constant(let v) = try operand(e, scope) else { break }
            return v
        case .setOperation(let operation, let left, let right):
            let a = try constantSet(left, scope)
            let b = try constantSet(right, scope)
            do throws(Problem) {
                return try SetExpressions.constant(operation, a, b)
            } catch {
                throw self.error(.typeMismatch, error.message, entity: scope.entity, range: e.range)
            }
        default:
            break
        }
        throw error(
            .unsupported, "UNION, INTERSECT and MINUS have a SQL form only between constants", entity: scope.entity,
            range: e.range)
    }

    /// A key path of the evaluated object, lowered at any depth as a column
    /// of the outermost table (joining its to-one relationships there).
    private func objectKey(_ components: [String], _ scope: SelectScope, range: SourceRange?) throws(SQLLoweringError)
        -> Operand
    {
        let object = scope.root
        do {
            return try resolve(components, from: object.alias, object.entity, object, nullable: false, range: range)
        } catch {
            guard let subquery = scope.subquery, let variable = subquery.variable else { throw error }
            throw keys.outerKeyError(error, components, object: object.entity, variable: variable, element: subquery.entity)
        }
    }

    /// The column of attribute `a` of the table aliased `alias`, as its
    /// comparisons read it: on PostgreSQL, a string column of another form
    /// than `text` in the default collation (``PostgreSQLTextForm``) as
    /// that text. Its indexes then serve no comparison, but no comparison
    /// ignores case or trailing blanks, or folds ASCII only, where memory's
    /// does not.
    static func attributeSQL(_ alias: String, _ a: Attribute, _ dialect: Dialect) -> SQLFragment {
        let column = SQLFragment.column(alias, a.column)
        return textFormSQL(column, a, dialect) ?? column
    }

    /// `column` of attribute `a` as text in the default collation, or nil
    /// when it needs no other form (``attributeSQL(_:_:_:)``).
    static func textFormSQL(_ column: SQLFragment, _ a: Attribute, _ dialect: Dialect) -> SQLFragment? {
        guard dialect == .postgreSQL, a.type == .string, let form = a.textForm else { return nil }
        // Through the type's text output and `textin`: the result is
        // `text` whose collation is the default one, implicitly (no
        // collatable argument), so that an explicit `COLLATE "C"` the
        // dialect adds to either side of a comparison still applies, where
        // an explicit `COLLATE "default"` would clash with it.
        switch form {
        case .citext: return .function("textin", [.function("textout", [.cast(column, "text")])])
        case .character: return .function("textin", [.function("bpcharout", [column])])
        case .collation: return .function("textin", [.function("textout", [column])])
        }
    }

    /// Resolves a key path from the table aliased `alias` (of `entity`),
    /// joining to-one relationships in `scope`.
    func resolve(
        _ components: [String], from alias: String, _ entity: Entity, _ scope: SelectScope, nullable: Bool,
        range: SourceRange?
    ) throws(SQLLoweringError) -> Operand {
        var alias = alias
        var entity = entity
        var nullable = nullable
        var throughToOne = false
        let written = components.count == 1 ? components[0] : components.joined(separator: ".")
        guard !components.isEmpty else {
            throw error(.unsupported, "an object cannot be compared in SQL: compare one of its keys", entity: entity,
                        range: range)
        }
        for i in components.indices {
            switch try keys.step(components, at: i, in: entity, range: range) {
            case .attribute(let a):
                if case .unsupported(let kind) = a.type {
                    throw error(
                        .unsupported,
                        "\(components[i]) is a \(kind) attribute of \(entity.name): its stored form cannot be compared in SQL",
                        entity: entity, key: components[i], range: range)
                }
                return .column(
                    Column(sql: Self.attributeSQL(alias, a, ctx.dialect), type: a.type, nullable: nullable || a.isOptional,
                           key: written))
            case .element(_, let a):
                if case .unsupported(let kind) = a.type {
                    throw error(
                        .unsupported, "\(written) is a \(kind) element of \(entity.name): its stored form cannot be compared in SQL",
                        entity: entity, key: written, range: range)
                }
                return .column(
                    Column(sql: Self.attributeSQL(alias, a, ctx.dialect), type: a.type, nullable: nullable || a.isOptional,
                           key: written))
            case .composite(let c):
                throw keys.compositeError(c, components, at: i, in: entity, range: range)
            case .toOne(let r, let column, let destination):
                if i == components.count - 1 {
                    return .column(
                        Column(sql: .column(alias, column), type: .integer, nullable: true, isRelationship: true,
                               destination: destination, key: written))
                }
                alias = scope.join(from: alias, r, column: column, to: destination, ctx)
                entity = destination
                nullable = true
                throughToOne = true
            case .toMany(let r, let destination):
                let many = ToMany(
                    ownerAlias: alias, owner: entity, relationship: r, destination: destination,
                    rest: Array(components[(i + 1)...]), key: written)
                if let op = many.rest.first, CollectionOperator.isOperator(op) {
                    var c = try aggregate(many, op, Array(many.rest.dropFirst()), scope, range: range)
                    if throughToOne {
                        // Owned by an object at the end of a to-one, which
                        // may be nil: memory's `author.books.@count` is then
                        // nil, where the subquery over no rows would count 0.
                        let owner = SQLFragment.column(many.ownerAlias, many.owner.primaryKey)
                        c.sql = .sequence([
                            .sql("CASE WHEN "), .isNull(owner, negated: false), .sql(" THEN NULL ELSE "), c.sql, .sql(" END"),
                        ])
                        c.nullable = true
                    }
                    return .column(c)
                }
                return .toMany(many)
            }
        }
        throw error(.unknownKey, "keypath \(written) not found in entity \(entity.name)", entity: entity, range: range)
    }

    /// The value of one element of a to-many key path, inside the subquery
    /// over the relationship's rows.
    func element(_ many: ToMany, _ child: SelectScope, range: SourceRange?) throws(SQLLoweringError) -> Operand {
        guard !many.rest.isEmpty else {
            throw error(
                .unsupported, "\(many.key) are objects: compare one of their keys, as in \(many.key).name",
                entity: many.owner, key: many.key, range: range)
        }
        let resolved = try resolve(many.rest, from: child.alias, child.entity, child, nullable: false, range: range)
        if case .toMany(let inner) = resolved {
            throw error(
                .unsupported, "\(many.key) crosses two to-many relationships; only one has a SQL form",
                entity: inner.owner, key: inner.key, range: range)
        }
        return resolved
    }

    // MARK: - Subqueries

    /// The rows of a to-many relationship: the source of a subquery over
    /// them, the column holding the owner's key (`key`, in the table
    /// aliased `keyTable`, which holds an ordered relationship's order
    /// column too), the owner's key (`owner`), and the discriminator test.
    func keyedRows(of many: ToMany, variable: String?, _ scope: SelectScope)
        -> (child: SelectScope, from: SQLSelect.SQLSource?, key: SQLFragment, keyTable: String, owner: SQLFragment,
            filter: SQLFragment?)
    {
        let a = ctx.alias()
        let child = SelectScope(entity: many.destination, alias: a, variable: variable, parent: scope)
        let owner = SQLFragment.column(many.ownerAlias, many.owner.primaryKey)
        let filter = many.destination.discriminator.map { SelectScope.discriminate($0, alias: a) }
        let table = SQLTable(name: many.destination.table, alias: a)
        switch many.relationship.kind {
        case .toMany(let inverse):
            return (child, .table(table), .column(a, inverse), a, owner, filter)
        case .manyToMany(let linkTable, let source, let destination):
            let link = ctx.alias()
            let on = SQLFragment.binary(.column(a, many.destination.primaryKey), "=", .column(link, destination))
            return (child, .join(SQLTable(name: linkTable, alias: link), SQLJoin(left: false, table: table, on: on)),
                    .column(link, source), link, owner, filter)
        case .toOne:
            return (child, nil, .boolean(false), a, owner, filter)
        }
    }

    /// A subquery over the rows of a to-many relationship that selects
    /// `column` where the row belongs to the owner and meets `condition`.
    private func correlated(
        _ column: SQLFragment, of many: ToMany, variable: String?, _ scope: SelectScope,
        _ condition: (SelectScope) throws(SQLLoweringError) -> SQLFragment?
    ) throws(SQLLoweringError) -> SQLSelect {
        let r = keyedRows(of: many, variable: variable, scope)
        return Self.correlated(column, r, where: try condition(r.child))
    }

    /// `column` of the rows `r` that belong to the owner and meet `inner`
    /// (made before, so that its joins are the rows' joins).
    private static func correlated(
        _ column: SQLFragment, _ r: (child: SelectScope, from: SQLSelect.SQLSource?, key: SQLFragment, keyTable: String,
                                     owner: SQLFragment, filter: SQLFragment?), where inner: SQLFragment?
    ) -> SQLSelect {
        let conditions = [.binary(r.key, "=", r.owner), r.filter, inner].compactMap { $0 }
        return SQLSelect(column, from: r.from, joins: r.child.joins, where: conditions)
    }

    /// Whether some row of the relationship meets `condition`: as
    /// `owner.pk IN (SELECT fk FROM rows WHERE condition)`, which lets the
    /// planner start from an index on the condition's column and probe the
    /// owners by primary key; when `negated`, as `NOT EXISTS (SELECT 1 FROM
    /// rows WHERE fk = owner.pk AND condition)`, which a NULL key in the
    /// rows cannot turn into NULL.
    func exists(
        _ many: ToMany, _ scope: SelectScope, variable: String? = nil, negated: Bool, range: SourceRange?,
        _ condition: (SelectScope) throws(SQLLoweringError) -> SQLFragment?
    ) throws(SQLLoweringError) -> SQLFragment {
        if negated { return .exists(try correlated(.integer(1), of: many, variable: variable, scope, condition), negated: true) }
        let r = keyedRows(of: many, variable: variable, scope)
        let inner = try condition(r.child)
        let conditions = [r.filter, inner].compactMap { $0 }
        return .inSelect(r.owner, SQLSelect(r.key, from: r.from, joins: r.child.joins, where: conditions))
    }

    /// The collection operators with a SQL form: those that give one value
    /// (`@count`, `@sum`, `@avg`, `@min`, `@max`). A union gives a
    /// collection, which a SQL comparison has no operand for.
    static let aggregates = CollectionOperator.allCases.filter { $0.result != .collection }

    /// `@count`, `@sum.k`, `@avg.k`, `@min.k`, `@max.k` of a to-many
    /// relationship as a scalar subquery, with the evaluator's answers for
    /// empty relationships and nil members; the other collection operators
    /// have no SQL form.
    private func aggregate(_ many: ToMany, _ name: String, _ path: [String], _ scope: SelectScope, range: SourceRange?)
        throws(SQLLoweringError) -> Column
    {
        let key = many.key
        guard let op = CollectionOperator(name: name), Self.aggregates.contains(op) else {
            throw error(
                .unsupported,
                "\(name) has no SQL form (\(Self.aggregates.map(\.name).joined(separator: ", ")) do)",
                entity: many.owner, key: key, range: range)
        }
        guard op.needsKeyPath else {
            guard path.isEmpty else {
                throw error(.unsupported, "\(name) takes no key path after it", entity: many.owner, key: key, range: range)
            }
            if case .manyToMany(let table, let source, _) = many.relationship.kind, many.destination.discriminator == nil {
                let link = ctx.alias()
                let count = SQLSelect(
                    .countAll, from: .table(SQLTable(name: table, alias: link)),
                    where: [.binary(.column(link, source), "=", .column(many.ownerAlias, many.owner.primaryKey))])
                return Column(sql: .subquery(count), type: .integer, nullable: false, key: key)
            }
            let count = try correlated(.countAll, of: many, variable: nil, scope) { _ in nil }
            return Column(sql: .subquery(count), type: .integer, nullable: false, key: key)
        }
        guard !path.isEmpty else {
            throw error(.unsupported, "\(name) needs a key path after it, as in \(name).price", entity: many.owner, key: key,
                        range: range)
        }
        // The rows themselves (not `correlated(_:of:…)`): an ordered sum
        // reads the table holding their order column.
        let r = keyedRows(of: many, variable: nil, scope)
        let resolved = try resolve(path, from: r.child.alias, r.child.entity, r.child, nullable: false, range: range)
        var rows = Self.correlated(.countAll, r, where: nil)
        guard case .column(let c) = resolved, !c.isRelationship else {
            throw error(.unsupported, "\(name) needs an attribute after it", entity: many.destination, range: range)
        }
        let numeric: Bool
        switch c.type {
        case .integer, .double, .decimal, .boolean: numeric = true
        case .date(let e): numeric = e != .iso8601
        default: numeric = false
        }
        if op.operands == .numbers, c.type == .decimal {
            // Memory adds the decimals exactly; SQL would add the stored
            // doubles, whose sum can differ in the last digit (10.11 three
            // times is 30.330000000000002), and so compare otherwise.
            throw error(
                .unsupported, "\(name) of \(c.key) (decimal) has no SQL form: the stored doubles do not add up as the decimals do",
                entity: many.destination, key: c.key, range: range)
        }
        guard numeric || (op.operands == .comparable && c.type != .string) else {
            throw error(
                .typeMismatch, "\(name) needs a number\(op.operands == .comparable ? " or a date" : ""); \(c.key) is \(c.type.name)",
                entity: many.destination, key: c.key, range: range)
        }
        if op.operands == .numbers, case .date = c.type {
            throw error(.typeMismatch, "\(name) needs numbers; \(c.key) is a date", entity: many.destination, key: c.key,
                        range: range)
        }
        let value = hooks.numeric(c.sql, c.type)
        // Memory adds a collection's doubles one after another in the
        // collection's order (`orderedSum`): an ordered relationship's
        // (its order column, one value per element of an owner), else the
        // elements' key order. Integers add exactly in any order.
        var sum = hooks.total(value)
        if op == .sum || op == .avg, c.type == .double {
            let order: (SQLFragment, AttributeType) =
                if many.relationship.isOrdered, let position = many.relationship.orderColumn {
                    (.column(r.keyTable, position), .integer)
                } else {
                    (.column(r.child.alias, many.destination.primaryKey), many.destination.primaryKeyType)
                }
            guard let ordered = hooks.orderedSum(value, by: order.0, order.1) else {
                throw error(
                    .unsupported,
                    "\(name) of \(c.key) (double) has no SQL form on \(ctx.dialect): a sum of doubles depends on the order of "
                        + "its terms, which this database does not add in memory's order",
                    entity: many.destination, key: c.key, range: range)
            }
            sum = .function("COALESCE", [ordered, .integer(0)])
        }
        // Memory's sum of integers is an integer, exact while no partial
        // sum leaves 64 bits (then a double, whose value depends on the
        // order): SQL's exact integer sum, where no order of adding can
        // overflow, else the statement fails. Its average is that sum as a
        // double divided once by the count, so the same bound holds.
        let integers = c.type == .integer || c.type == .boolean
        let exact = hooks.integerSum(.function("COALESCE", [.function("SUM", [value]), .integer(0)]))
        let select: SQLFragment
        let type: AttributeType
        var nullable = true
        switch op {
        case .sum where integers:
            select = .exactIntegerAggregate(exact, of: value, bound: Int.max)
            type = .integer
            nullable = false
        case .sum:
            select = sum
            type = .double
            nullable = false
        case .avg:
            // nil members count as 0 and stay in the denominator.
            let mean = SQLFragment.binary(
                .cast(integers ? exact : sum, hooks.columnType(.double)), "/", .function("NULLIF", [.countAll, .integer(0)]))
            select = integers ? .exactIntegerAggregate(mean, of: value, bound: Int.max) : mean
            type = .double
        case .min:
            select = .function("MIN", [value])
            type = c.type
        default:
            select = .function("MAX", [value])
            type = c.type
        }
        rows.columns = [(select, nil)]
        return Column(sql: .subquery(rows), type: type, nullable: nullable, key: key)
    }

    /// `SUBQUERY(rel, $x, P).@count` as a scalar subquery.
    private func subqueryCount(
        _ collection: ExpressionNode, _ variable: String, _ inner: PredicateNode, _ scope: SelectScope, range: SourceRange?
    ) throws(SQLLoweringError) -> Column {
        guard case .toMany(let many) = try operand(collection, scope), many.rest.isEmpty else {
            throw error(
                .unsupported, "SUBQUERY needs a to-many relationship as its collection", entity: scope.entity,
                range: collection.range ?? range)
        }
        let count = try correlated(.countAll, of: many, variable: variable, scope) { child throws(SQLLoweringError) in
            try self.predicate(inner, child, negated: false)
        }
        return Column(sql: .subquery(count), type: .integer, nullable: false, key: "SUBQUERY")
    }
}
