import Sift
import SiftSQL
import Testing

/// `StoreSchema.resolve`: key paths spelled as the schema names them, for
/// evaluating rows in memory, found and refused as the SQL lowering finds
/// and refuses them.
struct KeyResolutionTests {
    let schema = StoreSchema([
        Entity("Person", table: "ZPERSON", primaryKey: "Z_PK", attributes: [
            Attribute("firstName", .string, column: "ZFIRSTNAME"),
            Attribute("updatedAt", .date(.referenceSeconds), column: "ZUPDATEDAT"),
        ], relationships: [
            .toMany("cars", "Car", inverseColumn: "ZOWNER"),
        ], unsupportedKeys: [UnsupportedKey("isDriving", reason: "isDriving is a transient attribute of Person")]),
        Entity("Car", table: "ZCAR", primaryKey: "Z_PK", attributes: [
            Attribute("maker", .string, column: "ZMAKER"),
            Attribute("price", .double, column: "ZPRICE"),
        ], relationships: [
            .toOne("owner", "Person", column: "ZOWNER"),
        ]),
    ])

    func resolved(_ format: String, _ entity: String = "Person") throws -> String {
        try schema.resolve(try Filter(format), entity: entity).format
    }

    @Test func testKeysAreSpelledAsTheSchemaNamesThem() throws {
        #expect(try resolved("FIRSTNAME == 'Ann'") == "firstName == \"Ann\"")
        #expect(try resolved("owner.FirstName BEGINSWITH 'A'", "Car") == "owner.firstName BEGINSWITH \"A\"")
        #expect(try resolved("ANY CARS.Maker == 'Kia'") == "ANY cars.maker == \"Kia\"")
        #expect(try resolved("Cars.@sum.PRICE > 3 AND CARS.@count > 1") == "cars.@sum.price > 3 AND cars.@count > 1")
        #expect(try resolved("SUBQUERY(Cars, $c, $c.MAKER == 'Kia' AND $c.Owner.firstname != nil).@count > 0") == "SUBQUERY(cars, $c, $c.maker == \"Kia\" AND $c.owner.firstName != nil).@count > 0")
        #expect(try resolved("Owner == nil", "Car") == "owner == nil")
        // Constructs with no SQL form keep their meaning, their keys resolved.
        #expect(try resolved("length:(FIRSTNAME) > 3") == "length:(firstName) > 3")
        // The source is kept, so that evaluation errors point into it.
        #expect(try schema.resolve(try Filter("FIRSTNAME == 1"), entity: "Person").source == "FIRSTNAME == 1")
    }

