import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// The built-in functions and `CAST` in SQL: each predicate over rows holding
/// edge values (0, -0.0, Int.max, Int.min, 2^53 + 1, ±1e308, ±infinity, NaN,
/// the least subnormal, shift amounts past 63, non-ASCII strings) is answered
/// by memory, SQLite and PostgreSQL, and each answer is pinned: the same rows,
/// or an error everywhere, or (on PostgreSQL) a refusal naming why.
@Suite(.serialized)
struct FunctionSQLTests {
    static let schema = StoreSchema([
        Entity("Item", table: "fn_items", attributes: [
            Attribute("n", .integer, optional: false),
            Attribute("x", .double, optional: false),
            Attribute("flag", .boolean, optional: false),
            Attribute("k", .integer, optional: false),
            Attribute("s", .string, optional: false),
            Attribute("m", .integer),
            Attribute("t", .string),
            Attribute("d", .date(.referenceSeconds)),
            Attribute("u", .date(.unixSeconds)),
        ])
    ])

    /// id, n, x, flag, k (a shift amount), s.
    static let items: [(Int, Int, Double, Bool, Int, String)] = [
        (1, 0, 0.0, false, 0, ""),
        (2, 1, 1.5, true, 1, "abc"),
        (3, -7, -2.5, false, 63, "Straße"),
        (4, Int.max, 1e308, true, 64, "ÉCOLE"),
        (5, Int.min, -1e308, false, -1, "😀x"),
        (6, 9_007_199_254_740_993, -0.0, true, -64, "İstanbul"),
        (7, 7, .infinity, false, 65, "e\u{301}"),
        (8, -1, -.infinity, true, -65, "ǅ"),
        (9, 2, .leastNonzeroMagnitude, false, 2, "ΣΑΣ"),
        (10, 16, .nan, true, 3, "ﬁ"),
    ]

    /// m: id - 2, t: "t" and the id, both nil in rows 1, 5 and 10; d: 100 ×
    /// id - 500 seconds since 2001, nil in rows 1 and 5.
    static func optionals(_ id: Int) -> (m: Int?, t: String?, d: Double?) {
        let missing = [1, 5, 10].contains(id)
        return (missing ? nil : id - 2, missing ? nil : "t\(id)", [1, 5].contains(id) ? nil : Double(100 * id - 500))
    }

    static var values: [Value] {
        items.map { item in
            let (id, n, x, flag, k, s) = item
            let (m, t, d) = optionals(id)
            return .dictionary([
                "id": .int(id), "n": .int(n), "x": .double(x), "flag": .bool(flag), "k": .int(k), "s": .string(s),
                "m": m.map(Value.int) ?? .null, "t": t.map(Value.string) ?? .null,
                "d": d.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null,
                "u": .date(Date(timeIntervalSince1970: Double(id))),
            ])
        }
    }

    static var rows: [Library.Row] {
        items.map { item in
            let (id, n, x, flag, k, s) = item
            let (m, t, d) = optionals(id)
            return Library.Row(table: "fn_items", values: [
                "id": .integer(Int64(id)), "n": .integer(Int64(n)), "x": .real(x), "flag": .boolean(flag),
                "k": .integer(Int64(k)), "s": .text(s), "m": m.map { .integer(Int64($0)) } ?? .null,
                "t": t.map(SQLValue.text) ?? .null, "d": d.map(SQLValue.real) ?? .null, "u": .real(Double(id)),
            ])
        }
    }

    typealias Answer = ArithmeticSQLTests.Answer
    typealias Case = ArithmeticSQLTests.Case

    static let all = Answer.rows(Array(1...10))

