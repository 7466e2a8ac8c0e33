import Foundation
import PostgresNIO
import Sift
import SiftPostgres
@testable import SiftSQL
import SiftTestSupport
import Testing

/// `[c]` on PostgreSQL answers as memory for the characters whose case
/// mapping is more than one character (`ﬁ`, `ß`, `ᾳ`) or newer than the
/// server's tables: PostgreSQL's fold of every scalar is memory's, and the
/// string operators answer as memory on those characters stored and as
/// constants.
@Suite(.serialized)
struct CaseFoldTests {
    /// Every scalar that Swift's tables assign (the others, and the
    /// private-use ones, fold to themselves on both sides), folded by the
    /// SQL of `[c]`, `[d]` and `[cd]`, is the evaluator's fold of it.
    @Test(arguments: [
        ComparisonOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
    ])
    func testEveryScalarFoldsAsInMemory(_ options: ComparisonOptions) async throws {
        guard let db = try await PostgresServer.connect(schema: "sift_pg_fold_all") else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        defer { PostgresServer.close(db) }
        let scalars = (1...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }.filter {
            ![.unassigned, .privateUse].contains($0.properties.generalCategory)
        }
        let folded = SQLGenerationContext.statement(
            try Dialect.postgreSQL.hooks.fold(.sql("chr(n)"), options), dialect: .postgreSQL
        ).sql
        let rows = try await db.rows(BoundStatement(
            sql: "SELECT n, \(folded) FROM unnest($1::int[]) n ORDER BY n",
            bindings: [.array(scalars.map { .integer(Int64($0.value)) })]))
        #expect(rows.count == scalars.count)
        var differing: [String] = []
        for (u, row) in zip(scalars, rows) {
            let memory = StringOperations.folded(String(u), options)
            guard row.count == 2, case .integer(Int64(u.value)) = row[0], case .text(let sql) = row[1] else {
                Issue.record("row \(row) for U+\(String(u.value, radix: 16))")
                continue
            }
            if sql.unicodeScalars.elementsEqual(memory.unicodeScalars) { continue }
            differing.append("U+" + String(u.value, radix: 16, uppercase: true))
        }
        #expect(
            differing.isEmpty,
            "\(differing.count) folded otherwise than in memory: \(differing.prefix(200).joined(separator: " "))")
    }

    /// The characters whose fold PostgreSQL's `lower(upper(…))` misses,
    /// ordinary ones, and words, stored and as constants (as stored and
    /// folded), under each operator with `[c]`: the same rows as memory.
    @Test func testOperatorsAnswerAsInMemory() async throws {
        var words = PostgreSQLCaseFold.scalars.map { String($0) }
        let samples = [
            "fi", "FI", "ss", "SS", "ß", "straße", "STRASSE", "oﬃce", "OFFICE", "ﬁx", "xﬁ", "ΟΔΟΣ", "οδος", "οδοσ",
            "ᾳ\u{301}", "α\u{345}\u{301}", "αι", "ΑΙ", "ΑΙ\u{301}", "é", "e\u{301}", "ǰ", "J\u{30C}", "ΐ", "ẖ", "\u{345}", "İ",
            "i\u{307}", "abc", "Σ", "ς", "ʼn", "ʼN", "ꟑ", "a", "k", "K", "\u{212A}", "s", "ſ", "ſſ", "\u{212A}ſ",
        ]
        words += samples
        let folds = words.map { StringOperations.folded($0, [.caseInsensitive]) }
        let stored = Array(Set(words + folds)).sorted()
        guard let db = try await PostgresServer.connect(schema: "sift_pg_fold_ops") else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        defer { PostgresServer.close(db) }
        try await PostgresServer.setUp(db, ["CREATE TABLE words (id bigint PRIMARY KEY, s text NOT NULL, t text NOT NULL)"])
        try await PostgresServer.setUp(db, stored.enumerated().map { i, s in
            BoundStatement(sql: "INSERT INTO words VALUES ($1, $2, $3)", bindings: [
                .integer(Int64(i)), .text(s), .text(StringOperations.folded(s, [.caseInsensitive]).uppercased()),
            ])
        })
        let schema = try await StoreSchema.read(from: db)
        let rows = try await FetchSpecification(entity: "words", sort: [SortKey("id")]).fetchValues(db, schema: schema)
        func check(_ filter: Filter, _ label: String) async throws {
            var memory: [Value] = []
            for row in rows where try filter.evaluate(with: row) { memory.append(Self.id(row)) }
            let sql = try await FetchSpecification(entity: "words", filter: filter, sort: [SortKey("id")])
                .fetchValues(db, schema: schema).map(Self.id)
            #expect(sql == memory, Comment(rawValue: label))
        }
        for format in ["s ==[c] t", "s BEGINSWITH[c] t", "t CONTAINS[c] s", "s ENDSWITH[cd] t", "s !=[c] t"] {
            try await check(try Filter(format), format)
        }
        // As constants: every third scalar of the list (each kind of
        // mapping), the samples and their folds (a query each: 9 ms).
        let constants = stride(from: 0, to: PostgreSQLCaseFold.scalars.count, by: 3).map { String(PostgreSQLCaseFold.scalars[$0]) }
            + samples + samples.map { StringOperations.folded($0, [.caseInsensitive]) }
        for constant in Array(Set(constants)).sorted() {
            for op in ["==[c]", "BEGINSWITH[c]", "CONTAINS[c]", "LIKE[c]", "==[cd]"] {
                let filter = try Filter("s \(op) %@", constant)
                try await check(filter, "s \(op) \(constant.unicodeScalars.map { String($0.value, radix: 16) })")
            }
        }
        try await check(try Filter("s IN[c] %@", ["fi", "SS", "ß", "αι"]), "IN[c]")
        // MATCHES[c]: PCRE2 pairs k with the Kelvin sign and s with the
        // long s, which PostgreSQL's `~*` does not.
        for pattern in ["k", "s", "[j-l].*", ".*[a-z].*", "S+", "(ss|x)+", "[K-k]"] {
            try await check(try Filter("s MATCHES[c] %@", pattern), "MATCHES[c] \(pattern)")
            try await check(try Filter("s MATCHES[cd] %@", pattern), "MATCHES[cd] \(pattern)")
        }
    }

    /// A database whose `LC_CTYPE` is `C` folds ASCII only: reading its
    /// schema says so, `[c]` comparisons and case-insensitive sorts are
    /// refused with the reason, and the rest (`[d]`, `[cn]`, `MATCHES[c]`)
    /// answers as memory.
    @Test func testServerThatFoldsOtherwiseRefusesCase() async throws {
        guard let admin = try await PostgresServer.connect(),
            let conninfo = ProcessInfo.processInfo.environment["SIFT_POSTGRES"]
        else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        defer { PostgresServer.close(admin) }
        let name = "sift_c_ctype"
        try await PostgresServer.setUp(admin, [
            "DROP DATABASE IF EXISTS \(name)",
            "CREATE DATABASE \(name) TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'",
        ])
        let other = conninfo.contains("dbname=")
            ? conninfo.replacingOccurrences(of: #"dbname=\S+"#, with: "dbname=\(name)", options: .regularExpression)
            : conninfo + " dbname=\(name)"
        let db = try await PostgresServer.connect(PostgresConnection.Configuration(connectionString: other))
        defer { PostgresServer.close(db) }
        let words = ["Straße", "STRASSE", "é", "É", "e", "abc", "ABC", "ſ", "S"]
        try await PostgresServer.setUp(db, ["CREATE TABLE words (id bigint PRIMARY KEY, s text NOT NULL)"])
        try await PostgresServer.setUp(db, words.enumerated().map { i, s in
            BoundStatement(sql: "INSERT INTO words VALUES ($1, $2)", bindings: [.integer(Int64(i)), .text(s)])
        })
        let schema = try await StoreSchema.read(from: db)
        let why = try #require(schema.caseFoldingRefusal)
        #expect(why.contains("LC_CTYPE C"), "\(why)")
        let rows = try await FetchSpecification(entity: "words", sort: [SortKey("id")]).fetchValues(db, schema: schema)
        for format in ["s ==[c] 'é'", "s BEGINSWITH[cd] 'str'", "s LIKE[c] 'a*'", "s IN[c] {'abc'}"] {
            await #expect(throws: SiftPostgresError.self, Comment(rawValue: format)) {
                _ = try await FetchSpecification(entity: "words", filter: try Filter(format)).fetchValues(db, schema: schema)
            }
        }
        await #expect(throws: SiftPostgresError.self) {
            _ = try await FetchSpecification(entity: "words", sort: [SortKey("s", comparison: .caseInsensitive)])
                .fetchValues(db, schema: schema)
        }
        for format in ["s ==[d] 'e'", "s ==[cn] 'abc'", "s MATCHES[c] 'straSSe'", "s MATCHES[c] 's'", "s == 'ABC'"] {
            let filter = try Filter(format)
            var memory: [Value] = []
            for row in rows where try filter.evaluate(with: row) { memory.append(Self.id(row)) }
            let sql = try await FetchSpecification(entity: "words", filter: filter, sort: [SortKey("id")])
                .fetchValues(db, schema: schema).map(Self.id)
            #expect(sql == memory, Comment(rawValue: format))
        }
        // A database in another encoding is read, and refuses [c] with it.
        try await PostgresServer.setUp(admin, [
            "DROP DATABASE IF EXISTS sift_latin1",
            "CREATE DATABASE sift_latin1 TEMPLATE template0 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C'",
        ])
        let latin1 = try await PostgresServer.connect(PostgresConnection.Configuration(
            connectionString: other.replacingOccurrences(of: "dbname=\(name)", with: "dbname=sift_latin1")))
        defer { PostgresServer.close(latin1) }
        try await PostgresServer.setUp(latin1, ["CREATE TABLE words (id bigint PRIMARY KEY, s text NOT NULL)"])
        let latin1Schema = try await StoreSchema.read(from: latin1)
        #expect(latin1Schema.caseFoldingRefusal?.contains("encoding is LATIN1") == true, "\(latin1Schema.caseFoldingRefusal ?? "nil")")
        // The test server folds as memory: its schemas say nothing.
        #expect(try await StoreSchema.read(from: admin).caseFoldingRefusal == nil)
    }

    static func id(_ row: Value) -> Value {
        if case .dictionary(let d) = row { return d["id"] ?? .null }
        return .null
    }
}
