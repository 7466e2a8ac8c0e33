/// A reference to one object of a store by its primary key, optionally
/// naming its entity and the store: what a predicate compares a
/// relationship or `SELF` with (`author == %@`, `SELF IN %@`), as Core Data
/// compares a relationship with a managed object or its object ID.
///
/// As a format argument it is ``Value/reference(_:)``. Core Data's object
/// ID URIs, `x-coredata://<store identifier>/Author/p3`, read as one
/// (``init(uri:)``) and are printed by the rule that reads them (``uri``).
///
/// What it equals (see the article "Objects in predicates"):
/// - in memory, an object whose primary key, its value for ``keyName``
///   (`id` unless said otherwise), is ``primaryKey``: a dictionary, or an
///   object of a ``KeyValueReadable`` type, which must then be of
///   ``entity`` when one is named; another reference with the same key,
///   and the same entity and store where both name one;
/// - in SQL, and in memory through `StoreSchema.resolve`, the row of the
///   relationship's destination (or of the fetched entity, for `SELF`)
///   whose primary key it is; an entity or store other than the schema's is
///   an error there.
public struct ObjectReference: Sendable, Hashable, Codable, CustomStringConvertible, KeyValueReadable {
    /// The entity of the object, if known; a sub-entity of the compared
    /// relationship's destination narrows the match to that sub-entity's rows.
    public var entity: String?
    /// The object's primary key (Core Data's `Z_PK`).
    public var primaryKey: Int64
    /// The Core Data store the object is in (its `Z_UUID`), if known.
    public var storeIdentifier: String?
    /// The key an object in memory holds its primary key under: `id`
    /// unless said otherwise (`StoreSchema.resolve` sets the entity's own,
    /// as `Z_PK`, for the rows of a store). SQL reads the schema's primary key.
    public var keyName: String

    /// A reference to the object of `entity` (any entity, when nil) whose primary key is `primaryKey`.
    public init(entity: String? = nil, primaryKey: Int64, storeIdentifier: String? = nil, keyName: String = "id") {
        self.entity = entity
        self.primaryKey = primaryKey
        self.storeIdentifier = storeIdentifier
        self.keyName = keyName
    }

    private enum CodingKeys: String, CodingKey {
        case entity, primaryKey, storeIdentifier, keyName
    }

    /// Decodes `{"primaryKey": 3}` with, optionally, `entity`,
    /// `storeIdentifier` and `keyName` (`id` when left out).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            entity: try c.decodeIfPresent(String.self, forKey: .entity),
            primaryKey: try c.decode(Int64.self, forKey: .primaryKey),
            storeIdentifier: try c.decodeIfPresent(String.self, forKey: .storeIdentifier),
            keyName: try c.decodeIfPresent(String.self, forKey: .keyName) ?? "id")
    }

    /// The reference a Core Data object ID URI stands for,
    /// `x-coredata://<store identifier>/<entity>/p<primary key>`, read by
    /// the rule ``uri`` prints it with; nil for any other text (a
    /// temporary ID, `…/t<UUID>`, names no stored row).
    public init?(uri: String) {
        let scheme = Self.scheme
        guard uri.hasPrefix(scheme) else { return nil }
        let parts = uri.dropFirst(scheme.count).split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].first == "p",
            parts[2].dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }), let key = Int64(parts[2].dropFirst())
        else { return nil }
        self.init(entity: String(parts[1]), primaryKey: key, storeIdentifier: String(parts[0]))
    }

    static let scheme = "x-coredata://"

    /// The Core Data object ID URI of the object of `entity` keyed `key`
    /// (its digits, or its text) in the store `store`: the one rule that
    /// writes them, and that ``init(uri:)`` reads.
    public static func uri(store: String, entity: String, key: String) -> String {
        "\(scheme)\(store)/\(entity)/p\(key)"
    }

    /// The object ID URI, when the store and the entity are known.
    public var uri: String? {
        guard let storeIdentifier, let entity else { return nil }
        return Self.uri(store: storeIdentifier, entity: entity, key: String(primaryKey))
    }

    /// The URI when there is one, else `Entity/p3` (or `p3`).
    public var description: String { uri ?? ((entity.map { $0 + "/" } ?? "") + "p\(primaryKey)") }

    /// `entity`, `primaryKey` and `storeIdentifier`, for predicates that read them.
    public static let keyTable = KeyTable<ObjectReference>([
        "entity": { $0.entity.map(Value.string) ?? .null },
        "primaryKey": { .int(Int($0.primaryKey)) },
        "storeIdentifier": { $0.storeIdentifier.map(Value.string) ?? .null },
    ])

    /// Whether `value` is the object this refers to, as a predicate's `==`
    /// finds it in memory (see ``ObjectReference``): one rule for `==`,
    /// `!=`, `IN`, `CONTAINS` and `ANY`.
    func identifies(_ value: Value) -> Bool {
        switch value {
        case .dictionary(let d):
            return Self.isKey(d[keyName], primaryKey)
        case .object(let o):
            if let other = o.base as? ObjectReference {
                return other.primaryKey == primaryKey && Self.agree(entity, other.entity)
                    && Self.agree(storeIdentifier, other.storeIdentifier)
            }
            if let entity, !o.isOfEntity(entity, includingSubentities: true) { return false }
            return Self.isKey(o.primaryKey(named: keyName), primaryKey)
        default:
            return false
        }
    }

    private static func isKey(_ v: Value?, _ key: Int64) -> Bool {
        guard let v, v.isNumber else { return false }
        return v == .int(Int(key))
    }

    private static func agree(_ a: String?, _ b: String?) -> Bool {
        guard let a, let b else { return true }
        return a == b
    }
}

extension Value {
    /// A reference to an object by its primary key, as a value
    /// (``object(_:)-enum.case`` wrapping an ``ObjectReference``).
    public static func reference(_ reference: ObjectReference) -> Value { .object(ObjectValue(reference)) }

    /// The reference this value is, if it is one.
    public var objectReference: ObjectReference? {
        guard case .object(let o) = self else { return nil }
        return o.base as? ObjectReference
    }
}

extension ObjectValue {
    /// The object's primary key as a reference and SQL read it: its value
    /// for the key `name` when its ``KeyTable`` has that key, otherwise its
    /// `id` when its type is `Identifiable` with an integer or string
    /// identifier; nil when it has neither.
    public func primaryKey(named name: String) -> Value? {
        if let v = value(forKey: name) { return v }
        guard let identifiable = base as? any Identifiable else { return nil }
        func id<T: Identifiable>(_ x: T) -> any Hashable { x.id }
        switch id(identifiable) {
        case let i as Int: return .int(i)
        case let i as Int64: return .int(Int(i))
        case let i as Int32: return .int(Int(i))
        case let s as String: return .string(s)
        default: return nil
        }
    }
}
