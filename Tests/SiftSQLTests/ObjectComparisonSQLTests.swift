import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Relationships and `SELF` compared with objects (`author == %@`): the
/// rows from the fixture's own tables, memory, SQLite and PostgreSQL, and
/// the errors; object ID URIs on real Core Data stores.
@Suite(.serialized, .publicSchema)
struct ObjectComparisonSQLTests {
    static func reference(_ entity: String?, _ key: Int) -> Value {
        .reference(ObjectReference(entity: entity, primaryKey: Int64(key)))
    }

    /// The rows of `table` whose `column` is `value`, from the fixture's rows.
    static func keys(_ library: Library, _ table: String, where column: String, is value: Int, select: String) -> Set<Int> {
        Set(library.rows.filter { $0.table == table && $0.values[column] == .integer(Int64(value)) }.compactMap {
            if case .integer(let k)? = $0.values[select] { return Int(k) }
            return nil
        })
    }

    /// Each form of each comparison: memory, SQLite and PostgreSQL give the
    /// books the fixture's own rows say (author_id, book_tags, chapters'
    /// book_id), for every author, tag and chapter given as a reference
    /// with and without its entity and as the dictionary memory holds.
    @Test func testEachFormAgainstTheFixturesRows() async throws {
        let engines = try await DifferentialTests.engines(seed: DifferentialTests.seed)
        defer { engines.close() }
        let library = engines.library
        let all = Set(1...library.books.count)
        var cases: [(String, [Value], Set<Int>)] = []
        for (id, author) in (library.objects["Author"] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let books = Self.keys(library, "books", where: "author_id", is: id, select: "id")
            let noAuthor = Set(library.rows.filter { $0.table == "books" && $0.values["author_id"] == .null }.compactMap { row -> Int? in
                if case .integer(let k)? = row.values["id"] { return Int(k) }
                return nil
            })
            for form in [Self.reference("Author", id), Self.reference(nil, id), author] {
                cases.append(("author == %@", [form], books))
                cases.append(("%@ == author", [form], books))
                cases.append(("author != %@", [form], all.subtracting(books)))
                cases.append(("NOT author == %@", [form], all.subtracting(books)))
                cases.append(("author IN %@", [.array([form, .null])], books))
                cases.append(("NOT (author IN %@)", [.array([form])], all.subtracting(books)))
                cases.append(("author == %@ OR author == nil", [form], books.union(noAuthor)))
            }
        }
        for (id, tag) in (library.objects["Tag"] ?? [:]).sorted(by: { $0.key < $1.key }) {
            let books = Self.keys(library, "book_tags", where: "tag_id", is: id, select: "book_id")
            for form in [Self.reference("Tag", id), Self.reference(nil, id), tag] {
                cases.append(("ANY tags == %@", [form], books))
                cases.append(("tags CONTAINS %@", [form], books))
                cases.append(("%@ IN tags", [form], books))
                cases.append(("NONE tags == %@", [form], all.subtracting(books)))
                cases.append(("ANY tags IN %@", [.array([form])], books))
                cases.append(("SUBQUERY(tags, $t, $t == %@).@count == 1", [form], books))
            }
        }
        for id in [1, 2, 3] {
            guard let chapter = library.objects["Chapter"]?[id] else { continue }
            let books = Self.keys(library, "chapters", where: "id", is: id, select: "book_id")
            for form in [Self.reference("Chapter", id), chapter] {
                cases.append(("chapters CONTAINS %@", [form], books))
                // ALL holds where every chapter is this one, and where there is none.
                cases.append(("ALL chapters == %@", [form], all.filter { book in
                    library.rows.allSatisfy { $0.table != "chapters" || $0.values["book_id"] != .integer(Int64(book)) || $0.values["id"] == .integer(Int64(id)) }
                }))
            }
        }
        for id in [1, 7, 60] {
            guard let book = library.objects["Book"]?[id] else { continue }
            for form in [Self.reference("Book", id), Self.reference(nil, id), book] {
                cases.append(("SELF == %@", [form], [id]))
                cases.append(("SELF != %@", [form], all.subtracting([id])))
                cases.append(("SELF IN %@", [.array([form, Self.reference("Book", 2)])], [id, 2]))
            }
        }
        // Keys no object has, and an empty list.
        cases.append(("author == %@", [Self.reference("Author", 999)], []))
        cases.append(("author != %@", [Self.reference("Author", 999)], all))
        cases.append(("ANY tags == %@", [Self.reference("Tag", 0)], []))
        cases.append(("SELF IN %@", [.array([])], []))
        var failures: [String] = []
        for (format, arguments, expected) in cases {
            let request = FetchSpecification(entity: "Book", filter: try Filter(format, arguments: arguments))
            let label = "\(format) \(arguments.map { FormatPrinter.format(ExpressionNode.constant($0)) })"
            let memory = DifferentialTests.memoryIDs(request, library.books).map(Set.init)
            if memory != expected { failures.append("\(label): memory \(memory.map { $0.sorted() } ?? []), expected \(expected.sorted())") }
            do {
                let got = Set(try DifferentialTests.sqliteIDs(try request.sql(in: Library.schema, dialect: .sqlite), engines.sqlite))
                if got != expected { failures.append("\(label): SQLite \(got.sorted()), expected \(expected.sorted())") }
            } catch {
                failures.append("\(label): SQLite: \(error)")
            }
            if let pg = engines.postgres {
                do {
                    let got = Set(try await DifferentialTests.postgresIDs(request, Library.schema, pg))
                    if got != expected { failures.append("\(label): PostgreSQL \(got.sorted()), expected \(expected.sorted())") }
                } catch {
                    failures.append("\(label): PostgreSQL: \(error)")
                }
            }
        }
        print("objects: \(cases.count) comparisons, PostgreSQL \(engines.postgres == nil ? "not available" : "compared")")
        #expect(failures.isEmpty, Comment(rawValue: failures.prefix(20).joined(separator: "\n")))
    }

