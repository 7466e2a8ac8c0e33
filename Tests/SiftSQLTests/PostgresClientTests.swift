import Foundation
import SiftSQL
import SiftTestSupport
import Testing

/// The libpq test client itself: what is bound comes back unchanged, and
/// each column type decodes to the right value. Needs a server in
/// `SIFT_POSTGRES` (`scripts/postgres.sh run swift test` provides one).
@Suite(.serialized)
struct PostgresClientTests {
    private func connect() throws -> PostgresClient {
        guard let client = try PostgresClient.fromEnvironment() else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        return client
    }

    private let quoted = "it's a \"quote\", a \\ backslash, {braces}, NULL and a comma"
    private let decomposed = "e\u{301}"  // é as NFD: two scalars

    /// A temporary table with one row per interesting case.
    private func makeTable(_ db: PostgresClient) throws {
        try db.execute("""
            DROP TABLE IF EXISTS t;
            CREATE TEMPORARY TABLE t (id int8 PRIMARY KEY, i int8, r float8, s text, b bool, d bytea);
            """)
        let rows: [[SQLValue]] = [
            [.integer(1), .integer(42), .real(1.5), .text("straße"), .boolean(true), .blob(Data([0x00, 0xFF, 0x10, 0x5C]))],
            [.integer(2), .null, .null, .null, .null, .null],
            [.integer(3), .integer(.min), .real(0.1 + 0.2), .text(decomposed), .boolean(false), .blob(Data())],
            [.integer(4), .integer(.max), .real(-1e300), .text(quoted), .null, .blob(Data("\\x00'\"".utf8))],
            [.integer(5), .integer(0), .real(.leastNonzeroMagnitude), .text(""), .boolean(true), .null],
            [.integer(6), .integer(-1), .real(.infinity), .text("NULL"), .null, .null],
            [.integer(7), .integer(7), .real(-.infinity), .text("日本語 🎉"), .null, .null],
        ]
        for row in rows {
            let inserted = try db.query("INSERT INTO t (id, i, r, s, b, d) VALUES ($1, $2, $3, $4, $5, $6)", row)
            #expect(inserted == [])
        }
    }

