import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// `+ - * /` in SQL: each predicate over rows holding the edge numbers
/// (Int.max, Int.min, 2^53 + 1, ±1e308, ±infinity, the least subnormal) is
/// answered by memory, SQLite and PostgreSQL, and each answer is pinned: the
/// same rows, or an error everywhere, or (on PostgreSQL) a refusal naming why.
@Suite(.serialized)
struct ArithmeticSQLTests {
    static let schema = StoreSchema([
        Entity("Item", table: "items", attributes: [
            Attribute("n", .integer, optional: false),
            Attribute("x", .double, optional: false),
            Attribute("flag", .boolean, optional: false),
            Attribute("m", .integer),
            Attribute("name", .string, optional: false),
        ], relationships: [
            .toMany("parts", "Part", inverseColumn: "item_id"),
        ]),
        Entity("Part", table: "parts", attributes: [Attribute("w", .integer, optional: false)]),
    ])

    /// id, n, x, flag, m, number of parts.
    static let items: [(Int, Int, Double, Bool, Int?, Int)] = [
        (1, 0, 0.0, false, nil, 0),
        (2, 1, 1.5, true, 3, 1),
        (3, -7, -2.5, false, -1, 2),
        (4, Int.max, 1e308, true, 0, 3),
        (5, Int.min, -1e308, false, nil, 0),
        (6, 9_007_199_254_740_993, 9_007_199_254_740_992.0, true, 5, 1),
        (7, 7, .infinity, false, 7, 0),
        (8, -1, -.infinity, true, 1, 2),
        (9, 2, 5e-324, false, 2, 0),
        (10, 9_007_199_254_740_992, 0.1, true, nil, 1),
    ]

    static var values: [Value] {
        items.map { item in
            let (id, n, x, flag, m, parts) = item
            return .dictionary([
                "id": .int(id), "n": .int(n), "x": .double(x), "flag": .bool(flag), "m": m.map(Value.int) ?? .null,
                "name": .string("item \(id)"), "parts": .array((0..<parts).map { _ in .dictionary(["w": .int(1)]) }),
            ])
        }
    }

    static var rows: [Library.Row] {
        var rows: [Library.Row] = []
        var part = 0
        for (id, n, x, flag, m, parts) in items {
            rows.append(Library.Row(table: "items", values: [
                "id": .integer(Int64(id)), "n": .integer(Int64(n)), "x": .real(x), "flag": .boolean(flag),
                "m": m.map { .integer(Int64($0)) } ?? .null, "name": .text("item \(id)"),
            ]))
            for _ in 0..<parts {
                part += 1
                rows.append(Library.Row(table: "parts", values: [
                    "id": .integer(Int64(part)), "w": .integer(1), "item_id": .integer(Int64(id)),
                ]))
            }
        }
        return rows
    }

    /// What every engine must answer: these rows, or an error.
    enum Answer: Equatable, CustomStringConvertible {
        case rows([Int])
        case raises
        var description: String {
            switch self {
            case .rows(let ids): return "\(ids)"
            case .raises: return "raises"
            }
        }
    }

    /// A predicate, its answer, and whether PostgreSQL has a form for it.
    struct Case {
        var format: String
        var answer: Answer
        var postgres = true
    }

