import Foundation
import SiftSQL

/// A Core Data managed object model: its entities and their properties, as
/// the model says them (camel case, types, relationships, inverses,
/// inheritance), read without Core Data from any of its stored forms:
///
/// - a store's `Z_MODELCACHE` (a raw DEFLATE stream of the compiled model),
///   see ``init(modelCache:source:maximumSize:maximumCompositeElements:)``;
/// - a compiled `.mom` file or a `.momd` folder (its current version);
/// - an Xcode `.xcdatamodel` or `.xcdatamodeld` folder, or its `contents`
///   XML file;
/// - the older Xcode `elements` file (a binary property list).
///
/// ```swift
/// let model = try CoreDataModel(contentsOf: URL(fileURLWithPath: "Model.momd"))
/// let schema = try db.read { try StoreSchema.read(from: $0, model: model) }
/// ```
///
/// Every read is bounded: at most ``maximumSize`` bytes of model (after
/// inflating), every reference checked; a damaged file gives a
/// `StoreSchemaError` naming the file and what is wrong with it.
public struct CoreDataModel: Sendable, Hashable {
    /// The largest model read, in bytes, after inflating a model cache
    /// (64 MiB; real models are kilobytes).
    public static let maximumSize = 64 << 20

    /// The model's entities, parents before their sub-entities.
    public var entities: [Entity]

    /// The most entities a chain of inheritance may hold, the entity and
    /// its ancestors (``defaultMaximumInheritanceDepth`` unless changed): an
    /// entity lists every attribute and relationship it inherits, so reading
    /// a store's schema takes time and memory in proportion to the model's
    /// size times this. A deeper chain is a `StoreSchemaError` naming the
    /// entity and this setting.
    public var maximumInheritanceDepth: Int

    /// 100: real models nest a few levels.
    public static let defaultMaximumInheritanceDepth = 100

    /// A model of `entities`, for a store that caches none (or for tests).
    public init(entities: [Entity]) {
        self.entities = entities
        self.maximumInheritanceDepth = Self.defaultMaximumInheritanceDepth
    }

    /// An entity of the model, with the properties it declares itself (not
    /// those it inherits from ``parent``).
    public struct Entity: Sendable, Hashable {
        /// The entity's name in the model (`Book`).
        public var name: String
        /// The name of the entity it inherits from, if any.
        public var parent: String?
        /// Whether it has no objects of its own.
        public var isAbstract: Bool
        /// The properties it declares itself: in the order of the model's
        /// `contents` (or `elements`) file; from a compiled model (a `.mom`
        /// or a store's cache), which keeps no order, by name, as Xcode's
        /// model editor lists them.
        public var properties: [Property]

        /// An entity `name` declaring `properties`.
        public init(_ name: String, parent: String? = nil, isAbstract: Bool = false, properties: [Property]) {
            self.name = name
            self.parent = parent
            self.isAbstract = isAbstract
            self.properties = properties
        }
    }

    /// A property of an entity: an attribute, a relationship or a fetched property.
    public struct Property: Sendable, Hashable {
        /// The property's name in the model (`firstName`).
        public var name: String
        /// What the property is.
        public var kind: Kind
        /// Whether it may be nil.
        public var isOptional: Bool
        /// Transient properties live in memory only: no column holds them.
        public var isTransient: Bool
        /// A composite attribute's elements (type 2100, iOS 17 and later),
        /// in the order the model declares them; each is an attribute, or a
        /// composite nested in it. Empty for every other property.
        public var elements: [Property]

        /// A property `name` of `kind`; `elements` for a composite attribute.
        public init(
            _ name: String, _ kind: Kind, optional: Bool = true, transient: Bool = false, elements: [Property] = []
        ) {
            self.name = name
            self.kind = kind
            self.isOptional = optional
            self.isTransient = transient
            self.elements = elements
        }

        /// Whether it is a composite attribute (`NSCompositeAttributeDescription`).
        public var isComposite: Bool { kind == .attribute(type: CoreDataModel.compositeType) }
    }