    /// The error of `format` in memory, checked to say `message` and to be
    /// SQL's error.
    @discardableResult
    func refused(_ format: String, _ entity: String, _ message: String, sourceLocation: SourceLocation = #_sourceLocation) -> SQLLoweringError? {
        var memory: SQLLoweringError?
        if let error = #expect(throws: (any Error).self, sourceLocation: sourceLocation, performing: { try schema.resolve(try Filter(format), entity: entity) }) {
            memory = error as? SQLLoweringError
        }
        var sql: SQLLoweringError?
        if let error = #expect(throws: (any Error).self, sourceLocation: sourceLocation, performing: { try FetchSpecification(entity: entity, filter: try Filter(format)).sql(in: schema, dialect: .sqlite) }) { sql = error as? SQLLoweringError }
        #expect(memory?.message == message, Comment(rawValue: format), sourceLocation: sourceLocation)
        #expect(memory == sql, Comment(rawValue: format), sourceLocation: sourceLocation)
        return memory
    }

    @Test func testUnknownKeysAreTheErrorsOfSQLWithTheNearestName() throws {
        for (format, entity, message) in [
            ("fistName == 'x'", "Person", "keypath fistName not found in entity Person: it has no key fistName (did you mean firstName?)"),
            ("ANY cars.makr == 'x'", "Person", "keypath makr not found in entity Car: it has no key makr (did you mean maker?)"),
            ("owner.zzzzzzz == 1", "Car", "keypath owner.zzzzzzz not found in entity Person: it has no key zzzzzzz"),
            ("firstName.length == 1", "Person", "firstName is an attribute of Person; it has no key length"),
            ("isDriving == YES", "Person", "isDriving is a transient attribute of Person"),
        ] {
            refused(format, entity, message)
        }
    }

    /// Inside SUBQUERY a key path without the variable is the evaluated
    /// object's, as the evaluator and SQL read it: found in the outer
    /// entity, and, when only the elements have its key, refused as SQL
    /// refuses it, saying how to name the element's.
    @Test func testKeysWithoutTheVariableInsideSubqueryAreTheEvaluatedObjects() throws {
        #expect(try resolved("SUBQUERY(Cars, $c, $c.Maker == 'Kia' AND FIRSTNAME BEGINSWITH 'A' AND SELF.FirstName != nil).@count > 0") == "SUBQUERY(cars, $c, $c.maker == \"Kia\" AND firstName BEGINSWITH \"A\" AND firstName != nil).@count > 0")
        #expect(try resolved("SUBQUERY(Cars, $c, SUBQUERY(CARS, $d, $d.PRICE > $c.Price).@count > 0).@count > 0") == "SUBQUERY(cars, $c, SUBQUERY(cars, $d, $d.price > $c.price).@count > 0).@count > 0")
        #expect(try resolved("SUBQUERY(cars, $c, $c.OWNER.FIRSTNAME == FirstName).@count > 0") == "SUBQUERY(cars, $c, $c.owner.firstName == firstName).@count > 0")
        for (format, entity, key, message) in [
            ("SUBQUERY(cars, $c, maker == 'Kia').@count > 0", "Person", "maker",
             "keypath maker not found in entity Person: it has no key maker; inside SUBQUERY, a key path without a "
                + "variable is the evaluated Person's: write $c.maker for the Car's"),
            ("SUBQUERY(cars, $c, SELF.owner.firstName == nil).@count > 0", "Person", "SELF.owner.firstName",
             "keypath owner.firstName not found in entity Person: it has no key owner; inside SUBQUERY, a key path "
                + "without a variable is the evaluated Person's: write $c.owner.firstName for the Car's"),
            ("SUBQUERY(cars, $c, colour == 'red').@count > 0", "Person", "colour",
             "keypath colour not found in entity Person: it has no key colour"),
        ] {
            let memory = refused(format, entity, message)
            // The error points at the key path.
            let written = memory.map { format.utf8.dropFirst($0.range.lowerBound).prefix($0.range.upperBound - $0.range.lowerBound) }
            #expect(written.map { String($0) } == key, Comment(rawValue: format))
        }
    }

    /// Objects built only so many relationships deep: a key path following
    /// more is refused, where it would read nil.
    @Test func testMaximumDepth() throws {
        let filter = try Filter("ANY cars.owner.firstName == 'Ann'")
        #expect(throws: Never.self) { try schema.resolve(filter, entity: "Person", maximumDepth: 2) }
        if let error = #expect(throws: (any Error).self, performing: { try schema.resolve(filter, entity: "Person", maximumDepth: 1) }) {
            #expect((error as? SQLLoweringError)?.code == .limit)
            #expect((error as? SQLLoweringError)?.message == "owner.firstName follows more than 1 relationships, the depth to which the objects in memory are built")
        }
        let nested = try Filter("SUBQUERY(cars, $c, $c.owner.firstName == 'Ann').@count > 0")
        #expect(throws: Never.self) { try schema.resolve(nested, entity: "Person", maximumDepth: 2) }
        #expect(throws: (any Error).self, performing: { try schema.resolve(nested, entity: "Person", maximumDepth: 1) })
        #expect(throws: Never.self) { try schema.resolve([.ascending("owner.firstName")], entity: "Car", maximumDepth: 1) }
        #expect(throws: (any Error).self, performing: { try schema.resolve([.ascending("owner.firstName")], entity: "Car", maximumDepth: 0) })
    }

    @Test func testSortKeys() throws {
        #expect(try schema.resolve([.descending("OWNER.FIRSTNAME"), .ascending("Maker")], entity: "Car").map(\.description) == ["owner.firstName DESC", "maker ASC"])
        for (key, message) in [
            ("createdAt", "keypath createdAt not found in entity Person: it has no key createdAt"),
            ("updatedat2", "keypath updatedat2 not found in entity Person: it has no key updatedat2 (did you mean updatedAt?)"),
            ("cars.maker", "sort key cars.maker must be an attribute (through to-one relationships)"),
        ] {
            var memory: SQLLoweringError?
            if let error = #expect(throws: (any Error).self, performing: { try schema.resolve([.ascending(key)], entity: "Person") }) { memory = error as? SQLLoweringError }
            var sql: SQLLoweringError?
            if let error = #expect(throws: (any Error).self, performing: { try FetchSpecification(entity: "Person", sort: [.ascending(key)]).sql(in: schema, dialect: .sqlite) }) {
                sql = error as? SQLLoweringError
            }
            #expect(memory?.message == message, Comment(rawValue: key))
            #expect(memory?.message == sql?.message, Comment(rawValue: key))
            #expect(memory?.code == sql?.code, Comment(rawValue: key))
        }
    }
}
