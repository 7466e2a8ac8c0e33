import Foundation

/// The tables a fetch request is lowered against: entities with their
/// attributes and relationships. Key paths in predicates and sort orders
/// name entities' attributes and relationships, never columns: every
/// identifier in the SQL comes from here.
///
/// Declare one in Swift, or load it from JSON (see ``StoreSchema/init(json:)``):
///
/// ```swift
/// let schema = StoreSchema([
///     Entity("Author", table: "authors", attributes: [
///         Attribute("name", .string),
///     ], relationships: [
///         .toMany("books", "Book", inverseColumn: "author_id"),
///     ]),
///     Entity("Book", table: "books", attributes: [
///         Attribute("title", .string, optional: false),
///         Attribute("year", .integer),
///     ], relationships: [
///         .toOne("author", "Author", column: "author_id"),
///     ]),
/// ])
/// ```
public struct StoreSchema: Sendable, Hashable, Codable {
    /// The entities, in the order they were declared.
    public var entities: [Entity]
    /// The Core Data store's identifier (the `Z_UUID` of its `Z_METADATA`),
    /// which its object IDs carry; nil for other databases.
    public var storeIdentifier: String?
    /// Why `[c]` has no exact SQL form on this database, or nil. Reading a
    /// PostgreSQL schema sets it when the server's case tables fold some
    /// scalar otherwise than Swift (a database whose `LC_CTYPE` is `C`
    /// folds ASCII only); the lowering then refuses `[c]` comparisons and
    /// case-insensitive sorts with this reason instead of answering
    /// otherwise than memory.
    public var caseFoldingRefusal: String?

    /// A schema of `entities`; relationships name their destination entities by ``Entity/name``.
    public init(_ entities: [Entity], storeIdentifier: String? = nil) {
        self.entities = entities
        self.storeIdentifier = storeIdentifier
    }

    /// The entity called `name`: its exact name first, then ignoring case,
    /// then the one entity whose table is called `name`, then the one entity
    /// whose name is `name`'s English plural or singular (`Book` finds
    /// `books`, `Category` finds `categories`). The last two let a request
    /// written with a model's names (`Book`) run on a database whose
    /// entities were inferred from its tables (`books`); a name that fits
    /// more than one entity that way finds none.
    public func entity(named name: String) -> Entity? {
        if let exact = entities.first(where: { $0.name == name }) { return exact }
        let lower = name.lowercased()
        if let folded = entities.first(where: { $0.name.lowercased() == lower }) { return folded }
        func only(_ found: [Entity]) -> Entity? { found.count == 1 ? found[0] : nil }
        if let table = only(entities.filter { $0.table.lowercased() == lower }) { return table }
        let forms = Self.numberForms(of: lower)
        return only(entities.filter { forms.contains($0.name.lowercased()) })
    }

    /// The message for an entity `name` the schema lacks. A name read from
    /// the command line or a request may be any length: at most its first
    /// 64 characters are echoed, and at most 20 of the entities it has.
    func unknownEntityMessage(_ name: String) -> String {
        "unknown entity \(Self.echoed(name)); the schema has \(entityList)"
    }

    /// The entities' names, at most 20 of them.
    var entityList: String { Self.list(entities.map(\.name)) }

    /// A name from input as an error message echoes it: its first 64
    /// characters, and its length when it is longer.
    package static func echoed(_ name: String) -> String {
        name.count > 64 ? String(name.prefix(64)) + "… (\(name.utf8.count) bytes)" : name
    }

    /// At most 20 of `names`, and how many more there are.
    package static func list(_ names: [String]) -> String {
        let shown = names.prefix(20).joined(separator: ", ")
        return names.count > 20 ? shown + " and \(names.count - 20) more" : shown
    }

