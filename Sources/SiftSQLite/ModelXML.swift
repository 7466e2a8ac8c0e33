import Foundation
import SiftSQL

#if canImport(FoundationXML)
import FoundationXML
#endif

/// An `.xcdatamodel`'s `contents` file: `<entity name= parentEntity=
/// isAbstract=>` holding `<attribute name= attributeType= optional=
/// transient= derived=>`, `<relationship name= destinationEntity=
/// inverseName= toMany= ordered=>` and `<fetchedProperty name=>`.
enum ModelXML {
    static func read(_ data: Data, source: String) throws(StoreSchemaError) -> CoreDataModel {
        let parser = XMLParser(data: data)
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
        return CoreDataModel(entities: reader.entities)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var entities: [CoreDataModel.Entity] = []
        var sawModel = false
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
            case "entity":
                guard let name = attributes["name"] else { return fail("an <entity> without a name") }
                entities.append(CoreDataModel.Entity(name, parent: attributes["parentEntity"], isAbstract: yes("isAbstract"), properties: []))
            case "attribute", "relationship", "fetchedProperty":
                // Attributes of composite attributes and fetch requests
                // nest deeper than an entity's own properties.
                guard depth == 3, !entities.isEmpty else { return }
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
                entities[entities.count - 1].properties.append(
                    CoreDataModel.Property(name, kind, optional: yes("optional"), transient: yes("transient")))
            default:
                break
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
        }
    }
}