    /// An object of the user's type: by its key table's `id`, or its
    /// `Identifiable` identifier, in SQL; by its own `==` in memory.
    @Test func testTypedObjects() throws {
        struct AuthorObject: KeyValueReadable, Identifiable, Hashable {
            var id: Int
            static let keyTable = KeyTable<AuthorObject>([:])
        }
        let library = Library(seed: DifferentialTests.seed)
        let db = try DifferentialTests.sqliteDatabase(Library.schema, library.inserts(.sqlite))
        let request = FetchSpecification(entity: "Book", filter: try Filter("author == %@", AuthorObject(id: 3)))
        let expected = Self.keys(library, "books", where: "author_id", is: 3, select: "id")
        #expect(Set(try DifferentialTests.sqliteIDs(try request.sql(in: Library.schema, dialect: .sqlite), db)) == expected)
        #expect(!expected.isEmpty)
        // A reference to it matches it in memory by the same identifier.
        let authors = [AuthorObject(id: 3), AuthorObject(id: 4)].map(\.predicateValue)
        let same = try Filter("SELF == %@", Self.reference("AuthorObject", 3)).compiled()
        #expect(try authors.map { try same.evaluate(with: $0) } == [true, false])
        let other = try Filter("SELF == %@", Self.reference("Other", 3)).compiled()
        #expect(try authors.map { try other.evaluate(with: $0) } == [false, false])
    }

    /// Generated object comparisons whose objects are of a type of the
    /// user's (``TypedLibrary``): instances of a final class, which memory
    /// compares by identity, and `Hashable` structs, compared by `==`. The
    /// books are such objects too, evaluated on the typed path
    /// (`compiled(for:)`) and the general one (their `predicateValue`),
    /// against SQLite and PostgreSQL, which compare the objects' `id`s. The
    /// arguments are objects the books hold, or strangers with keys no
    /// object has: a new instance with a held object's key is the
    /// documented difference (memory: not that object; SQL: its row).
    @Test func testGeneratedTypedObjects() async throws {
        let engines = try await DifferentialTests.engines(seed: DifferentialTests.seed)
        defer { engines.close() }
        let cases = max(50, DifferentialTests.cases / 10)
        let seed = DifferentialTests.seed &+ 7
        let instances = try await Self.compareTyped(TypedLibrary(instancesOf: engines.library), engines, seed: seed, cases: cases)
        let records = try await Self.compareTyped(TypedLibrary(recordsOf: engines.library), engines, seed: seed &+ 1, cases: cases)
        print("typed objects (seed \(seed)): instances \(instances.compared) compared, \(instances.raised) raise in memory; "
            + "records \(records.compared) compared, \(records.raised) raise; "
            + "PostgreSQL \(engines.servers.isEmpty ? "not available" : "compared")")
        let failures = instances.failures + records.failures
        #expect(failures.isEmpty, Comment(rawValue: failures.prefix(10).joined(separator: "\n")))
        #expect(instances.compared > cases / 2 && records.compared > cases / 2)
    }

