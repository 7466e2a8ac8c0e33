import Sift

/// One key of a key path, found in an entity of the schema.
enum KeyStep {
    case attribute(Attribute)
    /// An element of a composite attribute: the key path's last keys.
    case element(Composite, Attribute)
    /// A composite attribute as a whole: the key path's last key.
    case composite(Composite)
    case toOne(Relationship, column: String, destination: Entity)
    case toMany(Relationship, destination: Entity)
}

/// How a key path names the attributes and relationships of a schema's
/// entities: exact names first, then ignoring case (Core Data's columns
/// have lost their camel case). The SQL lowering and the evaluation in
/// memory of rows read from the database (``StoreSchema/resolve(_:entity:)``)
/// both read key paths through it, so they find the same keys and refuse
/// the same ones with the same message.
struct KeyResolver {
    let schema: StoreSchema
    /// The text the errors' ranges point into.
    let source: String

    func error(
        _ code: SQLLoweringError.Code, _ message: String, entity: Entity, key: String? = nil, range: SourceRange?
    ) -> SQLLoweringError {
        SQLLoweringError(
            code, message, entity: entity.name, key: key, range: range ?? SourceRange(0, source.utf8.count),
            source: source)
    }

    /// What `components[i]` names in `entity`. An attribute ends a key
    /// path, and so does a composite attribute, with the keys after it
    /// naming one of its elements; a key the entity lacks is an error
    /// suggesting the nearest name it has.
    func step(_ components: [String], at i: Int, in entity: Entity, range: SourceRange?) throws(SQLLoweringError)
        -> KeyStep
    {
        let key = components[i]
        switch entity.member(named: key) {
        case .attribute(let a)?:
            guard i == components.count - 1 else {
                throw error(
                    .unknownKey, "\(key) is an attribute of \(entity.name); it has no key \(components[i + 1])",
                    entity: entity, key: components[i + 1], range: range)
            }
            return .attribute(a)
        case .composite(let c)?:
            guard i < components.count - 1 else { return .composite(c) }
            let path = components[(i + 1)...].joined(separator: ".")
            guard let element = c.element(at: path) else {
                let names = c.elements.map(\.name).joined(separator: ", ")
                throw error(
                    .unknownKey, "\(key) is a composite attribute of \(entity.name) with the elements \(names); it has no element \(path)",
                    entity: entity, key: components[i + 1], range: range)
            }
            return .element(c, element)
        case .relationship(let r)?:
            guard let destination = schema.entity(named: r.destination) else {
                throw error(
                    .unknownEntity, "relationship \(entity.name).\(key) points at an unknown entity \(r.destination)",
                    entity: entity, key: key, range: range)
            }
            switch r.kind {
            case .toOne(let column): return .toOne(r, column: column, destination: destination)
            case .toMany, .manyToMany: return .toMany(r, destination: destination)
            }
        case nil:
            if let reason = entity.unsupportedReason(key) {
                throw error(.unsupported, reason, entity: entity, key: key, range: range)
            }
            let written = components.joined(separator: ".")
            let near = Self.nearest(to: key, in: entity).map { " (did you mean \($0)?)" } ?? ""
            throw error(
                .unknownKey, "keypath \(written) not found in entity \(entity.name): it has no key \(key)" + near,
                entity: entity, key: key, range: range)
        }
    }

    /// `error`, for a key path read inside a SUBQUERY: if the evaluated
    /// object (`object`) lacks its first key and the elements (`element`,
    /// named `$variable`) have it, the message says that the key path
    /// without the variable is the object's, and how to name the element's.
    func outerKeyError(
        _ error: SQLLoweringError, _ components: [String], object: Entity, variable: String, element: Entity
    ) -> SQLLoweringError {
        guard error.code == .unknownKey, let first = components.first, object.member(named: first) == nil,
            element.member(named: first) != nil
        else { return error }
        var noted = error
        noted.message += "; inside SUBQUERY, a key path without a variable is the evaluated \(object.name)'s: "
            + "write $\(variable).\(components.joined(separator: ".")) for the \(element.name)'s"
        return noted
    }

