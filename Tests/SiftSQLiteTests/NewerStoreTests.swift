import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import Testing

/// The stores of iOS 17 and SwiftData in `../shared/coredata-stores/`:
/// composite attributes, to-manys without an inverse, join-table columns
/// with a collision number and ordered relationships, each read through
/// the model the store caches and checked against queries over the raw
/// tables.
struct NewerStoreTests {
    typealias Stores = CoreDataStoreTests

    /// The rows of `entity` fetched as objects, keyed by `Z_PK`.
    func objects(_ db: DatabaseQueue, _ schema: StoreSchema, _ entity: String) throws -> [Int: [String: Value]] {
        var out: [Int: [String: Value]] = [:]
        for case .dictionary(let row) in try db.read({ try FetchSpecification(entity: entity).fetchValues($0, schema: schema) }) {
            guard case .int(let key)? = row["Z_PK"] else { continue }
            out[Int(key)] = row
        }
        return out
    }

    /// The keys of the objects of `entity` that `format` selects when
    /// evaluated in memory on the fetched objects, as the REPL does.
    func inMemory(_ db: DatabaseQueue, _ schema: StoreSchema, _ entity: String, _ format: String) throws -> [Int] {
        let filter = try schema.resolve(try Filter(format), entity: entity)
        return try objects(db, schema, entity).filter { try filter.evaluate(with: .dictionary($0.value)) }.keys.sorted()
    }

    // MARK: - Composite attributes

    @Test func testCompositeElementsTakeTheirOwnColumns() throws {
        let schema = try Stores.schema("cocktails/PreloadedCocktails.store")
        let db = try Stores.open("cocktails/PreloadedCocktails.store")
        // Columns are given in property-name order, composite elements
        // included: author.id ("author" < "id") takes ZID, Cocktail.id ZID1;
        // in IngredientBase, id ("id" < "prep") takes ZID, prep.id ZID1.
        let cocktail = try #require(schema.entity(named: "Cocktail"))
        #expect(cocktail.attribute(named: "id")?.column == "ZID1")
        let author = try #require(cocktail.composite(named: "author"))
        #expect(author.elements.map { "\($0.name) \($0.column) \($0.type.name)" } == ["id ZID uuid", "person ZPERSON string", "place ZPLACE string", "year ZYEAR string"])
        let base = try #require(schema.entity(named: "IngredientBase"))
        #expect(base.attribute(named: "id")?.column == "ZID")
        #expect(base.composite(named: "prep")?.element(at: "id")?.column == "ZID1")

        try Stores.compare(db, schema, "Cocktail", "id == CAST('9A8B7F4E-E03E-4BA8-9B04-11464B65D799', 'NSUUID')",
                             "SELECT Z_PK FROM ZCOCKTAIL WHERE ZID1 = x'9A8B7F4EE03E4BA89B0411464B65D799'")
        try Stores.compare(db, schema, "Cocktail", "author.person == 'Sam Ross'",
                             "SELECT Z_PK FROM ZCOCKTAIL WHERE ZPERSON = 'Sam Ross'")
        try Stores.compare(db, schema, "Cocktail", "author.person BEGINSWITH[c] 'j' AND glasswareType.glasswareType == 'Coupe'",
                             "SELECT Z_PK FROM ZCOCKTAIL WHERE ZPERSON LIKE 'j%' AND ZGLASSWARETYPE = 'Coupe'")
        let (someID, prepID) = try db.read { db -> (String, String) in
            (try String.fetchOne(db, sql: "SELECT hex(ZID) FROM ZINGREDIENTBASE WHERE ZID IS NOT NULL ORDER BY Z_PK LIMIT 1") ?? "",
             try String.fetchOne(db, sql: "SELECT hex(ZID1) FROM ZINGREDIENTBASE WHERE ZID1 IS NOT NULL ORDER BY Z_PK LIMIT 1") ?? "")
        }
        func uuid(_ hex: String) -> String {
            let c = Array(hex)
            return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(c[$0]) }.joined(separator: "-")
        }
        try Stores.compare(db, schema, "IngredientBase", "id == CAST('\(uuid(someID))', 'NSUUID')",
                             "SELECT Z_PK FROM ZINGREDIENTBASE WHERE hex(ZID) = '\(someID)'")
        try Stores.compare(db, schema, "IngredientBase", "prep.id == CAST('\(uuid(prepID))', 'NSUUID')",
                             "SELECT Z_PK FROM ZINGREDIENTBASE WHERE hex(ZID1) = '\(prepID)'")