    static func compareTyped<Object: KeyValueReadable & Identifiable>(
        _ typed: TypedLibrary<Object>, _ engines: DifferentialTests.Engines, seed: UInt64, cases: Int
    ) async throws -> (compared: Int, raised: Int, failures: [String]) where Object.ID == Int {
        var g = PredicateGenerator(seed: seed)
        var compared = 0, raised = 0
        var failures: [String] = []
        for n in 0..<cases {
            var (format, arguments) = g.objectLeaf { typed.draw($0, &$1) }
            if g.chance(0.3) {
                let (other, more) = g.objectLeaf { typed.draw($0, &$1) }
                (format, arguments) = ("(\(format)) \(g.pick(["AND", "OR"])) (\(other))", arguments + more)
            }
            if g.chance(0.1) { format = "NOT (\(format))" }
            let filter = try Filter(format, arguments: arguments)
            let label = "\(Object.self) case \(n) [\(format)] \(arguments)"
            let typedPath = filter.compiled(for: Object.self)
            let generalPath = filter.compiled()
            var expected: [Int] = []
            do {
                for book in typed.books {
                    let matches = try typedPath.evaluate(with: book)
                    if try generalPath.evaluate(with: book.predicateValue) != matches {
                        failures.append("\(label): the typed and general paths differ on book \(book.id)")
                    }
                    if matches { expected.append(book.id) }
                }
            } catch {
                raised += 1
                continue
            }
            compared += 1
            let request = FetchSpecification(entity: "Book", filter: filter)
            do {
                let got = try DifferentialTests.sqliteIDs(try request.sql(in: Library.schema, dialect: .sqlite), engines.sqlite)
                if got != expected { failures.append("\(label)\n  memory \(expected)\n  SQLite \(got)") }
            } catch {
                failures.append("\(label): SQLite: \(error)")
            }
            for (name, pg) in engines.servers {
                do {
                    let got = try await DifferentialTests.postgresIDs(request, Library.schema, pg)
                    if got != expected { failures.append("\(label)\n  memory \(expected)\n  \(name) \(got)") }
                } catch {
                    failures.append("\(label): \(name): \(error)")
                }
            }
            if failures.count >= 10 { break }
        }
        return (compared, raised, failures)
    }

    static func loweringError(_ format: String, _ arguments: [Value], entity: String = "Book", schema: StoreSchema = Library.schema)
        throws -> SQLLoweringError?
    {
        do {
            _ = try FetchSpecification(entity: entity, filter: try Filter(format, arguments: arguments)).sql(in: schema, dialect: .sqlite)
            return nil
        } catch let e as SQLLoweringError {
            return e
        }
    }

    @Test func testErrors() throws {
        let ref = Self.reference("Author", 3)
        // A key that is not a relationship: the key path is pointed at.
        let title = try Self.loweringError("year > 1 AND title == %@", [ref])
        #expect(title?.code == .typeMismatch)
        #expect(title?.message.contains("title is not a relationship") == true)
        #expect(title?.range == SourceRange(13, 18))
        // An object of another entity, or one the schema lacks.
        let book = try Self.loweringError("author == %@", [Self.reference("Book", 3)])
        #expect(book?.message == "author holds Author objects; the object compared with it is a Book")
        #expect(book?.range == SourceRange(0, 12))
        #expect(try Self.loweringError("author == %@", [Self.reference("Nope", 3)])?.code == .unknownEntity)
        #expect(try Self.loweringError("SELF IN %@", [.array([Self.reference("Tag", 3)])])?.code == .typeMismatch)
        // A URI names a store: this database is none.
        let uri = try #require(ObjectReference(uri: "x-coredata://ABC/Author/p3"))
        let store = try Self.loweringError("author == %@", [.reference(uri)])
        #expect(store?.message.contains("is of the store ABC; this database is not a Core Data store") == true)
        // A dictionary without the primary key.
        let partial = try Self.loweringError("author == %@", [["name": "Ann"]])
        #expect(partial?.message.contains("needs its primary key, Author.id") == true)
        // Orderings and searches do not compare objects; a to-many needs ANY.
        #expect(try Self.loweringError("author < %@", [ref])?.code == .unsupported)
        #expect(try Self.loweringError("tags == %@", [Self.reference("Tag", 1)])?.code == .toManyKey)
        #expect(try Self.loweringError("author CONTAINS %@", [ref])?.code == .unsupported)
        // A relationship compared with a number says how to compare it with an object.
        #expect(try Self.loweringError("author == 3", [])?.message.contains("{\"$id\": 3}") == true)
    }