    /// The English plural and singular of a lower-case noun, by the regular
    /// rules (`book`/`books`, `box`/`boxes`, `category`/`categories`).
    static func numberForms(of word: String) -> Set<String> {
        var forms: Set<String> = []
        let vowels = Set("aeiou")
        if word.hasSuffix("y"), let before = word.dropLast().last, !vowels.contains(before) {
            forms.insert(word.dropLast() + "ies")
        } else if ["s", "x", "z", "ch", "sh"].contains(where: word.hasSuffix) {
            forms.insert(word + "es")
        } else {
            forms.insert(word + "s")
        }
        if word.hasSuffix("ies") {
            forms.insert(word.dropLast(3) + "y")
        } else if ["ses", "xes", "zes", "ches", "shes"].contains(where: word.hasSuffix) {
            forms.insert(String(word.dropLast(2)))
        }
        if word.hasSuffix("s"), !word.hasSuffix("ss") { forms.insert(String(word.dropLast())) }
        forms.remove(word)
        forms.remove("")
        return forms
    }

    /// A schema from its JSON form:
    ///
    /// ```json
    /// {"entities": [{"name": "Book", "table": "books", "primaryKey": "id",
    ///   "attributes": [{"name": "title", "type": "string", "optional": false},
    ///                  {"name": "published", "type": "date", "dateEncoding": "unix"}],
    ///   "relationships": [{"name": "author", "destination": "Author", "toOne": "author_id"},
    ///                     {"name": "chapters", "destination": "Chapter", "toMany": "book_id"},
    ///                     {"name": "tags", "destination": "Tag", "joinTable": "book_tags",
    ///                      "sourceColumn": "book_id", "destinationColumn": "tag_id"}]}]}
    /// ```
    public init(json: Data) throws {
        self = try JSONDecoder().decode(StoreSchema.self, from: json)
        try validate()
    }

    /// The JSON form, as ``init(json:)`` reads it.
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// Checks that names are unique within an entity and that every
    /// relationship's destination exists.
    public func validate() throws(StoreSchemaError) {
        // Destinations as ``entity(named:)`` finds them (ignoring case, when
        // the exact name is not there), looked up in a set: a store may have
        // thousands of entities, each with relationships.
        let entityNames = Set(entities.map { $0.name.lowercased() })
        var seen: Set<String> = []
        for entity in entities {
            guard seen.insert(entity.name).inserted else { throw StoreSchemaError("entity \(entity.name) is declared twice") }
            var names: Set<String> = []
            for name in entity.memberNames {
                guard names.insert(name).inserted else {
                    throw StoreSchemaError("entity \(entity.name) declares \(name) twice")
                }
            }
            for r in entity.relationships where !entityNames.contains(r.destination.lowercased()) {
                throw StoreSchemaError("relationship \(entity.name).\(r.name) points at an unknown entity \(r.destination)")
            }
            for c in entity.composites {
                // Element paths: none empty or twice, and none both a value
                // and a composite holding others (`place` and `place.city`).
                let counts = Dictionary(c.elements.map { ($0.name, 1) }, uniquingKeysWith: +)
                for e in c.elements {
                    let parts = e.name.split(separator: ".", omittingEmptySubsequences: false)
                    let prefixes = (1..<max(parts.count, 1)).map { parts.prefix($0).joined(separator: ".") }
                    if parts.contains(where: \.isEmpty) || counts[e.name, default: 0] > 1
                        || prefixes.contains(where: { counts[$0] != nil })
                    {
                        throw StoreSchemaError(
                            "composite attribute \(entity.name).\(c.name): element \"\(e.name)\" is empty, declared twice, "
                                + "or inside another element")
                    }
                }
            }
        }
    }
}

extension StoreSchema {
    /// How a relationship relates its entity to its destination, as Core
    /// Data's model says it.
    public enum RelationshipKind: String, Sendable, Hashable {
        /// A to-one whose inverse is a to-many, or that has no inverse.
        case toOne = "to-one"
        /// A to-one whose inverse is a to-one too.
        case oneToOne = "one-to-one"
        /// A to-many whose inverse is a to-one, or that has no inverse.
        case toMany = "to-many"
        /// A to-many whose inverse is a to-many: a join table.
        case manyToMany = "many-to-many"
    }

    /// The kind of `r`: its ``Relationship/kind``, and for a to-one, whether
    /// its inverse (in the destination) is a to-one as well.
    public func kind(of r: Relationship) -> RelationshipKind {
        switch r.kind {
        case .toOne:
            let inverse = r.inverse.flatMap { entity(named: r.destination)?.relationship(named: $0) }
            return inverse.map { $0.isToMany ? .toOne : .oneToOne } ?? .toOne
        case .toMany: return .toMany
        case .manyToMany: return .manyToMany
        }
    }
}

