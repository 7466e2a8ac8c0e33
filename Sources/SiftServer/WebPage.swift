import Foundation
import Hummingbird
import NIOCore
import Sift
import SiftSQL

/// The pages for people, at the JSON API's paths without `.json`:
/// server-rendered HTML with no script and no external asset, every text
/// from the database or the request escaped by ``html(_:)``.
struct WebPage: Sendable {
    let api: ServerAPI
    let admission: StatementQueue.Admission

    var database: ServedDatabase { api.database }

    func response(_ route: ServerAPI.Route, query: String) async throws -> Response {
        switch route {
        case .index:
            let members = try await api.index(admission)
            var body = "<h1>\(Self.html(database.name))</h1>\n<table>\n<tr><th>entity</th><th>rows</th><th>relationships</th></tr>\n"
            if case .array(let entities)? = JSONObject(members)["entities"] {
                for case .object(let entity) in entities {
                    guard case .string(let name)? = entity["name"], case .int(let count)? = entity["count"] else { continue }
                    var relationships: [String] = []
                    if case .array(let items)? = entity["relationships"] {
                        for case .object(let r) in items {
                            if case .string(let n)? = r["name"], case .string(let d)? = r["destination"] {
                                relationships.append(Self.html(n) + " → " + Self.link(d, "/" + Page.encode(d)))
                            }
                        }
                    }
                    body += "<tr><td>\(Self.link(name, "/" + Page.encode(name)))</td><td class=n>\(count)</td>"
                        + "<td>\(relationships.joined(separator: ", "))</td></tr>\n"
                }
            }
            return Self.page(title: database.name, body: body + "</table>")
        case .rows(let entityName):
            return try await rows(entityName, query: query)
        case .sql(let entityName):
            let page = try page(entityName, query: query)
            return Self.page(
                title: page.entity.name + " SQL",
                body: nav(page.entity) + "<h2>SQL</h2>\n" + Self.sql(page.query.statement) + "<h2>Count</h2>\n"
                    + Self.sql(page.countStatement))
        case .why(let entityName, let id):
            let page = try page(entityName, query: query)
            let why = try await api.explanation(entityName, id: id, query: query, admission: admission)
            var body = nav(page.entity) + "<h2>Why \(Self.html(page.entity.name)) \(Self.html(id)) "
                + (why.parts.first?.matches ?? true ? "matches" : "does not match") + "</h2>\n<pre class=why>"
            for part in why.parts {
                body += String(repeating: "    ", count: part.depth) + (part.matches ? "<b class=yes>✓</b> " : "<b class=no>✗</b> ")
                    + Self.html(part.predicate) + "\n"
            }
            body += "</pre>\n<h2>Row</h2>\n<pre>\(Self.html(why.row.jsonText))</pre>"
            return Self.page(title: "Why " + page.entity.name + " " + id, body: body)
        }
    }

    /// The page's fetch; a problem in its parameters is shown on the page,
    /// under the filter box, with the caret under the text.
    private func page(_ entityName: String, query: String) throws -> Page {
        try api.page(entityName, query: query)
    }