    /// Sub-entities sharing a table (`kind` their entity number), on
    /// SQLite and PostgreSQL: a reference naming a sub-entity matches only
    /// its rows; the expected keys are read off the rows below.
    static let garage = StoreSchema([
        Entity("Vehicle", table: "vehicles", attributes: [Attribute("name", .string)],
               relationships: [.toOne("owner", "Person", column: "owner_id")],
               discriminator: Discriminator(column: "kind", values: [1, 2, 3]), entityNumber: 1),
        Entity("Car", table: "vehicles", attributes: [Attribute("name", .string)],
               relationships: [.toOne("owner", "Person", column: "owner_id")],
               discriminator: Discriminator(column: "kind", values: [2]), parent: "Vehicle", entityNumber: 2),
        Entity("Truck", table: "vehicles", attributes: [Attribute("name", .string)],
               relationships: [.toOne("owner", "Person", column: "owner_id")],
               discriminator: Discriminator(column: "kind", values: [3]), parent: "Vehicle", entityNumber: 3),
        Entity("Person", table: "people", attributes: [Attribute("name", .string)], relationships: [
            .toOne("vehicle", "Vehicle", column: "vehicle_id"), .toMany("vehicles", "Vehicle", inverseColumn: "owner_id"),
        ]),
    ])

