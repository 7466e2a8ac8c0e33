import Foundation
import SiftSQL

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An `.xcdatamodel`'s `contents` file: `<entity name= parentEntity=
/// isAbstract=>` holding `<attribute name= attributeType= optional=
/// transient= derived=>`, `<relationship name= destinationEntity=
/// inverseName= toMany= ordered=>` and `<fetchedProperty name=>`; and,
/// beside the entities, `<compositeAttribute name=>` holding the
/// `<attribute>`s of a composite type, which an attribute of type
/// `Composite` names with `composite=`.
enum ModelXML {
    static func read(_ data: Data, source: String, maximumCompositeElements: Int) throws(StoreSchemaError)
        -> CoreDataModel
    {
        // Read as a stream: given the whole data at once, libxml2 fails a
        // valid file with a line longer than its lookup limit of 10 MB
        // (300,000 attributes on one line: NSXMLParserErrorDomain error 1).
        let parser = XMLParser(stream: InputStream(data: data))
        let reader = Reader()
        parser.delegate = reader
        parser.shouldResolveExternalEntities = false
        let parsed = parser.parse()
        if let problem = reader.problem {
            throw StoreSchemaError("\(source):\(problem.line):\(problem.column): \(problem.message)")
        }
        guard parsed else {
            let reason = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "invalid XML"
            throw StoreSchemaError("\(source):\(parser.lineNumber):\(parser.columnNumber): not a model's XML (\(reason))")
        }
        guard reader.sawModel else { throw StoreSchemaError("\(source): XML without a <model> element: not a Core Data model") }
        var entities = reader.entities
        for e in entities.indices {
            for p in entities[e].properties.indices {
                var elements = 0
                entities[e].properties[p] = try reader.withElements(
                    entities[e].properties[p], type: reader.compositeTypes[Reader.place(entity: e, p)], source: source,
                    depth: 0, elements: &elements, limit: maximumCompositeElements)
            }
        }
        return CoreDataModel(entities: entities)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var entities: [CoreDataModel.Entity] = []
        /// The composite types, by name, and the type each composite
        /// attribute names, keyed by its place (``place(entity:_:)``,
        /// ``place(composite:_:)``).
        var composites: [String: [CoreDataModel.Property]] = [:]
        var compositeTypes: [String: String] = [:]
        var sawModel = false
        /// What the properties being read belong to: an entity, or a
        /// composite type (`<compositeAttribute>`).
        private var container: Container?
        private enum Container {
            case entity
            case composite(String)
        }
        var problem: (line: Int, column: Int, message: String)?
        private var depth = 0
        /// How deep elements may nest: a model's are three deep.
        private let maximumDepth = 64

        func parser(
            _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            depth += 1
            guard problem == nil else { return }
            func fail(_ message: String) {
                problem = (parser.lineNumber, parser.columnNumber, message)
                parser.abortParsing()
            }
            guard depth <= maximumDepth else { return fail("elements nested more than \(maximumDepth) deep") }
            let yes = { (key: String) in attributes[key] == "YES" }
            switch element {
            case "model":
                sawModel = true
            case "entity" where depth == 2:
                guard let name = attributes["name"] else { return fail("an <entity> without a name") }
                entities.append(CoreDataModel.Entity(name, parent: attributes["parentEntity"], isAbstract: yes("isAbstract"), properties: []))
                container = .entity
            case "compositeAttribute" where depth == 2:
                guard let name = attributes["name"] else { return fail("a <compositeAttribute> without a name") }
                guard composites[name] == nil else { return fail("composite attribute \(name) is declared twice") }
                composites[name] = []
                container = .composite(name)
            case "attribute", "relationship", "fetchedProperty":
                // Fetch requests' elements nest deeper than properties.
                guard depth == 3, let container else { return }
                if case .composite = container, element != "attribute" { return }
                guard let name = attributes["name"] else { return fail("an <\(element)> without a name") }
                let kind: CoreDataModel.Kind
                switch element {
                case "attribute":
                    let typeName = attributes["attributeType"] ?? "Undefined"
                    guard let code = CoreDataModel.attributeTypes.first(where: { $0.name == typeName })?.code else {
                        return fail("attribute \(name) has an unknown attributeType \"\(typeName)\"")
                    }
                    kind = yes("derived") ? .derived(type: code) : .attribute(type: code)
                case "relationship":
                    guard let destination = attributes["destinationEntity"] else {
                        return fail("relationship \(name) has no destinationEntity")
                    }
                    kind = .relationship(
                        destination: destination, toMany: yes("toMany"), inverse: attributes["inverseName"],
                        ordered: yes("ordered"))
                default:
                    kind = .fetched
                }
                let property = CoreDataModel.Property(name, kind, optional: yes("optional"), transient: yes("transient"))
                switch container {
                case .entity:
                    let key = Self.place(entity: entities.count - 1, entities[entities.count - 1].properties.count)
                    entities[entities.count - 1].properties.append(property)
                    if let type = attributes["composite"] { compositeTypes[key] = type }
                case .composite(let owner):
                    let key = Self.place(composite: owner, composites[owner, default: []].count)
                    composites[owner, default: []].append(property)
                    if let type = attributes["composite"] { compositeTypes[key] = type }
                }
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            if depth == 2 { container = nil }
            depth -= 1
        }

        /// The place of an entity's property, and of a composite type's element.
        static func place(entity: Int, _ index: Int) -> String { "entity \(entity) \(index)" }
        static func place(composite: String, _ index: Int) -> String { "composite \(index) \(composite)" }

        /// `p` with its elements when it is a composite attribute: those of
        /// the composite type it names (`type`), nested types too, at most
        /// ``KeyedArchive/maximumCompositeDepth`` deep. An attribute that
        /// names no type keeps no elements, and a key path naming it is
        /// refused; one naming a type the file lacks is an error.
        func withElements(
            _ p: CoreDataModel.Property, type: String?, source: String, depth: Int, elements count: inout Int, limit: Int
        )
            throws(StoreSchemaError) -> CoreDataModel.Property
        {
            guard p.isComposite, let type else { return p }
            guard let elements = composites[type] else {
                throw StoreSchemaError("\(source): composite attribute \(p.name) names composite type \(type), which the model lacks")
            }
            guard depth < KeyedArchive.maximumCompositeDepth else {
                throw StoreSchemaError(
                    "\(source): composite attribute \(p.name) nests more than \(KeyedArchive.maximumCompositeDepth) deep")
            }
            var out = p
            for (i, element) in elements.enumerated() {
                count += 1
                guard count <= limit else {
                    throw StoreSchemaError("\(source): composite attribute \(p.name) has more than \(limit) elements")
                }
                out.elements.append(try withElements(
                    element, type: compositeTypes[Self.place(composite: type, i)], source: source, depth: depth + 1,
                    elements: &count, limit: limit))
            }
            return out
        }
    }
}
