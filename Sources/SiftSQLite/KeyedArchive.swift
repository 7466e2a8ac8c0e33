import CZlib
import Foundation
import SiftSQL

/// Raw DEFLATE (no zlib header), as `Z_MODELCACHE` stores the model.
enum Inflate {
    /// The inflated bytes of `data`; an error for a damaged or truncated
    /// stream, or one that inflates past `limit` bytes.
    static func raw(_ data: Data, limit: Int, source: String) throws(StoreSchemaError) -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, -MAX_WBITS, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw StoreSchemaError("\(source): zlib cannot start inflating")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        let chunk = 64 << 10
        var buffer = [UInt8](repeating: 0, count: chunk)
        var status = Z_OK
        var input = [UInt8](data)
        input.withUnsafeMutableBufferPointer { bytes in
            stream.next_in = bytes.baseAddress
            stream.avail_in = uInt(bytes.count)
            while status == Z_OK && output.count <= limit {
                let produced = buffer.withUnsafeMutableBufferPointer { out -> Int in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(chunk)
                    status = inflate(&stream, Z_NO_FLUSH)
                    return chunk - Int(stream.avail_out)
                }
                output.append(contentsOf: buffer[..<produced])
            }
        }
        if output.count > limit {
            throw StoreSchemaError("\(source): the model inflates to more than \(limit) bytes (the model size limit)")
        }
        switch status {
        case Z_STREAM_END:
            return output
        case Z_BUF_ERROR:
            throw StoreSchemaError("\(source): the DEFLATE stream is truncated (\(data.count) bytes read, \(output.count) inflated)")
        default:
            let reason = stream.msg.map { String(cString: $0) } ?? "zlib error \(status)"
            throw StoreSchemaError("\(source): not a DEFLATE stream (\(reason), at byte \(stream.total_in))")
        }
    }
}

/// An `NSKeyedArchiver` property list read as its object graph: `$objects`
/// with `$top` pointing into it. Objects are dictionaries, strings, numbers
/// and references (UIDs) to other objects; nothing is instantiated, no
/// class is looked up. Every reference is checked against the object
/// count, and a reference never leads to another reference, so following
/// one always ends.
struct KeyedArchive {
    typealias Object = [String: Any]

    let objects: [Any]
    let top: Object
    let source: String

    init(_ data: Data, source: String) throws(StoreSchemaError) {
        self.source = source
        let plist: Any
        do {
            plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            throw StoreSchemaError("\(source): not a property list (\(error.localizedDescription))")
        }
        guard let root = plist as? Object, let objects = root["$objects"] as? [Any], let top = root["$top"] as? Object
        else {
            throw StoreSchemaError("\(source): a property list, but not a keyed archive (no $objects and $top)")
        }
        self.objects = objects
        self.top = top
    }

    func failure(_ message: String) -> StoreSchemaError {
        StoreSchemaError("\(source): \(message)")
    }

    /// The object number of a reference. PropertyListSerialization gives a
    /// binary property list's UIDs as an opaque object (`_NSKeyedArchiverUID`
    /// on Linux, `__NSCFType` on Darwin) holding the number, and an XML
    /// property list's as `{"CF$UID": n}`.
    static func uid(_ value: Any) -> Int? {
        if let d = value as? Object {
            guard d.count == 1, let n = d["CF$UID"] as? Int else { return nil }
            return n
        }
        guard String(describing: type(of: value)).contains("UID") || String(describing: value).contains("KeyedArchiverUID")
        else { return nil }
        for child in Mirror(reflecting: value).children where child.label == "value" {
            if let n = child.value as? any BinaryInteger { return Int(n) }
        }
        // Darwin: "<CFKeyedArchiverUID 0x…>{value = 3}".
        let text = String(describing: value)
        guard let r = text.range(of: "value = ") else { return nil }
        return Int(text[r.upperBound...].prefix { $0.isNumber })
    }