        // Fetched, each cocktail has its own id, and the author is a
        // dictionary of its elements (nil where every element is NULL).
        let rows = try objects(db, schema, "Cocktail")
        let raw = try db.read { try Row.fetchAll($0, sql: "SELECT Z_PK, hex(ZID1), ZPERSON, ZPLACE, ZID IS NULL AND ZYEAR IS NULL FROM ZCOCKTAIL") }
        #expect(rows.count == raw.count)
        #expect(raw.count > 400)
        for r in raw {
            let key: Int = r[0]
            let row = try #require(rows[key])
            #expect(row["id"].flatMap { if case .uuid(let u) = $0 { u.uuidString } else { nil } } == uuid(r[1]), "\(key)")
            let person: String? = r[2]
            let place: String? = r[3]
            let otherElementsNull: Bool = r[4]
            if person == nil, place == nil, otherElementsNull {
                #expect(row["author"] == .null, "\(key)")
            } else {
                guard case .dictionary(let a)? = row["author"] else { Issue.record("\(key): \(String(describing: row["author"]))"); return }
                #expect(a["person"] == (person.map(Value.string) ?? .null), "\(key)")
                #expect(a["place"] == (place.map(Value.string) ?? .null), "\(key)")
            }
        }

        // In memory, on the fetched objects, the same rows as SQL.
        for format in ["author.person == 'Sam Ross'", "author.place CONTAINS[c] 'london' OR author.year == nil",
                       "id == CAST('9A8B7F4E-E03E-4BA8-9B04-11464B65D799', 'NSUUID')"] {
            let sql = try db.read {
                try FetchSpecification(entity: "Cocktail", filter: try Filter(format))
                    .fetchPrimaryKeys($0, schema: schema).compactMap { Int.fromDatabaseValue($0) }
            }
            #expect(try inMemory(db, schema, "Cocktail", format) == sql.sorted(), Comment(rawValue: format))
        }
        // The composite as a whole: refused in memory as in SQL.
        if let error = #expect(throws: (any Error).self, performing: { try schema.resolve(try Filter("author == nil"), entity: "Cocktail") }) {
            #expect((error as? SQLLoweringError)?.code == .unsupported)
        }

        // The composite as a whole has no SQL form; an element it lacks is
        // named with the ones it has.
        let whole = try Stores.lowered(schema, "Cocktail", "author == nil")
        #expect(whole?.code == .unsupported)
        #expect(whole?.message.contains("compare one of its elements") ?? false, Comment(rawValue: whole?.message ?? ""))
        let unknown = try Stores.lowered(schema, "Cocktail", "author.name == 'x'")
        #expect(unknown?.code == .unknownKey)
        #expect(unknown?.message.contains("id, person, place, year") ?? false, Comment(rawValue: unknown?.message ?? ""))
    }

    // MARK: - Relationships as Core Data stores them

    @Test func testToManysWithoutAnInverse() throws {
        let cocktails = try Stores.schema("cocktails/PreloadedCocktails.store")
        #expect(cocktails.entity(named: "Cocktail")?.relationship(named: "spec")?.kind == .toMany(inverseColumn: "Z1SPEC"))
        try Stores.compare(try Stores.open("cocktails/PreloadedCocktails.store"), cocktails, "Cocktail", "spec.@count > 8",
                             "SELECT Z1SPEC FROM ZINGREDIENT GROUP BY Z1SPEC HAVING count(*) > 8")
        try Stores.compare(try Stores.open("cocktails/PreloadedCocktails.store"), cocktails, "Cocktail",
                             "ANY spec.ingredientBase.name ==[c] 'fresh lime juice'",
                             "SELECT DISTINCT i.Z1SPEC FROM ZINGREDIENT i JOIN ZINGREDIENTBASE b ON b.Z_PK = i.ZINGREDIENTBASE WHERE lower(b.ZNAME) = 'fresh lime juice'")

        let cart = try Stores.schema("cartkit/CartStorage_v1.sqlite")
        #expect(cart.entity(named: "CDCartItem")?.relationship(named: "modifiers")?.kind == .toMany(inverseColumn: "Z2MODIFIERS"))
        try Stores.compare(try Stores.open("cartkit/CartStorage_v1.sqlite"), cart, "CDCartItem", "modifiers.@count == 0",
                             "SELECT Z_PK FROM ZCDCARTITEM i WHERE NOT EXISTS (SELECT 1 FROM ZCDCARTITEMMODIFIER m WHERE m.Z2MODIFIERS = i.Z_PK)")
        let swiftData = try Stores.schema("cartkit/CartKitSwiftData_v1.sqlite")
        #expect(swiftData.entity(named: "CartModel")?.relationship(named: "items")?.kind == .toMany(inverseColumn: "Z3ITEMS"))
        #expect(swiftData.entity(named: "CartItemModel")?.relationship(named: "modifiers")?.kind == .toMany(inverseColumn: "Z1MODIFIERS"))
        try Stores.compare(try Stores.open("cartkit/CartKitSwiftData_v1.sqlite"), swiftData, "CartModel", "items.@count == 0",
                             "SELECT Z_PK FROM ZCARTMODEL c WHERE NOT EXISTS (SELECT 1 FROM ZCARTITEMMODEL i WHERE i.Z3ITEMS = c.Z_PK)")
    }

    @Test func testJoinTableColumnsWithACollisionNumber() throws {
        let schema = try Stores.schema("wire/store2-101-0.wiredatabase")
        #expect(schema.entity(named: "SystemMessage")?.relationship(named: "users")?.kind == .manyToMany(table: "Z_15USERS", sourceColumn: "Z_15SYSTEMMESSAGES", destinationColumn: "Z_23USERS1"))
        let db = try Stores.open("wire/store2-101-0.wiredatabase")
        try Stores.compare(db, schema, "SystemMessage", "users.@count > 2",
                             "SELECT Z_15SYSTEMMESSAGES FROM Z_15USERS GROUP BY 1 HAVING count(*) > 2")
        try Stores.compare(db, schema, "User", "systemMessages.@count > 0",
                             "SELECT DISTINCT Z_23USERS1 FROM Z_15USERS")
        #expect(schema.entities.allSatisfy { $0.unsupportedKeys.allSatisfy { !$0.reason.contains("no join table") } }, "\(schema.entities.flatMap(\.unsupportedKeys))")
    }

    @Test func testOrderedRelationshipsNameTheirOrderColumns() throws {
        let ddg = try Stores.schema("ddg_bookmarks/Bookmarks_V5.sqlite")
        let bookmark = try #require(ddg.entity(named: "BookmarkEntity"))
        #expect(bookmark.relationship(named: "children")?.orderColumn == "Z_FOK_PARENT")
        #expect(bookmark.relationship(named: "favorites")?.orderColumn == "Z_FOK_1FAVORITES")
        #expect(bookmark.relationship(named: "favoriteFolders")?.orderColumn == nil)
        let wire = try Stores.schema("wire/store2-101-0.wiredatabase")
        #expect(wire.entity(named: "Conversation")?.relationship(named: "lastServerSyncedActiveParticipants")?.orderColumn == "Z_FOK_23LASTSERVERSYNCEDACTIVEPARTICIPANTS")
        // The JSON form keeps it.
        let decoded = try StoreSchema(json: try ddg.jsonData())
        #expect(decoded.entity(named: "BookmarkEntity")?.relationship(named: "children")?.orderColumn == "Z_FOK_PARENT")
    }

    // MARK: - Columns in the model's order

    @Test func testCompiledModelsListPropertiesByName() throws {
        // A store's cached model keeps its properties in a hashed
        // dictionary; they are listed by name, as Xcode lists them, and the
        // contents file's order is kept.
        let cached = try #require(try Stores.schema("wire/store2-101-0.wiredatabase").entity(named: "Conversation"))
        let names = cached.attributes.map(\.name)
        #expect(names == names.sorted())
        #expect(names.contains("userDefinedName"))
        let xml = try #require(try Stores.schema("wire/store2-101-0.wiredatabase", model: "wire/zmessaging2.101.0.xcdatamodel").entity(named: "Conversation"))
        let contents = try String(contentsOf: try Stores.stores().appendingPathComponent("wire/zmessaging2.101.0.xcdatamodel/contents"), encoding: .utf8)
        let entity = try #require(contents.range(of: "<entity name=\"Conversation\"")).upperBound
        let end = try #require(contents.range(of: "</entity>", range: entity..<contents.endIndex)).lowerBound
        let declared = contents[entity..<end].components(separatedBy: "<attribute name=\"").dropFirst().compactMap { $0.split(separator: "\"").first.map(String.init) }
        #expect(xml.attributes.map(\.name) == declared.filter { xml.attribute(named: $0) != nil })
    }
}