    private func rows(_ entityName: String, query: String) async throws -> Response {
        let entity = try api.entity(entityName)
        let page: Page
        do {
            page = try self.page(entityName, query: query)
        } catch let problem as RequestProblem {
            return Self.page(
                title: entity.name,
                body: form(entity: entity, query: query) + Self.problemBlock(problem), status: problem.status)
        }
        let count = try await admission.run { try $0.count(page.countStatement) }
        var columns: [String] = []
        for column in page.query.columns where !columns.contains(column.composite ?? column.name) {
            columns.append(column.composite ?? column.name)
        }
        // The rows are written as they are read, as the JSON API writes
        // them: the count of those shown comes from the count and the page.
        var head = form(entity: entity, query: query)
        let offset = page.request.offset
        let expected = max(0, min(page.request.limit ?? .max, count - offset))
        let shown = expected == 0 ? "0" : "\(offset + 1)–\(offset + expected)"
        head += "<p>\(count) matching, rows \(shown).</p>\n<table>\n<tr><th></th>"
        let sort = ServerAPI.parameters(query)["sort"] ?? ""
        for column in columns {
            // A key that is no attribute (a primary key the schema leaves out) sorts nothing.
            guard entity.attribute(named: column) != nil else {
                head += "<th>\(Self.html(column))</th>"
                continue
            }
            let ascending = column + " ASC"
            let next = sort == ascending ? column + " DESC" : ascending
            let mark = sort == ascending ? " ▲" : (sort == column + " DESC" ? " ▼" : "")
            head += "<th>" + Self.link(column + mark, "?" + page.withQuery(["sort": next, "offset": nil])) + "</th>"
        }
        let relationships = entity.relationships.compactMap { r in relationshipFilter(r, of: entity).map { (r.name, r.destination, $0) } }
        for r in relationships { head += "<th>\(Self.html(r.0))</th>" }
        head += "</tr>\n"
        // The why of a row: this page's filter and variables.
        let whyQuery = page.withQuery(["sort": nil, "limit": nil, "offset": nil])
        var tail = "</table>\n<p>"
        if let limit = page.request.limit, page.request.offset > 0 {
            let previous = max(0, page.request.offset - limit)
            tail += Self.link("← previous", "?" + page.withQuery(["offset": String(previous)])) + " "
        }
        if let next = page.nextQuery(count: count) { tail += Self.link("next →", "?" + next) }
        tail += "</p>\n<details><summary>SQL</summary>\n" + Self.sql(page.query.statement) + "</details>"
        let (before, after) = Self.frame(title: entity.name)
        let (columnNames, opening, closing) = (columns, before + head, tail)
        let rowHTML: @Sendable (ServedDatabase, [Value], Bool) -> String = { database, row, _ in
            guard case .object(let o) = database.rowJSON(page.query, row) else { return "" }
            return Self.row(o, entity: entity, columns: columnNames, relationships: relationships, whyQuery: whyQuery)
        }
        let (admission, chunk) = (self.admission, max(1, api.settings.rowsPerChunk))
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: opening))
            let failure = try await ServerAPI.streamRows(page, chunk: chunk, admission: admission, text: rowHTML) { piece in
                try await writer.write(ByteBuffer(string: piece))
            }
            // Past the timeout once rows are written (the status is sent):
            // the rows so far, then the problem.
            let end = failure.map { "</table>\n" + Self.problemBlock($0) } ?? closing
            admission.end()
            try await writer.write(ByteBuffer(string: end + after))
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: body)
    }

    /// One row of a page's table: its why link, its cells, and a link for
    /// each relationship to the related objects.
    static func row(
        _ row: JSONObject, entity: Entity, columns: [String], relationships: [(String, String, String)], whyQuery: String
    ) -> String {
        let key = row[entity.primaryKey]
        var text = "<tr><td>"
        if let key, let id = keyText(key) {
            text += link("why", "/\(Page.encode(entity.name))/why/\(Page.encode(id))" + (whyQuery.isEmpty ? "" : "?" + whyQuery))
        }
        text += "</td>"
        for column in columns {
            text += "<td>\(html(cell(row[column] ?? .null)))</td>"
        }
        for (name, destination, filter) in relationships {
            guard let key else { text += "<td></td>"; continue }
            // The object as a variable: a dictionary of its primary key, as the lowering takes one.
            let object = JSONValue.object(JSONObject([(entity.primaryKey, key)])).jsonText
            text += "<td>" + link(
                name, "/\(Page.encode(destination))?filter=" + Page.encode(filter) + "&var.object=" + Page.encode(object))
                + "</td>"
        }
        return text + "</tr>\n"
    }

    /// The filter that finds the objects a relationship of `$object`
    /// leads to, through the relationship back (`author` of a memo → `ANY
    /// memos == $object` on Author): the inverse the model names, else the
    /// one stored in the same column or join table; nil without one.
    private func relationshipFilter(_ r: Relationship, of entity: Entity) -> String? {
        guard let destination = database.schema.entity(named: r.destination) else { return nil }
        let back = destination.relationships.first { b in
            if let inverse = r.inverse { return b.name == inverse }
            guard b.destination.lowercased() == entity.name.lowercased() else { return false }
            switch (r.kind, b.kind) {
            case (.toOne(let c), .toMany(let d)), (.toMany(let c), .toOne(let d)): return c == d
            case (.manyToMany(let t, let s, let d), .manyToMany(let u, let s2, let d2)): return t == u && s == d2 && d == s2
            default: return false
            }
        }
        guard let back else { return nil }
        let toOne: Bool
        switch database.schema.kind(of: back) {
        case .toOne, .oneToOne: toOne = true
        case .toMany, .manyToMany: toOne = false
        }
        return (toOne ? "" : "ANY ") + back.name + " == $object"
    }

    /// A primary key as the path of a why page takes it.
    static func keyText(_ key: JSONValue) -> String? {
        switch key {
        case .int(let i): return String(i)
        case .string(let s): return s
        default: return nil
        }
    }

    private func nav(_ entity: Entity) -> String {
        "<p>" + Self.link(database.name, "/") + " / " + Self.link(entity.name, "/" + Page.encode(entity.name)) + "</p>\n"
    }

    /// The filter box, with the sort and limit the page has.
    private func form(entity: Entity, query: String) -> String {
        let given = ServerAPI.parameters(query)
        var text = nav(entity) + "<form method=get action=\"/\(Self.html(Page.encode(entity.name)))\">"
        text += "<input name=filter size=80 placeholder=\"a predicate: year &gt; 1980\" value=\"\(Self.html(given["filter"] ?? ""))\">"
        for (name, value) in given.sorted(by: { $0.key < $1.key }) where name == "sort" || name == "limit" || name.hasPrefix("var.") {
            text += "<input type=hidden name=\"\(Self.html(name))\" value=\"\(Self.html(value))\">"
        }
        return text + " <button type=submit>Filter</button></form>\n"
    }

    /// A problem with the parameter's text and the caret under it.
    static func problemBlock(_ problem: RequestProblem) -> String {
        var text = "<div class=problem><p><b>\(html(problem.title))</b>: \(html(problem.detail))</p>"
        if let parameter = problem.parameter, let value = problem.value {
            text += "<pre>\(html(parameter))=\(html(value))\n"
            if let caret = problem.caret { text += String(repeating: " ", count: parameter.count + 1) + "<span class=caret>\(html(caret))</span>" }
            text += "</pre>"
        }
        return text + "</div>\n"
    }

    static func problemPage(_ problem: RequestProblem, database: ServedDatabase) -> Response {
        page(title: problem.title, body: "<p>" + link(database.name, "/") + "</p>\n" + problemBlock(problem), status: problem.status)
    }

    static func sql(_ statement: BoundStatement) -> String {
        "<pre>\(html(statement.description))</pre>\n"
    }

    /// A value in a cell: text as it is, other values as JSON.
    static func cell(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .string(let s): return s
        default: return value.jsonText
        }
    }

    static func link(_ text: String, _ href: String) -> String {
        "<a href=\"\(html(href))\">\(html(text))</a>"
    }

    /// Text for HTML, in an element or a quoted attribute.
    static func html(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text.unicodeScalars {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }

    static let style = """
        body{font:14px system-ui,sans-serif;margin:1.5em}table{border-collapse:collapse}\
        td,th{border:1px solid #ccc;padding:2px 6px;text-align:left;vertical-align:top}td.n{text-align:right}\
        pre{background:#f4f4f4;padding:6px}.problem{color:#a00}.caret{color:#d00;font-weight:bold}\
        .yes{color:#070}.no{color:#b00}
        """

    /// A page's text before and after its body.
    static func frame(title: String) -> (before: String, after: String) {
        (
            "<!doctype html>\n<html><head><meta charset=utf-8><title>\(html(title))</title>"
                + "<style>\(style)</style></head>\n<body>\n", "\n</body></html>\n"
        )
    }

    static func page(title: String, body: String, status: Int = 200) -> Response {
        let (before, after) = frame(title: title)
        let text = before + body + after
        return Response(
            status: HTTPResponse.Status(code: status), headers: [.contentType: "text/html; charset=utf-8"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }
}
