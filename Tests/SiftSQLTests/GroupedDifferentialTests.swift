import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Grouped and aggregate fetches: memory's dictionaries (`GroupedFetch`)
/// against SQLite's and PostgreSQL's, for generated requests over the
/// Library (with a few more rows: negative numbers, NaN, -0.0, NFC and NFD
/// spellings), and hand-computed answers for each rule of the lowering.
@Suite(.serialized)
struct GroupedDifferentialTests {
    static let seed: UInt64 = {
        if let s = ProcessInfo.processInfo.environment["SIFT_SEED"], let n = UInt64(s) { return n }
        return 20_261_128
    }()
    static let cases = Int(ProcessInfo.processInfo.environment["SIFT_GROUPED_CASES"] ?? "") ?? 2000
    /// The sharded profile answers every `shardedStride`th request
    /// (`SIFT_SHARDED_GROUPED_STRIDE`, 4 unless set): a request there takes
    /// about 20 ms, most of it the shards' round trips for the correlated
    /// `chapters.@count` subqueries (12-28 ms for one such filter, 1 ms
    /// without), so all 2,000 would add about 35 s to `make test`.
    /// `SIFT_SHARDED_GROUPED_STRIDE=1` runs every one.
    static let shardedStride = max(1, Int(ProcessInfo.processInfo.environment["SIFT_SHARDED_GROUPED_STRIDE"] ?? "") ?? 4)

    struct Engines {
        let books: [Value]
        let sqlite: DatabaseQueue
        let postgres: PostgresConnection?
        /// The sharded profile's coordinator (``ShardedPostgres``), when
        /// asked for and it runs.
        var sharded: PostgresConnection? = nil

        /// The PostgreSQL servers that run, each with its name for messages.
        var servers: [(name: String, connection: PostgresConnection)] {
            [("PostgreSQL", postgres), ("sharded PostgreSQL", sharded)].compactMap { name, c in c.map { (name, $0) } }
        }

        func close() {
            PostgresServer.close(postgres)
            PostgresServer.close(sharded)
        }
    }

    /// The Library's tables holding `rows` (the books, as memory sees them,
    /// are `books`), in SQLite and, when it is there, PostgreSQL (its own
    /// schema, `name`); with `sharded`, also on the sharded profile's
    /// coordinator when it runs (`SIFT_POSTGRES_SHARDED`), in a schema of
    /// the same name, the fact tables moved to the shards.
    static func engines(_ rows: [Library.Row], _ books: [Value], schema name: String, sharded: Bool = false) async throws
        -> Engines
    {
        let db = try DifferentialTests.sqliteDatabase(Library.schema, Library.inserts(rows, .sqlite))
        let pg = try await PostgresServer.connect(schema: name, tables: Library.schema, rows: rows)
        var engines = Engines(books: books, sqlite: db, postgres: pg)
        if sharded, let coordinator = try await ShardedPostgres.connect(schema: name) {
            engines.sharded = coordinator
            do {
                try await PostgresServer.setUp(coordinator, Library.schema.createStatements(dialect: .postgreSQL))
                try await PostgresServer.setUp(coordinator, Library.inserts(rows, .postgreSQL))
                try await ShardedPostgres.distribute(coordinator, ShardedPostgres.libraryDistribution)
            } catch {
                PostgresServer.close(pg)
                throw error
            }
        }
        return engines
    }

