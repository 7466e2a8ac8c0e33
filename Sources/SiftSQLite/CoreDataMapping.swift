import Foundation
import GRDB
import SiftSQL

/// A Core Data store's tables described by its model (see
/// ``StoreSchema/read(from:model:)``).
struct CoreDataModelMapping {
    let db: Database
    let tables: [(name: String, sql: String)]
    let model: CoreDataModel

    typealias ModelEntity = CoreDataModel.Entity
    typealias Property = CoreDataModel.Property

    func read() throws -> StoreSchema {
        let primaryKeyTable = tables.first { $0.name.uppercased() == "Z_PRIMARYKEY" }?.name ?? "Z_PRIMARYKEY"
        var numbers: [String: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM \(SchemaReading.quote(primaryKeyTable))") {
            guard let n = Int.fromDatabaseValue(row[0]), let name = String.fromDatabaseValue(row[1]) else { continue }
            numbers[name] = n
        }
        let byName = Dictionary(model.entities.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for e in model.entities where numbers[e.name] == nil {
            throw StoreSchemaError("the model's entity \(e.name) is not in the store's Z_PRIMARYKEY: the model does not describe this store")
        }
        // Each entity's ancestors, root first: at most
        // maximumInheritanceDepth of them, so that this is linear in the
        // model's size.
        var chains: [String: [ModelEntity]] = [:]
        for e in model.entities {
            var chain = [e]
            var seen: Set<String> = [e.name]
            while let p = chain[chain.count - 1].parent {
                guard let parent = byName[p] else {
                    throw StoreSchemaError("the model's entity \(chain[chain.count - 1].name) has an unknown parent entity \(p)")
                }
                guard seen.insert(p).inserted else { throw StoreSchemaError("the model's entity \(e.name) inherits from itself (through \(p))") }
                guard chain.count < model.maximumInheritanceDepth else {
                    throw StoreSchemaError(
                        "the model's entity \(e.name) inherits through more than \(model.maximumInheritanceDepth) entities "
                            + "(CoreDataModel.maximumInheritanceDepth)")
                }
                chain.append(parent)
            }
            chains[e.name] = chain.reversed()
        }
        let tableNames = Dictionary(tables.map { ($0.name.uppercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
        var tableOf: [String: String] = [:]
        var columns: [String: [String: String]] = [:]
        for (name, chain) in chains {
            guard let table = tableNames["Z" + chain[0].name.uppercased()] else {
                throw StoreSchemaError("the model's entity \(name) has no table Z\(chain[0].name.uppercased()) in the store")
            }
            tableOf[name] = table
            if columns[table] == nil {
                let described = try SchemaReading.describe(db, table).columns.map(\.name)
                columns[table] = Dictionary(described.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
            }
        }
        let ordered = model.entities.sorted { (numbers[$0.name] ?? 0) < (numbers[$1.name] ?? 0) }

        // Columns: Z + the upper-cased name. The entities sharing a table
        // claim theirs in entity-number order (the root, then its
        // sub-entities depth first), each entity's properties in the order
        // of their names, a composite attribute's elements (by their own
        // names, in the composite's order) where the composite's name
        // sorts; a name already claimed gets 1, 2, … (ZHEIGHT1 for a
        // sub-entity's height, ZID1 for Cocktail.id after author.id).
        var claimed: [String: Set<String>] = [:]
        var columnOf: [String: [String: String]] = [:]
        func claim(_ name: String, of e: ModelEntity, in table: String, key: String) throws -> String {
            let base = "Z" + name.uppercased()
            var candidate = base
            var n = 0
            while claimed[table, default: []].contains(candidate) {
                n += 1
                candidate = base + String(n)
            }
            claimed[table, default: []].insert(candidate)
            guard let actual = columns[table]?[candidate] else {
                throw StoreSchemaError(
                    "the model's \(e.name).\(key) would be column \(candidate) of \(table), which the store does not have: the model does not describe this store")
            }
            return actual
        }
        for e in ordered {
            guard let table = tableOf[e.name] else { continue }
            for p in e.properties.sorted(by: { $0.name < $1.name }) where Self.isColumn(p) {
                if p.isComposite {
                    for (path, element) in Self.flattened(p.elements) {
                        let key = p.name + "." + path
                        columnOf[e.name, default: [:]][key] = try claim(element.name, of: e, in: table, key: key)
                    }
                } else {
                    columnOf[e.name, default: [:]][p.name] = try claim(p.name, of: e, in: table, key: p.name)
                }
            }
        }

        var families: [String: [Int]] = [:]
        for e in model.entities {
            for ancestor in chains[e.name] ?? [] { families[ancestor.name, default: []].append(numbers[e.name] ?? 0) }
        }
        var sharing: [String: Int] = [:]
        for e in model.entities { sharing[tableOf[e.name] ?? "", default: 0] += 1 }

        var entities: [Entity] = []
        for e in ordered {
            guard let table = tableOf[e.name], let chain = chains[e.name] else { continue }
            var attributes: [Attribute] = []
            var composites: [Composite] = []
            var relationships: [Relationship] = []
            var unsupported: [UnsupportedKey] = []
            for declaring in chain {
                for p in declaring.properties {
                    let column = columnOf[declaring.name]?[p.name]
                    if let reason = Self.unsupportedReason(p, entity: e.name) {
                        unsupported.append(UnsupportedKey(p.name, reason: reason))
                        continue
                    }
                    if p.isComposite {
                        composites.append(Composite(p.name, elements: Self.flattened(p.elements).compactMap { path, element in
                            guard case .attribute(let code) = element.kind,
                                let column = columnOf[declaring.name]?[p.name + "." + path]
                            else { return nil }
                            return Attribute(path, Self.attributeType(code), column: column, optional: p.isOptional || element.isOptional)
                        }))
                        continue
                    }
                    switch p.kind {
                    case .attribute(let code), .derived(let code):
                        guard let column else { continue }
                        attributes.append(Attribute(p.name, Self.attributeType(code), column: column, optional: p.isOptional))
                    case .relationship(let destination, let toMany, let inverse, let isOrdered):
                        guard byName[destination] != nil else {
                            throw StoreSchemaError("the model's relationship \(declaring.name).\(p.name) points at an unknown entity \(destination)")
                        }
                        if !toMany, let column {
                            relationships.append(Relationship(p.name, destination, .toOne(column: column), inverse: inverse))
                        } else if let (kind, order) = try toManyKind(
                            p.name, of: declaring, to: destination, inverse: inverse, chains: chains, columnOf: columnOf,
                            numbers: numbers, tableOf: tableOf, columns: columns, tableNames: tableNames)
                        {
                            relationships.append(Relationship(
                                p.name, destination, kind, inverse: inverse, ordered: isOrdered,
                                orderColumn: isOrdered ? order : nil))
                        } else {
                            unsupported.append(UnsupportedKey(
                                p.name,
                                reason: "\(p.name) is a to-many relationship of \(e.name) whose rows the store keeps in no "
                                    + "column Sift knows (no inverse to-one, no Z\(numbers[declaring.name] ?? 0)\(p.name.uppercased()) column in "
                                    + "\(tableOf[destination] ?? destination), no join table)"))
                        }
                    case .fetched:
                        continue
                    }
                }
            }
            let family = (families[e.name] ?? []).sorted()
            entities.append(Entity(
                e.name, table: table, primaryKey: "Z_PK", attributes: attributes, relationships: relationships,
                composites: composites, discriminator: (sharing[table] ?? 0) > 1 ? Discriminator(column: "Z_ENT", values: family) : nil,
                parent: e.parent, isAbstract: e.isAbstract, unsupportedKeys: unsupported, entityNumber: numbers[e.name]))
        }
        return StoreSchema(entities)
    }

    /// Whether the property has a column of its entity's table: stored
    /// attributes, derived attributes and to-one relationships.
    static func isColumn(_ p: Property) -> Bool {
        guard !p.isTransient else { return false }
        switch p.kind {
        case .attribute, .derived: return true
        case .relationship(_, let toMany, _, _): return !toMany
        case .fetched: return false
        }
    }

    /// Why a key path may not name `p`, if it may not.
    static func unsupportedReason(_ p: Property, entity: String) -> String? {
        if case .fetched = p.kind {
            return "\(p.name) is a fetched property of \(entity): it runs a fetch request of its own and has no SQL form"
        }
        if p.isTransient {
            return "\(p.name) is a transient property of \(entity): Core Data keeps it in memory only, no column holds it"
        }
        if p.isComposite && p.elements.isEmpty {
            return "\(p.name) is a composite attribute of \(entity) whose elements the model does not give"
        }
        return nil
    }

    /// A composite's elements with their paths inside it (`city`, and
    /// `place.city` for the elements of a composite nested in it), in the
    /// composite's order.
    static func flattened(_ elements: [Property]) -> [(path: String, element: Property)] {
        elements.flatMap { e in
            e.isComposite ? flattened(e.elements).map { (e.name + "." + $0.path, $0.element) } : [(e.name, e)]
        }
    }

    /// Core Data's attribute types as stored in SQLite: integers, Decimal
    /// (REAL), Double and Float; String and URI as text; Boolean 0/1;
    /// Date as seconds since 2001; Binary as a BLOB, UUID as its 16 bytes;
    /// Transformable (an archive), ObjectID and Undefined unsupported.
    static func attributeType(_ code: Int) -> AttributeType {
        switch code {
        case 100, 200, 300: return .integer
        case 400: return .decimal
        case 500, 600: return .double
        case 700, 1200: return .string
        case 800: return .boolean
        case 900: return .date(.referenceSeconds)
        case 1000: return .blob
        case 1100: return .uuid(.bytes)
        case 1800: return .unsupported("transformable")
        case 2000: return .unsupported("objectID")
        default: return .unsupported("undefined")
        }
    }

    /// A to-many relationship, and the column of its objects' order:
    /// - the inverse to-one's column in the destination's table (ordered by
    ///   `Z_FOK_<COLUMN>` there: `Z_FOK_PARENT` beside `ZPARENT`);
    /// - with no inverse, a column `Z<n><NAME>` in the destination's table,
    ///   `n` the declaring entity's number (`ZINGREDIENT.Z1SPEC` for
    ///   Cocktail.spec; ordered by `Z_FOK_<n><NAME>`);
    /// - else a join table `Z_<n><NAME>` with columns `Z_<n><INVERSE>`
    ///   (this side's keys) and `Z_<m><NAME>` (the destination's), `n` and
    ///   `m` the declaring entities' numbers (`Z_5TAGS(Z_5NOTES, Z_13TAGS)`
    ///   for SFNote.tags ↔ SFNoteTag.notes), ordered by `Z_FOK_<m><NAME>`.
    ///
    /// Core Data numbers a join table's column when its name is taken
    /// (`Z_15USERS(Z_15SYSTEMMESSAGES, Z_23USERS1)`), so each column is
    /// the one named exactly, else the one with that name and a number.
    private func toManyKind(
        _ name: String, of declaring: ModelEntity, to destination: String, inverse: String?,
        chains: [String: [ModelEntity]], columnOf: [String: [String: String]], numbers: [String: Int],
        tableOf: [String: String], columns: [String: [String: String]], tableNames: [String: String]
    ) throws -> (Relationship.Kind, order: String?)? {
        let upper = name.uppercased()
        /// The order column of a key column, among `names` (keyed by their
        /// upper-case form): `Z_FOK_PARENT` for `ZPARENT`, `Z_FOK_1FAVORITES`
        /// for `Z_1FAVORITES`.
        func order(_ column: String, in names: [String: String]?) -> String? {
            names?["Z_FOK_" + column.uppercased().dropFirst(column.hasPrefix("Z_") ? 2 : 1)]
        }
        var inverseOwner = destination
        var inverseFound = false
        if let inverse {
            // The inverse is declared on the destination or one of its ancestors.
            for ancestor in (chains[destination] ?? []).reversed() {
                guard let p = ancestor.properties.first(where: { $0.name == inverse }) else { continue }
                inverseOwner = ancestor.name
                inverseFound = true
                if case .relationship(_, false, _, _) = p.kind, let column = columnOf[ancestor.name]?[inverse] {
                    return (.toMany(inverseColumn: column), order(column, in: tableOf[destination].flatMap { columns[$0] }))
                }
                break
            }
        }
        guard let n = numbers[declaring.name], let m = numbers[inverseOwner] else { return nil }
        if !inverseFound, let table = tableOf[destination], let names = columns[table],
            let column = names["Z\(n)\(upper)"]
        {
            return (.toMany(inverseColumn: column), order(column, in: names))
        }
        let inverseUpper = inverse?.uppercased()
        var candidates = ["Z_\(n)\(upper)"]
        if let inverseUpper { candidates.append("Z_\(m)\(inverseUpper)") }
        for candidate in candidates {
            guard let table = tableNames[candidate] else { continue }
            let all = try SchemaReading.describe(db, table).columns.map(\.name)
            let byName = Dictionary(all.map { ($0.uppercased(), $0) }, uniquingKeysWith: { a, _ in a })
            let names = all.filter { !$0.uppercased().hasPrefix("Z_FOK_") }
            let find = { (wanted: String) in
                names.first { $0.uppercased() == wanted }
                    ?? names.first { n in
                        let u = n.uppercased()
                        return u.hasPrefix(wanted) && u.count > wanted.count && u.dropFirst(wanted.count).allSatisfy(\.isASCIIDigit)
                    }
            }
            let destinationColumn = find("Z_\(m)\(upper)")
            let sourceColumn = inverseUpper.flatMap { find("Z_\(n)\($0)") }
            if let sourceColumn, let destinationColumn, sourceColumn != destinationColumn {
                return (
                    .manyToMany(table: table, sourceColumn: sourceColumn, destinationColumn: destinationColumn),
                    order(destinationColumn, in: byName)
                )
            }
            // A relationship that is its own inverse: its keys and REFLEXIVE.
            if let own = find("Z_\(n)\(upper)"), let reflexive = find("REFLEXIVE") {
                return (.manyToMany(table: table, sourceColumn: own, destinationColumn: reflexive), nil)
            }
        }
        return nil
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