    /// What `value` stands for: the object it refers to, or itself; nil for
    /// `$null` and for no value.
    func resolve(_ value: Any?) throws(StoreSchemaError) -> Any? {
        guard let value else { return nil }
        guard let n = Self.uid(value) else { return value }
        guard n >= 0 && n < objects.count else {
            throw failure("a reference to object \(n), outside the archive's \(objects.count) objects")
        }
        let object = objects[n]
        if n == 0, object as? String == "$null" { return nil }
        guard Self.uid(object) == nil else { throw failure("object \(n) is a reference to another object (a cycle of references)") }
        return object
    }

    func object(_ value: Any?) throws(StoreSchemaError) -> Object? {
        try resolve(value) as? Object
    }

    func string(_ value: Any?) throws(StoreSchemaError) -> String? {
        try resolve(value) as? String
    }

    func int(_ value: Any?) throws(StoreSchemaError) -> Int? {
        let v = try resolve(value)
        if let n = v as? Int { return n }
        return (v as? NSNumber)?.intValue
    }

    func bool(_ value: Any?) throws(StoreSchemaError) -> Bool? {
        let v = try resolve(value)
        if let b = v as? Bool { return b }
        if let s = v as? String { return s == "YES" }
        return (v as? NSNumber)?.boolValue
    }

    /// The class name of an archived object.
    func className(_ object: Object) throws(StoreSchemaError) -> String {
        try string(try self.object(object["$class"])?["$classname"]) ?? ""
    }

    /// The elements of an archived array or set, unresolved.
    func elements(_ value: Any?) throws(StoreSchemaError) -> [Any] {
        guard let o = try object(value) else { return [] }
        return o["NS.objects"] as? [Any] ?? []
    }

    /// The entries of an archived dictionary, keys as strings, values
    /// unresolved, in the archive's order.
    func entries(_ value: Any?) throws(StoreSchemaError) -> [(key: String, value: Any)] {
        guard let o = try object(value) else { return [] }
        let keys = o["NS.keys"] as? [Any] ?? []
        let values = o["NS.objects"] as? [Any] ?? []
        guard keys.count == values.count else {
            throw failure("a dictionary with \(keys.count) keys and \(values.count) values")
        }
        var out: [(String, Any)] = []
        for (k, v) in zip(keys, values) {
            guard let key = try string(k) else { throw failure("a dictionary key that is not a string") }
            out.append((key, v))
        }
        return out
    }

    /// The string under `key` of the object `value` refers to.
    func nameOf(_ value: Any?, key: String) throws(StoreSchemaError) -> String? {
        guard let o = try object(value) else { return nil }
        return try string(o[key])
    }

    var root: Object? {
        get throws(StoreSchemaError) { try object(top["root"]) }
    }

    /// Whether this is Xcode's `elements` file rather than a compiled model.
    var isXcodeElements: Bool {
        ((try? root)??["_xd_rootPackage"]) != nil
    }

    // MARK: - Compiled models

