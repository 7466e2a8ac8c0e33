import Foundation
import GRDB
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// `[s]` orderings and `swiftCompare:` on strings that Swift's `<` orders
/// neither way (`"e\u{301}"` and `"\u{E9}e"`, although their NFC forms
/// order): the answers are Swift's own operators, computed here.
struct SwiftOrderSQLTests {
    static let words = ["e\u{301}", "\u{E9}e", "\u{E9}a", "cafe\u{301}", "caf\u{E9}e", "caf\u{E9}", "f", "e", "", "E\u{301}"]
    static let schema = StoreSchema([
        Entity("Word", table: "swift_order_words", attributes: [Attribute("text", .string, optional: false)]),
    ])
    static let rows = words.enumerated().map { Library.Row(table: "swift_order_words", values: ["id": .integer(Int64($0.offset + 1)), "text": .text($0.element)]) }
    static let values: [Value] = words.enumerated().map { .dictionary(["id": .int($0.offset + 1), "text": .string($0.element)]) }

    static func ids(_ keep: (String) -> Bool) -> [Int] { words.indices.filter { keep(words[$0]) }.map { $0 + 1 } }

    @Test func orderingsAreSwiftsInMemoryAndOnSQLiteAndRefusedOnPostgreSQL() throws {
        // The pair this is about: Swift orders it neither way.
        #expect(!("e\u{301}" < "\u{E9}e") && !("\u{E9}e" < "e\u{301}") && "e\u{301}" != "\u{E9}e")
        let db = try DifferentialTests.sqliteDatabase(Self.schema, Library.inserts(Self.rows, .sqlite))
        let swift: [(String, (String, String) -> Bool)] = [("<", { $0 < $1 }), ("<=", { $0 <= $1 }), (">", { $0 > $1 }), (">=", { $0 >= $1 })]
        for k in Self.words {
            for (op, answer) in swift {
                let request = FetchSpecification(entity: "Word", filter: try Filter("text \(op)[s] %@", k))
                let expected = Self.ids { answer($0, k) }
                #expect(DifferentialTests.memoryIDs(request, Self.values) == expected, "memory: \(op) \(k.debugDescription)")
                let sqlite = try request.sql(in: Self.schema, dialect: .sqlite)
                #expect(try DifferentialTests.sqliteIDs(sqlite, db).sorted() == expected, "SQLite: \(op) \(k.debugDescription)")
                #expect {
                    try request.sql(in: Self.schema, dialect: .postgreSQL)
                } throws: { e in
                    (e as? SQLLoweringError)?.code == .unsupported && "\(e)".contains("[s] orderings are Swift's <")
                }
            }
        }
    }

    @Test func swiftCompareSortsByTheNFCFormsScalarsEverywhere() async throws {
        let expected = nfcOrder(Self.words).map { $0 + 1 }
        let request = FetchSpecification(entity: "Word", sort: [.ascending("text", .swift)])
        #expect(DifferentialTests.memoryIDs(request, Self.values) == expected)
        let db = try DifferentialTests.sqliteDatabase(Self.schema, Library.inserts(Self.rows, .sqlite))
        #expect(try DifferentialTests.sqliteIDs(try request.sql(in: Self.schema, dialect: .sqlite), db) == expected)
        guard let pg = try await PostgresServer.connect(schema: "sift_swift_order", tables: Self.schema, rows: Self.rows)
        else { return }
        defer { PostgresServer.close(pg) }
        #expect(try await DifferentialTests.postgresIDs(request, Self.schema, pg) == expected)
    }
}