    /// The error of a key path ending on a composite attribute as a whole
    /// (`author == nil`): neither SQL nor memory compares one.
    func compositeError(_ c: Composite, _ components: [String], at i: Int, in entity: Entity, range: SourceRange?)
        -> SQLLoweringError
    {
        let written = components.joined(separator: ".")
        return error(
            .unsupported,
            "\(c.name) is a composite attribute of \(entity.name): compare one of its elements, as in \(written).\(c.elements.first?.name ?? "element")",
            entity: entity, key: components[i], range: range)
    }

    /// The error of a key path reading the many values of a to-many
    /// relationship (`key`, of `owner`) where one value is wanted.
    func toManyError(_ key: String, owner: Entity, range: SourceRange?) -> SQLLoweringError {
        error(
            .toManyKey, "to-many key \(key) not allowed here: use ANY, ALL, NONE, @count or SUBQUERY", entity: owner,
            key: key, range: range)
    }

    /// The error of a key path following more relationships than the
    /// objects in memory hold.
    func depthError(_ components: [String], _ maximumDepth: Int, entity: Entity, key: String, range: SourceRange?)
        -> SQLLoweringError
    {
        error(
            .limit,
            "\(components.joined(separator: ".")) follows more than \(maximumDepth) relationships, "
                + "the depth to which the objects in memory are built",
            entity: entity, key: key, range: range)
    }

    /// The error of a sort key that is not an attribute reached through
    /// to-one relationships: neither SQL nor the in-memory sort has one
    /// value per row to order it by.
    static func sortKeyError(_ written: String, entity: Entity) -> SQLLoweringError {
        SQLLoweringError(
            .toManyKey, "sort key \(written) must be an attribute (through to-one relationships)",
            entity: entity.name, key: written, range: SourceRange(0, written.utf8.count), source: written)
    }

    /// The attribute or relationship of `entity` whose name is closest to
    /// `key` ignoring case, if it is within two edits (and closer than half
    /// the key's length, so that a short key is not matched to anything).
    /// The work is the key's length times the length of the entity's names.
    static func nearest(to key: String, in entity: Entity) -> String? {
        let typed = Array(key.lowercased().utf8)
        var best: (name: String, distance: Int)?
        for name in entity.memberNames {
            let distance = Suggestion.editDistance(typed, Array(name.lowercased().utf8))
            if distance <= 2, distance * 2 < typed.count, distance < (best?.distance ?? Int.max) {
                best = (name, distance)
            }
        }
        return best?.name
    }
}

/// A predicate's key paths, spelled as the schema names the keys they
/// resolve to: what evaluating in memory the objects of an entity read from
/// the database needs, their keys being the schema's names.
struct MemoryKeys {
    /// Objects of an entity, reached through `depth` relationships from the
    /// evaluated object.
    struct Reach {
        var entity: Entity
        var depth: Int
    }

    let keys: KeyResolver
    /// The most relationships a key path may follow from the evaluated
    /// object, if the objects in memory hold only so many levels.
    let maximumDepth: Int?
    /// The objects `SUBQUERY` variables in scope stand for, if objects of
    /// the schema.
    private var variables = VariableScope<Reach?>()
    /// The innermost `SUBQUERY` around the expression being resolved whose
    /// elements are objects of the schema: its variable and their entity.
    private var subquery: (variable: String, element: Reach)?

    init(_ keys: KeyResolver, maximumDepth: Int? = nil) {
        self.keys = keys
        self.maximumDepth = maximumDepth
    }

