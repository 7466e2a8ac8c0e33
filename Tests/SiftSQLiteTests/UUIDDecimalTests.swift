import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// UUID attributes stored as 16 bytes and Decimal attributes stored as
/// doubles, as Core Data keeps them: the schema's types, the bound values,
/// and memory = SQLite = PostgreSQL over generated rows and over the real
/// stores (the values read back: SiftCatalogTests' StoredValueTests).
struct UUIDDecimalTests {
    static let schema = StoreSchema([
        Entity("Item", table: "items", attributes: [
            Attribute("uid", .uuid(.bytes)),
            Attribute("code", .uuid(.text)),
            Attribute("price", .decimal),
            Attribute("flag", .boolean),
            Attribute("count", .integer),
        ]),
    ])

    /// UUIDs that share leading bytes (so that ordering looks past the
    /// first), and decimals a double stores with and without binary noise.
    static func rows(seed: UInt64, count: Int) -> [(uid: UUID?, code: UUID?, price: Double?, flag: Bool?)] {
        var random = SeededRandom(seed: seed)
        let prices: [Double] = [19.99, 0.1, 0.3, 0.1 + 0.2, 10.11, 3.3333333332999993, -0.0, 1e-7, 123456789.125, -2.5, 100]
        func uuid() -> UUID {
            var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
            bytes[0] = [0x00, 0x7F, 0x80, 0xFF][Int.random(in: 0..<4, using: &random)]
            return UUID(uuid: bytes.withUnsafeBytes { $0.loadUnaligned(as: uuid_t.self) })
        }
        return (0..<count).map { _ in
            (
                Bool.random(using: &random) || Bool.random(using: &random) ? uuid() : nil,
                Bool.random(using: &random) ? uuid() : nil,
                Int.random(in: 0..<6, using: &random) == 0 ? nil : prices[Int.random(in: 0..<prices.count, using: &random)],
                Int.random(in: 0..<4, using: &random) == 0 ? nil : Bool.random(using: &random)
            )
        }
    }

    static func bytes(_ u: UUID) -> Data { withUnsafeBytes(of: u.uuid) { Data($0) } }

