import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// The backbone: for generated predicates and sort orders over generated
/// data, the primary keys in order from memory, from SQLite and from
/// PostgreSQL (through SiftPostgres) must be identical.
@Suite(.serialized, .publicSchema)
struct DifferentialTests {
    static let seed = GeneratedFetches.seed
    static let cases = GeneratedFetches.cases

    struct Engines {
        let library: Library
        let sqlite: DatabaseQueue
        let postgres: PostgresConnection?
        /// The sharded profile's coordinator (``ShardedPostgres``), when it runs.
        let sharded: PostgresConnection?

        /// The PostgreSQL servers that run, each with its name for messages.
        var servers: [(name: String, connection: PostgresConnection)] {
            [("PostgreSQL", postgres), ("sharded PostgreSQL", sharded)].compactMap { name, c in c.map { (name, $0) } }
        }

        func close() {
            PostgresServer.close(postgres)
            PostgresServer.close(sharded)
        }
    }

    static func engines(seed: UInt64) async throws -> Engines {
        let library = Library(seed: seed)
        let db = try sqliteDatabase(Library.schema, library.inserts(.sqlite))
        let tables = ["book_tags", "chapters", "books", "tags", "authors"]
        var postgres: PostgresConnection?
        if let pg = try await PostgresServer.connect() {
            let drop = "DROP TABLE IF EXISTS " + tables.map { Dialect.postgreSQL.quote($0) }.joined(separator: ", ")
            try await PostgresServer.setUp(pg, [drop] + Library.schema.createStatements(dialect: .postgreSQL))
            try await PostgresServer.setUp(pg, library.inserts(.postgreSQL))
            postgres = pg
        }
        // The same tables and rows on the sharded profile, then its fact
        // tables moved to the shards.
        var sharded: PostgresConnection?
        if let pg = try await PostgresServer.connectSharded() {
            try await PostgresServer.setUp(pg, [ShardedPostgres.drop(tables)] + Library.schema.createStatements(dialect: .postgreSQL))
            try await PostgresServer.setUp(pg, library.inserts(.postgreSQL))
            try await ShardedPostgres.distribute(pg, ShardedPostgres.libraryDistribution)
            sharded = pg
        }
        return Engines(library: library, sqlite: db, postgres: postgres, sharded: sharded)
    }