    static let cases: [Case] = [
        // abs: Int.min overflows; doubles keep NaN, ±infinity; -0.0 is 0.
        Case(format: "abs(n) > 5", answer: .raises),
        Case(format: "abs(x) == 2.5", answer: .rows([3])),
        Case(format: "abs(x) > 1e308", answer: .rows([7, 8])),
        Case(format: "abs(x) == 0", answer: .rows([1, 6])),
        Case(format: "abs(x) != 1.5", answer: .rows([1, 3, 4, 5, 6, 7, 8, 9, 10])),
        Case(format: "abs(x) != abs(x)", answer: .rows([10])),
        Case(format: "abs(flag) == 1", answer: .rows([2, 4, 6, 8, 10])),
        // floor:, ceiling:, trunc:
        Case(format: "floor(x) == -3 AND ceiling(x) == -2 AND trunc(x) == -2", answer: .rows([3])),
        Case(format: "ceiling(x) == 1", answer: .rows([9])),
        Case(format: "ceiling(x) == 2", answer: .rows([2])),
        Case(format: "trunc(x) == 0", answer: .rows([1, 6, 9])),
        Case(format: "floor(x) < -1e308", answer: .rows([8])),
        Case(format: "floor(x) >= 1e308", answer: .rows([4, 7])),
        Case(format: "floor(n) == n AND ceiling(n) == n AND trunc(n) == n", answer: all),
        Case(format: "ceiling(flag) == YES", answer: .rows([2, 4, 6, 8, 10])),
        Case(format: "floor(x) != floor(x)", answer: .rows([10])),
        // sqrt: NaN below 0 (PostgreSQL raises there, the form does not).
        Case(format: "sqrt(x) > 1", answer: .rows([2, 4, 7])),
        Case(format: "sqrt(x) == 0", answer: .rows([1, 6])),
        Case(format: "sqrt(n) > 3e9", answer: .rows([4])),
        Case(format: "sqrt(n) == 3", answer: .rows([])),
        Case(format: "sqrt(k) == 8", answer: .rows([4])),
        Case(format: "sqrt(x) != sqrt(x)", answer: .rows([3, 5, 8, 10])),
        Case(format: "sqrt(x) < 1e-160", answer: .rows([1, 6, 9])),
        // ln:, log:, exp:, ** (SQLite only): ±infinity, 0 and NaN.
        Case(format: "ln(x) < -700", answer: .rows([1, 6, 9]), postgres: false),
        Case(format: "log(n) > 18", answer: .rows([4]), postgres: false),
        Case(format: "log(x) != log(x)", answer: .rows([3, 5, 8, 10]), postgres: false),
        Case(format: "exp(x) == 1", answer: .rows([1, 6, 9]), postgres: false),
        Case(format: "exp(x) > 1e308", answer: .rows([4, 7]), postgres: false),
        Case(format: "exp(x) == 0", answer: .rows([5, 8]), postgres: false),
        Case(format: "n ** 2 > 1e37", answer: .rows([4, 5]), postgres: false),
        Case(format: "x ** 0 == 1", answer: all, postgres: false),
        Case(format: "0 ** x > 1", answer: .rows([3, 5, 8]), postgres: false),
        // modulus:by: truncates toward zero, by -1 is 0, by 0 raises.
        Case(format: "modulus:by:(n, 3) == 1", answer: .rows([2, 4, 7, 10])),
        Case(format: "modulus:by:(n, 3) == -2", answer: .rows([5])),
        Case(format: "modulus:by:(n, -1) == 0", answer: all),
        Case(format: "modulus:by:(n, 0) == 0", answer: .raises),
        Case(format: "modulus:by:(n, flag) == 0", answer: .raises),
        Case(format: "modulus:by:(n, k + 100) == 7", answer: .rows([4, 7])),
        Case(format: "modulus:by:(9223372036854775807, n) == 0", answer: .raises),
        Case(format: "modulus:by:(9223372036854775807, k + 100) == 7", answer: .rows([1, 4, 5, 6, 7, 8])),
        Case(format: "modulus:by:(x, 2) == 1", answer: .rows([2, 4]), postgres: false),
        // Bitwise: integers; a double that is not whole raises.
        Case(format: "n & 1 == 1", answer: .rows([2, 3, 4, 6, 7, 8])),
        Case(format: "n | 1 == n", answer: .rows([2, 3, 4, 6, 7, 8])),
        Case(format: "n ^ 5 == 2", answer: .rows([7])),
        Case(format: "n ^ -1 == ~n", answer: all),
        Case(format: "~n == -1", answer: .rows([1])),
        Case(format: "~n > 0", answer: .rows([3, 5])),
        Case(format: "~flag == -2", answer: .rows([2, 4, 6, 8, 10])),
        Case(format: "flag << 62 > 0", answer: .rows([2, 4, 6, 8, 10])),
        Case(format: "n << 1 < 0", answer: .rows([3, 4, 8])),
        Case(format: "n << k == 0", answer: .rows([1, 4, 6, 7, 8])),
        Case(format: "n >> k == -1", answer: .rows([3])),
        Case(format: "n >> k == 0", answer: .rows([1, 2, 4, 5, 6, 7, 8, 9])),
        Case(format: "1 << k < 0", answer: .rows([3])),
        Case(format: "-8 >> k == -8", answer: .rows([1])),
        Case(format: "x & 1 == 0", answer: .raises, postgres: false),
        // Strings: Swift's case mappings, UTF-16 lengths.
        Case(format: "lowercase(s) == 'straße'", answer: .rows([3]), postgres: false),
        Case(format: "uppercase(s) == 'STRASSE'", answer: .rows([3]), postgres: false),
        Case(format: "uppercase(s) == 'FI'", answer: .rows([10]), postgres: false),
        Case(format: "lowercase(s) ==[c] 'École'", answer: .rows([4]), postgres: false),
        Case(format: "lowercase(s) BEGINSWITH 'i'", answer: .rows([6]), postgres: false),
        Case(format: "length(uppercase(s)) == 7", answer: .rows([3]), postgres: false),
        Case(format: "length(s) == 3", answer: .rows([2, 5, 9])),
        Case(format: "length(s) == 2", answer: .rows([7])),
        Case(format: "length(s) == 0", answer: .rows([1])),
        Case(format: "length(s) > 7", answer: .rows([6])),
        Case(format: "length(s) + length(s) == 6", answer: .rows([2, 5, 9])),
        // CAST
        Case(format: "CAST(n, 'NSString') == '-7'", answer: .rows([3])),
        Case(format: "CAST(n, 'NSString') BEGINSWITH '-9'", answer: .rows([5])),
        Case(format: "CAST(m, 'NSString') == nil", answer: .rows([1, 5, 10])),
        Case(format: "CAST(flag, 'NSString') == '1'", answer: .rows([2, 4, 6, 8, 10])),
        Case(format: "CAST(s, 'NSString') == 'abc'", answer: .rows([2])),
        Case(format: "CAST(n, 'NSNumber') == 7", answer: .rows([7])),
        Case(format: "CAST(n, 'NSDate') > CAST(0, 'NSDate')", answer: .rows([2, 4, 6, 7, 9, 10])),
        Case(format: "CAST(n, 'NSDate') == CAST(9007199254740992.0, 'NSDate')", answer: .rows([6])),
        Case(format: "CAST(m, 'NSDate') < %@", answer: .rows([2, 3])),
        Case(format: "CAST(d, 'NSNumber') > 0", answer: .rows([6, 7, 8, 9, 10])),
        Case(format: "CAST(d, 'NSDate') == nil", answer: .rows([1, 5])),
    ]

