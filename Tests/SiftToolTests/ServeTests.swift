#if SIFT_POSTGRES
import Foundation
import GRDB
import Sift
import SiftTestSupport
import Testing

/// `sift serve` end to end: the real binary on a free port, requests over
/// HTTP on loopback, rows compared with `sift query --output json` on the
/// same database.
@Suite(.serialized)
struct ServeTests {
    let command = CommandLineTests()

    /// Predicates over the sample data, each with the entity it filters and
    /// a sort that orders every row.
    static let samplePredicates: [(entity: String, sort: String, predicates: [String])] = [
        ("Book", "title", [
            "year > 1950", "year < 1900", "year == nil", "year != nil", "pages >= 300", "price < 10",
            "price BETWEEN {5, 12}", "rating > 4.0", "language == 'en'", "language IN {'en', 'fr'}",
            "title BEGINSWITH 'The'", "title CONTAINS[c] 'the'", "title ENDSWITH 's'", "title LIKE '*a*'",
            "title MATCHES '.*[0-9].*'", "title CONTAINS[cd] 'e'", "ANY authors.name BEGINSWITH 'G'",
            "authors.@count > 1", "tags.@count == 0", "ANY tags.name == 'classic'", "NONE tags.name == 'classic'",
            "memos.@count > 0", "SUBQUERY(authors, $a, $a.born < 1900).@count > 0", "year > 1950 AND pages < 400",
            "year < 1900 OR rating >= 4.5", "NOT (language == 'en')", "title ==[c] 'emma'", "price * 2 > 20",
            "year >= 1900 AND year <= 1999", "ANY memos.pinned == YES", "pages > year / 5", "rating == nil OR price == nil",
        ]),
        ("Author", "name", [
            "born < 1900", "born == nil", "country == 'Russia'", "country IN {'Colombia', 'Russia'}",
            "name CONTAINS 'a'", "books.@count >= 2", "ANY books.year > 1960", "name BEGINSWITH[cd] 'g'",
            "memos.@count == 0", "born > 1900 AND country != nil", "books.@avg.year > 1950",
        ]),
        ("Tag", "name", [
            "name BEGINSWITH 'c'", "books.@count > 2", "ANY books.year < 1900", "name IN {'classic', 'fantasy'}",
            "name MATCHES '[a-f].*'",
        ]),
        ("Memo", "title", [
            "pinned == YES", "pinned == nil", "priority > 2", "priority == nil", "body CONTAINS[c] 'caf'",
            "body == nil", "author.name BEGINSWITH 'G'", "author == nil", "book.year > 1960",
            "book.title CONTAINS 'a' AND pinned == NO", "title ==[cd] 'cafe reading list'", "title CONTAINS 'ß'",
        ]),
    ]

    /// The rows of `sift query DATABASE ENTITY PREDICATE --output json`.
    /// (With the sample's `schema.json` beside the sample's file.)
    func queryRows(_ database: String, _ entity: String, _ predicate: String, sort: String?) throws -> JSONValue? {
        let schema = URL(fileURLWithPath: database).deletingLastPathComponent().appendingPathComponent("schema.json")
        let run = try command.sift(
            ["query", database, entity, predicate, "--output", "json"] + (sort.map { ["--sort", $0] } ?? [])
                + (FileManager.default.fileExists(atPath: schema.path) ? ["--schema", schema.path] : []),
            timeout: 120)
        guard run.status != 2 else { return nil }
        #expect(run.status == 0 || run.status == 1, "\(entity) \(predicate): \(run.stderr)")
        return try JSONValue(parsing: run.stdout)
    }

