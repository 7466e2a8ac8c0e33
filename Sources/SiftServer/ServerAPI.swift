import Foundation
import Hummingbird
import NIOCore
import Sift
import SiftSQL

/// Reads a request's path and answers it: the routes of ``SiftServer/SiftServer``.
struct ServerAPI: Sendable {
    let database: ServedDatabase
    let settings: ServerSettings
    let statements: StatementQueue

    init(databases: [ServedDatabase], settings: ServerSettings) {
        self.database = databases[0]
        self.settings = settings
        self.statements = StatementQueue(databases: databases, settings: settings)
    }

    /// What a path asks for.
    enum Route: Equatable {
        case index
        case rows(entity: String)
        case sql(entity: String)
        case why(entity: String, id: String)
    }

    /// The route of `path` (percent-encoded, as received) and whether it
    /// asks for JSON; nil for a path that is none.
    static func route(_ path: String) -> (Route, json: Bool)? {
        var path = path
        let json = path.hasSuffix(".json")
        if json { path.removeLast(5) }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).removingPercentEncoding
        }
        guard parts.allSatisfy({ $0 != nil }) else { return nil }
        let names = parts.map { $0! }
        switch names.count {
        case 1 where names[0].isEmpty: return (.index, json)
        case 1: return (.rows(entity: names[0]), json)
        case 2 where names[1] == "sql" && !names[0].isEmpty: return (.sql(entity: names[0]), json)
        case 3 where names[1] == "why" && !names[0].isEmpty && !names[2].isEmpty:
            return (.why(entity: names[0], id: names[2]), json)
        default: return nil
        }
    }

    func respond(to request: Request) async -> Response {
        let accept = request.headers[.accept] ?? ""
        guard request.method == .get || request.method == .head else {
            return Self.problem(ServerProblem.make(
                "method", "Read-only", status: 405, "the server only reads: use GET"))
        }
        guard let (route, jsonPath) = Self.route(request.uri.path) else {
            return Self.problem(ServerProblem.notFound("no page at \(request.uri.path)"))
        }
        let json = jsonPath || accept.contains("application/json")
        let query = request.uri.query ?? ""
        do {
            let admission = try statements.admit()
            if json {
                return try await jsonResponse(route, query: query, request: request, admission: admission)
            }
            return try await WebPage(api: self, admission: admission).response(route, query: query)
        } catch let problem as RequestProblem {
            return json ? Self.problem(problem) : WebPage.problemPage(problem, database: database)
        } catch {
            let problem = ServerProblem.database(error)
            return json ? Self.problem(problem) : WebPage.problemPage(problem, database: database)
        }
    }

    // MARK: - JSON

    private func jsonResponse(_ route: Route, query: String, request: Request, admission: StatementQueue.Admission)
        async throws -> Response
    {
        switch route {
        case .index:
            return Self.json(.object(JSONObject(try await index(admission))))
        case .rows(let entityName):
            let page = try page(entityName, query: query)
            let count = try await admission.run { [page] in try $0.count(page.countStatement) }
            let next = page.nextQuery(count: count).map { Self.url(request, query: $0) }
            return rowsResponse(page, count: count, next: next, admission: admission)
        case .sql(let entityName):
            let page = try page(entityName, query: query)
            return Self.json(.object(JSONObject([
                ("entity", .string(page.entity.name)),
                ("dialect", .string(database.dialect.rawValue)),
                ("sql", .string(page.query.statement.sql)),
                ("bindings", .array(page.query.statement.bindings.map { .string($0.literalDescription) })),
                ("countSQL", .string(page.countStatement.sql)),
            ])))
        case .why(let entityName, let id):
            let why = try await explanation(entityName, id: id, query: query, admission: admission)
            return Self.json(why.json)
        }
    }

    /// `GET /.json`: each entity with its count, attributes and relationships.
    func index(_ admission: StatementQueue.Admission) async throws -> [(String, JSONValue)] {
        let schema = database.schema
        let dialect = database.dialect
        let counts = try await admission.run { database in
            try schema.entities.map { entity in
                try database.count(try FetchSpecification(entity: entity.name).countSQL(in: schema, dialect: dialect))
            }
        }
        let entities: [JSONValue] = zip(schema.entities, counts).map { entity, count in
            .object(JSONObject([
                ("name", .string(entity.name)),
                ("count", .int(count)),
                ("attributes", .array(entity.attributes.map { a in
                    .object(JSONObject([
                        ("name", .string(a.name)), ("type", .string(a.type.name)), ("optional", .bool(a.isOptional)),
                    ]))
                })),
                ("relationships", .array(entity.relationships.map { r in
                    var members: [(String, JSONValue)] = [
                        ("name", .string(r.name)), ("destination", .string(r.destination)),
                        ("kind", .string(schema.kind(of: r).rawValue)),
                    ]
                    if let inverse = r.inverse { members.append(("inverse", .string(inverse))) }
                    return .object(JSONObject(members))
                })),
            ]))
        }
        return [("database", .string(database.name)), ("entities", .array(entities))]
    }

    /// The entity a path names, as `sift query` finds it, or a 404 problem.
    func entity(_ name: String) throws -> Entity {
        guard let entity = database.schema.entity(named: name) else {
            throw ServerProblem.notFound(
                "no entity \(name): the entities are " + database.schema.entities.map(\.name).joined(separator: ", "))
        }
        return entity
    }

    /// The fetch a page's query asks for, lowered.
    func page(_ entityName: String, query: String) throws -> Page {
        let entity = try entity(entityName)
        let request = try FetchSpecification(entity: entity.name, query: query, options: settings.fetch)
        var counting = request
        counting.limit = nil
        counting.offset = 0
        do {
            return Page(
                entity: entity, request: request, rawQuery: query,
                query: try request.sql(in: database.schema, dialect: database.dialect),
                countStatement: try counting.countSQL(in: database.schema, dialect: database.dialect))
        } catch {
            throw ServerProblem.lowering(error, parameters: Self.parameters(query))
        }
    }

    /// A page's rows as `{"count": N, "rows": [...], "next": URL}`, written
    /// as they are read, ``ServerSettings/rowsPerChunk`` rows at a time. A
    /// failure once rows are written (the timeout, the database), when the
    /// status has been sent, ends the document with the rows so far and
    /// the problem as `"error"`, in place of `next`: the body stays one
    /// JSON value, which says that the page is cut short and why.
    private func rowsResponse(_ page: Page, count: Int, next: String?, admission: StatementQueue.Admission) -> Response {
        let chunk = max(1, settings.rowsPerChunk)
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: "{\"count\": \(count), \"rows\": ["))
            let failure = try await Self.streamRows(page, chunk: chunk, admission: admission, text: { database, row, first in
                (first ? "\n  " : ",\n  ") + database.rowJSON(page.query, row).jsonText
            }) { piece in
                try await writer.write(ByteBuffer(string: piece))
            }
            var end = "\n]"
            if let failure {
                end += ", \"error\": " + failure.json.jsonText
            } else if let next {
                end += ", \"next\": " + JSONValue.string(next).jsonText
            }
            admission.end()
            try await writer.write(ByteBuffer(string: end + "}\n"))
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: body)
    }

    /// Hands `page`'s rows to `write` as the database reads them, `chunk`
    /// rows a piece, each row as `text` writes it (told whether it is the
    /// first). A failure once rows are written (the timeout, the
    /// database) is returned, as the problem to end the page with: the
    /// status has been sent.
    static func streamRows(
        _ page: Page, chunk: Int, admission: StatementQueue.Admission,
        text rowText: @escaping @Sendable (ServedDatabase, [Value], Bool) -> String, write: (String) async throws -> Void
    ) async throws -> RequestProblem? {
        do {
            try await admission.stream(bound: 2, produce: { database, yield in
                var first = true
                var text = ""
                var n = 0
                try database.each(page.query) { row in
                    text += rowText(database, row, first)
                    first = false
                    n += 1
                    if n == chunk {
                        try yield(text)
                        text = ""
                        n = 0
                    }
                }
                if !text.isEmpty { try yield(text) }
            }, consume: write)
            return nil
        } catch let problem as RequestProblem {
            return problem
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            return ServerProblem.database(error)
        }
    }

    // MARK: - Responses

    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok, type: String = "application/json")
        -> Response
    {
        Response(
            status: status, headers: [.contentType: type + "; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: value.jsonText + "\n")))
    }

    static func problem(_ problem: RequestProblem) -> Response {
        json(problem.json, status: HTTPResponse.Status(code: problem.status), type: RequestProblem.mediaType)
    }

    /// The query's parameters, decoded, the last of each name.
    static func parameters(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts[0].replacingOccurrences(of: "+", with: " ").removingPercentEncoding else { continue }
            items[name] = parts.count > 1 ? parts[1].replacingOccurrences(of: "+", with: " ").removingPercentEncoding : ""
        }
        return items
    }

    /// The URL of the same path with `query`, on the host the request named.
    static func url(_ request: Request, query: String) -> String {
        let host = request.head.authority ?? "localhost"
        return "http://\(host)\(request.uri.path)?\(query)"
    }
}

/// A fetch read from a page's query, with its SQL.
struct Page: Sendable {
    var entity: Entity
    var request: FetchSpecification
    /// The query string as received.
    var rawQuery: String
    var query: SQLQuery
    /// The count of every match (no offset or limit).
    var countStatement: BoundStatement

    /// The query of the next page (offset moved on by the limit), or nil on
    /// the last page.
    func nextQuery(count: Int) -> String? {
        guard let limit = request.limit, limit > 0, request.offset + limit < count else { return nil }
        return withQuery(["offset": String(request.offset + limit)])
    }

    /// The query with `changes` set (a nil value removes the parameter).
    func withQuery(_ changes: [String: String?]) -> String {
        var pairs = rawQuery.split(separator: "&").map(String.init).filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            return changes[name.removingPercentEncoding ?? name] == nil
        }
        for (name, value) in changes.sorted(by: { $0.key < $1.key }) {
            if let value { pairs.append(name + "=" + Self.encode(value)) }
        }
        return pairs.joined(separator: "&")
    }

    /// A parameter's value percent-encoded for a query string.
    static func encode(_ value: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}