    static let cases: [Case] = [
        // Integers: overflow and division by zero raise; / truncates.
        Case(format: "n + 1 > 0", answer: .raises),
        Case(format: "n - 1 < 0", answer: .raises),
        Case(format: "n * -1 > 0", answer: .raises),
        Case(format: "n / -1 > 0", answer: .raises),
        Case(format: "n / 0 == 1", answer: .raises),
        Case(format: "n / parts.@count > 0", answer: .raises),
        Case(format: "n / 2 == -3", answer: .rows([3])),
        Case(format: "n / 2 < -4611686018427387903", answer: .rows([5])),
        Case(format: "n - 9007199254740992 == 1", answer: .raises),
        Case(format: "parts.@count + 9007199254740992 == 9007199254740993", answer: .rows([2, 6, 10])),
        Case(format: "parts.@count * 3 - 1 >= 2", answer: .rows([2, 3, 4, 6, 8, 10])),
        Case(format: "parts.@count * -1 >= -1", answer: .rows([1, 2, 5, 6, 7, 9, 10])),
        Case(format: "parts.@count * 2 BETWEEN {1, 4}", answer: .rows([2, 3, 6, 8, 10])),
        Case(format: "n / 1 IN {1, 7}", answer: .rows([2, 7])),
        Case(format: "NOT (n / 1 IN {1, 7})", answer: .rows([1, 3, 4, 5, 6, 8, 9, 10])),
        Case(format: "flag + 1 == 2", answer: .rows([2, 4, 6, 8, 10])),
        Case(format: "n / 2 + parts.@count == 1", answer: .rows([2, 9])),
        // @sum is never nil: of integers, an exact integer.
        Case(format: "parts.@sum.w * 2 - 1 >= 3", answer: .rows([3, 4, 8])),
        Case(format: "parts.@sum.w + 9007199254740992 == 9007199254740993", answer: .rows([2, 6, 10])),
        Case(format: "n / parts.@sum.w == n", answer: .raises),
        Case(format: "n * 1 == n AND n * 0 == 0", answer: .rows(Array(1...10))),
        // An integer against a double: exact, 2^53 + 1 is not 2^53.
        Case(format: "n + 0 == 9007199254740992.0", answer: .rows([10])),
        Case(format: "n + 0 <= 9007199254740992.0", answer: .rows([1, 2, 3, 5, 7, 8, 9, 10])),
        Case(format: "n + 0 < 9223372036854775808.0", answer: .rows(Array(1...10))),
        Case(format: "n * 1.5 > 1e19", answer: .rows([4])),
        Case(format: "n + 0.5 == 9007199254740992.0", answer: .rows([6, 10])),
        Case(format: "n / 2.0 < -1e18", answer: .rows([5])),
        Case(format: "n / 2.0 >= 9007199254740993", answer: .rows([4])),
        Case(format: "3.0 / parts.@count > 1", answer: .rows([1, 2, 3, 5, 6, 7, 8, 9, 10])),
        Case(format: "0.0 / parts.@count == 0.0", answer: .rows([2, 3, 4, 6, 8, 10])),
        Case(format: "0.0 / parts.@count != 0.0", answer: .rows([1, 5, 7, 9])),
        Case(format: "n * 1e300 > 0", answer: .rows([2, 4, 6, 7, 9, 10]), postgres: false),
        Case(format: "n / 0.0 > 0", answer: .rows([2, 4, 6, 7, 9, 10]), postgres: false),
        // A change of sign has a form everywhere; other doubles only on SQLite.
        Case(format: "x * -1 < 3", answer: .rows([1, 2, 3, 4, 6, 7, 9, 10])),
        Case(format: "x * -1 >= 1e308", answer: .rows([5, 8])),
        Case(format: "x * -1 == x", answer: .rows([1])),
        Case(format: "x * 1.5 > 20", answer: .rows([4, 6, 7]), postgres: false),
        Case(format: "x + 1 > 2", answer: .rows([2, 4, 6, 7]), postgres: false),
        Case(format: "x - x == 0", answer: .rows([1, 2, 3, 4, 5, 6, 9, 10]), postgres: false),
        Case(format: "x - x != 0", answer: .rows([7, 8]), postgres: false),
        Case(format: "x - x == nil", answer: .rows([]), postgres: false),
        Case(format: "NOT (x - x > 0)", answer: .rows(Array(1...10)), postgres: false),
        Case(format: "x - x == x - x", answer: .rows([1, 2, 3, 4, 5, 6, 9, 10]), postgres: false),
        Case(format: "x / 0.0 > 0", answer: .rows([2, 4, 6, 7, 9, 10]), postgres: false),
        Case(format: "x * x == 0", answer: .rows([1, 9]), postgres: false),
        Case(format: "x * 10 == x", answer: .rows([1, 7, 8]), postgres: false),
        Case(format: "1 / (x * -1) < 0", answer: .rows([1, 2, 4, 6, 9, 10]), postgres: false),
        Case(format: "x / parts.@count < 0", answer: .rows([3, 5, 8]), postgres: false),
        Case(format: "x + n == 18014398509481984.0", answer: .rows([6]), postgres: false),
    ]

    @Test func testArithmeticOnEdgeValues() async throws {
        let failures = try await Self.check(Self.cases, Self.schema, Self.values, Self.rows, postgresSchema: "sift_arithmetic")
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
    }

    /// Each case's answer from memory (over `values`), SQLite and PostgreSQL
    /// (over `rows`, in a PostgreSQL schema of its own), against the pinned
    /// one: what differs. A case marked for no PostgreSQL form must be
    /// refused there as unsupported, naming PostgreSQL.
    static func check(
        _ cases: [Case], _ schema: StoreSchema, _ values: [Value], _ rows: [Library.Row], postgresSchema: String,
        arguments: [any FormatArgumentConvertible] = []
    ) async throws -> [String] {
        let sqlite = try DifferentialTests.sqliteDatabase(schema, Library.inserts(rows, .sqlite))
        let postgres = try await PostgresServer.connect(schema: postgresSchema, tables: schema, rows: rows)
        defer { PostgresServer.close(postgres) }
        var failures: [String] = []
        for c in cases {
            let request = FetchSpecification(entity: "Item", filter: try Filter(c.format, arguments: arguments))
            let memory = DifferentialTests.memoryIDs(request, values).map(Answer.rows) ?? .raises
            if memory != c.answer { failures.append("\(c.format): memory \(memory), expected \(c.answer)") }
            let sqliteAnswer: Answer
            do {
                let q = try request.sql(in: schema, dialect: .sqlite)
                sqliteAnswer = (try? DifferentialTests.sqliteIDs(q, sqlite)).map(Answer.rows) ?? .raises
            } catch {
                failures.append("\(c.format): no SQLite form: \(error)")
                continue
            }
            if sqliteAnswer != c.answer { failures.append("\(c.format): SQLite \(sqliteAnswer), expected \(c.answer)") }
            do {
                _ = try request.sql(in: schema, dialect: .postgreSQL)
                if !c.postgres { failures.append("\(c.format): has a PostgreSQL form") }
            } catch {
                if c.postgres || error.code != .unsupported || !error.message.contains("has no PostgreSQL form") {
                    failures.append("\(c.format): PostgreSQL refuses: \(error)")
                }
                continue
            }
            if let pg = postgres {
                let answer: Answer
                do {
                    answer = .rows(try await DifferentialTests.postgresIDs(request, schema, pg))
                } catch {
                    answer = .raises
                }
                if answer != c.answer { failures.append("\(c.format): PostgreSQL \(answer), expected \(c.answer)") }
            }
        }
        return failures
    }