/// A schema that does not hold together.
public struct StoreSchemaError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the entity or key.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message, after `error: `.
    public var description: String { "error: " + message }
}

/// An entity: a table whose rows are its objects.
public struct Entity: Sendable, Hashable, Codable {
    /// The name predicates and sort keys use (`Book`).
    public var name: String
    /// The table its rows are in.
    public var table: String
    /// The primary-key column (an integer or text key). Sorting always ends
    /// with it, so that equal sort keys give a stable order.
    public var primaryKey: String
    /// The columns it has as keys.
    public var attributes: [Attribute]
    /// Its relationships to other entities.
    public var relationships: [Relationship]
    /// Its composite attributes (Core Data's, iOS 17 and later): values
    /// made of named elements, each stored in a column of the entity's
    /// table. Key paths name an element through the composite
    /// (`author.name`); fetched, a composite is a dictionary of its elements.
    public var composites: [Composite]
    /// For tables shared by several entities (Core Data's sub-entities): the
    /// column telling them apart and this entity's values in it.
    public var discriminator: Discriminator?
    /// The entity this one inherits from (Core Data's superentity), for
    /// display: its attributes and relationships are already listed here.
    public var parent: String?
    /// Whether the entity has no objects of its own, only its sub-entities'.
    public var isAbstract: Bool
    /// Keys the entity has that no SQL can read (fetched properties,
    /// transient attributes), each with the reason given when a key path
    /// names it.
    public var unsupportedKeys: [UnsupportedKey]
    /// Core Data's number for the entity (its `Z_ENT` in `Z_PRIMARYKEY`),
    /// read from a store; nil in other schemas.
    public var entityNumber: Int?

    /// An entity; `table` defaults to `name` and the primary key to `id`.
    public init(
        _ name: String, table: String? = nil, primaryKey: String = "id", attributes: [Attribute],
        relationships: [Relationship] = [], composites: [Composite] = [], discriminator: Discriminator? = nil,
        parent: String? = nil, isAbstract: Bool = false, unsupportedKeys: [UnsupportedKey] = [], entityNumber: Int? = nil
    ) {
        self.entityNumber = entityNumber
        self.name = name
        self.table = table ?? name
        self.primaryKey = primaryKey
        self.attributes = attributes
        self.relationships = relationships
        self.composites = composites
        self.discriminator = discriminator
        self.parent = parent
        self.isAbstract = isAbstract
        self.unsupportedKeys = unsupportedKeys
    }

    /// The primary key's type: its attribute's, else an integer (Core
    /// Data's `Z_PK`, a rowid).
    var primaryKeyType: AttributeType { attributes.first { $0.column == primaryKey }?.type ?? .integer }

    /// The reason `name` is a key the SQL cannot read, if it is one.
    public func unsupportedReason(_ name: String) -> String? {
        (unsupportedKeys.first { $0.name == name } ?? unsupportedKeys.first { $0.name.lowercased() == name.lowercased() })?
            .reason
    }