    @Test func testFunctionsOnEdgeValues() async throws {
        let failures = try await ArithmeticSQLTests.check(
            Self.cases, Self.schema, Self.values, Self.rows, postgresSchema: "sift_functions",
            arguments: [Date(timeIntervalSinceReferenceDate: 2)])
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
    }

    /// The statements: `sift_function` on SQLite; PostgreSQL's own functions.
    @Test func testStatements() throws {
        func sql(_ format: String, _ dialect: Dialect) throws -> String {
            try FetchSpecification(entity: "Item", filter: try Filter(format)).sql(in: Self.schema, dialect: dialect).statement.sql
        }
        let code = BuiltinFunction.abs.code
        let where1 = try sql("abs(n) > 0", .sqlite)
        #expect(where1.hasSuffix(#"WHERE sift_function(\#(code), t0."n") > ?1 ORDER BY t0."id""#), Comment(rawValue: where1))
        let where2 = try sql("abs(n) > 0", .postgreSQL)
        #expect(where2.hasSuffix(#"WHERE ABS(t0."n") > $1 ORDER BY t0."id""#), Comment(rawValue: where2))
        let where3 = try sql("floor(n) > 0", .postgreSQL)
        #expect(where3.hasSuffix(#"WHERE t0."n" > $1 ORDER BY t0."id""#), Comment(rawValue: where3))
        let where4 = try sql("n ^ 3 > 0", .postgreSQL)
        #expect(where4.hasSuffix(#"WHERE (t0."n" # $1) > $2 ORDER BY t0."id""#), Comment(rawValue: where4))
        let where5 = try sql("CAST(n, 'NSString') == '1'", .sqlite)
        #expect(where5.hasSuffix(#"WHERE CAST(t0."n" AS TEXT) = ?1 ORDER BY t0."id""#), Comment(rawValue: where5))
    }