/// Composite attributes read from an Xcode `contents` file: a
/// `<compositeAttribute>` beside the entities, named by the attribute's
/// `composite=`, on a store made here with Core Data's column names.
struct CompositeContentsTests {
    static let contents = """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            <entity name="Person" representedClassName="Person" syncable="YES">
                <attribute name="home" optional="YES" attributeType="Composite" composite="Address"/>
                <attribute name="city" optional="YES" attributeType="String"/>
            </entity>
            <compositeAttribute name="Address">
                <attribute name="city" optional="YES" attributeType="String"/>
                <attribute name="position" optional="YES" attributeType="Composite" composite="Position"/>
            </compositeAttribute>
            <compositeAttribute name="Position">
                <attribute name="latitude" optional="YES" attributeType="Double"/>
            </compositeAttribute>
        </model>
        """

    @Test func testCompositesFromTheContentsFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-composite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modelFile = folder.appendingPathComponent("contents")
        try Data(Self.contents.utf8).write(to: modelFile)
        let model = try CoreDataModel(contentsOf: modelFile)
        let home = try #require(model.entity(named: "Person")?.properties.first { $0.name == "home" })
        #expect(home.elements.map(\.name) == ["city", "position"])
        #expect(home.elements.last?.elements.map(\.name) == ["latitude"])