    mutating func predicate(_ p: PredicateNode, _ from: Reach) throws(SQLLoweringError) -> PredicateNode {
        var out = p
        switch p.kind {
        case .constant: return p
        case .and(let children):
            var mapped: [PredicateNode] = []
            for child in children { mapped.append(try predicate(child, from)) }
            out.kind = .and(mapped)
        case .or(let children):
            var mapped: [PredicateNode] = []
            for child in children { mapped.append(try predicate(child, from)) }
            out.kind = .or(mapped)
        case .not(let child):
            out.kind = .not(try predicate(child, from))
        case .comparison(var c):
            if c.modifier == .direct {
                // The SQL lowering's rule: many values only as the left of
                // CONTAINS or the right of IN (`tags.name CONTAINS 'x'`).
                let left = manyValued(c.lhs, from)
                let right = manyValued(c.rhs, from)
                if let left, c.op.family != .membership(containerOnLeft: true) || right != nil {
                    throw keys.toManyError(left.key, owner: left.owner, range: c.lhs.range ?? p.range)
                }
                if let right, c.op.family != .membership(containerOnLeft: false) {
                    throw keys.toManyError(right.key, owner: right.owner, range: c.rhs.range ?? p.range)
                }
            }
            let (lhs, left) = try expression(c.lhs, from)
            let (rhs, right) = try expression(c.rhs, from)
            c.lhs = Self.keying(lhs, by: right)
            c.rhs = Self.keying(rhs, by: left)
            out.kind = .comparison(c)
        }
        return out
    }

    /// `e` with the references among its constants reading an object's
    /// primary key under the name `objects`' entity gives it (`Z_PK`), when
    /// `e` is compared with those objects: rows read from the database hold
    /// their primary key under its column's name.
    static func keying(_ e: ExpressionNode, by objects: Reach?) -> ExpressionNode {
        guard let objects, case .constant(let v) = e.kind else { return e }
        func keyed(_ v: Value) -> Value {
            if var r = v.objectReference {
                r.keyName = objects.entity.primaryKey
                return .reference(r)
            }
            switch v {
            case .array(let items): return .array(items.map(keyed))
            case .set(let items): return .set(Set(items.map(keyed)))
            default: return v
            }
        }
        var out = e
        out.kind = .constant(keyed(v))
        return out
    }

    /// The key path `e` reads the many values of a to-many through, and
    /// the entity owning the to-many, if it does: a key path of the
    /// evaluated object or of a SUBQUERY's variable crossing a to-many
    /// relationship with no collection operator after it (`authors.name`).
    /// A key path that does not resolve is left to ``expression(_:_:)``,
    /// which says why.
    func manyValued(_ e: ExpressionNode, _ from: Reach) -> (key: String, owner: Entity)? {
        var components: [String]
        var entity: Entity
        switch e.kind {
        case .keyPath(let c):
            (components, entity) = (c, from.entity)
        case .path(let base, let c):
            guard case .variable(let name) = base.kind, let reach = variables.binding(of: name) ?? nil else {
                return nil
            }
            (components, entity) = (c, reach.entity)
        default:
            return nil
        }
        for i in components.indices {
            guard let step = try? keys.step(components, at: i, in: entity, range: nil) else { return nil }
            switch step {
            case .attribute, .element, .composite: return nil
            case .toOne(_, _, let destination): entity = destination
            case .toMany:
                if let next = components.dropFirst(i + 1).first, CollectionOperator.isOperator(next) { return nil }
                return (components.joined(separator: "."), entity)
            }
        }
        return nil
    }