    /// The rows the server returns for the same fetch, and checks its count.
    func servedRows(_ server: ServeProcess, _ entity: String, _ predicate: String, sort: String?) async throws
        -> JSONValue?
    {
        let reply = try await server.get(
            "/\(entity).json?"
                + ServeProcess.query([("filter", predicate), ("limit", "1000")] + (sort.map { [("sort", $0)] } ?? [])))
        if reply.status == 422, try reply.member("type") == .string("urn:sift:problem:sql") { return nil }
        #expect(reply.status == 200, "\(entity) \(predicate): \(reply.text)")
        guard reply.status == 200, case .array(let rows)? = try reply.member("rows") else { return nil }
        #expect(try reply.member("count") == .int(rows.count), "\(entity) \(predicate)")
        #expect(try reply.member("next") == nil)
        return .array(rows)
    }

    /// Each predicate through the API and through `sift query`: the same
    /// rows, or both refuse it (no exact SQL: a 422 `sql` problem, and exit
    /// status 2); the number of predicates that gave rows.
    /// Without a sort, the rows are compared in an order of their own.
    func compare(_ server: ServeProcess, _ database: String, _ entity: String, sort: String?, _ predicates: [String])
        async throws -> Int
    {
        var compared = 0
        for predicate in predicates {
            var served = try await servedRows(server, entity, predicate, sort: sort)
            var queried = try queryRows(database, entity, predicate, sort: sort)
            if sort == nil { (served, queried) = (served.map(Self.ordered), queried.map(Self.ordered)) }
            #expect(served == queried, "\(entity) \(predicate)")
            if served != nil && served == queried { compared += 1 }
        }
        return compared
    }

    /// Rows in the order of their JSON text.
    static func ordered(_ rows: JSONValue) -> JSONValue {
        guard case .array(let items) = rows else { return rows }
        return .array(items.sorted { $0.jsonText < $1.jsonText })
    }

