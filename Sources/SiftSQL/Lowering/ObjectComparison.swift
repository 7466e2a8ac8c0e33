import Sift

/// Comparisons of a relationship, `SELF` or a `SUBQUERY` variable with
/// objects: `author == %@`, `author != %@`, `author IN %@`, `ANY tags == %@`,
/// `tags CONTAINS %@`, `SELF == %@`, `SELF IN %@`. An object is an
/// ``ObjectReference`` (a Core Data object ID URI read as one), a dictionary
/// holding the entity's primary key, or an object of a `KeyValueReadable`
/// type whose key of that name holds it. Each stands for the row whose
/// primary key it holds, so the comparison is one of keys:
///
/// - a to-one relationship: its foreign-key column against the keys;
/// - a to-many relationship: some (or, with `ALL`, every) row of its
///   destination, by its primary key, as in `ANY tags.name == 'x'`;
/// - `SELF` and a variable: the row's own primary key.
///
/// The keys are compared as integers (or text) are, so that nil and
/// negation keep their meaning: `author != %@` holds where the author is
/// nil, as in memory, where a reference equals only the object it
/// identifies (``ObjectReference``). A reference naming a sub-entity of
/// the relationship's destination matches only that sub-entity's rows (by
/// `Z_ENT`); an entity outside the destination's hierarchy, a store other
/// than the schema's, or a key path that is not a relationship is an error.
extension Lowering {
    /// The SQL of `c` when it compares a relationship, `SELF` or a variable
    /// with objects; nil when it compares no object.
    func objectComparison(_ c: Comparison, range: SourceRange?, _ scope: SelectScope, negated: Bool)
        throws(SQLLoweringError) -> SQLFragment?
    {
        var c = c
        if c.modifier == .direct, case .constant(let v) = c.lhs.kind, Self.holdsObjects(v, c.op, containerOnLeft: true),
            let converse = c.op.converse
        {
            // `%@ == author` is `author == %@`; `%@ IN tags`, `tags CONTAINS %@`.
            (c.lhs, c.op, c.rhs) = (c.rhs, converse, c.lhs)
        }
        guard case .constant(let v) = c.rhs.kind else { return nil }
        guard Self.holdsObjects(v, c.op, containerOnLeft: false)
            // A list with no object in it (`author IN {}`) compares objects
            // when its other side holds them.
            || Self.members(v).map({ $0.allSatisfy(\.isNull) }) == true && c.op.family == .membership(containerOnLeft: false)
                && holdsObject(c.lhs, scope)
        else { return nil }
        let members: [Value]
        switch c.op.family {
        case .equality: members = [v]
        case .membership(containerOnLeft: false): members = Self.members(v) ?? []
        case .membership(containerOnLeft: true): members = [v]
        default:
            throw error(
                .unsupported, "\(c.op.symbol) cannot compare objects: compare them with ==, !=, IN or CONTAINS",
                entity: scope.entity, range: range)
        }
        switch try objectTarget(c.lhs, scope, range: range) {
        case .key(let key):
            guard c.modifier == .direct, c.op.family != .membership(containerOnLeft: true) else {
                throw error(
                    .unsupported, "\(key.column.key) is one object: compare it with ==, != or IN", entity: scope.entity,
                    key: key.column.key, range: c.lhs.range ?? range)
            }
            return try keyCondition(key, c.op, members, negated: negated, range: range, scope)
        case .many(let many):
            let isMembership = c.op.family == .membership(containerOnLeft: true)
            guard c.modifier != .direct || isMembership else {
                throw keys.toManyError(many.key, owner: many.owner, range: c.lhs.range ?? range)
            }
            // `tags CONTAINS %@` is `ANY tags == %@`; ALL is NOT ANY of the negation.
            let op: ComparisonOperator = isMembership ? .equalTo : c.op
            let all = c.modifier == .all
            return try exists(many, scope, negated: all != negated, range: c.lhs.range) { child throws(SQLLoweringError) in
                let key: KeyTarget
                if many.rest.isEmpty {
                    key = Self.ownKey(child.alias, many.destination, many.key)
                } else if case .column(let column) = try self.element(many, child, range: c.lhs.range), column.isRelationship,
                    let destination = column.destination
                {
                    key = self.foreignKey(column, destination)
                } else {
                    throw self.notRelationship(many.key, scope, c.lhs.range ?? range)
                }
                return try self.keyCondition(key, op, members, negated: all, range: range, child)
            }
        }
    }

    /// A key column compared with the keys of `members` by `op` (`==`,
    /// `!=`, `IN`), narrowed to the sub-entity they name, if one: `!=` is
    /// the negation of `==`, which is true for nil.
    private func keyCondition(
        _ key: KeyTarget, _ op: ComparisonOperator, _ members: [Value], negated: Bool, range: SourceRange?,
        _ scope: SelectScope
    ) throws(SQLLoweringError) -> SQLFragment {
        let objects = try objectKeys(members, of: key.entity, key: key.column.key, scope, range: range)
        var column = key.column
        column.type = objects.type
        column.isRelationship = false
        var positive = op
        var flip = negated
        if case .equality(false) = op.family {
            positive = .equalTo
            flip.toggle()
        }
        let narrowing = objects.subentity.flatMap(key.narrowed)
        // (Each leaf binds its values: built once.)
        let found = try leaf(.column(column), positive, .constant(Self.operand(objects.values, positive)), [],
                             negated: narrowing == nil && flip, range: range, scope)
        guard let narrowing else { return found }
        let condition = SQLFragment.and([found, narrowing], grouped: true)
        return flip ? .notTrue(condition) : condition
    }