    /// The attribute called `name`: its exact name first, then ignoring
    /// case (so that `title` finds Core Data's `ZTITLE` read as `TITLE`).
    public func attribute(named name: String) -> Attribute? {
        attributes.first { $0.name == name } ?? attributes.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The relationship called `name`: its exact name first, then ignoring case.
    public func relationship(named name: String) -> Relationship? {
        relationships.first { $0.name == name }
            ?? relationships.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The composite attribute called `name`: its exact name first, then ignoring case.
    public func composite(named name: String) -> Composite? {
        composites.first { $0.name == name } ?? composites.first { $0.name.lowercased() == name.lowercased() }
    }

    /// The names of its attributes, relationships and composite attributes.
    var memberNames: [String] {
        attributes.map(\.name) + relationships.map(\.name) + composites.map(\.name)
    }

    /// An attribute, a relationship or a composite attribute.
    enum Member {
        case attribute(Attribute)
        case relationship(Relationship)
        case composite(Composite)
    }

    /// The attribute, relationship or composite called `name`: exact names
    /// first (so a relationship is found without comparing every attribute
    /// ignoring case), then ignoring case, attributes before relationships.
    func member(named name: String) -> Member? {
        if let a = attributes.first(where: { $0.name == name }) { return .attribute(a) }
        if let r = relationships.first(where: { $0.name == name }) { return .relationship(r) }
        if let c = composites.first(where: { $0.name == name }) { return .composite(c) }
        if let a = attribute(named: name) { return .attribute(a) }
        if let r = relationship(named: name) { return .relationship(r) }
        return composite(named: name).map { .composite($0) }
    }

    private enum CodingKeys: String, CodingKey {
        case name, table, primaryKey, attributes, relationships, composites, discriminator, parent, abstract,
            unsupportedKeys, entityNumber
    }

    /// Decodes an entity from the JSON form described at ``StoreSchema``; left-out parts take their
    /// defaults.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        table = try c.decodeIfPresent(String.self, forKey: .table) ?? name
        primaryKey = try c.decodeIfPresent(String.self, forKey: .primaryKey) ?? "id"
        attributes = try c.decodeIfPresent([Attribute].self, forKey: .attributes) ?? []
        relationships = try c.decodeIfPresent([Relationship].self, forKey: .relationships) ?? []
        composites = try c.decodeIfPresent([Composite].self, forKey: .composites) ?? []
        discriminator = try c.decodeIfPresent(Discriminator.self, forKey: .discriminator)
        parent = try c.decodeIfPresent(String.self, forKey: .parent)
        isAbstract = try c.decodeIfPresent(Bool.self, forKey: .abstract) ?? false
        unsupportedKeys = try c.decodeIfPresent([UnsupportedKey].self, forKey: .unsupportedKeys) ?? []
        entityNumber = try c.decodeIfPresent(Int.self, forKey: .entityNumber)
    }

    /// The keys read by ``init(from:)``; those of Core Data's model (parent,
    /// abstract, unsupported keys, entity number) only when they say something, so that a
    /// plain schema's JSON is as it was.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(table, forKey: .table)
        try c.encode(primaryKey, forKey: .primaryKey)
        try c.encode(attributes, forKey: .attributes)
        try c.encode(relationships, forKey: .relationships)
        if !composites.isEmpty { try c.encode(composites, forKey: .composites) }
        try c.encodeIfPresent(discriminator, forKey: .discriminator)
        try c.encodeIfPresent(parent, forKey: .parent)
        if isAbstract { try c.encode(true, forKey: .abstract) }
        if !unsupportedKeys.isEmpty { try c.encode(unsupportedKeys, forKey: .unsupportedKeys) }
        try c.encodeIfPresent(entityNumber, forKey: .entityNumber)
    }
}

/// A composite attribute: a value made of named elements, each stored in a
/// column of its entity's table (Core Data's `NSCompositeAttributeDescription`,
/// SwiftData's Codable structs). In JSON:
///
/// ```json
/// {"name": "author", "elements": [{"name": "person", "type": "string", "column": "ZPERSON"}]}
/// ```
///
/// A composite nested in another is flattened: its elements are named by
/// their path inside the outer one (`place.city`).
public struct Composite: Sendable, Hashable, Codable {
    /// The key predicates use (`author`).
    public var name: String
    /// Its elements, each named by its path inside the composite.
    public var elements: [Attribute]

    /// A composite attribute `name` made of `elements`.
    public init(_ name: String, elements: [Attribute]) {
        self.name = name
        self.elements = elements
    }

    /// The element at `path` inside the composite: its exact name first, then ignoring case.
    public func element(at path: String) -> Attribute? {
        elements.first { $0.name == path } ?? elements.first { $0.name.lowercased() == path.lowercased() }
    }
}

/// A key of an entity that has no SQL form, and why.
public struct UnsupportedKey: Sendable, Hashable, Codable {
    /// The key's name.
    public var name: String
    /// The message a key path naming it gets, e.g. "feedbacks is a fetched
    /// property of Author: it is a fetch of its own, with no column".
    public var reason: String

    /// A key `name` that lowering refuses with `reason`.
    public init(_ name: String, reason: String) {
        self.name = name
        self.reason = reason
    }
}

