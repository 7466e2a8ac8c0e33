import Foundation
import PostgresNIO
import Sift
import SiftPostgres
@testable import SiftSQL
import SiftTestSupport
import Testing

/// PostgreSQL string columns that compare otherwise than `text` in the
/// database's default collation (``PostgreSQLTextForm``): `citext` (`=`,
/// `LIKE`, ordering and grouping ignore case), `character(n)` (trailing
/// blanks ignored), `COLLATE "C"` (`lower` folds ASCII only), a
/// nondeterministic collation (`=` ignores case) and a domain over a
/// domain over `citext` (read as the type under them). Each answers filters,
/// sorts, distinct values and groups as memory does on the rows read back.
@Suite(.serialized)
struct TextFormTests {
    static let words = [
        "Alice", "alice", "ALICE", "Émile", "émile", "ÉMILE", "e\u{301}mile", "straße", "STRASSE", "ab", "ab ", "ab  ",
        " ab", "k", "K", "\u{212A}", "ǅ", "", "İ", "i", "ı", "Ab", "aB",
    ]

    /// The columns: plain text, then one of each form.
    static let columns = ["t", "c", "e", "p", "n", "v", "d"]

    @Test func testColumnsOfOtherFormsAnswerAsInMemory() async throws {
        guard let db = try await PostgresServer.connect(schema: "sift_pg_text_forms") else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        defer { PostgresServer.close(db) }
        try await PostgresServer.setUp(db, [
            "CREATE EXTENSION IF NOT EXISTS citext SCHEMA public",
            "CREATE COLLATION IF NOT EXISTS sift_ci (provider = icu, locale = 'und-u-ks-level2', deterministic = false)",
            "CREATE DOMAIN address AS public.citext",
            "CREATE DOMAIN email AS address",
            "CREATE DOMAIN tally AS bigint",
            "CREATE DOMAIN amount AS tally",
            """
            CREATE TABLE words (id bigint PRIMARY KEY, t text, c text COLLATE "C", e public.citext, p character(12), \
            n text COLLATE sift_ci, v varchar(40) COLLATE "C", d email, q amount)
            """,
        ])
        try await PostgresServer.setUp(db, Self.words.enumerated().map { i, s in
            BoundStatement(
                sql: "INSERT INTO words VALUES ($1, $2, $2, $2, $2, $2, $2, $2, $1 * 10)", bindings: [.integer(Int64(i)), .text(s)])
        })
        try await PostgresServer.setUp(db, ["INSERT INTO words (id) VALUES (1000)"])
        let schema = try await StoreSchema.read(from: db)
        let entity = try #require(schema.entity(named: "words"))
        #expect(entity.attributes.map(\.textForm) == [nil, nil, .collation, .citext, .character, .collation, .collation, .citext, nil])
        // A domain has the type it is over: amount's values are integers.
        #expect(entity.attributes.last?.type == .integer)
        let rows = try await FetchSpecification(entity: "words", sort: [SortKey("id")]).fetchValues(db, schema: schema)
        #expect(rows.count == Self.words.count + 1)

        var disagreements: [String] = []
        var compared = 0
        func compare(_ spec: FetchSpecification, ordered: Bool, _ label: String) async throws {
            compared += 1
            let memory = try spec.execute(on: rows)
            let sql: [Value]
            do {
                sql = try await spec.fetchValues(db, schema: schema)
            } catch {
                disagreements.append("\(label): memory \(Self.brief(memory)), SQL failed: \(error)")
                return
            }
            let same = ordered ? memory == sql : memory.map(\.description).sorted() == sql.map(\.description).sorted()
            if !same { disagreements.append("\(label): memory \(Self.brief(memory)), SQL \(Self.brief(sql))") }
        }
        let constants = ["alice", "ALICE", "émile", "EMILE", "ab", "ab ", "Ab", "k", "\u{212A}", "straße", "", "i"]
        let ops = [
            "==", "!=", "==[c]", "==[cd]", "!=[c]", "<", ">=[c]", "BEGINSWITH", "BEGINSWITH[c]", "CONTAINS", "CONTAINS[cd]",
            "ENDSWITH", "ENDSWITH[c]", "LIKE", "LIKE[c]",
        ]
        for column in Self.columns {
            for op in ops {
                for constant in constants {
                    let filter = try Filter("\(column) \(op) %@", constant)
                    try await compare(
                        FetchSpecification(entity: "words", filter: filter, sort: [SortKey("id")]), ordered: true,
                        "\(column) \(op) \(constant.debugDescription)")
                }
            }
            for format in [
                "\(column) IN {'alice', 'ab', 'k'}", "\(column) IN[c] {'ALICE', 'ÉMILE'}", "\(column) MATCHES 'a.*'",
                "\(column) LIKE 'ab*'", "\(column) == t", "\(column) ==[c] t", "\(column) BEGINSWITH t",
                "t < \(column)", "\(column) >= t", "t <=[c] \(column)", "\(column) > c", "e < \(column)",
                "\(column) BETWEEN {'a', 'b'}",
            ] {
                try await compare(
                    FetchSpecification(entity: "words", filter: try Filter(format), sort: [SortKey("id")]), ordered: true, format)
            }
            for comparison in [SortKey.Comparison.compare, .caseInsensitive] {
                try await compare(
                    FetchSpecification(entity: "words", sort: [SortKey(column, comparison: comparison), SortKey("id")]),
                    ordered: true, "sort by \(column) \(comparison)")
            }
            try await compare(
                FetchSpecification(entity: "words", distinct: true, properties: [column]), ordered: false, "distinct \(column)")
            try await compare(
                FetchSpecification(
                    entity: "words", groupBy: [column],
                    expressions: [try ExpressionDescription(name: "rows", format: "count:(id)")]),
                ordered: false, "group by \(column)")
        }
        for format in ["q > 50", "q BETWEEN {20, 90}", "q IN {0, 30, 31}", "q == 60", "q != 60"] {
            try await compare(
                FetchSpecification(entity: "words", filter: try Filter(format), sort: [SortKey("id")]), ordered: true, format)
        }
        #expect(compared > 1_000)
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(compared): \(disagreements.prefix(8).joined(separator: "\n"))")
    }

    /// Rows by their ids, other results as they print.
    static func brief(_ values: [Value]) -> String {
        values.map { value in
            if case .dictionary(let d) = value, let id = d["id"] { return id.description }
            return value.description
        }.joined(separator: " ")
    }
}
