import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import Testing

/// `[c]` on SQLite runs the evaluator's own fold (`sift_fold`, …): the
/// characters whose case mapping is more than one character answer as in
/// memory, as on PostgreSQL (`CaseFoldTests`).
struct SQLiteCaseFoldTests {
    @Test func testFullCaseMappingsAnswerAsInMemory() throws {
        let words = ["ﬁ", "fi", "FI", "ß", "ẞ", "ss", "ᾳ", "αι", "ŉ", "ΟΔΟΣ", "οδος"]
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE words (id INTEGER PRIMARY KEY, s TEXT NOT NULL)")
            for (i, s) in words.enumerated() { try db.execute(sql: "INSERT INTO words VALUES (?, ?)", arguments: [i, s]) }
        }
        let schema = try db.read { try StoreSchema.read(from: $0) }
        let rows = try db.read { try FetchSpecification(entity: "words", sort: [SortKey("id")]).fetchValues($0, schema: schema) }
        for constant in ["fi", "ﬁ", "SS", "ß", "ẞ", "ΑΙ", "ʼn", "οδοσ"] {
            for op in ["==[c]", "BEGINSWITH[c]", "CONTAINS[c]", "LIKE[c]", "==[cd]"] {
                let filter = try Filter("s \(op) %@", constant)
                let memory = try rows.filter { try filter.evaluate(with: $0) }
                let sql = try db.read {
                    try FetchSpecification(entity: "words", filter: filter, sort: [SortKey("id")]).fetchValues($0, schema: schema)
                }
                #expect(sql == memory, "s \(op) \(constant)")
            }
        }
        let fi = try db.read {
            try FetchSpecification(entity: "words", filter: try Filter("s ==[c] 'fi'"), sort: [SortKey("id")]).fetchValues($0, schema: schema)
        }
        let titles = fi.map { row -> Value? in if case .dictionary(let d) = row { return d["s"] }; return nil }
        #expect(titles == [.string("ﬁ"), .string("fi"), .string("FI")])
    }
}