    /// What has no exact form is refused, saying why; every function whose
    /// row says it has no SQL form is refused with the row's reason.
    @Test func testRefusals() throws {
        var cases: [(String, Dialect, SQLLoweringError.Code, String)] = [
            ("abs(m) > 0", .sqlite, .unsupported, "m may be nil"),
            ("abs(m) > 0", .postgreSQL, .unsupported, "m may be nil"),
            ("modulus:by:(n, m) > 0", .sqlite, .unsupported, "m may be nil"),
            ("length(t) > 0", .sqlite, .unsupported, "t may be nil"),
            ("lowercase(t) == 'a'", .postgreSQL, .unsupported, "t may be nil"),
            ("abs(s) > 0", .sqlite, .typeMismatch, "needs numbers; s is"),
            ("length(n) > 0", .sqlite, .typeMismatch, "needs a string; n is"),
            ("abs(d) > 0", .sqlite, .typeMismatch, "needs numbers; d is"),
            ("abs(nil) > n", .sqlite, .typeMismatch, "needs numbers, got nil"),
            ("abs(-9223372036854775807 - 1) > n", .sqlite, .typeMismatch, "overflows"),
            ("lowercase(s) == 'a'", .postgreSQL, .unsupported, "has no PostgreSQL form: lower() and upper()"),
            ("uppercase(s) == 'a'", .postgreSQL, .unsupported, "has no PostgreSQL form: lower() and upper()"),
            ("ln(x) > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: PostgreSQL's ln, log, exp and power raise"),
            ("log(n) > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: PostgreSQL's ln, log, exp and power raise"),
            ("exp(n) > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: PostgreSQL's ln, log, exp and power raise"),
            ("n ** 2 > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: PostgreSQL's ln, log, exp and power raise"),
            ("modulus:by:(x, 2) > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: memory takes a double"),
            ("n & x > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: memory takes a double"),
            ("~x > 0", .postgreSQL, .unsupported, "has no PostgreSQL form: memory takes a double"),
            ("CAST(x, 'NSString') == '1'", .sqlite, .unsupported, "memory writes double as Swift does"),
            ("CAST(s, 'NSNumber') == 1", .sqlite, .unsupported, "reads the number in the string"),
            ("CAST(u, 'NSNumber') == 1", .sqlite, .unsupported, "not stored as seconds since 2001"),
            ("CAST(x, 'NSDate') == nil", .sqlite, .unsupported, "may be NaN"),
            ("CAST(n, 'NSDecimalNumber') == 1", .sqlite, .unsupported, "only casts to NSNumber, NSString and NSDate"),
            ("CAST('x', 'NSNumber') == n", .sqlite, .typeMismatch, "is not a number"),
        ]
        for f in BuiltinFunction.allCases {
            guard case .refused(let reason) = f.sql else { continue }
            let arguments = Array(repeating: "n", count: f.arity).joined(separator: ", ")
            let call = f.arity == 0 ? "\(f.rawValue)()" : "\(f.rawValue)(\(arguments))"
            for dialect in [Dialect.sqlite, .postgreSQL] {
                cases.append(("\(call) == n", dialect, .unsupported, "\(f.rawValue) has no SQL form: \(reason)"))
            }
        }
        #expect(BuiltinFunction.allCases.filter { if case .refused = $0.sql { true } else { false } }.count == 13)
        ArithmeticSQLTests.expectRefusals(cases, Self.schema)
    }
}
