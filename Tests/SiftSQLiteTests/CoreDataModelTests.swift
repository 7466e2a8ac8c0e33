import CZlib
import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import Testing

/// A Core Data store made here (no Core Data on Linux): Z tables and a
/// Z_MODELCACHE built as a keyed archive, covering every mapping rule; and
/// damaged models.
struct CoreDataModelTests {
    /// A keyed archive written as an XML property list with `CF$UID`
    /// references, turned binary by PropertyListSerialization.
    final class Archive {
        var objects: [String] = ["<string>$null</string>"]
        var classes: [String: Int] = [:]

        func add(_ xml: String) -> Int {
            objects.append(xml)
            return objects.count - 1
        }
        static func ref(_ n: Int) -> String { "<dict><key>CF$UID</key><integer>\(n)</integer></dict>" }
        func string(_ s: String) -> Int { add("<string>\(s)</string>") }
        func klass(_ name: String) -> Int {
            if let n = classes[name] { return n }
            let n = add("<dict><key>$classname</key><string>\(name)</string></dict>")
            classes[name] = n
            return n
        }
        func object(_ className: String, _ fields: [(String, String)]) -> Int {
            add("<dict><key>$class</key>\(Self.ref(klass(className)))"
                + fields.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "</dict>")
        }
        /// Reserves a slot filled later (entities refer to each other).
        func reserve() -> Int { add("") }