/// Core Data's `Z_ENT`: which rows of a shared table belong to an entity.
public struct Discriminator: Sendable, Hashable, Codable {
    /// The column holding the entity numbers (`Z_ENT`).
    public var column: String
    /// The entity numbers of this entity and its sub-entities.
    public var values: [Int]

    /// Rows whose `column` holds one of `values`.
    public init(column: String, values: [Int]) {
        self.column = column
        self.values = values
    }
}

/// An attribute: a column with a storage type.
public struct Attribute: Sendable, Hashable, Codable {
    /// The key predicates use.
    public var name: String
    /// The column it is stored in.
    public var column: String
    /// How values are stored and compared.
    public var type: AttributeType
    /// Whether the column may hold NULL. Non-optional columns need no nil
    /// handling in the SQL.
    public var isOptional: Bool
    /// How a PostgreSQL string column compares otherwise than `text` in
    /// the database's default collation, or nil when it does not.
    public var textForm: PostgreSQLTextForm?

    /// An attribute `name` of `type`, in `column` (by default, `name`).
    public init(
        _ name: String, _ type: AttributeType, column: String? = nil, optional: Bool = true,
        textForm: PostgreSQLTextForm? = nil
    ) {
        self.name = name
        self.column = column ?? name
        self.type = type
        self.isOptional = optional
        self.textForm = textForm
    }

    private enum CodingKeys: String, CodingKey {
        case name, column, type, optional, dateEncoding, uuidEncoding, textForm
    }

    /// Decodes an attribute: `name`, `type` (`integer`, `double`, `decimal`, `string`, `boolean`,
    /// `date`, `blob`, `uuid`, `transformable`), and optionally `column`, `optional`,
    /// `dateEncoding`, `uuidEncoding` and `textForm` (`citext`, `character`, `collation`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        column = try c.decodeIfPresent(String.self, forKey: .column) ?? name
        isOptional = try c.decodeIfPresent(Bool.self, forKey: .optional) ?? true
        let typeName = try c.decode(String.self, forKey: .type)
        let encoding = try c.decodeIfPresent(DateEncoding.self, forKey: .dateEncoding) ?? .referenceSeconds
        let uuidEncoding = try c.decodeIfPresent(UUIDEncoding.self, forKey: .uuidEncoding) ?? .text
        guard let t = AttributeType(name: typeName, dateEncoding: encoding, uuidEncoding: uuidEncoding) else {
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: c,
                debugDescription:
                    "unknown attribute type \(typeName) (integer, double, decimal, string, boolean, date, blob, uuid, transformable)")
        }
        type = t
        textForm = try c.decodeIfPresent(PostgreSQLTextForm.self, forKey: .textForm)
    }

    /// Encodes the attribute in the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(column, forKey: .column)
        try c.encode(type.name, forKey: .type)
        try c.encode(isOptional, forKey: .optional)
        if case .date(let e) = type { try c.encode(e, forKey: .dateEncoding) }
        // Text, the form UUIDs had before the encoding was written, goes
        // unsaid: a schema without UUIDs in bytes reads as it always did.
        if case .uuid(.bytes) = type { try c.encode(UUIDEncoding.bytes, forKey: .uuidEncoding) }
        try c.encodeIfPresent(textForm, forKey: .textForm)
    }
}

/// How a PostgreSQL column of strings compares otherwise than `text` in the
/// database's default collation, whose comparisons and case folding are
/// those the lowering is written for (and the schema reader checks). Such
/// a column is compared as the `text` it holds, in the default collation.
public enum PostgreSQLTextForm: String, Sendable, Hashable, Codable {
    /// `citext`: its `=`, `LIKE`, ordering, grouping and `DISTINCT` ignore
    /// case. Compared as its text (`textin(textout(column::text))`).
    case citext
    /// `character(n)`: its comparisons ignore trailing blanks, and its cast
    /// to `text` removes them. Compared as the text its output function
    /// writes, blanks kept, as the value reads.
    case character
    /// A collation of its own (`COLLATE "C"`, whose `lower` folds ASCII
    /// only; a nondeterministic collation, whose `=` may ignore case).
    /// Compared as its text in the default collation
    /// (`textin(textout(column))`).
    case collation
}

