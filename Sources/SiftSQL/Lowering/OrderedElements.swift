import Sift

/// `chapters[FIRST].pages`, `chapters[LAST].name` (Swift's
/// `chapters.first?.pages`): a key of the first or last object of an
/// ordered to-many relationship, as a scalar subquery over its rows ordered
/// by the relationship's order column (Core Data's `Z_FOK_…`) and limited
/// to one row, NULL when the relationship is empty.
///
/// Memory lists the objects of an ordered relationship in that order
/// (``Relationship/orderColumn``), so the row the subquery picks is the
/// object memory picks: the same order column, NULL positions first, the
/// primary key between equal positions (as a store read into memory lists
/// them). `[FIRST]` of an empty relationship is nil in memory, and a key
/// path through nil is nil, as the empty subquery is NULL.
///
/// Refused: an unordered to-many (its objects have no order in the store,
/// so memory's first object is whichever it read first); a relationship
/// reached through a to-one (`author.books[FIRST]`), where memory raises an
/// error when the to-one is nil; `[n]`, where memory raises an error for an
/// index beyond the end; `[SIZE]` (write `@count`); the object itself
/// rather than one of its keys.
extension Lowering {
    func orderedElement(
        _ collection: ExpressionNode, _ position: ExpressionNode.Subscript, _ keys: [String], _ scope: SelectScope,
        range: SourceRange?
    ) throws(SQLLoweringError) -> Operand {
        let name: String
        switch position {
        case .first: name = "[FIRST]"
        case .last: name = "[LAST]"
        case .size:
            throw error(.unsupported, "[SIZE] has no SQL form: count with @count", entity: scope.entity, range: range)
        case .expression:
            throw error(
                .unsupported,
                "an index [n] has no SQL form: memory raises an error for an index beyond the end, which SQL cannot",
                entity: scope.entity, range: range)
        }
        let relationshipKeys: [String]?
        switch collection.kind {
        case .keyPath(let k): relationshipKeys = k
        case .path(let base, let k):
            switch base.kind {
            case .variable, .evaluatedObject: relationshipKeys = k
            default: relationshipKeys = nil
            }
        default: relationshipKeys = nil
        }
        guard relationshipKeys?.count == 1, case .toMany(let many) = try operand(collection, scope), many.rest.isEmpty
        else {
            throw error(
                .unsupported,
                "\(name) has a SQL form only after a to-many relationship of the object or of a SUBQUERY variable "
                    + "(chapters\(name).name): through a to-one, memory raises an error when it is nil",
                entity: scope.entity, range: collection.range ?? range)
        }
        let written = "\(many.key)\(name)" + keys.map { "." + $0 }.joined()
        guard many.relationship.isOrdered, let orderColumn = many.relationship.orderColumn else {
            throw error(
                .unsupported,
                "\(many.key) has no order in the store\(many.relationship.isOrdered ? " (the schema names no order column)" : ""): "
                    + "\(name) has a SQL form only for an ordered relationship with an order column",
                entity: many.owner, key: many.key, range: range)
        }
        guard !keys.isEmpty else {
            throw error(
                .unsupported, "\(many.key)\(name) is an object: compare one of its keys, as in \(many.key)\(name).name",
                entity: many.owner, key: many.key, range: range)
        }
        if let op = keys.first(where: CollectionOperator.isOperator) {
            throw error(
                .unsupported, "\(op) after \(many.key)\(name) has no SQL form", entity: many.destination, key: written,
                range: range)
        }
        let rows = keyedRows(of: many, variable: nil, scope)
        let resolved = try resolve(keys, from: rows.child.alias, rows.child.entity, rows.child, nullable: true, range: range)
        guard case .column(let value) = resolved else {
            throw error(
                .unsupported, "\(written) crosses two to-many relationships; only one has a SQL form",
                entity: many.destination, key: written, range: range)
        }
        let forward = position == .first
        var select = SQLSelect(
            value.sql, from: rows.from, joins: rows.child.joins,
            where: [.binary(rows.key, "=", rows.owner), rows.filter].compactMap { $0 })
        select.orderBy = [
            SQLOrderingTerm(expression: .column(rows.keyTable, orderColumn), ascending: forward ? nil : false, nullsFirst: forward),
            SQLOrderingTerm(expression: .column(rows.child.alias, many.destination.primaryKey), ascending: forward ? nil : false),
        ]
        select.limit = .integer(1)
        return .column(
            Column(sql: .subquery(select), type: value.type, nullable: true, isRelationship: value.isRelationship, key: written))
    }
}