    /// `e` with its key paths resolved from `from` (the evaluated object's
    /// entity), and the objects its value holds, if it holds objects of the
    /// schema.
    mutating func expression(_ e: ExpressionNode, _ from: Reach) throws(SQLLoweringError)
        -> (node: ExpressionNode, reach: Reach?)
    {
        var out = e
        var reached: Reach?
        switch e.kind {
        case .evaluatedObject:
            return (e, from)
        case .variable(let name):
            return (e, variables.binding(of: name) ?? nil)
        case .keyPath(let components):
            let (path, end) = try objectPath(components, from: from, range: e.range)
            out.kind = .keyPath(path)
            reached = end
        case .path(let base, let components):
            let (b, objects) = try expression(base, from)
            switch (base.kind, objects) {
            case (_, nil):
                out.kind = .path(b, components)
            case (.variable, let objects?):
                let (path, end) = try self.path(components, from: objects, range: e.range)
                out.kind = .path(b, path)
                reached = end
            case (.evaluatedObject, let objects?):
                let (path, end) = try objectPath(components, from: objects, range: e.range)
                out.kind = .path(b, path)
                reached = end
            case (_, let objects?):
                // The objects of a collection (a SUBQUERY's, an element of
                // a to-many): an operator may come first.
                let (path, end) = try rest(components, of: objects, range: e.range)
                out.kind = .path(b, path)
                reached = end
            }
        case .subquery(let collection, let variable, let inner):
            let (c, element) = try expression(collection, from)
            let saved = subquery
            variables.bind(variable, to: element)
            if let element { subquery = (variable, element) }
            defer {
                variables.unbind()
                subquery = saved
            }
            // Inside, only the variable names each element: the evaluated
            // object is still `from`'s, as the evaluator and the SQL
            // lowering read it (see `Lowering.operand`).
            out.kind = .subquery(c, variable: variable, try predicate(inner, from))
            reached = element
        case .variableKey(_, let key):
            // As in SQL: which key it names is known only once the variable
            // is substituted (then it is plain keys, resolved as written).
            throw keys.error(
                .unsupported, "\(key) after '.' names a key only once it is substituted: substitute it first",
                entity: from.entity, range: key.range ?? e.range)
        default:
            // Any other node holds no objects of the schema (an index
            // holds its base's): its key paths are resolved all the same.
            var children = e.kind.children
            for i in children.indices {
                variables.enter(children[i], nil)
                defer { variables.leave(children[i]) }
                switch children[i].node {
                case .expression(let child):
                    let (node, objects) = try expression(child, from)
                    children[i].node = .expression(node)
                    if i == 0, case .index = e.kind { reached = objects }
                case .predicate(let test):
                    children[i].node = .predicate(try predicate(test, from))
                }
            }
            out.kind = e.kind.replacingChildren(children)
        }
        return (out, reached)
    }

    /// A key path of the evaluated object, as ``path(_:from:range:)``
    /// resolves it; a key it lacks but a SUBQUERY's elements have is
    /// refused with the note of ``KeyResolver/outerKeyError``, as in SQL.
    func objectPath(_ components: [String], from: Reach, range: SourceRange?) throws(SQLLoweringError)
        -> ([String], Reach?)
    {
        do {
            return try path(components, from: from, range: range)
        } catch {
            guard let subquery else { throw error }
            throw keys.outerKeyError(
                error, components, object: from.entity, variable: subquery.variable, element: subquery.element.entity)
        }
    }

    /// A key path from `from`'s objects, as the schema spells it, and the
    /// objects it ends on if it ends on a relationship.
    func path(_ components: [String], from: Reach, range: SourceRange?) throws(SQLLoweringError)
        -> ([String], Reach?)
    {
        var spelled: [String] = []
        var reach = from
        for i in components.indices {
            let step = try keys.step(components, at: i, in: reach.entity, range: range)
            switch step {
            case .attribute(let a): return (spelled + [a.name], nil)
            case .element(let c, let a): return (spelled + [c.name] + a.name.split(separator: ".").map(String.init), nil)
            case .composite(let c): throw keys.compositeError(c, components, at: i, in: reach.entity, range: range)
            case .toOne, .toMany: break
            }
            if let maximumDepth, reach.depth >= maximumDepth {
                throw keys.depthError(components, maximumDepth, entity: reach.entity, key: components[i], range: range)
            }
            switch step {
            case .attribute, .element, .composite: break
            case .toOne(let r, _, let destination):
                spelled.append(r.name)
                reach = Reach(entity: destination, depth: reach.depth + 1)
            case .toMany(let r, let destination):
                // The rest names keys of each destination object, as the
                // SQL's subquery over them resolves it.
                let objects = Reach(entity: destination, depth: reach.depth + 1)
                let (rest, end) = try self.rest(Array(components[(i + 1)...]), of: objects, range: range)
                return (spelled + [r.name] + rest, end)
            }
        }
        return (spelled, reach)
    }