    @Test func testBoundValuesComeBackUnchanged() throws {
        let db = try connect()
        try makeTable(db)
        let rows = try db.query("SELECT id, i, r, s, b, d FROM t ORDER BY id", [])
        #expect(rows == [
            [.integer(1), .integer(42), .real(1.5), .text("straße"), .boolean(true), .blob(Data([0x00, 0xFF, 0x10, 0x5C]))],
            [.integer(2), .null, .null, .null, .null, .null],
            [.integer(3), .integer(.min), .real(0.30000000000000004), .text(decomposed), .boolean(false), .blob(Data())],
            [.integer(4), .integer(.max), .real(-1e300), .text(quoted), .null, .blob(Data("\\x00'\"".utf8))],
            [.integer(5), .integer(0), .real(.leastNonzeroMagnitude), .text(""), .boolean(true), .null],
            [.integer(6), .integer(-1), .real(.infinity), .text("NULL"), .null, .null],
            [.integer(7), .integer(7), .real(-.infinity), .text("日本語 🎉"), .null, .null],
        ])
        // Swift's String == ignores normalization: compare the scalars too.
        #expect(try scalars(db.query("SELECT s FROM t WHERE id = 3", [])) == [[0x65, 0x301]])
        #expect(try scalars(db.query("SELECT s FROM t WHERE id = 1", [])) == [Array("straße".unicodeScalars.map(\.value))])
        // The server sees the same characters: lengths in characters and bytes.
        #expect(try db.query("SELECT length(s), octet_length(s) FROM t WHERE id IN (1, 3, 7) ORDER BY id", []) == [[.integer(6), .integer(7)], [.integer(2), .integer(3)], [.integer(5), .integer(14)]])
        #expect(try db.query("SELECT s = $1 FROM t WHERE id = 3", [.text("é")]) == [[.boolean(false)]])
        #expect(try db.query("SELECT s = normalize($1, NFD) FROM t WHERE id = 3", [.text("\u{E9}")]) == [[.boolean(true)]])
    }

    @Test func testNaN() throws {
        let db = try connect()
        let rows = try db.query("SELECT $1, $1 = 'NaN'::float8", [.real(.nan)])
        guard case .real(let value) = rows.first?.first else {
            Issue.record("not a real: \(rows)"); return
        }
        #expect(value.isNaN)
        #expect(rows.first?.last == .boolean(true))
    }

    @Test func testParametersHaveTheirTypes() throws {
        let db = try connect()
        #expect(try db.query(
                "SELECT pg_typeof($1)::text, pg_typeof($2)::text, pg_typeof($3)::text, pg_typeof($4)::text, pg_typeof($5)::text, $6::int8 IS NULL",
                [.integer(1), .real(1), .text("1"), .boolean(true), .blob(Data([1])), .null]) == [[.text("bigint"), .text("double precision"), .text("text"), .text("boolean"), .text("bytea"), .boolean(true)]])
        #expect(try db.query(
                "SELECT pg_typeof($1)::text, pg_typeof($2)::text, pg_typeof($3)::text, pg_typeof($4)::text, pg_typeof($5)::text, pg_typeof($6)::text",
                [
                    .array([.integer(1)]), .array([.real(1)]), .array([.text("a")]), .array([.boolean(true)]),
                    .array([.blob(Data([1]))]), .array([.null, .integer(1), .real(2.5)]),
                ]) == [[.text("bigint[]"), .text("double precision[]"), .text("text[]"), .text("boolean[]"), .text("bytea[]"), .text("double precision[]")]])
        // Empty and all-NULL arrays are untyped: the context decides.
        #expect(try db.query("SELECT cardinality($1::int8[]), cardinality($2::text[]), $3::bool[]", [.array([]), .array([]), .array([.null, .null])]) == [[.integer(0), .integer(0), .text("{NULL,NULL}")]])
        // Arrays reach the server element by element, NULLs included.
        #expect(try db.query("SELECT cardinality($1), $1[1], $1[2] IS NULL, $1[3], $1[4]", [
                .array([.text(quoted), .null, .text("NULL"), .text(decomposed)]),
            ]) == [[.integer(4), .text(quoted), .boolean(true), .text("NULL"), .text(decomposed)]])
        #expect(try db.query("SELECT $1[1], $1[2]", [.array([.blob(Data([0x00, 0x5C, 0x22])), .blob(Data())])]) == [[.blob(Data([0x00, 0x5C, 0x22])), .blob(Data())]])
    }

    @Test func testAnyWithArrays() throws {
        let db = try connect()
        try makeTable(db)
        #expect(try db.query("SELECT id FROM t WHERE s = ANY($1) ORDER BY id", [
                .array([.text("straße"), .text(quoted), .null, .text("absent")]),
            ]) == [[.integer(1)], [.integer(4)]])
        #expect(try db.query("SELECT s FROM t WHERE s = ANY($1) ORDER BY id", [.array([.text(decomposed), .text("NULL")])]) == [[.text(decomposed)], [.text("NULL")]])
        #expect(try db.query("SELECT id FROM t WHERE i = ANY($1) ORDER BY id", [.array([.integer(42), .integer(.min), .integer(0), .null])]) == [[.integer(1)], [.integer(3)], [.integer(5)]])
        #expect(try db.query("SELECT id FROM t WHERE r = ANY($1) ORDER BY id", [.array([.real(1.5), .integer(0), .real(.infinity)])]) == [[.integer(1)], [.integer(6)]])
        #expect(try db.query("SELECT id FROM t WHERE b = ANY($1) ORDER BY id", [.array([.boolean(false)])]) == [[.integer(3)]])
        // Empty and all-NULL arrays, for any column type.
        #expect(try db.query("SELECT id FROM t WHERE s = ANY($1)", [.array([])]) == [])
        #expect(try db.query("SELECT id FROM t WHERE i = ANY($1)", [.array([])]) == [])
        #expect(try db.query("SELECT id FROM t WHERE r = ANY($1)", [.array([.null])]) == [])
        #expect(try db.query("SELECT id FROM t WHERE i = ANY($1)", [.array([.null, .null])]) == [])
        #expect(try db.query("SELECT id FROM t WHERE b = ANY($1)", [.array([])]) == [])
        #expect(try db.query("SELECT id FROM t WHERE d = ANY($1)", [.array([])]) == [])
        // x = ANY('{}') is false even for a NULL x, so all seven rows.
        #expect(try db.query("SELECT count(*) FROM t WHERE NOT (i = ANY($1))", [.array([])]) == [[.integer(7)]])
        #expect(try db.query("SELECT id FROM t WHERE NOT (i = ANY($1)) ORDER BY id", [.array([.integer(42), .integer(7)])]) == [[.integer(3)], [.integer(4)], [.integer(5)], [.integer(6)]])
    }

    @Test func testResultTypesDecode() throws {
        let db = try connect()
        let row = try db.query("""
            SELECT 1::int2, 2::int4, 3::int8, 1.5::float4, 2.25::numeric, 'NaN'::numeric, true, false,
                   'v'::varchar, 'c'::char(2), 'n'::name, '\\x00ff'::bytea, NULL::int8, NULL::text, 'ü'
            """, [])
        #expect(row.map { $0.map(\.nanAsText) } == [[
            .integer(1), .integer(2), .integer(3), .real(1.5), .real(2.25), .text("<NaN>"), .boolean(true), .boolean(false),
            .text("v"), .text("c "), .text("n"), .blob(Data([0x00, 0xFF])), .null, .null, .text("ü"),
        ]])
        #expect(try db.query(BoundStatement(sql: "SELECT $1::int8 + $2", bindings: [.integer(40), .integer(2)])) == [[.integer(42)]])
        #expect(try db.query("SELECT 1 WHERE false", []) == [])
    }

    @Test func testErrorsCarryTheServerMessage() throws {
        let db = try connect()
        if let error = #expect(throws: (any Error).self, performing: { try db.query("SELECT * FROM no_such_table WHERE x = $1", [.integer(1)]) }) {
            if let error = error as? PostgresError {
                #expect(error.message == "relation \"no_such_table\" does not exist")
                #expect(error.sqlState == "42P01")
                #expect(error.sql == "SELECT * FROM no_such_table WHERE x = $1")
            } else {
                Issue.record("\(error)")
            }
        }
        if let error = #expect(throws: (any Error).self, performing: { try db.query("SELECT 1 / $1", [.integer(0)]) }) {
            #expect((error as? PostgresError)?.sqlState == "22012")
        }
        if let error = #expect(throws: (any Error).self, performing: { try db.execute("CREATE TEMPORARY TABLE e (x int); SELECT nonsense FROM e") }) {
            #expect((error as? PostgresError)?.message == "column \"nonsense\" does not exist")
        }
        // The connection is still usable after an error.
        #expect(try db.query("SELECT $1", [.text("ok")]) == [[.text("ok")]])
    }

    private func scalars(_ rows: [[SQLValue]]) -> [[UInt32]] {
        rows.map { row in
            row.flatMap { value -> [UInt32] in
                guard case .text(let s) = value else { return [] }
                return s.unicodeScalars.map(\.value)
            }
        }
    }
}

extension SQLValue {
    /// NaN is not equal to itself; compare it as a marker instead.
    fileprivate var nanAsText: SQLValue {
        if case .real(let d) = self, d.isNaN { return .text("<NaN>") }
        return self
    }
}