    @Test func testSubentitiesOnSQLiteAndPostgreSQL() async throws {
        // Vehicles (id, kind, owner): 1 a plain vehicle, 2 and 4 cars, 3 a truck.
        let vehicles: [(Int64, Int64, Int64?)] = [(1, 1, 1), (2, 2, 1), (3, 3, 2), (4, 2, nil)]
        // People (id, vehicle).
        let people: [(Int64, Int64?)] = [(1, 2), (2, 3), (3, nil), (4, 1)]
        var rows = vehicles.map { v in
            Library.Row(table: "vehicles", values: ["id": .integer(v.0), "kind": .integer(v.1), "name": .text("v\(v.0)"),
                                                    "owner_id": v.2.map(SQLValue.integer) ?? .null])
        }
        rows += people.map { p in
            Library.Row(table: "people", values: ["id": .integer(p.0), "name": .text("p\(p.0)"), "vehicle_id": p.1.map(SQLValue.integer) ?? .null])
        }
        @Sendable func ddl(_ integer: String) -> [String] {
            [
                "CREATE TABLE vehicles (id \(integer) PRIMARY KEY, kind \(integer), name TEXT, owner_id \(integer))",
                "CREATE TABLE people (id \(integer) PRIMARY KEY, name TEXT, vehicle_id \(integer))",
            ]
        }
        let inserts = Library.inserts(rows, .sqlite)
        let sqlite = try DatabaseQueue(configuration: .sift)
        try await sqlite.write { db in
            for s in ddl("INTEGER") { try db.execute(sql: s) }
            for s in inserts { try db.execute(sql: s.sql, arguments: s.arguments) }
        }
        let postgres = try await PostgresServer.connect(schema: "sift_object_subentities")
        defer { PostgresServer.close(postgres) }
        if let pg = postgres {
            try await PostgresServer.setUp(pg, ddl("bigint"))
            try await PostgresServer.setUp(pg, Library.inserts(rows, .postgreSQL))
        }
        func r(_ entity: String, _ key: Int) -> Value { Self.reference(entity, key) }
        let cases: [(String, String, [Value], [Int])] = [
            ("Person", "vehicle == %@", [r("Car", 2)], [1]),
            ("Person", "vehicle == %@", [r("Car", 3)], []),
            ("Person", "vehicle == %@", [r("Vehicle", 3)], [2]),
            ("Person", "vehicle != %@", [r("Car", 3)], [1, 2, 3, 4]),
            ("Person", "vehicle != %@", [r("Truck", 3)], [1, 3, 4]),
            ("Person", "NOT vehicle == %@", [r("Car", 2)], [2, 3, 4]),
            ("Person", "vehicle IN %@", [.array([r("Car", 2), r("Car", 3)])], [1]),
            ("Person", "ANY vehicles == %@", [r("Truck", 3)], [2]),
            ("Person", "ANY vehicles == %@", [r("Car", 1)], []),
            ("Person", "ALL vehicles != %@", [r("Car", 2)], [2, 3, 4]),
            ("Person", "ALL vehicles != %@", [r("Car", 1)], [1, 2, 3, 4]),
            ("Person", "NONE vehicles == %@", [r("Vehicle", 2)], [2, 3, 4]),
            ("Vehicle", "SELF == %@", [r("Car", 4)], [4]),
            ("Vehicle", "SELF == %@", [r("Truck", 4)], []),
            ("Vehicle", "SELF IN %@", [.array([r("Car", 2), r("Car", 3), r("Car", 4)])], [2, 4]),
            ("Vehicle", "SELF != %@", [r("Car", 3)], [1, 2, 3, 4]),
            ("Car", "SELF == %@", [r("Vehicle", 2)], [2]),
            ("Car", "owner == %@", [r("Person", 1)], [2]),
        ]
        var failures: [String] = []
        for (entity, format, arguments, expected) in cases {
            let request = FetchSpecification(entity: entity, filter: try Filter(format, arguments: arguments))
            let label = "\(entity) \(format) \(arguments.map { FormatPrinter.format(ExpressionNode.constant($0)) })"
            let got = try DifferentialTests.sqliteIDs(try request.sql(in: Self.garage, dialect: .sqlite), sqlite).sorted()
            if got != expected { failures.append("\(label): SQLite \(got), expected \(expected)") }
            if let pg = postgres {
                let got = try await DifferentialTests.postgresIDs(request, Self.garage, pg).sorted()
                if got != expected { failures.append("\(label): PostgreSQL \(got), expected \(expected)") }
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
        // A truck is no car; a list naming two sub-entities has no SQL form.
        #expect(try Self.loweringError("SELF == %@", [r("Truck", 3)], entity: "Car", schema: Self.garage)?.code == .typeMismatch)
        #expect(try Self.loweringError("SELF IN %@", [.array([r("Car", 2), r("Truck", 3)])], entity: "Vehicle", schema: Self.garage)?
            .code == .unsupported)
    }

    // MARK: - Real stores

    /// The store's identifier and an entity's name for its number, read
    /// with plain SQL.
    static func uri(_ db: DatabaseQueue, entity: String, key: Int) throws -> String {
        let store = try db.read { try String.fetchOne($0, sql: "SELECT Z_UUID FROM Z_METADATA") } ?? ""
        return "x-coredata://\(store)/\(entity)/p\(key)"
    }

    static func keys(_ db: DatabaseQueue, _ schema: StoreSchema, _ entity: String, _ format: String, _ arguments: [Value])
        throws -> [Int]
    {
        let request = FetchSpecification(entity: entity, filter: try Filter(format, arguments: arguments))
        return try db.read { try request.fetchPrimaryKeys($0, schema: schema) }.compactMap { Int.fromDatabaseValue($0) }.sorted()
    }

    static func rows(_ db: DatabaseQueue, _ sql: String) throws -> [Int] {
        try db.read { try Int.fetchAll($0, sql: sql) }.sorted()
    }

    @Test func testObjectIDURIsOnRecipes() throws {
        let db = try RealStores.open("recipes/Recipes.sqlite")
        let schema = try db.read { try StoreSchema.read(from: $0) }
        for recipe in try Self.rows(db, "SELECT Z_PK FROM ZRECIPE") {
            let uri = try #require(ObjectReference(uri: try Self.uri(db, entity: "Recipe", key: recipe)))
            let expected = try Self.rows(db, "SELECT Z_PK FROM ZINGREDIENT WHERE ZRECIPE = \(recipe)")
            #expect(try Self.keys(db, schema, "Ingredient", "recipe == %@", [.reference(uri)]) == expected)
            #expect(try Self.keys(db, schema, "Recipe", "ANY ingredients.recipe == %@", [.reference(uri)]) == (expected.isEmpty ? [] : [recipe]))
            #expect(try Self.keys(db, schema, "Recipe", "SELF == %@", [.reference(uri)]) == [recipe])
        }
        // In memory, rows read from the store hold their key as Z_PK: the
        // resolved filter's references read it there.
        let reference = try #require(ObjectReference(uri: try Self.uri(db, entity: "Recipe", key: 3)))
        let resolved = try schema.resolve(try Filter("recipe == %@", Value.reference(reference)), entity: "Ingredient").compiled()
        #expect(try resolved.evaluate(with: ["recipe": ["Z_PK": 3]]))
        #expect(try !resolved.evaluate(with: ["recipe": ["Z_PK": 4]]))
        #expect(try !Filter("recipe == %@", Value.reference(reference)).compiled().evaluate(with: ["recipe": ["Z_PK": 3]]))
        // The ingredients of a recipe, by their own URIs.
        let ingredients = try Self.rows(db, "SELECT Z_PK FROM ZINGREDIENT WHERE ZRECIPE = 1")
        let uris = try ingredients.map { key in Value.reference(try #require(ObjectReference(uri: try Self.uri(db, entity: "Ingredient", key: key)))) }
        #expect(try Self.keys(db, schema, "Recipe", "ANY ingredients IN %@", [.array(uris)]) == [1])
        // Another store's URI, and another entity's.
        let other = try #require(ObjectReference(uri: "x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/Recipe/p1"))
        #expect(throws: SQLLoweringError.self) { try Self.keys(db, schema, "Ingredient", "recipe == %@", [.reference(other)]) }
        let image = try #require(ObjectReference(uri: try Self.uri(db, entity: "Image", key: 1)))
        #expect(throws: SQLLoweringError.self) { try Self.keys(db, schema, "Ingredient", "recipe == %@", [.reference(image)]) }
    }

    /// Sub-entities in one table: a URI naming a sub-entity matches only
    /// that sub-entity's rows.
    @Test func testObjectIDURIsOfSubentities() throws {
        let db = try RealStores.open("cdp_sample1/SampleModel_V1.sqlite")
        let schema = try db.read { try StoreSchema.read(from: $0) }
        // Each car by the URI of its own entity (read from Z_PRIMARYKEY).
        let cars = try db.read { db in
            try Row.fetchAll(db, sql: "SELECT c.Z_PK, p.Z_NAME FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT ORDER BY c.Z_PK")
                .map { (Int($0[0] as Int64), $0[1] as String) }
        }
        for (key, entity) in cars where key % 7 == 0 || entity != "Car" {
            let uri = try #require(ObjectReference(uri: try Self.uri(db, entity: entity, key: key)))
            #expect(try Self.keys(db, schema, "Car", "SELF == %@", [.reference(uri)]) == [key], "\(uri)")
            let owners = try Self.rows(db, "SELECT ZOWNER FROM ZCAR WHERE Z_PK = \(key) AND ZOWNER IS NOT NULL")
            #expect(try Self.keys(db, schema, "Person", "ANY cars == %@", [.reference(uri)]) == owners, "\(uri)")
            #expect(try Self.keys(db, schema, "Person", "NOT (cars CONTAINS %@)", [.reference(uri)])
                == Self.rows(db, "SELECT Z_PK FROM ZPERSON WHERE Z_PK NOT IN (SELECT ZOWNER FROM ZCAR WHERE Z_PK = \(key) AND ZOWNER IS NOT NULL)"))
        }
        // A plain car named as a sports car is no sports car.
        let plain = try #require(cars.first { $0.1 == "Car" })
        let wrong = try #require(ObjectReference(uri: try Self.uri(db, entity: "SportCar", key: plain.0)))
        #expect(try Self.keys(db, schema, "Car", "SELF == %@", [.reference(wrong)]).isEmpty)
        #expect(try Self.keys(db, schema, "Car", "SELF != %@", [.reference(wrong)]) == Self.rows(db, "SELECT Z_PK FROM ZCAR"))
        #expect(try Self.keys(db, schema, "Person", "ANY cars == %@", [.reference(wrong)]).isEmpty)
    }
}