    @Test func testSchemaTypesAndTheirJSON() throws {
        // An old schema: "uuid" is text, "decimal" now its own type (it read
        // as a double before; both are stored as REAL).
        let old = try StoreSchema(json: Data("""
            {"entities": [{"name": "A", "attributes": [{"name": "u", "type": "uuid"}, {"name": "p", "type": "decimal"},
             {"name": "d", "type": "double"}]}]}
            """.utf8))
        #expect(old.entities[0].attributes.map(\.type) == [.uuid(.text), .decimal, .double])
        let json = String(decoding: try Self.schema.jsonData(), as: UTF8.self)
        #expect(json.contains("\"uuidEncoding\" : \"bytes\""), Comment(rawValue: json))
        #expect(json.components(separatedBy: "uuidEncoding").count == 2, "text UUIDs are written as before: \(json)")
        #expect(try StoreSchema(json: try Self.schema.jsonData()) == Self.schema)
        #expect(throws: (any Error).self, performing: { try StoreSchema(json: Data("""
            {"entities": [{"name": "A", "attributes": [{"name": "u", "type": "uuid", "uuidEncoding": "hex"}]}]}
            """.utf8)) })
        #expect(Self.schema.createStatements(dialect: .sqlite)[0] == #"CREATE TABLE "items" ("id" INTEGER PRIMARY KEY, "uid" BLOB, "code" TEXT, "price" REAL, "flag" INTEGER, "count" INTEGER)"#)
        #expect(Self.schema.createStatements(dialect: .postgreSQL)[0] == #"CREATE TABLE "items" ("id" BIGINT PRIMARY KEY, "uid" BYTEA, "code" TEXT, "price" DOUBLE PRECISION, "flag" BOOLEAN, "count" BIGINT)"#)
    }

    @Test func testBoundValues() throws {
        let u = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        for dialect in [Dialect.sqlite, .postgreSQL] {
            func statement(_ format: String, _ args: any FormatArgumentConvertible...) throws -> BoundStatement {
                try FetchSpecification(entity: "Item", filter: try Filter(format, arguments: args.map(\.formatArgument)))
                    .sql(in: Self.schema, dialect: dialect).statement
            }
            #expect(try statement("uid == %@", u).bindings == [.blob(Self.bytes(u))])
            #expect(try statement("code == %@", u).bindings == [.text("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")])
            #expect(try statement("uid IN %@", [u, u]).bindings.count == 1)
            #expect(try statement("price == %@", Decimal(string: "19.99")!).bindings == [.real(19.99)])
            // Decimal → double correctly rounded, not through NSDecimalNumber.
            #expect(try statement("price == %@", Decimal(string: "0.3")!).bindings == [.real(0.3)])
            // More digits than a double holds: between two stored values.
            let between = Decimal(string: "10.110000000000000000001")!
            #expect(try statement("price == %@", between).bindings == [], "no double equals it")
            #expect(try statement("price >= %@", between).sql.contains(#""price" > "#))
            #expect(try statement("price < %@", between).sql.contains(#""price" <= "#))
            // An integer literal beyond 64 bits is a decimal, lowered as the
            // same decimal passed as an argument is (it was a double).
            // No double equals either literal.
            for literal in ["18446744073709551617", "-99999999999999999999999999999999999999"] {
                for attribute in ["price", "count"] {
                    let argument = try statement("\(attribute) >= %@ OR \(attribute) == %@",
                                                 Decimal(string: literal)!, Decimal(string: literal)!)
                    let written = try statement("\(attribute) >= \(literal) OR \(attribute) == \(literal)")
                    #expect(written.sql == argument.sql, Comment(rawValue: literal))
                    #expect(written.bindings == argument.bindings, Comment(rawValue: literal))
                }
            }
        }
        // A UUID attribute compared with a string: an error with the fix.
        for format in ["uid == 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'", "uid != 'x'", "uid IN {'a'}", "code < 'x'", "uid == 3"] {
            if let error = #expect(throws: (any Error).self, Comment(rawValue: format), performing: { try FetchSpecification(entity: "Item", filter: try Filter(format)).sql(in: Self.schema, dialect: .sqlite) }) {
                guard let e = error as? SQLLoweringError else { Issue.record("\(error)"); continue }
                #expect(e.code == .typeMismatch, Comment(rawValue: format))
                #expect(e.message.contains("CAST('"), Comment(rawValue: e.message))
                #expect(e.range.upperBound > 0 && e.range.upperBound <= format.utf8.count, Comment(rawValue: format))
            }
        }
    }

    /// Memory (the rows as fetched, evaluated and sorted by the library)
    /// against SQLite and PostgreSQL, for comparisons, IN, BETWEEN and
    /// sorting on UUIDs and decimals.
    @Test func testMemoryEqualsSQL() throws {
        let rows = Self.rows(seed: 7, count: 300)
        let db = try DatabaseQueue(configuration: .sift)
        let pg = try PostgresClient.fromEnvironment(schema: "sift_uuid_decimal")
        try db.write { db in
            for s in Self.schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
        }
        for s in Self.schema.createStatements(dialect: .postgreSQL) { try pg?.execute(s) }
        for (i, r) in rows.enumerated() {
            let values: [SQLValue] = [
                .integer(Int64(i + 1)), r.uid.map { .blob(Self.bytes($0)) } ?? .null, r.code.map { .text($0.uuidString) } ?? .null,
                r.price.map(SQLValue.real) ?? .null, r.flag.map(SQLValue.boolean) ?? .null,
                .integer([1, 2, 9_007_199_254_740_992, 9_007_199_254_740_993, -1][i % 5]),
            ]
            try db.write { try $0.execute(sql: "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?)", arguments: StatementArguments(values.map(\.databaseValue))) }
            _ = try pg?.query("INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6)", values)
        }
        let all = try db.read { try FetchSpecification(entity: "Item").fetchValues($0, schema: Self.schema) }
        #expect(all.count == rows.count)
        guard case .dictionary(let first) = all[0] else { Issue.record(); return }
        #expect(first["uid"] == (rows[0].uid.map(Value.uuid) ?? .null))

        let uids = rows.compactMap(\.uid)
        let codes = rows.compactMap(\.code)
        var cases: [(String, [FormatArgument], [SortKey])] = []
        for op in ["==", "!=", "<", "<=", ">", ">="] {
            for (key, u) in [("uid", uids[3]), ("uid", uids[10]), ("code", codes[5]), ("uid", UUID())] {
                cases.append(("\(key) \(op) %@", [.value(.uuid(u))], []))
                cases.append(("NOT \(key) \(op) %@", [.value(.uuid(u))], []))
            }
            for price in ["19.99", "0.3", "0.30000000000000004", "10.110000000000000000001", "10.109999999999999999999", "-0", "100", "0.0000001"] {
                cases.append(("price \(op) %@", [.value(.decimal(Decimal(string: price)!))], []))
                cases.append(("NOT price \(op) %@", [.value(.decimal(Decimal(string: price)!))], []))
            }
            for price in [19.99, 0.3, 0.1 + 0.2, 10.11] {
                cases.append(("price \(op) %@", [.value(.double(price))], []))
            }
            cases.append(("flag \(op) YES", [], []))
            // An integer column against whole and fractional decimals, one
            // beyond the doubles' integers (2^53 + 1).
            for count in ["9007199254740993", "9007199254740992", "1.00000000000000000001", "0.99999999999999999999", "2"] {
                cases.append(("count \(op) %@", [.value(.decimal(Decimal(string: count)!))], []))
            }
        }
        cases += [
            ("uid IN %@", [.value(.array([.uuid(uids[1]), .uuid(uids[2]), .uuid(UUID()), .null]))], []),
            ("NOT uid IN %@", [.value(.array([.uuid(uids[1]), .uuid(uids[2])]))], []),
            ("uid IN %@", [.value(.array(uids.prefix(40).map(Value.uuid)))], []),
            ("code IN %@", [.value(.array(codes.prefix(3).map(Value.uuid)))], []),
            ("uid BETWEEN %@", [.value(.array([.uuid(uids[4]), .uuid(uids[9])]))], []),
            ("price BETWEEN %@", [.value(.array([.decimal(Decimal(string: "0.1")!), .decimal(Decimal(string: "10.110000000000000000001")!)]))], []),
            ("price IN %@", [.value(.array([.decimal(Decimal(string: "19.99")!), .decimal(Decimal(string: "0.3")!)]))], []),
            ("uid != nil", [], [.ascending("uid")]),
            ("TRUEPREDICATE", [], [.descending("uid"), .ascending("price")]),
            ("TRUEPREDICATE", [], [.ascending("code"), .descending("price")]),
            ("price > 1", [], [.descending("price")]),
        ]
        var failures: [String] = []
        for (format, arguments, sort) in cases {
            let request = FetchSpecification(entity: "Item", filter: try Filter(format, arguments: arguments), sort: sort)
            let expected = try request.execute(on: all).map { row -> Int in
                guard case .dictionary(let d) = row, case .int(let id)? = d["id"] else { return -1 }
                return id
            }
            let sqlite = try db.read { try request.fetchPrimaryKeys($0, schema: Self.schema) }.compactMap { Int.fromDatabaseValue($0) }
            if sqlite != expected { failures.append("\(format) \(sort): memory \(expected)\n  sqlite \(sqlite)") }
            if let pg {
                let statement = try request.sql(in: Self.schema, dialect: .postgreSQL).statement
                let got = try pg.query(statement).map { row -> Int in
                    if case .integer(let i)? = row.first { return Int(i) }
                    return -1
                }
                if got != expected { failures.append("\(format) \(sort): memory \(expected)\n  postgres \(got)\n  \(statement)") }
            }
        }
        #expect(failures.isEmpty, Comment(rawValue: failures.prefix(10).joined(separator: "\n")))
        print("UUID and decimal cases: \(cases.count), PostgreSQL \(pg == nil ? "not available" : "compared")")
    }

    // MARK: - The real stores

    /// Every row of `entity`, as fetched, filtered in memory, against the
    /// store's SQL.
    func assertMemoryEqualsSQL(_ db: DatabaseQueue, _ schema: StoreSchema, _ entity: String, _ format: String,
                               _ args: [FormatArgument] = [], sourceLocation: SourceLocation = #_sourceLocation) throws {
        let all = try db.read { try FetchSpecification(entity: entity).fetchValues($0, schema: schema) }
        let request = FetchSpecification(entity: entity, filter: try Filter(format, arguments: args))
        let memory = try request.execute(on: all).map { row -> Int in
            guard case .dictionary(let d) = row, case .int(let id)? = d["Z_PK"] else { return -1 }
            return id
        }
        let sql = try db.read { try request.fetchPrimaryKeys($0, schema: schema) }.compactMap { Int.fromDatabaseValue($0) }
        #expect(memory == sql, Comment(rawValue: format), sourceLocation: sourceLocation)
    }

    @Test func testCDPSample1PersonByID() throws {
        let schema = try CoreDataStoreTests.schema("cdp_sample1/SampleModel_V1.sqlite")
        let db = try CoreDataStoreTests.open("cdp_sample1/SampleModel_V1.sqlite")
        let id = UUID(uuidString: "0a03aa22-08d2-4e0c-9b2c-091217655971")!
        let request = FetchSpecification(entity: "Person", filter: try Filter("id == %@", id))
        let rows = try db.read { try request.fetchValues($0, schema: schema) }
        let expected = try db.read {
            try Int.fetchAll($0, sql: "SELECT Z_PK FROM ZPERSON WHERE hex(ZID) = '0A03AA2208D24E0C9B2C091217655971'")
        }
        #expect(expected == [4])
        #expect(rows.count == 1)
        guard case .dictionary(let row)? = rows.first else { Issue.record(); return }
        #expect(row["Z_PK"] == .int(4))
        #expect(row["id"] == .uuid(id))
        #expect(row["firstName"] == "Bret")
        try assertMemoryEqualsSQL(db, schema, "Person", "id == %@", [.value(.uuid(id))])
        try assertMemoryEqualsSQL(db, schema, "Person", "id < %@ OR id > %@", [.value(.uuid(id)), .value(.uuid(UUID(uuidString: "C0AF0B66-7C3F-431D-8F2E-A9EB41B2434A")!))])
        try assertMemoryEqualsSQL(db, schema, "Person", "NOT id IN %@", [.value(.array([.uuid(id), .null]))])
        let sorted = try db.read { try FetchSpecification(entity: "Person", sort: [.ascending("id")]).fetchPrimaryKeys($0, schema: schema) }
        let byBytes = try db.read { try Int.fetchAll($0, sql: "SELECT Z_PK FROM ZPERSON ORDER BY ZID") }
        #expect(sorted.compactMap { Int.fromDatabaseValue($0) } == byBytes)
        let all = try db.read { try FetchSpecification(entity: "Person").fetchValues($0, schema: schema) }
        let inMemory = try FetchSpecification(entity: "Person", sort: [.ascending("id")]).execute(on: all).map { row -> Int in
            guard case .dictionary(let d) = row, case .int(let pk)? = d["Z_PK"] else { return -1 }
            return pk
        }
        #expect(inMemory == byBytes)
    }

    @Test func testSwiftDataComponentByID() throws {
        let schema = try CoreDataStoreTests.schema("swiftdata/default.store")
        let db = try CoreDataStoreTests.open("swiftdata/default.store")
        let id = UUID(uuidString: "92588FF3-611A-46E9-8029-55970C94CC4E")!
        let keys = try db.read { try FetchSpecification(entity: "Component", filter: try Filter("id == %@", id)).fetchPrimaryKeys($0, schema: schema) }
        let expected = try db.read { try Int.fetchAll($0, sql: "SELECT Z_PK FROM ZCOMPONENT WHERE ZID = X'92588FF3611A46E9802955970C94CC4E'") }
        #expect(expected == [5])
        #expect(keys.compactMap { Int.fromDatabaseValue($0) } == expected)
        try assertMemoryEqualsSQL(db, schema, "Component", "id != %@ AND count > 1", [.value(.uuid(id))])
    }

    @Test func testCDPSample2Decimals() throws {
        let schema = try CoreDataStoreTests.schema("cdp_sample2/SampleModel2_V1.sqlite")
        let db = try CoreDataStoreTests.open("cdp_sample2/SampleModel2_V1.sqlite")
        let rows = try db.read { try FetchSpecification(entity: "Book", filter: try Filter("price < 5")).fetchValues($0, schema: schema) }
        #expect(try rows.count == db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ZBOOK WHERE ZPRICE < 5") })
        // The stored double, read as the decimal it stands for.
        for case .dictionary(let d) in rows {
            guard case .decimal(let price)? = d["price"] else { Issue.record("\(d)"); return }
            #expect(price.description == "3.3333333332999993")
        }
        // The sum of the decimals is exact; the stored doubles' is not.
        if let error = #expect(throws: (any Error).self, performing: { try FetchSpecification(entity: "Author", filter: try Filter("books.@sum.price > 10"))
            .sql(in: schema, dialect: .sqlite) }) {
            #expect((error as? SQLLoweringError)?.code == .unsupported)
        }
        try assertMemoryEqualsSQL(db, schema, "Book", "price == 10.11")
        try assertMemoryEqualsSQL(db, schema, "Book", "price == %@", [.value(.decimal(Decimal(string: "10.11")!))])
        try assertMemoryEqualsSQL(db, schema, "Book", "price > %@", [.value(.decimal(Decimal(string: "3.3333333333")!))])
        try assertMemoryEqualsSQL(db, schema, "Book", "price <= %@", [.value(.decimal(Decimal(string: "3.33333333329999930000001")!))])
        // A Feedback's bookID is a Book's uniqueID.
        let book = UUID(uuidString: "7A6C07D2-C30E-4AE6-9094-939A4784290F")!
        try assertMemoryEqualsSQL(db, schema, "Book", "uniqueID == %@", [.value(.uuid(book))])
        try assertMemoryEqualsSQL(db, schema, "Feedback", "bookID == %@", [.value(.uuid(book))])
        let feedback = try db.read {
            try FetchSpecification(entity: "Feedback", filter: try Filter("bookID == %@", book)).fetchPrimaryKeys($0, schema: schema)
        }
        #expect(try feedback.compactMap { Int.fromDatabaseValue($0) } == db.read { try Int.fetchAll($0, sql: "SELECT Z_PK FROM ZFEEDBACK WHERE hex(ZBOOKID) = '7A6C07D2C30E4AE69094939A4784290F'") })
        #expect(!feedback.isEmpty)
    }
}