    /// The kinds of property a Core Data model declares.
    public enum Kind: Sendable, Hashable {
        /// A stored attribute, with Core Data's type code
        /// (`NSAttributeType`: 100 Integer 16 … 1800 Transformable).
        case attribute(type: Int)
        /// A derived attribute: a column Core Data computes; read-only.
        case derived(type: Int)
        /// A relationship to the entity `destination`, with its inverse's name if the model gives
        /// one.
        case relationship(destination: String, toMany: Bool, inverse: String?, ordered: Bool)
        /// A fetched property: a fetch request of its own, no column.
        case fetched
    }

    /// The most elements one composite attribute may have, nested ones
    /// counted, unless the reader is given another bound (10,000; real
    /// composites have a few): a model naming a composite type ten times at
    /// each of 16 levels would otherwise expand to 10^16 elements. More is a
    /// `StoreSchemaError` naming the attribute. The `maximumCompositeElements`
    /// parameter of ``init(contentsOf:maximumSize:maximumCompositeElements:)``
    /// and ``init(modelCache:source:maximumSize:maximumCompositeElements:)``
    /// changes it.
    public static let maximumCompositeElements = 10_000

    /// The type code of composite attributes (`NSAttributeType` 2100).
    public static let compositeType = 2100

    /// The entity called `name`.
    public func entity(named name: String) -> Entity? {
        entities.first { $0.name == name }
    }

    /// The type codes of `NSAttributeType` and the names the `contents` XML
    /// gives them.
    static let attributeTypes: [(code: Int, name: String)] = [
        (0, "Undefined"), (100, "Integer 16"), (200, "Integer 32"), (300, "Integer 64"), (400, "Decimal"),
        (500, "Double"), (600, "Float"), (700, "String"), (800, "Boolean"), (900, "Date"), (1000, "Binary"),
        (1100, "UUID"), (1200, "URI"), (1800, "Transformable"), (2000, "ObjectID"), (2100, "Composite"),
    ]

