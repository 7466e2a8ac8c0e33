import Sift

extension PredicateGenerator {
    /// A comparison of a relationship, `SELF` or a `SUBQUERY` variable of
    /// ``Library``'s books with objects of `library`: `==`, `!=`, `IN`,
    /// `CONTAINS`, `ANY`, `ALL`, `NONE`, either side first, each object a
    /// reference naming its entity, one naming none, a Core Data object ID
    /// URI of ``Library/storeIdentifier`` (read as a reference, as
    /// `ObjectReference(uri:)` reads one; the schema must carry that store
    /// identifier, ``Library/schemaOfAStore``), or the dictionary the
    /// evaluator holds; keys no object has (0, 999) included.
    package mutating func objectLeaf(_ library: Library) -> (String, [any FormatArgumentConvertible]) {
        objectLeaf { entity, g in
            let keys = (library.objects[entity] ?? [:]).keys.sorted()
            let key = g.chance(0.1) ? g.pick([0, 999]) : g.pick(keys)
            switch Int.random(in: 0..<4, using: &g.rng) {
            case 0: return .reference(ObjectReference(entity: entity, primaryKey: Int64(key)))
            case 1: return .reference(ObjectReference(primaryKey: Int64(key)))
            case 2:
                let uri = ObjectReference.uri(store: Library.storeIdentifier, entity: entity, key: String(key))
                return ObjectReference(uri: uri).map(Value.reference) ?? .null
            default: return library.objects[entity]?[key] ?? .reference(ObjectReference(entity: entity, primaryKey: Int64(key)))
            }
        }
    }

    /// The comparisons of ``objectLeaf(_:)``, each object of an entity
    /// drawn by `draw` (``TypedLibrary`` draws instances of a type of the
    /// user's).
    package mutating func objectLeaf(_ draw: (String, inout PredicateGenerator) -> Value)
        -> (String, [any FormatArgumentConvertible])
    {
        func object(_ entity: String) -> Value { draw(entity, &self) }
        func list(_ entity: String) -> Value {
            .array((0..<Int.random(in: 0...3, using: &rng)).map { _ in chance(0.1) ? .null : object(entity) })
        }
        switch Int.random(in: 0..<16, using: &rng) {
        case 0: return ("author == %@", [object("Author")])
        case 1: return ("author != %@", [object("Author")])
        case 2: return ("%@ == author", [object("Author")])
        case 3: return ("author IN %@", [list("Author")])
        case 4: return ("ANY tags == %@", [object("Tag")])
        case 5: return ("ALL tags != %@", [object("Tag")])
        case 6: return ("NONE tags == %@", [object("Tag")])
        case 7: return ("tags CONTAINS %@", [object("Tag")])
        case 8: return ("%@ IN tags", [object("Tag")])
        case 9: return ("ANY tags IN %@", [list("Tag")])
        case 10: return ("chapters CONTAINS %@", [object("Chapter")])
        case 11: return ("ANY chapters != %@", [object("Chapter")])
        case 12: return ("SELF == %@", [object("Book")])
        case 13: return ("SELF != %@", [object("Book")])
        case 14: return ("SELF IN %@", [list("Book")])
        default: return ("SUBQUERY(tags, $t, $t == %@).@count > 0", [object("Tag")])
        }
    }
}