/// How an attribute is stored.
public enum AttributeType: Sendable, Hashable {
    /// INTEGER / `bigint`.
    case integer
    /// REAL / `double precision`.
    case double
    /// A decimal number stored as REAL / `double precision`, as Core Data
    /// stores its Decimal attributes. Its values read back as the decimal
    /// the stored double stands for (its shortest form: `19.99`, not
    /// `19.989999999999998436805981327779591083526611328125`), and compare
    /// as that double: `price == 19.99` is the row whose double is 19.99.
    case decimal
    /// TEXT / `text`.
    case string
    /// 0 or 1 on SQLite, `boolean` on PostgreSQL.
    case boolean
    /// A date, stored as its encoding says.
    case date(DateEncoding)
    /// BLOB / `bytea`.
    case blob
    /// A UUID, stored as its encoding says. UUIDs order by their bytes
    /// (the order of the text form too), and equal only UUIDs.
    case uuid(UUIDEncoding)
    /// A column whose stored form no predicate can compare (Core Data's
    /// Transformable, an archive; ObjectID; Undefined), named by its kind.
    /// It is fetched as it is stored; a key path naming it is refused.
    case unsupported(String)

    /// The Core Data attribute types kept as ``unsupported(_:)``, as the
    /// JSON form names them.
    public static let unsupportedNames = ["transformable", "objectID", "undefined"]

    /// The name used in the JSON form.
    public var name: String {
        switch self {
        case .integer: return "integer"
        case .double: return "double"
        case .decimal: return "decimal"
        case .string: return "string"
        case .boolean: return "boolean"
        case .date: return "date"
        case .blob: return "blob"
        case .uuid: return "uuid"
        case .unsupported(let kind): return kind
        }
    }

    init?(name: String, dateEncoding: DateEncoding, uuidEncoding: UUIDEncoding) {
        switch name.lowercased() {
        case "integer", "int", "int64": self = .integer
        case "double", "real", "float": self = .double
        case "decimal": self = .decimal
        case "string", "text": self = .string
        case "boolean", "bool": self = .boolean
        case "date": self = .date(dateEncoding)
        case "blob", "data", "binary": self = .blob
        case "uuid": self = .uuid(uuidEncoding)
        default:
            guard let kind = Self.unsupportedNames.first(where: { $0.lowercased() == name.lowercased() }) else { return nil }
            self = .unsupported(kind)
        }
    }
}

/// How a UUID column stores its value.
public enum UUIDEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// TEXT, the upper-case form `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`
    /// (`UUID.uuidString`), which sorts as the bytes do.
    case text
    /// The 16 bytes: a BLOB on SQLite, as Core Data and GRDB store UUIDs,
    /// and `bytea` on PostgreSQL, so that both bind the same bytes and order
    /// them alike (byte by byte).
    case bytes
}

/// How a date column stores its value.
public enum DateEncoding: String, Sendable, Hashable, Codable, CaseIterable {
    /// REAL seconds since 2001-01-01 00:00 UTC, as Core Data stores dates.
    case referenceSeconds = "reference"
    /// REAL seconds since 1970-01-01 00:00 UTC.
    case unixSeconds = "unix"
    /// TEXT `2024-05-01T12:00:00.000Z` (ISO 8601, UTC, milliseconds), which
    /// sorts as it compares.
    case iso8601
}

/// A relationship from one entity to another.
public struct Relationship: Sendable, Hashable, Codable {
    /// The key predicates use (`author`, `tags`).
    public var name: String
    /// The entity at the other end.
    public var destination: String
    /// How the tables are joined.
    public var kind: Kind
    /// The relationship at the other end that mirrors this one, if the
    /// model names one (Core Data's inverse relationship).
    public var inverse: String?
    /// Whether the to-many keeps its objects in order (Core Data's ordered
    /// relationships); predicates treat it as a set all the same.
    public var isOrdered: Bool
    /// For an ordered to-many, the column holding each destination
    /// object's position in it (Core Data's `Z_FOK_…`, in the destination's
    /// table or the join table), if the store has one: objects read into
    /// memory are listed in its order, so that `children[FIRST]` is the
    /// first child as the app ordered them.
    public var orderColumn: String?