    /// The model in the file or folder at `url`: a `.momd` or
    /// `.xcdatamodeld` folder (its current version), a `.xcdatamodel`
    /// folder, a compiled `.mom`, a `contents` XML file or an `elements`
    /// file (told apart by their first bytes, so copies under other names,
    /// `X.xcdatamodel.contents`, read too).
    /// `maximumSize` bounds each file read (``maximumSize`` by default), and
    /// `maximumCompositeElements` the elements of each composite attribute
    /// (``maximumCompositeElements`` by default).
    public init(
        contentsOf url: URL, maximumSize: Int = CoreDataModel.maximumSize,
        maximumCompositeElements: Int = CoreDataModel.maximumCompositeElements
    ) throws(StoreSchemaError) {
        let limits = ReadingLimits(size: maximumSize, compositeElements: maximumCompositeElements)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw StoreSchemaError("no such model file: \(url.path)")
        }
        if isDirectory.boolValue {
            self = try Self.readFolder(url, depth: 0, limits: limits)
            return
        }
        let data = try Self.readFile(url, maximumSize: maximumSize)
        self = try Self.decode(data, source: url.path, maximumCompositeElements: maximumCompositeElements)
    }

    /// The bounds one read of a model is given.
    private struct ReadingLimits {
        var size: Int
        var compositeElements: Int
    }

    /// The model a store caches in `Z_MODELCACHE.Z_CONTENT`: a raw DEFLATE
    /// stream of the compiled model. `source` names it in errors.
    /// `maximumSize` bounds the inflated model (``maximumSize`` by default),
    /// and `maximumCompositeElements` the elements of each composite
    /// attribute (``maximumCompositeElements`` by default).
    public init(
        modelCache: Data, source: String, maximumSize: Int = CoreDataModel.maximumSize,
        maximumCompositeElements: Int = CoreDataModel.maximumCompositeElements
    ) throws(StoreSchemaError) {
        let archive = try Inflate.raw(modelCache, limit: maximumSize, source: source)
        self = try Self.decode(archive, source: source, maximumCompositeElements: maximumCompositeElements)
    }

    /// A compiled model, a `contents` XML file or an `elements` file.
    static func decode(_ data: Data, source: String, maximumCompositeElements: Int) throws(StoreSchemaError)
        -> CoreDataModel
    {
        if data.starts(with: Data("bplist".utf8)) {
            let archive = try KeyedArchive(data, source: source)
            return try archive.isXcodeElements
                ? archive.elementsModel() : archive.compiledModel(maximumCompositeElements: maximumCompositeElements)
        }
        let text = data.prefix(256).drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 || $0 == 0xEF || $0 == 0xBB || $0 == 0xBF }
        if text.starts(with: Data("<".utf8)) {
            return try ModelXML.read(data, source: source, maximumCompositeElements: maximumCompositeElements)
        }
        throw StoreSchemaError("\(source): not a Core Data model (neither a compiled model, a contents XML file nor an elements file)")
    }

    /// The bytes of a model file: a regular file (a FIFO would block the
    /// read for ever, a device never end) of at most `maximumSize` bytes.
    private static func readFile(_ url: URL, maximumSize: Int) throws(StoreSchemaError) -> Data {
        guard let size = regularFileSize(atPath: url.path) else { throw StoreSchemaError("\(url.path) is not a regular file") }
        guard size <= maximumSize else {
            throw StoreSchemaError("\(url.path): \(size) bytes, over the model size limit of \(maximumSize)")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw StoreSchemaError("cannot read \(url.path): \(error.localizedDescription)")
        }
    }

    /// `.momd`: the version `VersionInfo.plist` names current (else the only
    /// `.mom`); `.xcdatamodeld`: the version `.xccurrentversion` names (else
    /// the only `.xcdatamodel`); `.xcdatamodel`: its `contents`, else its
    /// `elements`.
    private static func readFolder(_ url: URL, depth: Int, limits: ReadingLimits) throws(StoreSchemaError) -> CoreDataModel {
        let maximumSize = limits.size
        guard depth < 2 else { throw StoreSchemaError("\(url.path): a model folder inside a model folder inside another") }
        let fm = FileManager.default
        let children = (try? fm.contentsOfDirectory(atPath: url.path)) ?? []
        for file in ["contents", "elements"] where children.contains(file) {
            return try CoreDataModel(
                contentsOf: url.appendingPathComponent(file), maximumSize: maximumSize,
                maximumCompositeElements: limits.compositeElements)
        }
        if let name = currentVersion(url, children, maximumSize: maximumSize) {
            let candidates = [name, name + ".mom", name + ".xcdatamodel"]
            if let found = candidates.first(where: { children.contains($0) }) {
                let child = url.appendingPathComponent(found)
                var isDirectory: ObjCBool = false
                _ = fm.fileExists(atPath: child.path, isDirectory: &isDirectory)
                return isDirectory.boolValue
                    ? try readFolder(child, depth: depth + 1, limits: limits)
                    : try CoreDataModel(
                        contentsOf: child, maximumSize: maximumSize, maximumCompositeElements: limits.compositeElements)
            }
            throw StoreSchemaError("\(url.path): the current model version \(name) is not in the folder")
        }
        let versions = children.filter { $0.hasSuffix(".mom") || $0.hasSuffix(".xcdatamodel") }.sorted()
        guard versions.count == 1 else {
            throw StoreSchemaError(
                versions.isEmpty
                    ? "\(url.path): no model in the folder (no contents, elements, .mom or .xcdatamodel)"
                    : "\(url.path): \(versions.count) model versions and no current version named; pass one of \(versions.joined(separator: ", "))")
        }
        let child = url.appendingPathComponent(versions[0])
        return versions[0].hasSuffix(".mom")
            ? try CoreDataModel(contentsOf: child, maximumSize: maximumSize, maximumCompositeElements: limits.compositeElements)
            : try readFolder(child, depth: depth + 1, limits: limits)
    }

    /// The current version's name, from a `.momd`'s `VersionInfo.plist` or an
    /// `.xcdatamodeld`'s `.xccurrentversion`.
    private static func currentVersion(_ url: URL, _ children: [String], maximumSize: Int) -> String? {
        for (file, key) in [("VersionInfo.plist", "NSManagedObjectModel_CurrentVersionName"), (".xccurrentversion", "_XCCurrentVersionName")]
        where children.contains(file) {
            guard let data = try? Data(contentsOf: url.appendingPathComponent(file)), data.count <= maximumSize,
                let plist = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
                let name = (plist as? [String: Any])?[key] as? String
            else { continue }
            return name
        }
        return nil
    }
}
