import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// The limits of lowering (bound values, MATCHES patterns) and of the
/// SQLite MATCHES function: the error past each, and statements just under
/// them running on SQLite and PostgreSQL with the evaluator's rows.
struct SQLLimitTests {
    let library = Library(seed: 5)

    private func loweringError(
        _ request: FetchSpecification, _ dialect: Dialect, options: SQLLoweringOptions = .default
    ) -> SQLLoweringError? {
        do {
            _ = try request.sql(in: Library.schema, dialect: dialect, options: options)
            return nil
        } catch {
            return error
        }
    }

    private func memoryIDs(_ request: FetchSpecification) throws -> [Int] {
        try request.execute(on: library.books).map { row in
            guard case .dictionary(let d) = row, case .int(let id)? = d["id"] else { return -1 }
            return id
        }
    }

    private func sqlite() throws -> DatabaseQueue {
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for s in Library.schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            for s in library.inserts(.sqlite) { try db.execute(sql: s.sql, arguments: s.arguments) }
        }
        return db
    }

    /// The library on PostgreSQL, in a schema of the test's own (tests run
    /// at the same time).
    private func postgres(_ schema: String) throws -> PostgresClient? {
        guard let pg = try PostgresClient.fromEnvironment(schema: schema) else { return nil }
        for s in Library.schema.createStatements(dialect: .postgreSQL) { try pg.execute(s) }
        for s in library.inserts(.postgreSQL) { _ = try pg.query(s) }
        return pg
    }

    /// Runs the request on the engine for `dialect` and checks its rows
    /// against the evaluator's.
    private func expectRows(
        _ request: FetchSpecification, _ dialect: Dialect, options: SQLLoweringOptions = .default,
        sqlite db: DatabaseQueue?, postgres pg: PostgresClient?
    ) throws {
        let statement = try request.sql(in: Library.schema, dialect: dialect, options: options).statement
        let expected = try memoryIDs(request)
        switch dialect {
        case .sqlite:
            guard let db else { return }
            #expect(try db.read { try Int.fetchAll($0, sql: statement.sql, arguments: statement.arguments) } == expected)
        default:
            guard let pg else { return }
            #expect(try pg.query(statement).map { $0.first ?? .null } == expected.map { SQLValue.integer(Int64($0)) })
        }
    }

    /// The range of the `n`th (0-based) comparison of `terms` joined by " OR ".
    private func termRange(_ n: Int, of terms: [String]) -> SourceRange {
        let start = terms[..<n].reduce(0) { $0 + $1.utf8.count + " OR ".utf8.count }
        return SourceRange(start, start + terms[n].utf8.count)
    }

    @Test func boundValuesConfigured() throws {
        let options = SQLLoweringOptions(maximumBindings: 5)
        let terms = (1...6).map { "year == \(1989 + $0 * 2)" }
        let five = FetchSpecification(entity: "Book", filter: try Filter(terms.prefix(5).joined(separator: " OR ")))
        let six = FetchSpecification(entity: "Book", filter: try Filter(terms.joined(separator: " OR ")))
        let (db, pg) = (try sqlite(), try postgres("sift_limits_configured"))
        for dialect in [Dialect.sqlite, .postgreSQL] {
            #expect(try five.sql(in: Library.schema, dialect: dialect, options: options).statement.bindings.count == 5)
            try expectRows(five, dialect, options: options, sqlite: db, postgres: pg)
            let e = try #require(loweringError(six, dialect, options: options))
            #expect(e.code == .limit)
            #expect(
                e.message == "the statement would bind 6 values; the limit is 5 (SQLLoweringOptions.maximumBindings): "
                    + "compare with a list (IN {…}), which is bound as one value")
            #expect(e.range == termRange(5, of: terms), "the comparison that went over")
            // LIMIT and OFFSET are bound too: the error is the request's.
            var paged = five
            paged.limit = 3
            let p = try #require(loweringError(paged, dialect, options: options))
            #expect(p.code == .limit)
            #expect(p.range == SourceRange(0, five.filter?.source?.utf8.count ?? -1))
            // A list is one value (on SQLite, past 32 members).
            let list = FetchSpecification(entity: "Book", filter: try Filter("year IN %@", Array(1990...2040)))
            try expectRows(list, dialect, options: options, sqlite: db, postgres: pg)
        }
    }

    @Test func boundValuesDefault() throws {
        #expect(SQLLoweringOptions.default.maximumBindings == 10_000)
        let (db, pg) = (try sqlite(), try postgres("sift_limits_default"))
        // SQLite: lists of 32 members bind each member (312 × 32 = 9984).
        // (SQLite nests OR 1000 deep at most, so the terms are lists.)
        let lists = (0..<313).map { i in "year IN {" + (0..<32).map { String(1990 + (i + $0) % 40) }.joined(separator: ", ") + "}" }
        let under = FetchSpecification(entity: "Book", filter: try Filter(lists.prefix(312).joined(separator: " OR ")))
        #expect(try under.sql(in: Library.schema, dialect: .sqlite).statement.bindings.count == 9_984)
        try expectRows(under, .sqlite, sqlite: db, postgres: pg)
        let over = FetchSpecification(entity: "Book", filter: try Filter(lists.joined(separator: " OR ")))
        let e = try #require(loweringError(over, .sqlite))
        #expect(e.code == .limit)
        #expect(e.message.hasPrefix("the statement would bind 10016 values; the limit is 10000"))
        #expect(e.range == termRange(312, of: lists))
        #expect(loweringError(over, .postgreSQL) == nil, "on PostgreSQL each list is one value")
        // PostgreSQL (and SQLite): one value per comparison.
        let terms = (0...10_000).map { "year == \($0)" }
        let most = FetchSpecification(entity: "Book", filter: try Filter(terms.prefix(10_000).joined(separator: " OR ")))
        try expectRows(most, .postgreSQL, sqlite: db, postgres: pg)
        let tooMany = FetchSpecification(entity: "Book", filter: try Filter(terms.joined(separator: " OR ")))
        for dialect in [Dialect.sqlite, .postgreSQL] {
            let e = try #require(loweringError(tooMany, dialect))
            #expect(e.code == .limit)
            #expect(e.range == termRange(10_000, of: terms))
        }
    }

    @Test func matchesPatternsAreCheckedBeforeAnySQL() throws {
        let short = FetchSpecification(entity: "Book", filter: try Filter("title MATCHES 'ab.de'"))
        let long = FetchSpecification(entity: "Book", filter: try Filter("title MATCHES 'ab.def'"))
        let options = SQLLoweringOptions(regexLimits: RegexLimits(maximumPatternLength: 5))
        for dialect in [Dialect.sqlite, .postgreSQL] {
            #expect(loweringError(short, dialect, options: options) == nil)
            let e = try #require(loweringError(long, dialect, options: options))
            #expect(e.code == .limit)
            #expect(e.message == "MATCHES: the regular expression is 6 bytes long; the limit is 5 (RegexLimits.maximumPatternLength)")
            #expect(e.range == SourceRange(0, 22), "the comparison")
            #expect(loweringError(long, dialect) == nil)
            let huge = FetchSpecification(entity: "Book", filter: try Filter("title MATCHES %@", String(repeating: "a", count: 10_001)))
            #expect(loweringError(huge, dialect)?.code == .limit)
        }
    }

    /// A comparison of constants is answered while lowering, under the
    /// filter's own bound on the strings a custom selector or FUNCTION makes
    /// (`Filter.maximumFunctionResultLength`), as memory answers it: past
    /// it both refuse with `.limit`, under it both with a type mismatch
    /// (the selector answers a string, not a truth value).
    @Test func constantComparisonsKeepTheFunctionResultLimit() throws {
        var filter = try Filter("'abcde' stringByAppendingString: 'abcd'")
        func memoryCode() -> EvaluationError.Code? {
            do {
                _ = try memoryIDs(FetchSpecification(entity: "Book", filter: filter))
                return nil
            } catch {
                return (error as? EvaluationError)?.code
            }
        }
        for (limit, memory, sql) in [
            (nil, EvaluationError.Code.typeMismatch, SQLLoweringError.Code.typeMismatch), (9, .typeMismatch, .typeMismatch),
            (8, .limit, .limit),
        ] as [(Int?, EvaluationError.Code, SQLLoweringError.Code)] {
            filter.maximumFunctionResultLength = limit ?? Filter.defaultMaximumFunctionResultLength
            #expect(memoryCode() == memory, "limit \(limit.map(String.init) ?? "default")")
            for dialect in [Dialect.sqlite, .postgreSQL] {
                let e = loweringError(FetchSpecification(entity: "Book", filter: filter), dialect)
                #expect(e?.code == sql, "limit \(limit.map(String.init) ?? "default"), \(dialect)")
                if sql == .limit {
                    #expect(e?.message.contains("over the 8 a FUNCTION may make (Filter.maximumFunctionResultLength)") == true)
                }
            }
        }
    }

    @Test func sqliteMatchesStopsCatastrophicPatterns() throws {
        let db = try DatabaseQueue(configuration: .sift)
        let sql = "SELECT \(SQLiteFunctions.matches)(?, ?, 0)"
        let subject = String(repeating: "a", count: 64) + "!"
        #expect(try db.read { try Int.fetchOne($0, sql: sql, arguments: ["aaaa!", "(a+)+$"]) } == 0)
        do {
            _ = try db.read { try Int.fetchOne($0, sql: sql, arguments: [subject, "(a+)+$"]) }
            Issue.record("a catastrophic pattern ran to its end")
        } catch let error as DatabaseError {
            #expect(error.message?.contains("RegexLimits.matchLimit") == true, "\(error)")
        }
        // The connection's limits are configurable.
        let strict = try DatabaseQueue(configuration: .sift(regexLimits: RegexLimits(maximumPatternLength: 3)))
        #expect(try db.read { try Int.fetchOne($0, sql: sql, arguments: ["abcd", "abcd"]) } == 1)
        #expect(try strict.read { try Int.fetchOne($0, sql: sql, arguments: ["abc", "abc"]) } == 1)
        do {
            _ = try strict.read { try Int.fetchOne($0, sql: sql, arguments: ["abcd", "abcd"]) }
            Issue.record("a pattern over the connection's length limit compiled")
        } catch let error as DatabaseError {
            #expect(error.message?.contains("RegexLimits.maximumPatternLength") == true, "\(error)")
        }
    }
}
