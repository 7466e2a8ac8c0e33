import Foundation
import GRDB
import Sift
import SiftSQL
import Testing

@testable import SiftTool

/// UUIDs and decimals on the command line: `{"$uuid": …}` and
/// `{"$decimal": …}` arguments and variables, and rows printed with UUIDs
/// as text, decimals as their digits and Booleans as true/false.
extension CommandLineTests {
    /// A store laid out as Core Data keeps a Person with a UUID `id`, a
    /// Decimal `balance` (a REAL) and a Boolean `active` (0/1), with a
    /// schema file that says so.
    static func uuidStore() throws -> (store: String, schema: String) {
        let path = temporaryPath("People.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZPERSON ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZID BLOB, ZBALANCE DECIMAL, ZACTIVE INTEGER, ZNAME VARCHAR );
                INSERT INTO ZPERSON VALUES
                    (1, 1, 1, X'E621E1F8C36C495A93FC0C247A3E6E5F', 19.99, 1, 'Ann'),
                    (2, 1, 1, X'0A03AA2208D24E0C9B2C091217655971', 0.30000000000000004, 0, 'Bob'),
                    (3, 1, 1, NULL, NULL, NULL, 'Cy');
                """)
        }
        try queue.close()
        let schema = temporaryPath("people.json")
        try Data("""
            {"entities": [{"name": "Person", "table": "ZPERSON", "primaryKey": "Z_PK", "attributes": [
              {"name": "id", "column": "ZID", "type": "uuid", "uuidEncoding": "bytes"},
              {"name": "balance", "column": "ZBALANCE", "type": "decimal"},
              {"name": "active", "column": "ZACTIVE", "type": "boolean"},
              {"name": "name", "column": "ZNAME", "type": "string"}]}]}
            """.utf8).write(to: URL(fileURLWithPath: schema))
        return (path, schema)
    }

    @Test func uuidAndDecimalArguments() throws {
        let (store, schema) = try Self.uuidStore()
        defer { for p in [store, schema] { try? FileManager.default.removeItem(atPath: p) } }
        let query = ["query", store, "Person", "--schema", schema, "--output", "jsonl"]
        let byID = try sift(query + ["id == %@", "--arg", #"{"$uuid": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"}"#])
        #expect(byID.status == 0)
        #expect(byID.stdout == #"{"Z_PK":1,"id":"E621E1F8-C36C-495A-93FC-0C247A3E6E5F","balance":19.99,"active":true,"name":"Ann"}"# + "\n")
        let byVar = try sift(query + ["id IN $IDS", "--var", #"IDS=[{"$uuid": "0A03AA22-08D2-4E0C-9B2C-091217655971"}]"#])
        #expect(byVar.stdout == #"{"Z_PK":2,"id":"0A03AA22-08D2-4E0C-9B2C-091217655971","balance":0.30000000000000004,"active":false,"name":"Bob"}"# + "\n")
        let byDecimal = try sift(query + ["balance == %@", "--arg", #"{"$decimal": "19.99"}"#])
        #expect(byDecimal.stdout.hasPrefix(#"{"Z_PK":1,"#))
        let json = try sift(["query", store, "Person", "TRUEPREDICATE", "--schema", schema, "--output", "json"])
        #expect(json.stdout.contains(#"{"Z_PK":3,"id":null,"balance":null,"active":null,"name":"Cy"}"#))
        let table = try sift(["query", store, "Person", "balance > 1", "--schema", schema, "--output", "table"])
        #expect(table.stdout.contains("E621E1F8-C36C-495A-93FC-0C247A3E6E5F    19.99  true    Ann"))

        // A UUID's text as a string: refused, with the spelling that works.
        let string = try sift(query + ["id == %@", "--arg", #""E621E1F8-C36C-495A-93FC-0C247A3E6E5F""#])
        #expect(string.status == 2)
        #expect(string.stderr.contains(#"--arg '{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}'"#))
        #expect(string.stderr.contains("^~"))
        for (arg, message) in [
            (#"{"$uuid": "E621E1F8"}"#, #""$uuid" needs a UUID's text"#), (#"{"$uuid": 3}"#, #""$uuid" needs a UUID's text"#),
            (#"{"$decimal": "1.2.3"}"#, #""$decimal" needs a decimal number"#),
            (#"{"$decimal": "12345678901234567890123456789012345678901"}"#, "at most 38 significant digits"),
            (#"{"$decimal": true}"#, #""$decimal" needs a decimal number"#),
        ] {
            let run = try sift(["format", "x == %@", "--arg", arg])
            #expect(run.status == 2, "\(arg)")
            #expect(run.stderr.contains(message), "\(arg): \(run.stderr)")
        }
        let format = try sift(["format", "x == %@ AND y == %@ AND z == %@", "--arg", #"{"$uuid": "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"}"#,
                               "--arg", #"{"$decimal": "0.1000000000000000000000000000000000001"}"#, "--arg", #"{"$decimal": 1e-3}"#])
        #expect(format.stdout == #"x == CAST("E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "NSUUID") AND y == 0.1000000000000000000000000000000000001 AND z == 0.001"# + "\n")
    }

    @Test func uuidAndDecimalInChecks() throws {
        let cases = """
            {"id": "u", "format": "id == %@", "args": [{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}], "object": {"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}}
            {"id": "d", "format": "price == %@", "args": [{"$decimal": "0.3"}], "object": {"price": 0.3}}
            """
        let run = try sift(["check", "-"], input: cases)
        // JSON has no UUID: an object's UUID is a string, which a UUID never
        // equals; the decimal 0.3 equals the double 0.3 (its shortest form).
        #expect(run.stdout.contains(#""id":"u","ok":true,"result":false,"canonical":"id == CAST(\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\", \"NSUUID\")""#), "\(run.stdout)")
        #expect(run.stdout.contains(#""id":"d","ok":true,"result":true"#), "\(run.stdout)")
    }
}

extension ReplSessionTests {
    /// The REPL's table of a store with UUIDs and decimals: UUIDs whole
    /// (its cells are cut at 32 characters), decimals as their digits, and
    /// `:set` with a UUID finding the row in memory and in SQL alike.
    @Test func uuidsAndDecimalsInTables() throws {
        let (store, schemaPath) = try CommandLineTests.uuidStore()
        defer { for p in [store, schemaPath] { try? FileManager.default.removeItem(atPath: p) } }
        let schema = try StoreSchema(json: try Data(contentsOf: URL(fileURLWithPath: schemaPath)))
        let s = ReplSession(dataset: try Dataset(origin: store, database: try DatabaseQueue(path: store), schema: schema), width: 200)
        s.handle(#":set $ID = CAST("0a03aa22-08d2-4e0c-9b2c-091217655971", "NSUUID")"#).expectOK()
        let reply = s.handle("id == $ID")
        #expect(Self.rowNumbers(reply.output) == [2], "\(reply.output)")
        #expect(reply.output.contains("0A03AA22-08D2-4E0C-9B2C-091217655971  0.30000000000000004   false  Bob"), "\(reply.output)")
        let sql = s.handle(":sql")
        #expect(sql.output.contains("X'0A03AA2208D24E0C9B2C091217655971'"), "\(sql.output)")
        #expect(sql.output.contains("the same as in memory"), "\(sql.output)")
    }
}