    /// An `NSManagedObjectModel`: `NSEntities`, each entity with
    /// `NSEntityName`, `NSSuperentity`, `NSIsAbstract` and `NSProperties`
    /// (its own and its inherited ones).
    func compiledModel(maximumCompositeElements: Int) throws(StoreSchemaError) -> CoreDataModel {
        guard let root = try root, root["NSEntities"] != nil else {
            throw failure("a keyed archive whose root is not an NSManagedObjectModel (no NSEntities)")
        }
        // NSKnownKeysDictionary1 keeps its values under `values`; a plain
        // dictionary under NS.objects.
        let holder = try object(root["NSEntities"])
        let list = try elements(holder?["values"]) + (holder?["NS.objects"] as? [Any] ?? [])
        var entities: [CoreDataModel.Entity] = []
        var inherited: [String: Set<String>] = [:]
        for item in list {
            guard let e = try object(item), let name = try string(e["NSEntityName"]) else {
                throw failure("an entity without a name (NSEntityName)")
            }
            let parent = try nameOf(e["NSSuperentity"], key: "NSEntityName")
            var properties: [CoreDataModel.Property] = []
            for (key, value) in try entries(e["NSProperties"]) {
                guard let p = try object(value) else { throw failure("property \(name).\(key) is not an object") }
                var elements = 0
                properties.append(try compiledProperty(
                    p, name: key, entity: name, elements: &elements, limit: maximumCompositeElements))
            }
            // A compiled model keeps its properties in a hashed dictionary,
            // in no order anyone declared: list them by name, as Xcode's
            // model editor and its contents file do.
            properties.sort { $0.name < $1.name }
            entities.append(CoreDataModel.Entity(
                name, parent: parent, isAbstract: try bool(e["NSIsAbstract"]) ?? false, properties: properties))
            inherited[name] = Set(properties.map(\.name))
        }
        // Each entity lists its parent's properties too: keep its own.
        for i in entities.indices {
            guard let parent = entities[i].parent else { continue }
            let theirs = inherited[parent] ?? []
            entities[i].properties.removeAll { theirs.contains($0.name) }
        }
        return CoreDataModel(entities: entities)
    }

    /// How deep composite attributes may nest in a compiled model (a
    /// cyclic archive would otherwise nest for ever).
    static let maximumCompositeDepth = 16

    /// `elements` counts the composite elements read for one property, at
    /// most `limit` (``CoreDataModel/maximumCompositeElements`` by
    /// default): an archive listing
    /// one element many times at each of 16 levels would otherwise expand
    /// to 10^16.
    private func compiledProperty(
        _ p: Object, name: String, entity: String, depth: Int = 0, elements: inout Int, limit: Int
    )
        throws(StoreSchemaError) -> CoreDataModel.Property
    {
        let className = try className(p)
        let optional = try bool(p["NSIsOptional"]) ?? false
        let transient = try bool(p["NSIsTransient"]) ?? false
        let kind: CoreDataModel.Kind
        switch className {
        case "NSRelationshipDescription":
            var destination = try nameOf(p["NSDestinationEntity"], key: "NSEntityName")
            if destination == nil { destination = try string(p["_NSDestinationEntityName"]) }
            guard let destination else {
                throw failure("relationship \(entity).\(name) has no destination entity")
            }
            var inverse = try string(p["_NSInverseRelationshipName"])
            if inverse == nil { inverse = try nameOf(p["NSInverseRelationship"], key: "NSPropertyName") }
            kind = .relationship(
                destination: destination, toMany: try int(p["NSMaxCount"]) != 1, inverse: inverse,
                ordered: try bool(p["NSIsOrdered"]) ?? false)
        case "NSFetchedPropertyDescription":
            kind = .fetched
        case "NSDerivedAttributeDescription":
            kind = .derived(type: try int(p["NSAttributeType"]) ?? 0)
        default:
            guard let type = try int(p["NSAttributeType"]) else {
                throw failure("property \(entity).\(name) (\(className)) has no NSAttributeType")
            }
            kind = .attribute(type: type)
        }
        var parts: [CoreDataModel.Property] = []
        if kind == .attribute(type: CoreDataModel.compositeType) {
            guard depth < Self.maximumCompositeDepth else {
                throw failure("composite attribute \(entity).\(name) nests more than \(Self.maximumCompositeDepth) deep")
            }
            for item in try self.elements(p["NSCompositeElements"]) {
                elements += 1
                guard elements <= limit else {
                    throw failure("composite attribute \(entity).\(name) has more than \(limit) elements")
                }
                guard let element = try object(item), let elementName = try string(element["NSPropertyName"]) else {
                    throw failure("composite attribute \(entity).\(name) has an element without a name")
                }
                parts.append(try compiledProperty(
                    element, name: elementName, entity: "\(entity).\(name)", depth: depth + 1, elements: &elements,
                    limit: limit))
            }
        }
        return CoreDataModel.Property(name, kind, optional: optional, transient: transient, elements: parts)
    }