    /// Whether `e` holds objects of the schema: `SELF`, a `SUBQUERY`
    /// variable, or a key path ending on a relationship. Read from the
    /// schema alone, joining nothing.
    private func holdsObject(_ e: ExpressionNode, _ scope: SelectScope) -> Bool {
        var entity = scope.root.entity
        let components: [String]
        switch e.kind {
        case .evaluatedObject: return true
        case .variable(let name): return scope.scope(forVariable: name) != nil
        case .keyPath(let c): components = c
        case .path(let base, let c):
            switch base.kind {
            case .evaluatedObject: break
            case .variable(let name):
                guard let target = scope.scope(forVariable: name) else { return false }
                entity = target.entity
            default: return false
            }
            components = c
        default: return false
        }
        for i in components.indices {
            switch try? keys.step(components, at: i, in: entity, range: nil) {
            case .toOne(_, _, let destination)?, .toMany(_, let destination)?:
                if i == components.count - 1 { return true }
                entity = destination
            default: return false
            }
        }
        return false
    }

    /// The constant the keys are compared with: the list, for `IN`.
    private static func operand(_ keys: [Value], _ op: ComparisonOperator) -> Value {
        op.family == .membership(containerOnLeft: false) ? .array(keys) : keys.first ?? .null
    }

    /// A row's key column an object is compared with: a to-one
    /// relationship's foreign key, or the primary key of `SELF`, a variable's
    /// row or a to-many's row; the entity whose rows it keys; and the test
    /// that narrows those rows to a sub-entity's.
    struct KeyTarget {
        var column: Column
        var entity: Entity
        var narrowed: (Entity) -> SQLFragment?
    }

    /// What an object is compared with: a key, or a to-many relationship.
    private enum ObjectTarget {
        case key(KeyTarget)
        case many(ToMany)
    }

    /// The primary key of the rows aliased `alias`, of `entity`.
    private static func ownKey(_ alias: String, _ entity: Entity, _ key: String) -> KeyTarget {
        KeyTarget(
            column: Column(sql: .column(alias, entity.primaryKey), type: .integer, nullable: false, key: key), entity: entity,
            narrowed: { sub in sub.discriminator.map { SelectScope.discriminate($0, alias: alias) } })
    }

    /// A to-one relationship's key column, pointing at `destination`.
    private func foreignKey(_ column: Column, _ destination: Entity) -> KeyTarget {
        KeyTarget(column: column, entity: destination, narrowed: { sub in
            // The key's row, of the destination's table, must be the sub-entity's.
            guard let d = sub.discriminator else { return nil }
            let a = self.ctx.alias()
            let rows = SQLSelect(
                .column(a, destination.primaryKey), from: .table(SQLTable(name: destination.table, alias: a)),
                where: [SelectScope.discriminate(d, alias: a)])
            return .inSelect(column.sql, rows)
        })
    }

    private func notRelationship(_ written: String, _ scope: SelectScope, _ range: SourceRange?) -> SQLLoweringError {
        error(
            .typeMismatch, "\(written) is not a relationship: an object compares only with a relationship, SELF or a "
                + "SUBQUERY variable", entity: scope.entity, range: range)
    }

    private func objectTarget(_ e: ExpressionNode, _ scope: SelectScope, range: SourceRange?) throws(SQLLoweringError)
        -> ObjectTarget
    {
        switch e.kind {
        case .evaluatedObject:
            return .key(Self.ownKey(scope.root.alias, scope.root.entity, "SELF"))
        case .variable(let name):
            guard let target = scope.scope(forVariable: name) else {
                throw error(.unsupported, "$\(name) is not a SUBQUERY variable", entity: scope.entity, range: e.range)
            }
            return .key(Self.ownKey(target.alias, target.entity, "$" + name))
        default:
            break
        }
        switch try operand(e, scope) {
        case .column(let column) where column.isRelationship:
            guard let destination = column.destination else { break }
            return .key(foreignKey(column, destination))
        case .toMany(let many):
            return .many(many)
        default:
            break
        }
        throw notRelationship(FormatPrinter.format(e), scope, e.range ?? range)
    }