        func binary(root: Int) throws -> Data {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
                <key>$archiver</key><string>NSKeyedArchiver</string><key>$version</key><integer>100000</integer>
                <key>$top</key><dict><key>root</key>\(Self.ref(root))</dict>
                <key>$objects</key><array>\(objects.joined())</array></dict></plist>
                """
            let plist = try PropertyListSerialization.propertyList(from: Data(xml.utf8), options: [], format: nil)
            return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        }
    }

    /// Raw DEFLATE, as Z_MODELCACHE holds it.
    static func deflateRaw(_ data: Data) -> Data {
        var stream = z_stream()
        deflateInit2_(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                      Int32(MemoryLayout<z_stream>.size))
        defer { deflateEnd(&stream) }
        var input = [UInt8](data)
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        let count = input.withUnsafeMutableBufferPointer { i in
            output.withUnsafeMutableBufferPointer { o -> Int in
                stream.next_in = i.baseAddress
                stream.avail_in = uInt(i.count)
                stream.next_out = o.baseAddress
                stream.avail_out = uInt(o.count)
                deflate(&stream, Z_FINISH)
                return Int(stream.total_out)
            }
        }
        return Data(output[..<count])
    }

    typealias Prop = (name: String, fields: [(String, String)], className: String)

    /// The model: Thing (abstract) with an attribute of every type, its
    /// sub-entities Gadget and Widget each declaring `height` (ZHEIGHT and
    /// ZHEIGHT1); Owner one-to-one Thing, ordered to-many Part, many-to-many
    /// Tag.
    static func modelArchive() throws -> Data {
        let a = Archive()
        let names = ["Owner", "Part", "Tag", "Thing", "Gadget", "Widget"]
        var slots: [String: Int] = [:]
        for n in names { slots[n] = a.reserve() }
        let R = Archive.ref
        func attribute(_ name: String, _ type: Int, optional: Bool = true) -> Prop {
            (name, [("NSAttributeType", "<integer>\(type)</integer>")] + (optional ? [("NSIsOptional", "<true/>")] : []),
             "NSAttributeDescription")
        }
        func relationship(_ name: String, _ destination: String, toMany: Bool, inverse: String, ordered: Bool = false) -> Prop {
            (name, [("NSDestinationEntity", R(slots[destination]!)), ("NSMaxCount", "<integer>\(toMany ? 0 : 1)</integer>"),
                    ("_NSInverseRelationshipName", R(a.string(inverse))), ("NSIsOptional", "<true/>")]
                + (ordered ? [("NSIsOrdered", "<true/>")] : []), "NSRelationshipDescription")
        }
        let types = [("i16", 100), ("i32", 200), ("i64", 300), ("price", 400), ("ratio", 500), ("speed", 600),
                     ("title", 700), ("flag", 800), ("when", 900), ("bytes", 1000), ("uid", 1100), ("link", 1200),
                     ("blobby", 1800)]
        let properties: [String: [Prop]] = [
            "Owner": [attribute("name", 700, optional: false), relationship("thing", "Thing", toMany: false, inverse: "owner"),
                      relationship("parts", "Part", toMany: true, inverse: "owner", ordered: true),
                      relationship("tags", "Tag", toMany: true, inverse: "owners")],
            "Part": [attribute("name", 700), relationship("owner", "Owner", toMany: false, inverse: "parts")],
            "Tag": [attribute("name", 700), relationship("owners", "Owner", toMany: true, inverse: "tags")],
            "Thing": types.map { attribute($0.0, $0.1) } + [relationship("owner", "Owner", toMany: false, inverse: "thing"),
                     ("shadow", [("NSIsTransient", "<true/>"), ("NSAttributeType", "<integer>300</integer>")], "NSAttributeDescription"),
                     ("related", [], "NSFetchedPropertyDescription")],
            "Gadget": [attribute("height", 300)],
            "Widget": [attribute("height", 300), attribute("depth", 300)],
        ]
        let parents = ["Gadget": "Thing", "Widget": "Thing"]
        for n in names {
            var keys: [String] = []
            var values: [String] = []
            for p in properties[n]! {
                keys.append(R(a.string(p.name)))
                values.append(R(a.object(p.className, [("NSPropertyName", R(a.string(p.name)))] + p.fields)))
            }
            let dictionary = a.object("NSMutableDictionary", [("NS.keys", "<array>\(keys.joined())</array>"),
                                                            ("NS.objects", "<array>\(values.joined())</array>")])
            var fields = [("NSEntityName", R(a.string(n))), ("NSProperties", R(dictionary))]
            if let p = parents[n] { fields.append(("NSSuperentity", R(slots[p]!))) }
            if n == "Thing" { fields.append(("NSIsAbstract", "<true/>")) }
            a.objects[slots[n]!] = "<dict><key>$class</key>\(R(a.klass("NSEntityDescription")))"
                + fields.map { "<key>\($0.0)</key>\($0.1)" }.joined() + "</dict>"
        }
        let values = a.object("NSArray", [("NS.objects", "<array>" + names.map { R(slots[$0]!) }.joined() + "</array>")])
        let entities = a.object("NSKnownKeysDictionary1", [("values", R(values))])
        let root = a.object("NSManagedObjectModel", [("NSEntities", R(entities))])
        return try a.binary(root: root)
    }

    /// The store, in WAL mode, written by a queue the caller keeps open so
    /// that the rows stay in the WAL.
    static func makeStore() throws -> (path: String, writer: DatabaseQueue) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-model-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("Generated.sqlite").path
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        let writer = try DatabaseQueue(path: path, configuration: configuration)
        let cache = deflateRaw(try modelArchive())
        try writer.write { db in
            try db.execute(sql: """
                CREATE TABLE ZOWNER (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTHING INTEGER, ZNAME VARCHAR);
                CREATE TABLE ZPART (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZOWNER INTEGER, Z_FOK_OWNER INTEGER, ZNAME VARCHAR);
                CREATE TABLE ZTAG (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                CREATE TABLE ZTHING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZI16 INTEGER, ZI32 INTEGER,
                    ZI64 INTEGER, ZFLAG INTEGER, ZOWNER INTEGER, ZHEIGHT INTEGER, ZHEIGHT1 INTEGER, ZDEPTH INTEGER,
                    ZWHEN TIMESTAMP, ZPRICE DECIMAL, ZRATIO FLOAT, ZSPEED FLOAT, ZTITLE VARCHAR, ZLINK VARCHAR,
                    ZBYTES BLOB, ZUID BLOB, ZBLOBBY BLOB);
                CREATE TABLE Z_1TAGS (Z_1OWNERS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_1OWNERS, Z_3TAGS));
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Owner', 0, 2), (2, 'Part', 0, 3), (3, 'Tag', 0, 2),
                    (4, 'Thing', 0, 3), (5, 'Gadget', 4, 0), (6, 'Widget', 4, 0);
                INSERT INTO ZOWNER VALUES (1, 1, 1, 1, 'Ann'), (2, 1, 1, 3, 'Bob');
                INSERT INTO ZPART VALUES (1, 2, 1, 1, 1, 'wheel'), (2, 2, 1, 1, 2, 'bell'), (3, 2, 1, 2, 1, 'seat');
                INSERT INTO ZTAG VALUES (1, 3, 1, 'red'), (2, 3, 1, 'old');
                INSERT INTO Z_1TAGS VALUES (1, 1), (1, 2), (2, 2);
                INSERT INTO ZTHING (Z_PK, Z_ENT, Z_OPT, ZI16, ZTITLE, ZFLAG, ZOWNER, ZHEIGHT, ZHEIGHT1, ZDEPTH, ZWHEN, ZPRICE)
                    VALUES (1, 5, 1, 7, 'lamp', 1, 1, 30, NULL, NULL, 0, 9.5), (2, 6, 1, 8, 'desk', 0, NULL, NULL, 75, 60, 100, 120),
                    (3, 6, 1, 9, 'shelf', 1, 2, NULL, 180, 30, 200, 45);
                """)
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (?)", arguments: [cache])
        }
        return (path, writer)
    }

    @Test func testGeneratedStore() throws {
        let (path, writer) = try Self.makeStore()
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        let reader = try ReadOnlyDatabase.open(path: path)
        let schema = try reader.read { try StoreSchema.read(from: $0) }
        // A compiled model's properties by name (it keeps no declared order).
        #expect(CoreDataStoreTests.relationships(schema) == [
            "Owner.parts → Part (to-many, inverse owner, ordered)",
            "Owner.tags → Tag (many-to-many, inverse owners)",
            "Owner.thing → Thing (one-to-one, inverse owner)",
            "Part.owner → Owner (to-one, inverse parts)",
            "Tag.owners → Owner (many-to-many, inverse tags)",
            "Thing.owner → Owner (one-to-one, inverse thing)",
            "Gadget.owner → Owner (one-to-one, inverse thing)",
            "Widget.owner → Owner (one-to-one, inverse thing)",
        ])
        let thing = "blobby transformable?, bytes blob?, flag boolean?, i16 integer?, i32 integer?, i64 integer?, link string?, price decimal?, ratio double?, speed double?, title string?, uid uuid?, when date?"
        #expect(CoreDataStoreTests.attributes(schema) == [
            "Owner: name string", "Part: name string?", "Tag: name string?", "Thing: " + thing,
            "Gadget: " + thing + ", height integer?", "Widget: " + thing + ", depth integer?, height integer?",
        ])
        #expect(schema.entity(named: "Widget")?.attribute(named: "height")?.column == "ZHEIGHT1")
        #expect(schema.entity(named: "Thing")?.isAbstract == true)
        #expect(schema.entity(named: "Thing")?.discriminator?.values == [4, 5, 6])
        func keys(_ entity: String, _ format: String) throws -> [Int] {
            let request = FetchSpecification(entity: entity, filter: try Filter(format))
            return try reader.read { try request.fetchPrimaryKeys($0, schema: schema) }.compactMap { Int.fromDatabaseValue($0) }
        }
        #expect(try keys("Widget", "height > 100") == [3])
        #expect(try keys("Gadget", "height == 30") == [1])
        #expect(try keys("Thing", "flag == YES AND owner.name BEGINSWITH 'A'") == [1])
        #expect(try keys("Thing", "price > 10") == [2, 3])
        #expect(try keys("Owner", "thing.title == 'shelf'") == [2])
        #expect(try keys("Owner", "parts.@count == 2") == [1])
        #expect(try keys("Owner", "ANY tags.name == 'old'") == [1, 2])
        #expect(try keys("Tag", "owners.@count == 1") == [1])
        #expect(try keys("Thing", "when > CAST(50, 'NSDate')") == [2, 3])
        for (entity, format, fragment) in [
            ("Thing", "height > 1", "no key height"), ("Thing", "blobby == nil", "transformable"),
            ("Thing", "shadow == 1", "transient"), ("Thing", "related.@count > 0", "fetched property"),
        ] {
            if let error = #expect(throws: (any Error).self, Comment(rawValue: format), performing: { try keys(entity, format) }) {
                #expect("\(error)".contains(fragment), "\(format): \(error)")
            }
        }
        try writer.close()
    }

    // MARK: - Damaged models

    func assertFails(_ make: () throws -> Void, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let error = #expect(throws: (any Error).self, sourceLocation: sourceLocation, performing: { try make() }) {
            #expect("\(error)".contains(fragment), "\(error)", sourceLocation: sourceLocation)
        }
    }

    /// A compiled model whose composite types each list the next one ten
    /// times, 16 levels deep, would expand to 10^16 elements: it is refused
    /// once the count passes the bound, which is a setting; within the
    /// bound the elements are read.
    @Test func testCompositeExpansionIsBoundedInACompiledModel() throws {
        func archive(levels: Int, width: Int) throws -> Data {
            let a = Archive()
            let R = Archive.ref
            var next = a.object("NSAttributeDescription", [
                ("NSPropertyName", R(a.string("leaf"))), ("NSAttributeType", "<integer>700</integer>"),
            ])
            for level in (0..<levels).reversed() {
                let list = a.object("NSArray", [("NS.objects", "<array>" + Array(repeating: R(next), count: width).joined() + "</array>")])
                next = a.object("NSCompositeAttributeDescription", [
                    ("NSPropertyName", R(a.string(level == 0 ? "home" : "c\(level)"))),
                    ("NSAttributeType", "<integer>2100</integer>"), ("NSCompositeElements", R(list)),
                ])
            }
            let dictionary = a.object("NSMutableDictionary", [
                ("NS.keys", "<array>\(R(a.string("home")))</array>"), ("NS.objects", "<array>\(R(next))</array>"),
            ])
            let entity = a.object("NSEntityDescription", [("NSEntityName", R(a.string("Person"))), ("NSProperties", R(dictionary))])
            let values = a.object("NSArray", [("NS.objects", "<array>\(R(entity))</array>")])
            let entities = a.object("NSKnownKeysDictionary1", [("values", R(values))])
            return try a.binary(root: a.object("NSManagedObjectModel", [("NSEntities", R(entities))]))
        }
        let bomb = Self.deflateRaw(try archive(levels: 16, width: 10))
        assertFails({ _ = try CoreDataModel(modelCache: bomb, source: "cache") }, "composite attribute Person.home.c1.")
        assertFails({ _ = try CoreDataModel(modelCache: bomb, source: "cache") }, "has more than 10000 elements")

        // Two levels of three: 3 + 9 = 12 elements.
        let small = Self.deflateRaw(try archive(levels: 2, width: 3))
        let home = try #require(CoreDataModel(modelCache: small, source: "cache").entity(named: "Person")?.properties.first)
        #expect(home.elements.count == 3)
        #expect(home.elements.map(\.elements.count) == [3, 3, 3])
        assertFails({ _ = try CoreDataModel(modelCache: small, source: "cache", maximumCompositeElements: 11) }, "has more than 11 elements")
        #expect(throws: Never.self) { try CoreDataModel(modelCache: small, source: "cache", maximumCompositeElements: 12) }
    }

    @Test func testDamagedModels() throws {
        let archive = try Self.modelArchive()
        let cache = Self.deflateRaw(archive)
        #expect(try CoreDataModel(modelCache: cache, source: "cache").entities.count == 6)
        assertFails({ _ = try CoreDataModel(modelCache: cache.prefix(cache.count / 2), source: "cache") }, "cache: the DEFLATE stream is truncated")
        assertFails({ _ = try CoreDataModel(modelCache: Data([0xFF, 0xFF, 0xFF, 0xFF]), source: "cache") }, "not a DEFLATE stream")
        // A property list that is not a keyed archive.
        let plain = try PropertyListSerialization.data(fromPropertyList: ["a": 1], format: .binary, options: 0)
        assertFails({ _ = try CoreDataModel(modelCache: Self.deflateRaw(plain), source: "cache") }, "not a keyed archive")
        // An object that is itself a reference: following it would not end.
        let a = Archive()
        let loop = a.add(Archive.ref(2))
        _ = a.add(Archive.ref(loop))
        assertFails({ _ = try CoreDataModel(modelCache: Self.deflateRaw(try a.binary(root: loop)), source: "cache") }, "reference")
        // More than the size limit once inflated.
        let big = Self.deflateRaw(Data(count: CoreDataModel.maximumSize + 1))
        assertFails({ _ = try CoreDataModel(modelCache: big, source: "cache") }, "model size limit")
        // An XML model whose entities inherit from each other in a loop.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-xml-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let xml = folder.appendingPathComponent("contents")
        try Data("""
            <?xml version="1.0"?><model><entity name="Owner" parentEntity="Tag"/><entity name="Tag" parentEntity="Owner"/></model>
            """.utf8).write(to: xml)
        let (path, writer) = try Self.makeStore()
        try writer.close()
        assertFails({ _ = try StoreSchema.read(sqliteFile: path, model: xml) }, "inherits from itself")
        try Data("<model><entity name=\"A\"><attribute name=\"x\" attributeType=\"Integer 99\"/></entity></model>".utf8).write(to: xml)
        assertFails({ _ = try CoreDataModel(contentsOf: xml) }, "contents:1:")
        try Data("<?xml version=\"1.0\"?><plist/>".utf8).write(to: xml)
        assertFails({ _ = try CoreDataModel(contentsOf: xml) }, "without a <model> element")
        // The size limit is a setting, for a file and for a model cache.
        try Data("<model><entity name=\"A\"/></model>".utf8).write(to: xml)
        #expect(try CoreDataModel(contentsOf: xml).entities.map(\.name) == ["A"])
        assertFails({ _ = try CoreDataModel(contentsOf: xml, maximumSize: 10) }, "over the model size limit of 10")
        assertFails({ _ = try CoreDataModel(modelCache: cache, source: "cache", maximumSize: 100) }, "model size limit")
        // A FIFO named as the model is refused, not read (which would wait
        // for a writer for ever).
        let fifo = folder.appendingPathComponent("model.fifo")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        assertFails({ _ = try CoreDataModel(contentsOf: fifo) }, "is not a regular file")
        try? FileManager.default.removeItem(at: folder)
    }
}