    @Test func sampleRowsEqualQuery() async throws {
        let server = try ServeProcess(["--sample"])
        let path = try #require(server.samplePath)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        let before = try ServeProcess.snapshot(folder)
        var compared = 0
        for (entity, sort, predicates) in Self.samplePredicates {
            compared += try await compare(server, path, entity, sort: sort, predicates)
        }
        #expect(compared >= 50)

        // The index: entities, counts, attributes, relationships.
        let index = try await server.get("/.json")
        #expect(index.status == 200 && index.contentType.hasPrefix("application/json"))
        guard case .array(let entities)? = try index.member("entities") else {
            Issue.record("no entities: \(index.text)")
            return
        }
        let counts = entities.compactMap { e -> (String, Int)? in
            guard case .object(let o) = e, case .string(let n)? = o["name"], case .int(let c)? = o["count"] else { return nil }
            return (n, c)
        }
        #expect(counts.map(\.0) == ["Book", "Author", "Tag", "Memo"])
        #expect(counts.map(\.1) == [20, 14, 8, 10])
        #expect(index.text.contains(#""name": "authors""#) || index.text.contains(#""name":"authors""#))

        // Accept: application/json on the page's path answers JSON too.
        let accepted = try await server.get("/Tag?limit=2", accept: "application/json")
        #expect(accepted.status == 200 && accepted.contentType.hasPrefix("application/json"))
        #expect(try accepted.member("count") == .int(8))

        // Pages: `next` until the last page, which has none; the same rows as one fetch.
        var next: String? = "/Book.json?" + ServeProcess.query([("sort", "title"), ("limit", "6")])
        var paged: [JSONValue] = []
        var pages = 0
        while let url = next {
            let page = try await server.get(url)
            #expect(page.status == 200, "\(page.text)")
            guard case .array(let rows)? = try page.member("rows") else { break }
            paged += rows
            pages += 1
            if case .string(let n)? = try page.member("next") { next = n } else { next = nil }
        }
        #expect(pages == 4)
        #expect(JSONValue.array(paged) == (try queryRows(path, "Book", "TRUEPREDICATE", sort: "title")))

        // The SQL, with its bound values.
        let sql = try await server.get("/Book/sql.json?" + ServeProcess.query([("filter", "title BEGINSWITH 'The'")]))
        #expect(sql.status == 200)
        if case .string(let text)? = try sql.member("sql") { #expect(text.contains("SELECT") && !text.contains("'The'")) }
        #expect(try sql.member("bindings") != nil)

        // Why: each part, answered as the rows are.
        let why = try await server.get(
            "/Book/why/1.json?" + ServeProcess.query([("filter", "year > 1960 AND NOT (pages > 1000)")]))
        #expect(why.status == 200, "\(why.text)")
        guard case .array(let parts)? = try why.member("parts") else {
            Issue.record("no parts: \(why.text)")
            return
        }
        #expect(parts.count == 4)
        let matches = try why.member("matches")
        guard case .array(let listed)? = try await servedRows(server, "Book", "year > 1960 AND NOT (pages > 1000)", sort: nil)
        else { return }
        let one = listed.contains { if case .object(let o) = $0 { o["id"] == .int(1) } else { false } }
        #expect(matches == .bool(one))
        // The page's rows link each relationship to the related objects.
        let memos = try await server.get("/Memo?sort=title")
        #expect(memos.status == 200 && memos.contentType.hasPrefix("text/html"))
        // Every sort link of the page is a sort the server takes.
        let sorts = memos.text.components(separatedBy: "href=\"?").dropFirst().map {
            $0.prefix { $0 != "\"" }.replacingOccurrences(of: "&amp;", with: "&")
        }
        #expect(sorts.count >= 5)
        for sort in sorts {
            #expect((try await server.get("/Memo.json?" + sort)).status == 200, "\(sort)")
        }
        let href = try #require(
            memos.text.components(separatedBy: "href=\"").dropFirst().map { $0.prefix { $0 != "\"" } }
                .first { $0.hasPrefix("/Author?filter=") })
        let link = href.replacingOccurrences(of: "&amp;", with: "&")
        let object = try #require(
            link.components(separatedBy: "&var.object=").last?.removingPercentEncoding, "\(link)")
        let filter = try #require(
            link.components(separatedBy: "&").first?.dropFirst("/Author?filter=".count).removingPercentEncoding)
        let related = try await server.get(link, accept: "application/json")
        #expect(related.status == 200, "\(related.text)")
        let run = try command.sift([
            "query", path, "Author", filter.replacingOccurrences(of: "$object", with: "%@"), "--arg", object,
            "--schema", folder.appendingPathComponent("schema.json").path, "--output", "json",
        ])
        #expect(try related.member("rows") == (try JSONValue(parsing: run.stdout)), "\(link) \(run.stderr)")
        #expect(try related.member("count") != .int(0))
        let missing = try await server.get("/Book/why/999.json")
        #expect(missing.status == 404 && missing.contentType.hasPrefix("application/problem+json"))

        server.stop()
        #expect(try ServeProcess.snapshot(folder) == before)
        try? FileManager.default.removeItem(at: folder)
    }

    /// A problem document: its status, type and parameter.
    func expectProblem(
        _ server: ServeProcess, _ path: String, status: Int, type: String, parameter: String? = nil,
        caret: Bool = false, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let reply = try await server.get(path)
        #expect(reply.status == status, "\(path): \(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.contentType.hasPrefix("application/problem+json"), sourceLocation: sourceLocation)
        #expect(try reply.member("type") == .string("urn:sift:problem:" + type), "\(reply.text)", sourceLocation: sourceLocation)
        if let parameter {
            #expect(try reply.member("parameter") == .string(parameter), sourceLocation: sourceLocation)
        }
        if caret {
            #expect(try reply.member("caret") != nil, "\(reply.text)", sourceLocation: sourceLocation)
        }
    }

    @Test func problemsAndPolicy() async throws {
        let open = try ServeProcess(["--sample", "--max-limit", "100"])
        let q = ServeProcess.query
        try await expectProblem(open, "/Book.json?" + q([("filter", "year >")]), status: 400, type: "syntax", parameter: "filter", caret: true)
        try await expectProblem(open, "/Book.json?" + q([("fitler", "year > 1")]), status: 400, type: "parameter", parameter: "fitler")
        try await expectProblem(open, "/Book.json?" + q([("limit", "101")]), status: 400, type: "limit", parameter: "limit")
        try await expectProblem(open, "/Book.json?" + q([("sort", "title ASCENDING,")]), status: 400, type: "syntax", parameter: "sort")
        try await expectProblem(open, "/Nope.json", status: 404, type: "not-found")
        try await expectProblem(open, "/Book.json?" + q([("filter", "$x > 1")]), status: 400, type: "variable", parameter: "filter")
        // A variable's value is bound: a string that would close a literal is only a value.
        let bound = try await open.get("/Book.json?" + q([("filter", "title == $t"), ("var.t", #""x' OR '1'='1""#)]))
        #expect(try bound.status == 200 && bound.member("count") == .int(0))
        open.stop()

        let guarded = try ServeProcess(["--sample", "--allow", "title,year,authors.name", "--budget", "400000"])
        try await expectProblem(guarded, "/Book.json?" + q([("filter", "year > 1 AND pages > 3")]), status: 422, type: "policy", parameter: "filter", caret: true)
        try await expectProblem(guarded, "/Book.json?" + q([("filter", "title MATCHES 'a.*'")]), status: 422, type: "policy", parameter: "filter")
        try await expectProblem(guarded, "/Book.json?" + q([("sort", "pages")]), status: 422, type: "policy", parameter: "sort")
        // Past the budget: a search on a record of the largest size.
        try await expectProblem(guarded, "/Book.json?" + q([("filter", "ANY authors.name CONTAINS[cd] 'a'")]), status: 422, type: "cost", parameter: "filter")
        // What the policy allows is served, and the server keeps serving after refusals.
        let allowed = try await guarded.get("/Book.json?" + q([("filter", "year > 1950"), ("sort", "title")]))
        #expect(allowed.status == 200, "\(allowed.text)")
        let path = try #require(guarded.samplePath)
        #expect(try allowed.member("rows") == (try queryRows(path, "Book", "year > 1950", sort: "title")))
        guarded.stop()
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: path).deletingLastPathComponent())
    }

    /// A SQLite file of `rows` people whose names make a slow search.
    static func slowDatabase(rows: Int) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-serve-slow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("people.sqlite")
        let queue = try DatabaseQueue(path: file.path)
        try queue.inTransaction { db in
            try db.execute(sql: "CREATE TABLE people (id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            let words = ["Ångström", "Zoë", "Ñandú", "Straße", "Émile", "Chloé", "İpek", "Ødegaard"]
            for i in 0..<rows {
                try db.execute(
                    sql: "INSERT INTO people (id, name) VALUES (?, ?)",
                    arguments: [i + 1, (0..<6).map { words[($0 * 7 + i) % words.count] }.joined(separator: " ")])
            }
            return .commit
        }
        try queue.close()
        return folder
    }

    static let slowFilter = "name CONTAINS[cd] 'zzzq' OR name ENDSWITH[cd] 'qq' OR name LIKE[cd] '*x*y*'"

    @Test func timeoutAndBusy() async throws {
        let folder = try Self.slowDatabase(rows: 100_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("people.sqlite").path
        let before = try ServeProcess.snapshot(folder)
        let q = ServeProcess.query
        let server = try ServeProcess([path, "--timeout", "0.05"])
        try await expectProblem(server, "/people.json?" + q([("filter", Self.slowFilter)]), status: 503, type: "timeout")
        // The server goes on serving.
        let after = try await server.get("/people.json?limit=1")
        #expect(try after.status == 200 && after.member("count") == .int(100_000))
        server.stop()

        // Past the time while rows are written to a client that does not
        // read (the status is sent): the rows so far, and the problem as
        // "error" in place of "next", still one JSON document.
        let streaming = try ServeProcess([path, "--timeout", "0.5", "--max-limit", "100000"])
        let cut = try await streaming.get("/people.json?limit=100000", pause: 2)
        #expect(cut.status == 200)
        guard case .object(let document) = try cut.json(), case .array(let rows)? = document["rows"],
            case .object(let error)? = document["error"]
        else {
            Issue.record("not a page with an error: \(cut.text.suffix(300))")
            return
        }
        #expect(error["type"] == .string("urn:sift:problem:timeout") && error["status"] == .int(503), "\(error)")
        #expect(rows.count < 100_000 && document["next"] == nil && document["count"] == .int(100_000))
        #expect((try await streaming.get("/people.json?limit=1")).status == 200)
        streaming.stop()

        // One request at a time: others at once are refused, not queued.
        let single = try ServeProcess([path, "--max-requests", "1", "--timeout", "30"])
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask { try await single.get("/people.json?" + q([("filter", Self.slowFilter)])).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.contains(503) && statuses.contains(200), "\(statuses)")
        #expect((try await single.get("/.json")).status == 200)
        single.stop()
        #expect(try ServeProcess.snapshot(folder) == before)
    }

    /// With two connections a quick request is answered while a slow one
    /// runs, instead of waiting behind it.
    @Test func connectionsRunAtOnce() async throws {
        let folder = try Self.slowDatabase(rows: 100_000)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("people.sqlite").path
        let server = try ServeProcess([path, "--connections", "2", "--timeout", "60"])
        defer { server.stop() }
        let order = try await withThrowingTaskGroup(of: String.self) { group in
            group.addTask {
                let slow = try await server.get("/people.json?" + ServeProcess.query([("filter", Self.slowFilter)]))
                return "slow \(slow.status)"
            }
            try await Task.sleep(for: .milliseconds(200))
            group.addTask {
                let quick = try await server.get("/people.json?limit=1")
                return "quick \(quick.status)"
            }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(order == ["quick 200", "slow 200"])
    }

    @Test func injectionChangesNothing() async throws {
        let server = try ServeProcess(["--sample"])
        let path = try #require(server.samplePath)
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try ServeProcess.snapshot(folder)
        let index = try await server.get("/.json")
        let q = ServeProcess.query
        for text in HostileStrings.all {
            let literal = JSONValue.string(text).jsonText
            var paths = [
                "/Book.json?" + q([("filter", "title == $t"), ("var.t", literal)]),
                "/Book.json?" + q([("filter", text)]),
                "/Book.json?" + q([("filter", "title CONTAINS " + literal)]),
                "/Book.json?" + q([("sort", text)]),
                "/Book.json?" + q([("select", text)]),
                "/Book/sql.json?" + q([("filter", text)]),
                "/Book/why/" + q([("", text)]).dropFirst() + ".json",
            ]
            if let entity = q([("", text)]).dropFirst().nilIfEmpty { paths.append("/\(entity).json") }
            for path in paths {
                let reply = try await server.get(path)
                #expect([200, 400, 404, 422].contains(reply.status), "\(path): \(reply.text)")
            }
            // A string with NUL has no exact SQL form (refused); any other is only a value.
            if !text.unicodeScalars.contains("\u{0}") {
                let bound = try await server.get(paths[0])
                #expect(try bound.member("count") == .int(0), "\(text)")
            }
        }
        #expect((try await server.get("/.json")).body == index.body)
        server.stop()
        #expect(try ServeProcess.snapshot(folder) == before)
    }

    @Test func pageEscapesEverything() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-serve-html-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("hostile.sqlite")
        let queue = try DatabaseQueue(path: file.path)
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            try db.execute(sql: "INSERT INTO notes VALUES (1, '<script>alert(1)</script>'), (2, 'a \"quoted\" & <b>bold</b>')")
            try db.execute(sql: #"CREATE TABLE "<img src=x onerror=alert(2)>" (id INTEGER PRIMARY KEY, n INTEGER)"#)
        }
        try queue.close()
        let server = try ServeProcess([file.path])
        let index = try await server.get("/")
        #expect(index.status == 200 && index.contentType.hasPrefix("text/html"))
        #expect(!index.text.contains("<img") && index.text.contains("&lt;img src=x onerror=alert(2)&gt;"), "\(index.text)")
        let entities = try await server.get("/.json")
        let note = entities.text.contains(#""Note""#) ? "Note" : "notes"
        let rows = try await server.get("/\(note)")
        #expect(rows.status == 200)
        #expect(!rows.text.contains("<script>alert") && rows.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!rows.text.contains("<b>bold") && rows.text.contains("a &quot;quoted&quot; &amp; &lt;b&gt;bold"))
        #expect(!rows.text.contains("<script"), "the page has no script")
        let hostile = try await server.get("/\(note)?" + ServeProcess.query([("filter", #"body == "<script>x</script>""#)]))
        #expect(hostile.status == 200 && !hostile.text.contains("<script>x"))
        #expect(hostile.text.contains("&lt;script&gt;x&lt;/script&gt;"))
        // A filter that does not read: the problem on the page, the caret under the text.
        let broken = try await server.get("/\(note)?" + ServeProcess.query([("filter", "body == <b>")]))
        #expect(broken.status == 400)
        #expect(broken.text.contains("filter=body == &lt;b&gt;") && broken.text.contains("<span class=caret>"), "\(broken.text)")
        server.stop()
    }

    /// Predicates any schema has: each attribute nil and not nil, each
    /// relationship empty or not.
    static func schemaPredicates(_ index: JSONValue) -> [(String, [String])] {
        guard case .object(let o) = index, case .array(let entities)? = o["entities"] else { return [] }
        return entities.compactMap { e in
            guard case .object(let entity) = e, case .string(let name)? = entity["name"] else { return nil }
            var predicates: [String] = []
            if case .array(let attributes)? = entity["attributes"] {
                for case .object(let a) in attributes {
                    if case .string(let n)? = a["name"], case .string(let t)? = a["type"], !t.hasPrefix("unsupported") {
                        predicates += ["\(n) == nil", "\(n) != nil"]
                    }
                }
            }
            if case .array(let relationships)? = entity["relationships"] {
                for case .object(let r) in relationships {
                    if case .string(let n)? = r["name"], case .string(let k)? = r["kind"] {
                        predicates.append(k.hasSuffix("many") ? "\(n).@count > 0" : "\(n) != nil")
                    }
                }
            }
            return (name, predicates)
        }
    }

    @Test func coreDataStore() async throws {
        let source = try RealStores.folder().appendingPathComponent("cdp_sample1")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-serve-store-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: source, to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("SampleModel_V1.sqlite").path
        let before = try ServeProcess.snapshot(folder)
        let server = try ServeProcess([path])
        let index = try await server.get("/.json")
        #expect(index.status == 200)
        #expect(index.text.contains("\"SportCar\""), "the model's names: \(index.text)")
        var compared = 0
        for (entity, predicates) in Self.schemaPredicates(try index.json()) {
            compared += try await compare(server, path, entity, sort: nil, predicates)
        }
        #expect(compared >= 10)
        server.stop()
        #expect(try ServeProcess.snapshot(folder) == before)
    }

    @Test func postgres() async throws {
        guard let (url, connection) = try await PostgresCommandLineTests.library(database: "sift_serve") else { return }
        defer { PostgresServer.close(connection) }
        let server = try ServeProcess([url])
        let index = try await server.get("/.json")
        #expect(index.status == 200)
        #expect(!index.text.contains(PostgresCommandLineTests.password))
        var compared = 0
        for (entity, predicates) in Self.schemaPredicates(try index.json()) {
            compared += try await compare(server, url, entity, sort: nil, predicates)
        }
        compared += try await compare(server, url, "books", sort: "title", [
            "year > 1900", "author.name BEGINSWITH[c] 'u'", "ANY tags.name == 'sf'", "price * 2 >= 17",
            "title CONTAINS[cd] 'the'", "year == nil OR price < 9",
        ])
        #expect(compared >= 15)
        let why = try await server.get("/books/why/2.json?" + ServeProcess.query([("filter", "year > 1970 AND price < 5")]))
        #expect(try why.status == 200 && why.member("matches") == .bool(false), "\(why.text)")
        server.stop()
    }

    /// On PostgreSQL a page is read through a server-side cursor, a batch
    /// at a time: a page of 200,000 rows, JSON or HTML, takes the server
    /// little more memory than one of 1,000 (peak resident size), a
    /// client that stops reading gets the timeout as "error", and the
    /// connection, its transaction ended, serves the next request.
    @Test func postgresPagesStreamFromACursor() async throws {
        guard let (url, connection) = try await PostgresCommandLineTests.library(database: "sift_serve_cursor") else { return }
        defer { PostgresServer.close(connection) }
        try await PostgresServer.setUp(connection, [
            "CREATE TABLE people (id bigint PRIMARY KEY, name text NOT NULL, age integer)",
            "INSERT INTO people SELECT n, 'person ' || n || repeat('x', 40), n % 90 FROM generate_series(1, 200000) n",
        ])
        let server = try ServeProcess([url, "--connections", "1", "--max-limit", "200000", "--timeout", "30"])
        let small = try await server.get("/people.json?limit=1000&sort=id")
        #expect(try small.status == 200 && small.member("count") == .int(200_000))
        let before = try Self.peakMegabytes(server)
        let large = try await server.get("/people.json?limit=200000&sort=id")
        guard case .object(let page) = try large.json(), case .array(let rows)? = page["rows"] else {
            Issue.record("not a page: \(large.text.prefix(300))")
            return
        }
        #expect(rows.count == 200_000 && page["error"] == nil)
        #expect(rows.last == .object(JSONObject([
            ("id", .int(200_000)), ("name", .string("person 200000" + String(repeating: "x", count: 40))), ("age", .int(20)),
        ])))
        // The page's JSON alone is some 14 MB, its rows as values more.
        if let before, let after = try Self.peakMegabytes(server) {
            #expect(after - before < 8, "peak \(before) MB before the large page, \(after) MB after")
        }
        // The HTML page is written as its rows are read too.
        let html = try await server.get("/people?limit=200000&sort=id")
        #expect(html.status == 200 && html.text.contains("200000 matching, rows 1–200000."))
        #expect(html.text.contains("<td>person 200000" + String(repeating: "x", count: 40) + "</td>"))
        #expect(html.text.hasSuffix("</body></html>\n"))
        if let before, let after = try Self.peakMegabytes(server) {
            #expect(after - before < 8, "peak \(before) MB before the large pages, \(after) MB after")
        }
        server.stop()

        // A page far larger than the loopback socket's buffers (some 10 MB
        // here; the 14 MB page above once fitted, and was written whole
        // before the client read on): the server waits on the client that
        // pauses, and its timeout cuts the page short.
        try await PostgresServer.setUp(connection, [
            "CREATE TABLE wide (id bigint PRIMARY KEY, pad text NOT NULL)",
            "INSERT INTO wide SELECT n, repeat('x', 1000) FROM generate_series(1, 60000) n",
        ])
        let slow = try ServeProcess([url, "--connections", "1", "--max-limit", "200000", "--timeout", "0.5"])
        let cut = try await slow.get("/wide.json?limit=60000", pause: 2)
        guard case .object(let cutPage) = try cut.json(), case .object(let error)? = cutPage["error"] else {
            Issue.record("not a page cut short: \(cut.text.suffix(300))")
            return
        }
        #expect(error["type"] == .string("urn:sift:problem:timeout"))
        let next = try await slow.get("/people.json?limit=2&sort=id")
        #expect(try next.status == 200 && next.member("count") == .int(200_000), "\(next.text)")
        slow.stop()
    }

    /// The peak resident size of `server`'s process, in MB (VmHWM); nil
    /// where there is no `/proc`.
    static func peakMegabytes(_ server: ServeProcess) throws -> Int? {
        #if !os(Linux)
        return nil
        #endif
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
        return kilobytes / 1024
    }
}

extension Substring {
    fileprivate var nilIfEmpty: Substring? { isEmpty ? nil : self }
}
#endif
