import Sift
import SiftSQL

/// "Why does this row (not) match": each part of a filter, as the REPL's
/// `:why` lists them (the whole predicate, then the parts of each AND, OR
/// and NOT under it), and whether the object matches it. Each part is
/// answered by the database, by the same lowering as the page's rows, as
/// `SELF == $object AND part` (the object as a dictionary of its primary
/// key, as the lowering takes one): so the explanation agrees with the rows shown,
/// on SQLite and PostgreSQL alike.
struct Explanation: Sendable {
    struct Part: Sendable {
        var depth: Int
        var predicate: String
        var matches: Bool
    }

    var entity: String
    var id: Value
    var row: JSONValue
    var parts: [Part]

    var json: JSONValue {
        .object(JSONObject([
            ("entity", .string(entity)),
            ("id", RowValue.json(id)),
            ("matches", .bool(parts.first?.matches ?? true)),
            ("row", row),
            ("parts", .array(parts.map { part in
                .object(JSONObject([
                    ("depth", .int(part.depth)), ("predicate", .string(part.predicate)), ("matches", .bool(part.matches)),
                ]))
            })),
        ]))
    }

    /// The parts of `node`, depth first, each at its depth.
    static func parts(_ node: PredicateNode, depth: Int = 0) -> [(Int, PredicateNode)] {
        var parts = [(depth, node)]
        switch node.kind {
        case .and(let children), .or(let children):
            for child in children { parts += Self.parts(child, depth: depth + 1) }
        case .not(let child):
            parts += Self.parts(child, depth: depth + 1)
        default:
            break
        }
        return parts
    }
}

/// A primary key from a path as a value: a whole number when it reads as
/// one, else the text.
enum RowValue {
    static func key(_ text: String) -> Value { Int(text).map(Value.int) ?? .string(text) }

    static func json(_ value: Value) -> JSONValue {
        switch value {
        case .int(let i): return .int(i)
        case .string(let s): return .string(s)
        default: return .string("\(value)")
        }
    }
}

extension ServerAPI {
    /// `GET /ENTITY/why/ID`: the object's row and each part of the filter.
    func explanation(_ entityName: String, id text: String, query: String, admission: StatementQueue.Admission)
        async throws -> Explanation
    {
        let page = try page(entityName, query: query)
        let id = RowValue.key(text)
        // The object as the lowering takes one: a dictionary holding its primary key.
        let object = Value.dictionary([page.entity.primaryKey: id])
        let selfNode: PredicateNode
        do {
            selfNode = try Filter("SELF == %@", ExpressionNode.constant(object)).predicate
        } catch {
            throw ServerProblem.notFound("\(text) is not a primary key")
        }
        let (schema, dialect) = (database.schema, database.dialect)
        func restricted(_ node: PredicateNode?) -> FetchSpecification {
            var request = FetchSpecification(entity: page.entity.name)
            request.filter = Filter(node.map { .and([selfNode, $0]) } ?? selfNode)
            return request
        }
        let whole = restricted(nil)
        let parts = page.request.filter.map { Explanation.parts($0.predicate) } ?? []
        var statements: [BoundStatement] = []
        let rowQuery: SQLQuery
        do throws(SQLLoweringError) {
            rowQuery = try whole.sql(in: schema, dialect: dialect)
            for part in parts { statements.append(try restricted(part.1).countSQL(in: schema, dialect: dialect)) }
        } catch {
            throw ServerProblem.lowering(error, parameters: ServerAPI.parameters(query))
        }
        let (row, counts) = try await admission.run { [statements] database -> (JSONValue?, [Int]) in
            var row: JSONValue?
            try database.each(rowQuery) { row = database.rowJSON(rowQuery, $0) }
            guard row != nil else { return (nil, []) }
            return (row, try statements.map { try database.count($0) })
        }
        guard let row else { throw ServerProblem.notFound("no \(page.entity.name) with primary key \(text)") }
        return Explanation(
            entity: page.entity.name, id: id, row: row,
            parts: zip(parts, counts).map { .init(depth: $0.0.0, predicate: FormatPrinter.format($0.0.1), matches: $0.1 > 0) })
    }
}