    /// The Library of `seed` with rows for the edges the generator does not
    /// make: negative integers, NaN (nil in memory and SQLite, NaN in
    /// PostgreSQL), -0.0 beside 0.0, a string in NFC and NFD, a repeated
    /// name, doubles whose sum depends on the order of its terms. The books
    /// are in key order, the order SQL adds doubles in.
    static func library(seed: UInt64) -> (rows: [Library.Row], books: [Value]) {
        let library = Library(seed: seed)
        var rows = library.rows
        var books = library.books
        func author(_ id: Int, _ name: String, _ age: Int, _ rating: Double, _ active: Bool, _ born: Double) -> Value {
            rows.append(Library.Row(table: "authors", values: [
                "id": .integer(Int64(id)), "name": .text(name), "age": .integer(Int64(age)), "rating": .real(rating),
                "active": .boolean(active), "born": .real(born),
            ]))
            return .dictionary([
                "id": .int(id), "name": .string(name), "age": .int(age), "rating": .double(rating), "active": .bool(active),
                "born": .date(Date(timeIntervalSinceReferenceDate: born)),
            ])
        }
        let omega = author(11, "Ωmega", -5, -1.5, false, -1_000_000_000)
        let ann = author(12, "ann", 0, -0.0, true, 0)
        let huge = author(13, "Huge", 44, 1e16, true, 1)
        let tiny = author(14, "tiny", 44, 0.1, false, 2)
        let extra: [(Int, String, Int?, Double?, String?, Value)] = [
            (61, "Zeta", -44, .nan, "cafe\u{301}", omega),
            (62, "zeta", -44, -0.0, "café", ann),
            (63, "émile", 0, 0.0, nil, omega),
            (64, "Émile", 2005, -2.25, "café", ann),
            (65, "a", nil, .nan, "cafe\u{301}", .null),
            // Sums of doubles that depend on the order of their terms
            // (1e16 + 0.1 is 1e16): memory adds in the books' order, which
            // is key order, and SQL must too.
            (66, "Huge", 2000, 1e16, "café", huge),
            (67, "tiny", 2000, 0.1, nil, tiny),
            (68, "Huge", 2000, -1e16, "café", huge),
            (69, "tiny", 2000, 0.7, nil, tiny),
            (70, "a", 2000, 0.1, "cafe\u{301}", huge),
        ]
        for (id, title, year, price, code, author) in extra {
            var authorID = SQLValue.null
            if case .dictionary(let d) = author, case .int(let a)? = d["id"] { authorID = .integer(Int64(a)) }
            rows.append(Library.Row(table: "books", values: [
                "id": .integer(Int64(id)), "title": .text(title), "year": year.map { .integer(Int64($0)) } ?? .null,
                "price": price.map(SQLValue.real) ?? .null, "published": .null, "isbn code": code.map(SQLValue.text) ?? .null,
                "author_id": authorID,
            ]))
            books.append(.dictionary([
                "id": .int(id), "title": .string(title), "year": year.map(Value.int) ?? .null,
                "price": price.map(Value.double) ?? .null, "published": .null, "code": code.map(Value.string) ?? .null,
                "author": author, "chapters": .array([]), "tags": .array([]),
            ]))
        }
        return (rows, books)
    }

    // MARK: - Comparing results