    /// Checks that each format is refused over `schema` in its dialect with
    /// the code, and a message that contains the text.
    static func expectRefusals(_ cases: [(String, Dialect, SQLLoweringError.Code, String)], _ schema: StoreSchema) {
        for (format, dialect, code, message) in cases {
            var refusal: SQLLoweringError?
            do {
                _ = try FetchSpecification(entity: "Item", filter: try Filter(format)).sql(in: schema, dialect: dialect)
            } catch {
                refusal = error as? SQLLoweringError
            }
            #expect(refusal?.code == code, Comment(rawValue: "\(format) (\(dialect)): \(refusal.map { "\($0)" } ?? "lowered")"))
            #expect(refusal?.message.contains(message) == true, Comment(rawValue: "\(format): \(refusal?.message ?? "lowered")"))
        }
    }

    /// The statements: `sift_arithmetic` on SQLite; on PostgreSQL, bigint
    /// operators, a double cast for an integer with a double constant, and a
    /// CASE for a division by an integer that may be 0.
    @Test func testStatements() throws {
        func sql(_ format: String, _ dialect: Dialect) throws -> String {
            try FetchSpecification(entity: "Item", filter: try Filter(format)).sql(in: Self.schema, dialect: dialect).statement.sql
        }
        let where1 = try sql("n + 1 > 0", .sqlite)
        #expect(where1.hasSuffix(#"WHERE sift_arithmetic(0, t0."n", ?1) > ?2 ORDER BY t0."id""#), Comment(rawValue: where1))
        let where2 = try sql("n + 1 > 0", .postgreSQL)
        #expect(where2.hasSuffix(#"WHERE (t0."n" + $1) > $2 ORDER BY t0."id""#), Comment(rawValue: where2))
        let where3 = try sql("n * 1.5 > 2", .postgreSQL)
        #expect(where3.hasSuffix(#"WHERE ((CAST(t0."n" AS DOUBLE PRECISION) * $1) > $2 AND (CAST(t0."n" AS DOUBLE PRECISION) * $1) IS DISTINCT FROM 'NaN') ORDER BY t0."id""#), Comment(rawValue: where3))
        let where4 = try sql("3.0 / n < 2", .postgreSQL)
        #expect(where4.hasSuffix(#"WHERE (CASE WHEN t0."n" = 0 THEN $1 ELSE $2 / CAST(t0."n" AS DOUBLE PRECISION) END) < $3 ORDER BY t0."id""#), Comment(rawValue: where4))
        let where5 = try sql("x - x != 0", .sqlite)
        #expect(where5.hasSuffix(#"WHERE sift_arithmetic(1, t0."x", t0."x") IS NOT ?1 ORDER BY t0."id""#), Comment(rawValue: where5))
        let where6 = try sql("flag * 2 == 2", .postgreSQL)
        #expect(where6.contains(#"(CAST(t0."flag" AS INTEGER) * $1) = $2"#), Comment(rawValue: where6))
    }

    /// What has no exact form is refused, saying why.
    @Test func testRefusals() throws {
        let cases: [(String, Dialect, SQLLoweringError.Code, String)] = [
            ("m + 1 > 0", .sqlite, .unsupported, "m may be nil"),
            ("m + 1 > 0", .postgreSQL, .unsupported, "m may be nil"),
            ("name + 1 > 0", .sqlite, .typeMismatch, "needs numbers; name is"),
            ("n + nil > 0", .sqlite, .typeMismatch, "needs numbers, got nil"),
            ("parts.@avg.w + 1 > 0", .sqlite, .unsupported, "@avg has no SQL form in arithmetic"),
            ("parts.@max.w + 1 > 0", .sqlite, .unsupported, "@max has no SQL form in arithmetic"),
            ("9223372036854775807 + 1 > n", .sqlite, .typeMismatch, "overflows a 64-bit integer"),
            ("x + 1 > 0", .postgreSQL, .unsupported, "has no PostgreSQL form"),
            ("n * 1e300 > 0", .postgreSQL, .unsupported, "has no PostgreSQL form"),
            ("n / 0.0 > 0", .postgreSQL, .unsupported, "has no PostgreSQL form"),
            ("x * x > 0", .postgreSQL, .unsupported, "has no PostgreSQL form"),
            ("n ** 2 > 0", .postgreSQL, .unsupported, "has no PostgreSQL form"),
        ]
        Self.expectRefusals(cases, Self.schema)
    }
}
