import Sift

extension CaseValues {
    /// `{"$id": 3}`: a reference to the object whose primary key is 3;
    /// `{"$id": "x-coredata://<store>/Author/p3"}`: the object a Core Data
    /// object ID URI names (``ObjectReference``).
    static func reference(_ json: JSONValue) throws(ConversionError) -> Value {
        switch json {
        case .int(let key): return .reference(ObjectReference(primaryKey: Int64(key)))
        case .string(let uri):
            if let r = ObjectReference(uri: uri) { return .reference(r) }
        default: break
        }
        throw ConversionError(
            description: "\"$id\" needs a primary key (an integer) or a Core Data object ID URI, as \"x-coredata://<store>/Author/p3\"")
    }
}