    /// The keys of `members`, objects of `entity` (nil members are left
    /// out: nil is in no list), all integers or all text, and the one
    /// sub-entity of `entity` they name, if they name one.
    private func objectKeys(_ members: [Value], of entity: Entity, key: String, _ scope: SelectScope, range: SourceRange?)
        throws(SQLLoweringError) -> (values: [Value], type: AttributeType, subentity: Entity?)
    {
        var values: [Value] = []
        // The sub-entity of `entity` each member names (nil: none).
        var subentities: [Entity?] = []
        for member in members where !member.isNull {
            let (value, of) = try objectKey(member, of: entity, key: key, scope, range: range)
            values.append(value)
            subentities.append(of.flatMap { $0.name != entity.name && ctx.schema.descends($0, from: entity) ? $0 : nil })
        }
        let subentity = subentities.first ?? nil
        if subentities.contains(where: { $0?.name != subentity?.name }) {
            throw error(
                .unsupported, "objects of different entities in one list have no SQL form: compare each in its own comparison",
                entity: scope.entity, key: key, range: range)
        }
        guard let first = values.first else { return ([], .integer, nil) }
        let text = first.stringValue != nil
        guard values.allSatisfy({ ($0.stringValue != nil) == text }) else {
            throw error(
                .typeMismatch, "the objects compared with \(key) have both integer and text primary keys",
                entity: scope.entity, key: key, range: range)
        }
        return (values, text ? .string : .integer, subentity)
    }

    /// The primary key of one object compared with `key` (whose objects
    /// are `entity`'s), and the entity it names, if it names one.
    private func objectKey(_ v: Value, of entity: Entity, key: String, _ scope: SelectScope, range: SourceRange?)
        throws(SQLLoweringError) -> (Value, Entity?)
    {
        if let r = v.objectReference {
            if let store = r.storeIdentifier, store != ctx.schema.storeIdentifier {
                let ours = ctx.schema.storeIdentifier.map { "this store is \($0)" } ?? "this database is not a Core Data store"
                throw error(
                    .typeMismatch, "the object ID \(r) is of the store \(store); \(ours)", entity: scope.entity, key: key,
                    range: range)
            }
            let named = try r.entity.map { name throws(SQLLoweringError) in try objectEntity(name, of: entity, key: key, scope, range) }
            return (.int(Int(r.primaryKey)), named)
        }
        let held: Value?
        var named: Entity?
        switch v {
        case .dictionary(let d):
            held = d[entity.primaryKey]
        case .object(let o):
            held = o.primaryKey(named: entity.primaryKey)
            if ctx.schema.entities.contains(where: { $0.name == o.typeName }) {
                named = try objectEntity(o.typeName, of: entity, key: key, scope, range)
            }
        default:
            throw error(
                .typeMismatch, "\(key) is compared with objects; \(describe(v)) is not one", entity: scope.entity, key: key,
                range: range)
        }
        switch held {
        case .int?, .string?: return (held ?? .null, named)
        default: break
        }
        throw error(
            .typeMismatch,
            "\(describe(v)) compared with \(key) needs its primary key, \(entity.name).\(entity.primaryKey), as an integer or a string",
            entity: scope.entity, key: key, range: range)
    }

    /// The entity `name` of an object compared with `key`, whose objects
    /// are `entity`'s: it must be that entity, one above it or one below it.
    private func objectEntity(_ name: String, of entity: Entity, key: String, _ scope: SelectScope, _ range: SourceRange?)
        throws(SQLLoweringError) -> Entity
    {
        guard let named = ctx.schema.entities.first(where: { $0.name == name }) else {
            throw error(
                .unknownEntity, "the object compared with \(key) is of the entity \(StoreSchema.echoed(name)), which the schema "
                    + "lacks; it has \(ctx.schema.entityList)", entity: scope.entity, key: key, range: range)
        }
        guard named.name == entity.name || ctx.schema.descends(named, from: entity) || ctx.schema.descends(entity, from: named)
        else {
            throw error(
                .typeMismatch, "\(key) holds \(entity.name) objects; the object compared with it is a \(named.name)",
                entity: scope.entity, key: key, range: range)
        }
        return named
    }

    /// Whether `v`, on the side of `op` that `containerOnLeft` says, is an
    /// object or a list of objects: what makes `op` compare objects.
    static func holdsObjects(_ v: Value, _ op: ComparisonOperator, containerOnLeft: Bool) -> Bool {
        switch op.family {
        case .equality: return isObject(v)
        case .membership(let left) where left == containerOnLeft:
            // `author IN {…}`: a list of objects (a dictionary's values).
            guard let items = members(v) else { return false }
            return items.contains(where: isObject) && items.allSatisfy { isObject($0) || $0.isNull }
        case .membership: return isObject(v)
        default: return v.objectReference != nil
        }
    }

    private static func isObject(_ v: Value) -> Bool {
        switch v {
        case .object, .dictionary: return true
        default: return false
        }
    }

    private static func members(_ v: Value) -> [Value]? {
        switch v {
        case .array(let items): return items
        case .set(let items): return Array(items)
        case .dictionary(let d): return Array(d.values)
        default: return nil
        }
    }
}

extension StoreSchema {
    /// Whether `entity` is a sub-entity of `ancestor`, at any depth.
    func descends(_ entity: Entity, from ancestor: Entity) -> Bool {
        var seen: Set<String> = [entity.name]
        var current = entity
        while let parent = current.parent, let next = entities.first(where: { $0.name == parent }), seen.insert(next.name).inserted {
            if next.name == ancestor.name { return true }
            current = next
        }
        return false
    }
}
