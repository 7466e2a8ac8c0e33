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
    /// SQL of `[c]`, is the evaluator's fold of it.
    @Test func testEveryScalarFoldsAsInMemory() async throws {
        guard let db = try await PostgresServer.connect(schema: "sift_pg_fold_all") else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        defer { PostgresServer.close(db) }
        let scalars = (1...0x10FFFF).compactMap { Unicode.Scalar(UInt32($0)) }.filter {
            ![.unassigned, .privateUse].contains($0.properties.generalCategory)
        }
        let folded = SQLGenerationContext.statement(
            try Dialect.postgreSQL.hooks.fold(.sql("chr(n)"), [.caseInsensitive]), dialect: .postgreSQL
        ).sql
        let rows = try await db.rows(BoundStatement(
            sql: "SELECT n, \(folded) FROM unnest($1::int[]) n ORDER BY n",
            bindings: [.array(scalars.map { .integer(Int64($0.value)) })]))
        #expect(rows.count == scalars.count)
        var differing: [String] = []
        for (u, row) in zip(scalars, rows) {
            let memory = StringOperations.folded(String(u), [.caseInsensitive])
            guard row.count == 2, case .integer(Int64(u.value)) = row[0], case .text(let sql) = row[1] else {
                Issue.record("row \(row) for U+\(String(u.value, radix: 16))")
                continue
            }
            if sql.unicodeScalars.elementsEqual(memory.unicodeScalars) { continue }
            differing.append("U+" + String(u.value, radix: 16, uppercase: true))
        }
        #expect(differing.isEmpty, "folded otherwise than in memory: \(differing.joined(separator: " "))")
    }

    /// The characters whose fold PostgreSQL's `lower(upper(…))` misses,
    /// ordinary ones, and words, stored and as constants (as stored and
    /// folded), under each operator with `[c]`: the same rows as memory.
    @Test func testOperatorsAnswerAsInMemory() async throws {
        var words = PostgreSQLCaseFold.scalars.map { String($0) }
        let samples = [
            "fi", "FI", "ss", "SS", "ß", "straße", "STRASSE", "oﬃce", "OFFICE", "ﬁx", "xﬁ", "ΟΔΟΣ", "οδος", "οδοσ",
            "ᾳ\u{301}", "α\u{345}\u{301}", "αι", "ΑΙ", "ΑΙ\u{301}", "é", "e\u{301}", "ǰ", "J\u{30C}", "ΐ", "ẖ", "\u{345}", "İ",
            "i\u{307}", "abc", "Σ", "ς", "ʼn", "ʼN", "ꟑ", "a",
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
    }

    static func id(_ row: Value) -> Value {
        if case .dictionary(let d) = row { return d["id"] ?? .null }
        return .null
    }
}