        // "city" sorts before "home": Person.city is ZCITY, home.city ZCITY1.
        let queue = try DatabaseQueue(path: folder.appendingPathComponent("People.sqlite").path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Person', 0, 3);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLATITUDE FLOAT,
                    ZCITY VARCHAR, ZCITY1 VARCHAR);
                INSERT INTO ZPERSON VALUES (1, 1, 1, 59.9, 'Bergen', 'Oslo'), (2, 1, 1, NULL, 'Oslo', 'Paris'),
                    (3, 1, 1, NULL, 'Rome', NULL);
                """)
        }
        let schema = try queue.read { try StoreSchema.read(from: $0, model: model) }
        let person = try #require(schema.entity(named: "Person"))
        #expect(person.attribute(named: "city")?.column == "ZCITY")
        #expect(person.composite(named: "home")?.elements.map { "\($0.name) \($0.column)" } == ["city ZCITY1", "position.latitude ZLATITUDE"])
        func keys(_ format: String) throws -> [Int] {
            try queue.read {
                try FetchSpecification(entity: "Person", filter: try Filter(format)).fetchPrimaryKeys($0, schema: schema)
                    .compactMap { Int.fromDatabaseValue($0) }
            }
        }
        #expect(try keys("home.city == 'Oslo'") == [1])
        #expect(try keys("city == 'Oslo'") == [2])
        #expect(try keys("home.position.latitude > 50") == [1])
        let rows = try queue.read { try FetchSpecification(entity: "Person").fetchValues($0, schema: schema) }
        #expect(rows.first == .dictionary([
            "Z_PK": .int(1), "city": .string("Bergen"),
            "home": .dictionary(["city": .string("Oslo"), "position": .dictionary(["latitude": .double(59.9)])]),
        ]))
        #expect(rows.last == .dictionary(["Z_PK": .int(3), "city": .string("Rome"), "home": .null]))

        // The JSON form reads back; a new database made from the schema has
        // the elements' columns; elements that overlap are refused.
        #expect(try StoreSchema(json: try schema.jsonData()) == schema)
        let made = try DatabaseQueue()
        try made.write { db in for statement in schema.createStatements(dialect: .sqlite) { try db.execute(sql: statement) } }
        #expect(try made.read { try FetchSpecification(entity: "Person", filter: try Filter("home.city == 'x'")).fetchValues($0, schema: schema) } == [])
        var overlapping = schema
        overlapping.entities[0].composites[0].elements.append(Attribute("position", .string, column: "ZPOS"))
        if let error = #expect(throws: (any Error).self, performing: { try StoreSchema(json: try overlapping.jsonData()) }) {
            #expect("\(error)".contains("inside another element"), "\(error)")
        }

        // Types nesting ten of the next at 16 levels would be 10^16
        // elements: refused past the cap, at once.
        var nested = #"<?xml version="1.0"?><model><entity name="Person"><attribute name="home" attributeType="Composite" composite="T0"/></entity>"#
        for level in 0..<16 {
            let attributes = (0..<10).map { i in
                level == 15 ? #"<attribute name="a\#(i)" attributeType="String"/>"#
                    : #"<attribute name="a\#(i)" attributeType="Composite" composite="T\#(level + 1)"/>"#
            }
            nested += #"<compositeAttribute name="T\#(level)">"# + attributes.joined() + "</compositeAttribute>"
        }
        let bomb = folder.appendingPathComponent("bomb")
        try Data((nested + "</model>").utf8).write(to: bomb)
        if let error = #expect(throws: (any Error).self, performing: { try CoreDataModel(contentsOf: bomb) }) {
            #expect("\(error)".contains("has more than 10000 elements"), "\(error)")
        }
        // The bound is a setting: ten elements of ten is 110 in all.
        var two = #"<?xml version="1.0"?><model><entity name="Person"><attribute name="home" attributeType="Composite" composite="T0"/></entity>"#
        two += #"<compositeAttribute name="T0">"# + (0..<10).map { #"<attribute name="a\#($0)" attributeType="Composite" composite="T1"/>"# }.joined()
        two += #"</compositeAttribute><compositeAttribute name="T1">"# + (0..<10).map { #"<attribute name="b\#($0)" attributeType="String"/>"# }.joined()
        let small = folder.appendingPathComponent("small")
        try Data((two + "</compositeAttribute></model>").utf8).write(to: small)
        #expect(try CoreDataModel(contentsOf: small, maximumCompositeElements: 110).entities.first?.properties.first?.elements.count == 10)
        if let error = #expect(throws: (any Error).self, performing: { try CoreDataModel(contentsOf: small, maximumCompositeElements: 109) }) {
            #expect("\(error)".contains("has more than 109 elements"), "\(error)")
        }

        // A composite type the file lacks is an error naming it.
        let broken = folder.appendingPathComponent("broken")
        try Data(Self.contents.replacingOccurrences(of: "composite=\"Position\"", with: "composite=\"Place\"").utf8).write(to: broken)
        if let error = #expect(throws: (any Error).self, performing: { try CoreDataModel(contentsOf: broken) }) {
            #expect("\(error)".contains("composite type Place"), "\(error)")
        }
    }
}

/// A name from input is echoed in an error at most 64 characters long,
/// with at most 20 of the schema's entities (a 5 MB name was echoed whole).
struct EchoedNameTests {
    @Test func testUnknownEntityNamesAreCapped() throws {
        let schema = StoreSchema((0..<30).map { Entity("E\($0)", attributes: [Attribute("a", .integer)]) })
        let name = String(repeating: "X", count: 5_000_000)
        for request in [FetchSpecification(entity: name)] {
            if let error = #expect(throws: (any Error).self, performing: { try request.sql(in: schema, dialect: .sqlite) }) {
                let message = (error as? SQLLoweringError)?.message ?? ""
                #expect(message.utf8.count < 400, Comment(rawValue: String(message.prefix(400))))
                #expect(message.hasPrefix("unknown entity " + String(repeating: "X", count: 64) + "… (5000000 bytes)"), Comment(rawValue: message))
                #expect(message.hasSuffix("E19 and 10 more"), Comment(rawValue: message))
            }
        }
        if let error = #expect(throws: (any Error).self, performing: { try schema.resolve(try Filter("a == 1"), entity: name) }) {
            #expect(((error as? SQLLoweringError)?.message ?? "").utf8.count < 400)
        }
    }
}

/// A chain of inheritance deeper than `CoreDataModel.maximumInheritanceDepth`
/// is refused, naming the setting; up to it, the chain reads (each entity
/// listing what it inherits, which is why the depth is bounded: 8,000
/// levels took 64 s and 2 GB).
struct InheritanceDepthTests {
    @Test func testDeepChainsAreRefusedPastTheSetting() throws {
        let depth = CoreDataModel.defaultMaximumInheritanceDepth + 1
        let entities = (0..<depth).map { i in
            CoreDataModel.Entity("E\(i)", parent: i == 0 ? nil : "E\(i - 1)", properties: [CoreDataModel.Property("p\(i)", .attribute(type: 300))])
        }
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)")
            try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)")
            let columns = (0..<depth).map { "ZP\($0) INTEGER" }.joined(separator: ", ")
            try db.execute(sql: "CREATE TABLE ZE0 (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, \(columns))")
            for i in 0..<depth {
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, 0)", arguments: [i + 1, "E\(i)", i])
            }
            try db.execute(sql: "INSERT INTO ZE0 (Z_PK, Z_ENT, Z_OPT, ZP0, ZP\(depth - 1)) VALUES (1, \(depth), 1, 7, 8)")
        }
        var model = CoreDataModel(entities: entities)
        if let error = #expect(throws: (any Error).self, performing: { try queue.read { try StoreSchema.read(from: $0, model: model) } }) {
            #expect("\(error)".contains("more than \(depth - 1) entities (CoreDataModel.maximumInheritanceDepth)"), "\(error)")
        }
        model.maximumInheritanceDepth = depth
        let schema = try queue.read { try StoreSchema.read(from: $0, model: model) }
        #expect(schema.entity(named: "E\(depth - 1)")?.attributes.count == depth)
        #expect(schema.entity(named: "E0")?.discriminator?.values.count == depth)
        let keys = try queue.read {
            try FetchSpecification(entity: "E0", filter: try Filter("p0 == 7")).fetchPrimaryKeys($0, schema: schema)
        }
        #expect(keys.count == 1)
    }
}

/// A valid `contents` file with one line longer than libxml2's 10 MB
/// lookup limit (170,000 attributes) reads, as a stream.
struct LongLineContentsTests {
    @Test func testOneLineOfElevenMegabytes() throws {
        let attributes = (0..<170_000).map { #"<attribute name="a\#($0)" optional="YES" attributeType="String"/>"# }.joined()
        let text = #"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><model type="com.apple.IDECoreDataModeler.DataModel">"#
            + #"<entity name="E">"# + attributes + "</entity></model>"
        #expect(text.utf8.count > 10_500_000)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("sift-long-\(UUID().uuidString).contents")
        try Data(text.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let model = try CoreDataModel(contentsOf: file)
        #expect(model.entity(named: "E")?.properties.count == 170_000)
    }
}