    /// How a relationship's tables are joined.
    public enum Kind: Sendable, Hashable {
        /// This table's `column` holds the destination's primary key.
        case toOne(column: String)
        /// The destination table's `inverseColumn` holds this entity's
        /// primary key.
        case toMany(inverseColumn: String)
        /// A join table with a column for each side's primary key.
        case manyToMany(table: String, sourceColumn: String, destinationColumn: String)
    }

    /// A relationship `name` to the entity `destination`.
    public init(
        _ name: String, _ destination: String, _ kind: Kind, inverse: String? = nil, ordered: Bool = false,
        orderColumn: String? = nil
    ) {
        self.name = name
        self.destination = destination
        self.kind = kind
        self.inverse = inverse
        self.isOrdered = ordered
        self.orderColumn = orderColumn
    }

    /// A to-one: this table's `column` holds the key of a `destination` row (`author_id`).
    public static func toOne(_ name: String, _ destination: String, column: String) -> Relationship {
        Relationship(name, destination, .toOne(column: column))
    }

    /// A to-many: the `destination` table's `inverseColumn` holds this row's key.
    public static func toMany(_ name: String, _ destination: String, inverseColumn: String) -> Relationship {
        Relationship(name, destination, .toMany(inverseColumn: inverseColumn))
    }

    /// A many-to-many through `joinTable`, whose `sourceColumn` holds this row's key and
    /// `destinationColumn` the other's.
    public static func manyToMany(
        _ name: String, _ destination: String, joinTable: String, sourceColumn: String, destinationColumn: String
    ) -> Relationship {
        Relationship(
            name, destination, .manyToMany(table: joinTable, sourceColumn: sourceColumn, destinationColumn: destinationColumn))
    }

    /// Whether a key path through it reaches many objects.
    public var isToMany: Bool {
        if case .toOne = kind { return false }
        return true
    }

    private enum CodingKeys: String, CodingKey {
        case name, destination, toOne, toMany, joinTable, sourceColumn, destinationColumn, inverse, ordered, orderColumn
    }

    /// Decodes a relationship: `name`, `destination`, and one of `toOne` (the column), `toMany`
    /// (the inverse column) or `joinTable` with `sourceColumn` and `destinationColumn`; optionally
    /// `inverse`, `ordered` and `orderColumn`.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        destination = try c.decode(String.self, forKey: .destination)
        inverse = try c.decodeIfPresent(String.self, forKey: .inverse)
        isOrdered = try c.decodeIfPresent(Bool.self, forKey: .ordered) ?? false
        orderColumn = try c.decodeIfPresent(String.self, forKey: .orderColumn)
        if let column = try c.decodeIfPresent(String.self, forKey: .toOne) {
            kind = .toOne(column: column)
        } else if let column = try c.decodeIfPresent(String.self, forKey: .toMany) {
            kind = .toMany(inverseColumn: column)
        } else if let table = try c.decodeIfPresent(String.self, forKey: .joinTable) {
            kind = .manyToMany(
                table: table, sourceColumn: try c.decode(String.self, forKey: .sourceColumn),
                destinationColumn: try c.decode(String.self, forKey: .destinationColumn))
        } else {
            throw DecodingError.dataCorruptedError(
                forKey: .name, in: c,
                debugDescription: "relationship \(name) needs \"toOne\", \"toMany\" or \"joinTable\"")
        }
    }

    /// Encodes the relationship in the form ``init(from:)`` reads.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encode(destination, forKey: .destination)
        switch kind {
        case .toOne(let column): try c.encode(column, forKey: .toOne)
        case .toMany(let column): try c.encode(column, forKey: .toMany)
        case .manyToMany(let table, let s, let d):
            try c.encode(table, forKey: .joinTable)
            try c.encode(s, forKey: .sourceColumn)
            try c.encode(d, forKey: .destinationColumn)
        }
        try c.encodeIfPresent(inverse, forKey: .inverse)
        if isOrdered { try c.encode(true, forKey: .ordered) }
        try c.encodeIfPresent(orderColumn, forKey: .orderColumn)
    }
}
