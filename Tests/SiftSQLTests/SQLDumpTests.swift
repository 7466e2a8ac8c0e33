import Foundation
import Sift
import SiftSQL
import SiftTestSupport
import Testing

/// Writes the SQL of many requests to the file named by `SIFT_SQL_DUMP`, to
/// compare the lowering's text before and after a change with `diff`: the
/// differential generator's predicates, fetches (sort, offset, limit,
/// counts) and projections over the library schema, and the formats of the
/// conformance cases over a schema read from their object, each in both
/// dialects, with the bindings or the error.
struct SQLDumpTests {
    @Test func testDump() throws {
        guard let path = ProcessInfo.processInfo.environment["SIFT_SQL_DUMP"] else {
            try Test.cancel("set SIFT_SQL_DUMP=FILE to write the dump")
        }
        var out = ""
        func lower(_ label: String, _ request: FetchSpecification, _ schema: StoreSchema) {
            out += "== " + label + "\n"
            for dialect in Dialect.allCases {
                do {
                    out += "\(dialect.rawValue): \(try request.sql(in: schema, dialect: dialect).statement)\n"
                    out += "\(dialect.rawValue) count: \(try request.countSQL(in: schema, dialect: dialect))\n"
                } catch {
                    out += "\(dialect.rawValue) error: \(error.code) \(error.message) \(String(describing: error.range))\n"
                }
            }
        }
        var generator = PredicateGenerator(seed: 20_261_123)
        for n in 0..<3000 {
            let (format, args) = generator.predicate()
            guard let filter = try? Filter(format, arguments: args) else { continue }
            lower("predicate \(n) \(filter.format)", FetchSpecification(entity: "Book", filter: filter), Library.schema)
        }
        let keys = ["title", "year", "price", "published", "author.name", "author.age", "code", "author.active"]
        let comparisons: [SortKey.Comparison] = [.compare, .caseInsensitive, .localized, .localizedCaseInsensitive]
        for n in 0..<600 {
            var sort: [SortKey] = []
            for _ in 0..<Int.random(in: 1...2, using: &generator.rng) {
                sort.append(SortKey(generator.pick(keys), ascending: generator.chance(0.5), comparison: generator.pick(comparisons)))
            }
            var filter: Filter?
            if generator.chance(0.5) {
                let (format, args) = generator.predicate(depth: 2)
                filter = try? Filter(format, arguments: args)
            }
            let limit: Int? = generator.chance(0.5) ? Int.random(in: 0...20, using: &generator.rng) : nil
            let offset = generator.chance(0.4) ? Int.random(in: 0...30, using: &generator.rng) : 0
            let distinct = generator.chance(0.3)
            let properties: [String]? = generator.chance(0.3) ? Array(Set(sort.map { $0.keyPath.joined(separator: ".") } + ["year"])).sorted() : nil
            let request = FetchSpecification(
                entity: "Book", filter: filter, sort: sort, offset: offset, limit: limit, distinct: distinct,
                properties: properties)
            lower("fetch \(n) \(filter?.format ?? "all") \(sort) \(offset) \(String(describing: limit)) \(distinct) \(String(describing: properties))", request, Library.schema)
        }
        let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/cases")
        for file in ["language.jsonl", "observed.jsonl", "probe.jsonl"] {
            let text = try String(contentsOf: cases.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n") {
                let json = try JSONValue(parsing: String(line))
                guard case .string(let format)? = json["format"], case .object(let object)? = json["object"] else { continue }
                let schema = Self.schema(object)
                guard let filter = try? Filter(format) else { continue }
                lower("case \(json["id"].map { "\($0)" } ?? "") \(format)", FetchSpecification(entity: "Object", filter: filter), schema)
            }
        }
        try out.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Entities read from a case's object: its scalars as attributes, an
    /// object as a to-one relationship, a list of objects as a to-many one.
    static func schema(_ object: JSONObject) -> StoreSchema {
        var entities: [Entity] = []
        func entity(_ name: String, _ object: JSONObject) {
            var attributes: [Attribute] = []
            var relationships: [Relationship] = []
            for (key, value) in object.members where !attributes.contains(where: { $0.name == key }) {
                switch value {
                case .bool: attributes.append(Attribute(key, .boolean))
                case .int: attributes.append(Attribute(key, .integer))
                case .double, .number: attributes.append(Attribute(key, .double))
                case .object(let d):
                    entity(name + "_" + key, d)
                    relationships.append(.toOne(key, name + "_" + key, column: key + "_id"))
                case .array(let list):
                    if case .object(let first)? = list.first {
                        entity(name + "_" + key, first)
                        relationships.append(.toMany(key, name + "_" + key, inverseColumn: "owner_id"))
                    } else {
                        attributes.append(Attribute(key, .string))
                    }
                default: attributes.append(Attribute(key, .string))
                }
            }
            entities.append(Entity(name, table: name.lowercased(), attributes: attributes, relationships: relationships))
        }
        entity("Object", object)
        return StoreSchema(entities)
    }
}