    /// The tables of `schema` in a SQLite database in memory, with
    /// `inserts` run (synchronous: the tests that call it are async for
    /// PostgreSQL's sake).
    static func sqliteDatabase(_ schema: StoreSchema, _ inserts: [BoundStatement]) throws -> DatabaseQueue {
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for s in schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            for s in inserts { try db.execute(sql: s.sql, arguments: s.arguments) }
        }
        return db
    }

    static func sqliteCount(_ c: BoundStatement, _ db: DatabaseQueue) throws -> Int? {
        try db.read { try Int.fetchOne($0, sql: c.sql, arguments: c.arguments) }
    }

    /// A projection's rows, its properties in order, as the plain values
    /// ``plain(_:)`` compares.
    static func projectionRows(_ values: [Value], _ properties: [String]) -> [[SQLValue]] {
        values.map { row in
            guard case .dictionary(let d) = row else { return [] }
            return properties.map { plain(d[$0] ?? .null) }
        }
    }

    static func plain(_ v: Value) -> SQLValue {
        switch v {
        case .int(let i): return .integer(Int64(i))
        case .double(let d): return .real(d)
        case .string(let s): return .text(s)
        default: return .null
        }
    }

    static func sqliteProjection(_ request: FetchSpecification, _ db: DatabaseQueue) throws -> [Value] {
        try db.read { try request.fetchValues($0, schema: Library.schema) }
    }

    /// The ids from the evaluator, or nil if it raises (`GeneratedFetches`).
    static func memoryIDs(_ request: FetchSpecification, _ books: [Value]) -> [Int]? {
        GeneratedFetches.memoryIDs(request, books)
    }

    static func sqliteIDs(_ query: SQLQuery, _ db: DatabaseQueue) throws -> [Int] {
        try db.read { db in
            try Int.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
        }
    }

    /// The ids SiftPostgres fetches (its binding, decoding and reading
    /// back by attribute type).
    static func postgresIDs(_ request: FetchSpecification, _ schema: StoreSchema, _ pg: PostgresConnection) async throws -> [Int] {
        GeneratedFetches.ids(try await request.fetchValues(pg, schema: schema))
    }

    static func refusesSwiftSearch(_ error: any Error) -> Bool { GeneratedFetches.refusesSwiftSearch(error) }

    /// The rows of each of `formats` from memory, SQLite and (when it
    /// runs) PostgreSQL, the same; with `informative`, each also matches
    /// some books but not all.
    static func compareFixed(_ title: String, _ formats: [String], informative: Bool = false) async throws {
        let engines = try await Self.engines(seed: Self.seed)
        defer { engines.close() }
        var compared = 0
        for format in formats {
            let request = FetchSpecification(entity: "Book", filter: try Filter(format))
            guard let expected = Self.memoryIDs(request, engines.library.books) else {
                Issue.record("\(format) raises in memory")
                continue
            }
            if informative {
                #expect(!expected.isEmpty && expected.count < engines.library.books.count, "\(format) tells no books apart")
            }
            let sqlite = try request.sql(in: Library.schema, dialect: .sqlite)
            #expect(try Self.sqliteIDs(sqlite, engines.sqlite) == expected, "SQLite: \(format)")
            for (name, pg) in engines.servers {
                let postgres = try await Self.postgresIDs(request, Library.schema, pg)
                #expect(postgres == expected, "\(name): \(format)")
            }
            compared += 1
        }
        print("\(title): \(compared) compared, \(Self.compared(engines))")
    }

    static func raisesPastShortCircuit(_ error: any Error, _ filter: Filter, _ books: [Value]) -> Bool {
        GeneratedFetches.raisesPastShortCircuit(error, filter, books)
    }

    static func refusesDoubleArithmetic(_ error: any Error) -> Bool { GeneratedFetches.refusesDoubleArithmetic(error) }

    /// Whether PostgreSQL refused a function whose value there is not
    /// memory's (`ln:`, `**`, `lowercase:`, a double's `modulus:by:`).
    static func refusesFunction(_ error: any Error) -> Bool {
        let text = "\(error)"
        return text.contains("has no PostgreSQL form")
            && ["ln, log, exp and power", "lower() and upper()", "memory takes a double"].contains(where: text.contains)
    }

    /// Which PostgreSQL servers a run compared, for its summary line.
    static func compared(_ engines: Engines) -> String {
        let names = engines.servers.map(\.name)
        return names.isEmpty ? "PostgreSQL not available" : names.joined(separator: " and ") + " compared"
    }

    @Test func testGeneratedPredicates() async throws {
        try await Self.compareGenerated(seed: Self.seed, cases: Self.cases, "differential", ternaries: false)
    }

    /// The same with `TERNARY` operands and `[FIRST]`/`[LAST]` of the
    /// ordered relationships in half the leaves
    /// (``PredicateGenerator/ternaryOrOrderedLeaf()``).
    @Test func testGeneratedTernaryPredicates() async throws {
        try await Self.compareGenerated(seed: Self.seed &+ 3, cases: Self.cases / 3, "differential TERNARY, [FIRST], [LAST]", ternaries: true)
    }

    /// The same with built-in functions (``PredicateGenerator/functionLeaf()``)
    /// in half the leaves.
    @Test func testGeneratedFunctionPredicates() async throws {
        try await Self.compareGenerated(seed: Self.seed &+ 4, cases: Self.cases / 6, "differential functions", functions: true)
    }

    /// The same with relationships and `SELF` compared with the
    /// library's objects in half the leaves (``PredicateGenerator/objectLeaf(_:)``).
    @Test func testGeneratedObjectPredicates() async throws {
        try await Self.compareGenerated(seed: Self.seed &+ 5, cases: Self.cases / 6, "differential objects", ternaries: false, objects: true)
    }

    /// `cases` generated predicates compared: memory's rows against
    /// SQLite's and PostgreSQL's.
    static func compareGenerated(
        seed: UInt64, cases: Int, _ title: String, ternaries: Bool = false, functions: Bool = false, objects: Bool = false
    ) async throws {
        print("\(title) seed \(seed) (SIFT_SEED=\(Self.seed) SIFT_CASES=\(Self.cases) reproduces)")
        let engines = try await Self.engines(seed: seed)
        defer { engines.close() }
        var generator = PredicateGenerator(
            seed: seed, ternaries: ternaries, functions: functions, objects: objects ? engines.library : nil)
        // The object predicates name objects by URI too, of this store.
        let schema = objects ? Library.schemaOfAStore : Library.schema
        var compared = 0, raised = 0, refusedPG = 0, arithmeticRefusedPG = 0, arithmetic = 0, pastShortCircuit = 0
        var failures: [String] = []
        for n in 0..<cases {
            let (format, args) = generator.predicate()
            let filter: Filter
            do {
                filter = try Filter(format, arguments: args)
            } catch {
                failures.append("case \(n): does not parse: \(format): \(error)")
                continue
            }
            let request = FetchSpecification(entity: "Book", filter: filter)
            guard let expected = Self.memoryIDs(request, engines.library.books) else {
                raised += 1
                continue
            }
            let label = "case \(n) [\(filter.format)]"
            do {
                let q = try request.sql(in: schema, dialect: .sqlite)
                do {
                    let got = try Self.sqliteIDs(q, engines.sqlite)
                    if got != expected {
                        failures.append("\(label)\n  memory \(expected)\n  sqlite \(got)\n  \(q.statement)")
                    }
                } catch where Self.raisesPastShortCircuit(error, filter, engines.library.books) {
                    pastShortCircuit += 1
                } catch {
                    failures.append("\(label): SQLite failed: \(error)\n  \(q.statement)")
                }
            } catch {
                failures.append("\(label): no SQLite form: \(error)")
            }
            for (name, pg) in engines.servers {
                do {
                    let q = try request.sql(in: schema, dialect: .postgreSQL)
                    do {
                        let got = try await Self.postgresIDs(request, schema, pg)
                        if got != expected {
                            failures.append("\(label)\n  memory   \(expected)\n  \(name) \(got)\n  \(q.statement)")
                        }
                    } catch where Self.raisesPastShortCircuit(error, filter, engines.library.books) {
                        pastShortCircuit += 1
                    } catch {
                        failures.append("\(label): \(name) failed: \(error)\n  \(q.statement)")
                    }
                } catch where Self.refusesDoubleArithmetic(error) || Self.refusesFunction(error) {
                    arithmeticRefusedPG += 1
                } catch where error.code == .unsupported && filter.format.contains("MATCHES") || Self.refusesSwiftSearch(error) {
                    // Patterns whose meaning differs there, and [s] searches,
                    // have no PostgreSQL form.
                    refusedPG += 1
                } catch {
                    failures.append("\(label): no PostgreSQL form: \(error)")
                }
            }
            compared += 1
            if ["+ ", "- ", "* ", "/ "].contains(where: filter.format.contains) { arithmetic += 1 }
            if failures.count >= 15 { break }
        }
        print("\(title): \(compared) predicates compared (\(arithmetic) with arithmetic), \(raised) raise in memory, \(refusedPG) MATCHES patterns and [s] searches and \(arithmeticRefusedPG) double arithmetic and functions refused on PostgreSQL, \(pastShortCircuit) arithmetic errors in SQL on rows memory's short circuit skipped, \(Self.compared(engines))")
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.prefix(15).joined(separator: "\n")))
        #expect(compared > (cases / 2))
    }

    /// Sort orders (with their collations and nil placement), offsets,
    /// limits and counts, on filtered and unfiltered requests.
    @Test func testGeneratedFetches() async throws {
        let seed = Self.seed &+ 1
        print("differential fetch seed \(seed)")
        let engines = try await Self.engines(seed: seed)
        defer { engines.close() }
        var generator = PredicateGenerator(seed: seed)
        var failures: [String] = []
        var compared = 0
        for n in 0..<(Self.cases / 3) {
            let request = try GeneratedFetches.fetch(&generator)
            let filter = request.filter
            guard let expected = Self.memoryIDs(request, engines.library.books) else { continue }
            compared += 1
            let expectedCount = try request.count(on: engines.library.books)
            let label = GeneratedFetches.label(n, request)
            do {
                let q = try request.sql(in: Library.schema, dialect: .sqlite)
                let got = try Self.sqliteIDs(q, engines.sqlite)
                if got != expected { failures.append("\(label)\n  memory \(expected)\n  sqlite \(got)\n  \(q.statement)") }
                let c = try request.countSQL(in: Library.schema, dialect: .sqlite)
                let count = try Self.sqliteCount(c, engines.sqlite)
                if count != expectedCount { failures.append("\(label): count memory \(expectedCount) sqlite \(count ?? -1)\n  \(c)") }
            } catch where filter.map({ Self.raisesPastShortCircuit(error, $0, engines.library.books) }) == true {
            } catch {
                failures.append("\(label): SQLite: \(error)")
            }
            for (name, pg) in engines.servers where GeneratedFetches.postgresSorts(request) {
                do {
                    let q = try request.sql(in: Library.schema, dialect: .postgreSQL)
                    let got = try await Self.postgresIDs(request, Library.schema, pg)
                    if got != expected { failures.append("\(label)\n  memory   \(expected)\n  \(name) \(got)\n  \(q.statement)") }
                    let count = try await request.fetchCount(pg, schema: Library.schema)
                    if count != expectedCount {
                        failures.append("\(label): count memory \(expectedCount) \(name) \(count)")
                    }
                } catch where Self.refusesSwiftSearch(error) || Self.refusesDoubleArithmetic(error)
                    || filter.map({ Self.raisesPastShortCircuit(error, $0, engines.library.books) }) == true
                {
                } catch {
                    failures.append("\(label): \(name): \(error)")
                }
            }
            if failures.count >= 10 { break }
        }
        print("differential fetch: \(compared) requests compared")
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.prefix(10).joined(separator: "\n")))
        #expect(compared > (Self.cases / 6))
    }

    /// Fetched properties, with and without DISTINCT.
    @Test func testGeneratedProjections() async throws {
        let seed = Self.seed &+ 2
        let engines = try await Self.engines(seed: seed)
        defer { engines.close() }
        var generator = PredicateGenerator(seed: seed)
        let keys = ["year", "author.name", "title", "price", "author.age"]
        var failures: [String] = []
        for n in 0..<(Self.cases / 10) {
            var properties: [String] = []
            for _ in 0..<Int.random(in: 1...2, using: &generator.rng) {
                let k = generator.pick(keys)
                if !properties.contains(k) { properties.append(k) }
            }
            let sort = properties.shuffled(using: &generator.rng).prefix(Int.random(in: 0...properties.count, using: &generator.rng))
                .map { SortKey($0, ascending: generator.chance(0.5)) }
            let distinct = generator.chance(0.6)
            var filter: Filter?
            if generator.chance(0.5) {
                let (format, args) = generator.predicate(depth: 2)
                filter = try Filter(format, arguments: args)
            }
            let request = FetchSpecification(entity: "Book", filter: filter, sort: sort, distinct: distinct, properties: properties)
            guard let rows = try? request.execute(on: engines.library.books) else { continue }
            let expected = Self.projectionRows(rows, properties)
            // Without a sort covering every column, DISTINCT rows come in an
            // unspecified order: compare them as sets then.
            let ordered = !distinct || sort.count == properties.count
            func same(_ a: [[SQLValue]], _ b: [[SQLValue]]) -> Bool {
                ordered ? a == b : Set(a.map { $0.map(\.literalDescription).joined(separator: "|") }) == Set(b.map { $0.map(\.literalDescription).joined(separator: "|") }) && a.count == b.count
            }
            let label = "projection \(n) \(properties) sort \(sort) distinct \(distinct)"
            do {
                let got = Self.projectionRows(try Self.sqliteProjection(request, engines.sqlite), properties)
                if !same(got, expected) { failures.append("\(label)\n  memory \(expected)\n  sqlite \(got)") }
            } catch where filter.map({ Self.raisesPastShortCircuit(error, $0, engines.library.books) }) == true {
            } catch {
                failures.append("\(label): SQLite: \(error)")
            }
            for (name, pg) in engines.servers {
                do {
                    let got = Self.projectionRows(try await request.fetchValues(pg, schema: Library.schema), properties)
                    if !same(got, expected) { failures.append("\(label)\n  memory   \(expected)\n  \(name) \(got)") }
                } catch where Self.refusesSwiftSearch(error) || Self.refusesDoubleArithmetic(error)
                    || filter.map({ Self.raisesPastShortCircuit(error, $0, engines.library.books) }) == true
                {
                } catch {
                    failures.append("\(label): \(name): \(error)")
                }
            }
            if failures.count >= 5 { break }
        }
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.joined(separator: "\n")))
    }

    /// Records whose name is also a key of their authors: a key path
    /// without the variable inside SUBQUERY reads the record (Foundation's
    /// rule, and the evaluator's), so SQL must read the outer row, never the
    /// author's column of the same name.
    static let records = StoreSchema([
        Entity("Record", table: "records", attributes: [
            Attribute("name", .string),
            Attribute("age", .integer),
        ], relationships: [
            .toOne("author", "Person", column: "author_id"),
            .toMany("authors", "Person", inverseColumn: "record_id"),
        ]),
        Entity("Person", table: "people", attributes: [
            Attribute("name", .string),
            Attribute("age", .integer),
        ]),
    ])

    @Test func testKeysWithoutTheVariableInsideSubqueryReadTheOuterRow() async throws {
        // Person id → name, age.
        let people: [Int: (String?, Int?)] = [
            1: ("Bob", 40), 2: ("Carol", 25), 3: ("Cecil", 30), 4: ("Chloe", nil), 5: ("Dan", 50), 6: (nil, 35),
            7: (nil, 35),
        ]
        let records: [(id: Int, name: String?, age: Int?, author: Int?, authors: [Int])] = [
            (1, "Carol", 30, 2, [1, 2]), (2, "Bob", 20, 1, [3]), (3, nil, nil, nil, [4]), (4, "Cy", 45, 3, []),
            (5, "Dan", 60, 5, [5, 6]), (6, "Clara", 35, nil, [7]),
        ]
        func text(_ s: String?) -> (SQLValue, Value) { s.map { (.text($0), .string($0)) } ?? (.null, .null) }
        func integer(_ i: Int?) -> (SQLValue, Value) { i.map { (.integer(Int64($0)), .int($0)) } ?? (.null, .null) }
        func person(_ id: Int) -> Value {
            let (name, age) = people[id] ?? (nil, nil)
            return .dictionary(["id": .int(id), "name": text(name).1, "age": integer(age).1])
        }
        var rows: [Library.Row] = []
        var values: [Value] = []
        for (id, (name, age)) in people {
            let owner = records.first { $0.authors.contains(id) }?.id
            rows.append(Library.Row(table: "people", values: [
                "id": integer(id).0, "name": text(name).0, "age": integer(age).0, "record_id": integer(owner).0,
            ]))
        }
        for r in records {
            rows.append(Library.Row(table: "records", values: [
                "id": integer(r.id).0, "name": text(r.name).0, "age": integer(r.age).0, "author_id": integer(r.author).0,
            ]))
            values.append(.dictionary([
                "id": .int(r.id), "name": text(r.name).1, "age": integer(r.age).1,
                "author": r.author.map(person) ?? .null, "authors": .array(r.authors.map(person)),
            ]))
        }
        let sqlite = try Self.sqliteDatabase(Self.records, Library.inserts(rows, .sqlite))
        let postgres = try await PostgresServer.connect(schema: "sift_subquery_outer", tables: Self.records, rows: rows)
        defer { PostgresServer.close(postgres) }
        let formats = [
            // The fuzz input: `name` is the record's.
            ("SUBQUERY(authors, $a, name BEGINSWITH 'C').@count == 0", [2, 3, 4, 5]),
            ("SUBQUERY(authors, $a, $a.name BEGINSWITH 'C').@count == 0", [4, 5, 6]),
            ("SUBQUERY(authors, $a, $a.name == name).@count > 0", [1, 5]),
            ("SUBQUERY(authors, $a, SELF.name == $a.name).@count > 0", [1, 5]),
            ("SUBQUERY(authors, $a, $a.age > age).@count > 0", [1, 2]),
            ("SUBQUERY(authors, $a, age < $a.age OR name == nil).@count >= 1", [1, 2, 3]),
            ("NOT (SUBQUERY(authors, $a, $a.age > age).@count > 0)", [3, 4, 5, 6]),
            ("SUBQUERY(authors, $a, $a.name BEGINSWITH 'C' AND NOT name BEGINSWITH 'C').@count > 0", [2, 3]),
            // To-one key paths of the record, compared and joined.
            ("SUBQUERY(authors, $a, author.name == 'Carol').@count > 0", [1]),
            ("SUBQUERY(authors, $a, author.name != $a.name).@count > 0", [1, 2, 3, 5]),
            ("SUBQUERY(authors, $a, author.age < $a.age).@count == 1", [1]),
            // ANY over the record's authors, and a SUBQUERY over them nested.
            ("SUBQUERY(authors, $a, ANY authors.age > $a.age).@count > 0", [1, 5]),
            ("SUBQUERY(authors, $a, SUBQUERY(authors, $b, $b.age < $a.age).@count > 0).@count > 0", [1, 5]),
            ("authors.@count > 1 AND SUBQUERY(authors, $a, authors.@count == 2 AND $a.name != nil).@count == 2", [1]),
        ]
        var failures: [String] = []
        for (format, expected) in formats {
            let request = FetchSpecification(entity: "Record", filter: try Filter(format))
            let memory = Self.memoryIDs(request, values)
            if memory != expected { failures.append("\(format): memory \(memory.map(String.init(describing:)) ?? "raises"), expected \(expected)") }
            do {
                let got = try Self.sqliteIDs(try request.sql(in: Self.records, dialect: .sqlite), sqlite)
                if got != expected { failures.append("\(format): SQLite \(got), expected \(expected)") }
            } catch {
                failures.append("\(format): SQLite: \(error)")
            }
            if let pg = postgres {
                do {
                    let got = try await Self.postgresIDs(request, Self.records, pg)
                    if got != expected { failures.append("\(format): PostgreSQL \(got), expected \(expected)") }
                } catch {
                    failures.append("\(format): PostgreSQL: \(error)")
                }
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
    }

    @Test func testSchemaJSONRoundTrip() throws {
        let json = try Library.schema.jsonData()
        #expect(try StoreSchema(json: json) == Library.schema)
        let written = Data(#"""
            {"entities": [{"name": "Book", "table": "books",
              "attributes": [{"name": "title", "type": "string", "optional": false},
                             {"name": "published", "type": "date", "dateEncoding": "unix"}],
              "relationships": [{"name": "author", "destination": "Author", "toOne": "author_id"}]},
             {"name": "Author", "attributes": [{"name": "name", "type": "text"}]}]}
            """#.utf8)
        let schema = try StoreSchema(json: written)
        #expect(schema.entity(named: "Book")?.attribute(named: "published")?.type == .date(.unixSeconds))
        #expect(schema.entity(named: "author")?.table == "Author")
        if let error = #expect(throws: (any Error).self, performing: { try StoreSchema(json: Data(#"{"entities": [{"name": "A", "relationships": [{"name": "b", "destination": "B", "toOne": "b_id"}]}]}"#.utf8)) }) {
            #expect((error as? StoreSchemaError)?.message == "relationship A.b points at an unknown entity B")
        }
        // Destinations are found as entity(named:) finds them: ignoring case.
        let loose = StoreSchema([
            Entity("A", attributes: [], relationships: [.toOne("b", "b", column: "b_id")]), Entity("B", attributes: []),
        ])
        #expect(throws: Never.self) { try loose.validate() }
    }
}