    /// The keys after a to-many relationship: a collection operator
    /// (`@count`, `@sum.price`) or a key path of each object.
    func rest(_ components: [String], of objects: Reach, range: SourceRange?) throws(SQLLoweringError)
        -> ([String], Reach?)
    {
        guard let first = components.first else { return ([], objects) }
        guard CollectionOperator.isOperator(first) else { return try path(components, from: objects, range: range) }
        guard components.count > 1 else { return ([first], nil) }
        let (path, _) = try self.path(Array(components.dropFirst()), from: objects, range: range)
        return ([first] + path, nil)
    }
}

extension StoreSchema {
    /// `filter` with each key path spelled as this schema names the key it
    /// finds, for evaluating in memory objects of `entity` read from the
    /// database (keyed by the schema's names): `FIRSTNAME == 'Ann'` becomes
    /// `firstName == 'Ann'`. Keys are found as the SQL lowering finds them,
    /// so both answer for the same keys; a key the entity lacks is the same
    /// ``SQLLoweringError`` as in SQL, suggesting the nearest name.
    /// Constructs with no SQL form keep their meaning; their key paths are
    /// resolved all the same. Inside `SUBQUERY(rel, $x, …)` a key path
    /// without the variable is the evaluated object's, as the evaluator and
    /// SQL read it; `$x.key` is the element's.
    ///
    /// - `maximumDepth`: for objects whose relationships are built only so
    ///   many levels deep, the most relationships a key path may follow; one
    ///   following more is an error (code `.limit`) rather than a nil.
    public func resolve(_ filter: Filter, entity name: String, maximumDepth: Int? = nil) throws(SQLLoweringError)
        -> Filter
    {
        let source = filter.source ?? filter.format
        let entity = try rootEntity(name, source: source)
        var keys = MemoryKeys(KeyResolver(schema: self, source: source), maximumDepth: maximumDepth)
        let predicate = try keys.predicate(filter.predicate, MemoryKeys.Reach(entity: entity, depth: 0))
        var resolved = Filter(predicate, source: filter.source)
        resolved.evaluationBudget = filter.evaluationBudget
        resolved.maximumFunctionResultLength = filter.maximumFunctionResultLength
        return resolved
    }

    /// Sort keys spelled as this schema names them (see
    /// ``resolve(_:entity:maximumDepth:)``). Each must be an attribute or
    /// an element of a composite attribute (`author.name`), reached through
    /// to-one relationships (at most `maximumDepth`), as in SQL.
    public func resolve(_ sort: [SortKey], entity name: String, maximumDepth: Int? = nil) throws(SQLLoweringError)
        -> [SortKey]
    {
        var resolved: [SortKey] = []
        sortKeys: for key in sort {
            let written = key.keyPath.joined(separator: ".")
            let range = SourceRange(0, written.utf8.count)
            let root = try rootEntity(name, source: written)
            let keys = KeyResolver(schema: self, source: written)
            var entity = root
            var k = key
            k.keyPath = []
            for i in key.keyPath.indices {
                let step = try keys.step(key.keyPath, at: i, in: entity, range: range)
                switch step {
                case .attribute(let a): k.keyPath.append(a.name)
                case .element(let c, let a):
                    k.keyPath += [c.name] + a.name.split(separator: ".").map(String.init)
                    resolved.append(k)
                    continue sortKeys
                case .composite: throw KeyResolver.sortKeyError(written, entity: root)
                case .toOne(let r, _, let destination):
                    if let maximumDepth, k.keyPath.count >= maximumDepth {
                        throw keys.depthError(key.keyPath, maximumDepth, entity: entity, key: key.keyPath[i], range: range)
                    }
                    k.keyPath.append(r.name)
                    entity = destination
                case .toMany: throw KeyResolver.sortKeyError(written, entity: root)
                }
            }
            resolved.append(k)
        }
        return resolved
    }

    private func rootEntity(_ name: String, source: String) throws(SQLLoweringError) -> Entity {
        guard let entity = entity(named: name) else {
            throw SQLLoweringError(
                .unknownEntity, unknownEntityMessage(name), entity: name, range: SourceRange(0, 0), source: source)
        }
        return entity
    }
}
