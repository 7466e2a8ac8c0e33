import Sift

extension StoreSchema {
    /// The identifier of a row fetched by `FetchSpecification.objectIDSQL(in:dialect:options:)`:
    /// on a Core Data store, the object ID's URI Core Data gives the object,
    /// `x-coredata://<store identifier>/<entity>/p<primary key>`, naming
    /// the row's own entity (a sub-entity's object names the sub-entity);
    /// elsewhere the primary key as text.
    public func objectID(of row: [Value], in query: SQLQuery) -> String {
        let key = row.first.map(Self.keyText) ?? ""
        guard let store = storeIdentifier, query.entity.entityNumber != nil else { return key }
        var entity = query.entity.name
        if row.count > 1, case .int(let n) = row[1], let own = entities.first(where: { $0.entityNumber == n }) {
            entity = own.name
        }
        return ObjectReference.uri(store: store, entity: entity, key: key)
    }

    /// A primary key's value as text: an integer's digits, a string as it is.
    private static func keyText(_ value: Value) -> String {
        switch value {
        case .int(let i): return String(i)
        case .string(let s): return s
        default: return "\(value)"
        }
    }
}