    // MARK: - Xcode's elements file

    /// Xcode's older `elements` file: entities under the root package's
    /// `XDBucketForClassesstorage`; each entity's and property's settings
    /// are the `_default` values of its stereotypes' owned attributes
    /// (`XD_PAttK_attributeType`, `XD_PRK_destination`, …).
    func elementsModel() throws(StoreSchemaError) -> CoreDataModel {
        guard let package = try object(try root?["_xd_rootPackage"]) else { throw failure("an elements file without a package") }
        var entities: [CoreDataModel.Entity] = []
        for (name, value) in try entries(package["XDBucketForClassesstorage"]) {
            guard let e = try object(value) else { throw failure("entity \(name) is not an object") }
            let settings = try stereotypeValues(e)
            var parent: String?
            for g in try elements(e["XDBucketForGeneralizationsstorage"]) {
                guard let generalization = try object(g) else { continue }
                for (key, v) in generalization where key != "_owner" && key != "$class" {
                    if let target = try object(v), try className(target) == "XDPMEntity",
                        let n = try string(target["_name"]), n != name
                    {
                        parent = n
                    }
                }
            }
            var properties: [CoreDataModel.Property] = []
            for (key, pv) in try entries(e["XDBucketForOwnedAttributesstorage"]) {
                guard let p = try object(pv) else { throw failure("property \(name).\(key) is not an object") }
                properties.append(try elementsProperty(p, name: key, entity: name))
            }
            var abstract = try bool(settings["XD_PSK_isAbstract"])
            if abstract == nil { abstract = try bool(e["_isAbstract"]) }
            entities.append(CoreDataModel.Entity(name, parent: parent, isAbstract: abstract ?? false, properties: properties))
        }
        return CoreDataModel(entities: entities)
    }

    private func elementsProperty(_ p: Object, name: String, entity: String) throws(StoreSchemaError) -> CoreDataModel.Property {
        let s = try stereotypeValues(p)
        let className = try className(p)
        let optional = try bool(s["XD_PPSK_isOptional"]) ?? true
        let transient = try bool(s["XD_PPSK_isTransient"]) ?? false
        let kind: CoreDataModel.Kind
        if className.contains("Relationship") {
            guard let destination = try nameOf(s["XD_PRK_destination"], key: "_name") else { throw failure("relationship \(entity).\(name) has no destination entity") }
            let inverse = try nameOf(s["XD_PRK_inverseRelationship"], key: "_name")
            var toMany = try bool(s["XD_PRK_isToMany"])
            if toMany == nil { toMany = try int(s["XD_PRK_maxCount"]) != 1 }
            kind = .relationship(
                destination: destination, toMany: toMany ?? true, inverse: inverse, ordered: try bool(s["XD_PRK_ordered"]) ?? false)
        } else if className.contains("Fetched") {
            kind = .fetched
        } else {
            guard let type = try int(s["XD_PAttK_attributeType"]) else {
                throw failure("attribute \(entity).\(name) has no type (XD_PAttK_attributeType)")
            }
            kind = .attribute(type: type)
        }
        return CoreDataModel.Property(name, kind, optional: optional, transient: transient)
    }

    /// The settings of an element: each stereotype's owned attributes by
    /// name, with their `_default` values (unresolved).
    private func stereotypeValues(_ element: Object) throws(StoreSchemaError) -> [String: Any] {
        var out: [String: Any] = [:]
        for (_, sv) in try entries(element["XDBucketForStereotypesstorage"]) {
            guard let stereotype = try object(sv) else { continue }
            for (key, av) in try entries(stereotype["XDBucketForOwnedAttributesstorage"]) {
                if let attribute = try object(av), let d = attribute["_default"] { out[key] = d }
            }
        }
        return out
    }
}