    /// A value written so that two values are alike exactly when memory's
    /// and the database's answers agree: the case as well as the value (an
    /// average is a double, a count an integer), strings by their scalars,
    /// doubles by their bits (-0.0 as 0.0: one group, equal values).
    static func strict(_ v: Value) -> String {
        switch v {
        case .int(let i): return "i\(i)"
        case .double(let d): return "d\(d == 0 ? 0 : d.bitPattern)"
        case .bool(let b): return "b\(b)"
        case .string(let s): return "s" + s.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ",")
        case .date(let d): return "t\(d.timeIntervalSinceReferenceDate.bitPattern)"
        case .dictionary(let d): return "{" + d.keys.sorted().map { "\($0)=\(strict(d[$0]!))" }.joined(separator: ";") + "}"
        default: return "\(v)"
        }
    }

    /// A result's flat keys (`author.name`) as nested dictionaries, as
    /// memory's sort reads a group.
    static func nested(_ v: Value) -> Value {
        guard case .dictionary(let flat) = v else { return v }
        var out: [String: Value] = [:]
        for (key, value) in flat {
            let parts = key.split(separator: ".").map(String.init)
            func put(_ d: inout [String: Value], _ i: Int) {
                if i == parts.count - 1 { d[parts[i]] = value; return }
                var inner: [String: Value] = [:]
                if case .dictionary(let existing)? = d[parts[i]] { inner = existing }
                put(&inner, i + 1)
                d[parts[i]] = .dictionary(inner)
            }
            put(&out, 0)
        }
        return .dictionary(out)
    }

    /// Whether `rows` are in an order `sort` allows (memory's stable sort
    /// leaves them as they are).
    static func isSorted(_ rows: [Value], _ sort: [SortKey]) throws -> Bool {
        let nestedRows = rows.map(nested)
        let sorted = try FetchSpecification(sort: sort).execute(on: nestedRows)
        return sorted.map(Self.strict) == nestedRows.map(Self.strict)
    }

    /// Whether two neighbours of memory's sorted results tie in `sort`.
    static func hasTies(_ rows: [Value], _ sort: [SortKey]) throws -> Bool {
        for i in rows.indices.dropFirst() where try isSorted([rows[i], rows[i - 1]], sort) { return true }
        return false
    }

    /// What differs between memory's answer and a database's, nil if none:
    /// the same results (as a multiset), in the same order where the sort
    /// decides it, and in an order the sort allows.
    static func difference(_ memory: [Value], _ got: [Value], sort: [SortKey], total: Bool, fetchesSortKeys: Bool) throws
        -> String?
    {
        let a = memory.map(Self.strict)
        let b = got.map(Self.strict)
        if total && !sort.isEmpty { return a == b ? nil : "in order" }
        if a.sorted() != b.sorted() { return "as multisets" }
        // The sort may read grouped key paths that are not fetched.
        if !sort.isEmpty, fetchesSortKeys, try !isSorted(got, sort) { return "not in the sort's order" }
        return nil
    }

    // MARK: - Generated requests

    static let groupKeys = [
        "year", "price", "published", "code", "title", "author.name", "author.age", "author.rating", "author.active",
        "author.born",
    ]
    /// Integer arguments: attributes, a Boolean (0 and 1), a to-many's and
    /// a many-to-many's count (through the join table) and arithmetic on
    /// them (never nil, so lowered), a to-many's `@sum` and `@max` (nil
    /// when it is empty).
    static let integers = [
        "year", "author.age", "chapters.@count", "author.active", "chapters.@count * 3 - 4", "tags.@count",
        "tags.@count * 2 + chapters.@count", "chapters.@sum.pages", "chapters.@max.pages",
    ]
    static let doubles = ["price", "author.rating"]
    /// Doubles computed from values that are never nil (arithmetic on a
    /// nil is an error in memory and refused in SQL): an integer with a
    /// double constant, which every SQL dialect here computes exactly…
    static let computedDoubles = ["chapters.@count * 1.5", "tags.@count * 0.1", "chapters.@count / 3.0", "tags.@count * -1.0"]
    /// …and doubles with doubles, which SQLite computes with memory's code
    /// and PostgreSQL refuses (its doubles raise on overflow, where
    /// memory's go on to ±infinity).
    static let computedDoublesSQLiteOnly = ["chapters.@count * 0.1 + 0.2", "tags.@count * 2.5 - chapters.@count"]
    static let strings = ["title", "code", "author.name"]
    static let dates = ["published", "author.born"]
    /// Filters that read no price: SQLite stores the NaN prices as NULL,
    /// so that `price != nil` keeps them in memory and PostgreSQL only.
    static let filters = [
        "year > 2000", "year != nil", "author.age < 50", "title BEGINSWITH 'a'", "code == nil", "author.active == YES",
        "year == nil OR author.rating > 3", "NOT (author.name == nil)", "title < 'b'", "author.rating <= 0",
        "year < 0 OR year > 2005",
    ]

    struct Generated {
        var request: FetchSpecification
        /// Whether it sums or averages doubles, which SQLite and PostgreSQL
        /// add in key order and DuckDB must refuse.
        var sumsDoubles: Bool
        /// Whether it aggregates a computed double.
        var computesDoubles = false
        /// Whether it computes a double from doubles, which PostgreSQL must
        /// refuse.
        var postgresRefuses = false
    }

    static func generate(_ g: inout PredicateGenerator) throws -> Generated {
        func pick<T>(_ xs: [T]) -> T { g.pick(xs) }
        var groupBy: [String]?
        let shape = Int.random(in: 0..<100, using: &g.rng)
        if shape < 8 {
            groupBy = nil
        } else if shape < 11 {
            groupBy = []
        } else {
            var keys: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &g.rng) {
                let k = pick(groupKeys)
                if !keys.contains(k) { keys.append(k) }
            }
            groupBy = keys
        }
        var expressions: [ExpressionDescription] = []
        var kinds: [String: String] = [:]  // name → "number", "double", "string", "date", "bool"
        var sumsDoubles = false
        var postgresRefuses = false
        var computesDoubles = false
        for i in 0..<Int.random(in: 1...3, using: &g.rng) {
            let name = "e\(i)"
            let format: String
            switch Int.random(in: 0..<100, using: &g.rng) {
            case 0..<15: format = "count:(SELF)"; kinds[name] = "number"
            case 15..<25: format = "count:(\(pick(integers + doubles + strings + dates + ["author"])))"; kinds[name] = "number"
            case 25..<40: format = "sum:(\(pick(integers)))"; kinds[name] = "number"
            case 40..<50: format = "average:(\(pick(integers)))"; kinds[name] = "double"
            case 50..<58:
                format = "\(pick(["sum:", "average:"]))(\(pick(doubles)))"
                sumsDoubles = true
                kinds[name] = "double"
            case 58..<68:
                let arg = pick(computedDoubles + computedDoublesSQLiteOnly)
                let function = pick(["sum:", "average:", "min:", "max:"])
                format = "\(function)(\(arg))"
                if function == "sum:" || function == "average:" { sumsDoubles = true }
                if computedDoublesSQLiteOnly.contains(arg) { postgresRefuses = true }
                computesDoubles = true
                kinds[name] = "double"
            default:
                let arg = pick(integers + doubles + strings + dates)
                format = "\(pick(["min:", "max:"]))(\(arg))"
                kinds[name] = strings.contains(arg) ? "string" : dates.contains(arg) ? "date"
                    : arg == "author.active" ? "bool" : "number"
            }
            expressions.append(try ExpressionDescription(name: name, format: format))
        }
        var properties: [String]?
        if let keys = groupBy, !keys.isEmpty, g.chance(0.2) { properties = keys.filter { _ in g.chance(0.5) } }
        var having: Filter?
        if let keys = groupBy, g.chance(0.5) {
            func clause() -> String {
                if !keys.isEmpty && g.chance(0.4) {
                    let k = pick(keys)
                    switch k {
                    case "year", "author.age": return "\(k) \(pick([">", "<", "==", "!="])) \(pick([0, 1995, 2000, 40]))"
                    case "price", "author.rating": return "\(k) \(pick([">", "<=", "=="])) \(pick(["0", "2.5", "-1"]))"
                    case "author.active": return "\(k) == \(pick(["YES", "NO", "nil"]))"
                    case "title", "code", "author.name":
                        return pick(["\(k) BEGINSWITH 'a'", "\(k) < 'b'", "\(k) == nil", "\(k) ==[c] 'ann'"])
                    default: return "\(k) \(pick(["==", "!="])) nil"
                    }
                }
                let name = pick(expressions.map(\.name))
                let reference = g.chance(0.5) ? "$" + name : name
                switch kinds[name] {
                case "number": return "\(reference) \(pick([">", ">=", "<", "=="])) \(pick([0, 1, 2, 2000, -44]))"
                case "double": return "\(reference) \(pick([">", "<"])) \(pick(["0", "2000.5", "30.25"]))"
                case "string": return pick(["\(reference) BEGINSWITH 'a'", "\(reference) > 'e'", "\(reference) == nil"])
                case "bool": return "\(reference) == \(pick(["YES", "NO"]))"
                default: return "\(reference) \(pick(["==", "!="])) nil"
                }
            }
            var format = clause()
            if g.chance(0.4) { format = "(\(format)) \(pick(["AND", "OR"])) (\(clause()))" }
            if g.chance(0.15) { format = "NOT (\(format))" }
            having = try Filter(format)
        }
        var sort: [SortKey] = []
        let sortable = (groupBy ?? []) + expressions.map(\.name)
        if g.chance(0.6) {
            for _ in 0..<Int.random(in: 1...2, using: &g.rng) {
                let comparisons: [SortKey.Comparison] = [.compare, .caseInsensitive, .swift]
                sort.append(SortKey(pick(sortable), ascending: g.chance(0.5), comparison: pick(comparisons)))
            }
        }
        var limit: Int?
        var offset = 0
        if !sort.isEmpty && g.chance(0.4) {
            limit = g.chance(0.7) ? Int.random(in: 0...10, using: &g.rng) : nil
            offset = g.chance(0.5) ? Int.random(in: 0...8, using: &g.rng) : 0
        }
        let filter = g.chance(0.4) ? try Filter(pick(filters)) : nil
        let request = FetchSpecification(
            entity: "Book", filter: filter, sort: sort, offset: offset, limit: limit, distinct: g.chance(0.1),
            properties: properties, groupBy: groupBy, expressions: expressions, having: having)
        return Generated(request: request, sumsDoubles: sumsDoubles, computesDoubles: computesDoubles, postgresRefuses: postgresRefuses)
    }

    /// `request` as the suites run it, and whether its sort decides the
    /// order of its results: a page is decided only when the sort has no
    /// ties (seen only where the results hold the sort keys; else there
    /// seem to be), so a request whose sort ties runs without its offset and
    /// limit, and its results are compared in an order the sort allows.
    static func decided(_ request: FetchSpecification, on books: [Value]) throws -> (request: FetchSpecification, total: Bool) {
        var whole = request
        whole.offset = 0
        whole.limit = nil
        let all = try whole.execute(on: books)
        let total = try !request.sort.isEmpty && !Self.hasTies(all, request.sort)
        return (total ? request : whole, total)
    }

    /// A generated request as a failure message names it.
    static func label(_ n: Int, _ request: FetchSpecification) -> String {
        "grouped \(n): groupBy \(request.groupBy.map { "\($0)" } ?? "nil") expressions "
            + request.expressions.map { "\($0.name)=\(FormatPrinter.format($0.expression))" }.joined(separator: ", ")
            + " having [\(request.having?.format ?? "")] filter [\(request.filter?.format ?? "")] properties "
            + "\(request.properties.map { "\($0)" } ?? "nil") sort \(request.sort) offset \(request.offset) "
            + "limit \(request.limit.map(String.init) ?? "none")"
    }

    @Test func testGeneratedGroupedFetches() async throws {
        let seed = Self.seed
        print("grouped differential seed \(seed)")
        let (rows, books) = Self.library(seed: seed)
        let engines = try await Self.engines(rows, books, schema: "sift_grouped", sharded: true)
        defer { engines.close() }
        var generator = PredicateGenerator(seed: seed)
        var failures: [String] = []
        var compared = 0
        var doubleSums = 0
        var paged = 0
        var onShards = 0
        var computed = 0
        var refusedOnPostgres = 0
        for n in 0..<Self.cases {
            let generated = try Self.generate(&generator)
            let (request, total) = try Self.decided(generated.request, on: engines.books)
            if request.limit != nil || request.offset > 0 { paged += 1 }
            let fixed = request
            let expected = try request.execute(on: engines.books)
            let expectedCount = try request.count(on: engines.books)
            let label = Self.label(n, request)
            if generated.sumsDoubles { doubleSums += 1 }
            if generated.computesDoubles { computed += 1 }
            compared += 1
            do {
                let got = try await engines.sqlite.read { try fixed.fetchValues($0, schema: Library.schema) }
                if let d = try Self.difference(expected, got, sort: request.sort, total: total, fetchesSortKeys: request.properties == nil) {
                    let q = try request.sql(in: Library.schema, dialect: .sqlite)
                    failures.append("\(label)\n  SQLite differs \(d)\n  memory \(expected)\n  sqlite \(got)\n  \(q.statement.sql)")
                }
                let count = try await engines.sqlite.read { try fixed.fetchCount($0, schema: Library.schema) }
                if count != expectedCount { failures.append("\(label): count memory \(expectedCount) sqlite \(count)") }
            } catch {
                failures.append("\(label): SQLite: \(error)")
            }
            if generated.postgresRefuses {
                // Refused before it reaches a server, for its reason.
                do {
                    _ = try request.sql(in: Library.schema, dialect: .postgreSQL)
                    failures.append("\(label): PostgreSQL lowered a double computed from doubles")
                } catch {
                    if !error.description.contains("has no PostgreSQL form") {
                        failures.append("\(label): PostgreSQL refused it for another reason: \(error)")
                    }
                }
                if !engines.servers.isEmpty { refusedOnPostgres += 1 }
                continue
            }
            for (name, pg) in engines.servers where pg !== engines.sharded || n % Self.shardedStride == 0 {
                if pg === engines.sharded { onShards += 1 }
                do {
                    let got = try await request.fetchValues(pg, schema: Library.schema)
                    if let d = try Self.difference(expected, got, sort: request.sort, total: total, fetchesSortKeys: request.properties == nil) {
                        let q = try request.sql(in: Library.schema, dialect: .postgreSQL)
                        failures.append("\(label)\n  \(name) differs \(d)\n  memory   \(expected)\n  postgres \(got)\n  \(q.statement.sql)")
                    }
                    // The count statement is SQLite's; a third of them,
                    // for time (each is a round trip).
                    if n % 3 == 0 {
                        let count = try await request.fetchCount(pg, schema: Library.schema)
                        if count != expectedCount { failures.append("\(label): count memory \(expectedCount) \(name) \(count)") }
                    }
                } catch {
                    failures.append("\(label): \(name): \(error)")
                }
            }
            if failures.count >= 10 { break }
        }
        let servers = engines.servers.map { server in
            server.connection !== engines.sharded ? server.name
                : "\(server.name) (\(onShards) of them, SIFT_SHARDED_GROUPED_STRIDE=\(Self.shardedStride))"
        }
        print("grouped differential: \(compared) requests compared (\(paged) paged, \(doubleSums) summing doubles, "
            + "\(computed) aggregating computed doubles, \(refusedOnPostgres) of them refused by PostgreSQL as it must), "
            + (servers.isEmpty ? "PostgreSQL not available" : servers.joined(separator: " and ") + " compared"))
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.prefix(10).joined(separator: "\n")))
        #expect(compared == Self.cases)
        #expect(doubleSums >= Self.cases / 20, "too few sums of doubles to prove anything")
        #expect(computed >= Self.cases / 20, "too few aggregates of computed doubles to prove anything")
    }
    /// A grouped fetch on a real Core Data store (sub-entities in one
    /// table, the model's names, a to-one key path), against plain SQL on
    /// its tables.
    @Test func testRealCoreDataStore() throws {
        let db = try RealStores.open("cdp_sample1/SampleModel_V1.sqlite")
        let schema = try db.read { try StoreSchema.read(from: $0) }
        func rows(_ sql: String, _ keys: [String]) throws -> [String] {
            try db.read { db in
                try Row.fetchAll(db, sql: sql).map { row in
                    var d: [String: Value] = [:]
                    for (i, key) in keys.enumerated() {
                        let stored = row[i] as DatabaseValue
                        switch stored.storage {
                        case .int64(let n): d[key] = .int(Int(n))
                        case .string(let s): d[key] = .string(s)
                        default: break
                        }
                    }
                    return Self.strict(.dictionary(d))
                }
            }.sorted()
        }
        let request = FetchSpecification(
            entity: "SportCar", groupBy: ["owner.lastName", "maker"],
            expressions: [
                try ExpressionDescription(name: "n", format: "count:(SELF)"),
                try ExpressionDescription(name: "model", format: "max:(model)"),
                try ExpressionDescription(name: "plate", format: "min:(numberPlate)"),
                try ExpressionDescription(name: "marked", format: "count:(markedForDeletionAsOf)"),
            ])
        let got = try db.read { try request.fetchValues($0, schema: schema) }.map(Self.strict).sorted()
        let expected = try rows(
            """
            SELECT p.ZLASTNAME, c.ZMAKER, count(*), max(c.ZMODEL), min(c.ZNUMBERPLATE), count(c.ZMARKEDFORDELETIONASOF)
            FROM ZCAR c LEFT JOIN ZPERSON p ON p.Z_PK = c.ZOWNER WHERE c.Z_ENT IN (2, 3) GROUP BY 1, 2
            """, ["owner.lastName", "maker", "n", "model", "plate", "marked"])
        #expect(got == expected)
        #expect(expected.count == 9)
        var own = FetchSpecification(
            entity: "ExpensiveSportCar", groupBy: ["maker"],
            expressions: [
                try ExpressionDescription(name: "n", format: "count:(SELF)"),
                try ExpressionDescription(name: "limited", format: "sum:(isLimitedEdition)"),
            ], having: try Filter("$limited > 0"))
        own.sort = [.ascending("maker")]
        let limited = try db.read { try own.fetchValues($0, schema: schema) }.map(Self.strict)
        let limitedExpected = try rows(
            """
            SELECT ZMAKER, count(*), sum(ZISLIMITEDEDITION) FROM ZCAR WHERE Z_ENT = 3 GROUP BY 1
            HAVING sum(ZISLIMITEDEDITION) > 0 ORDER BY 1
            """, ["maker", "n", "limited"])
        #expect(limited == limitedExpected)
        #expect(!limitedExpected.isEmpty)
    }
}
