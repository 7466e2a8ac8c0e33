import Foundation
import GRDB
import Sift
@testable import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// `BEGINSWITH`, `ENDSWITH` and `CONTAINS` of an ASCII constant on SQLite
/// search ASCII text with SQLite's own functions and everything else with
/// `sift_search`: the lowered statement and `sift_search` alone (the
/// general path) select the same rows, for text that only looks like
/// ASCII to one of them (blobs, bytes that are not UTF-8, a NUL, marks,
/// ligatures, the Kelvin sign), needles with LIKE's wildcards, and with
/// `PRAGMA case_sensitive_like` on; and memory agrees on the text rows.
struct SQLiteASCIISearchTests {
    static let words = [
        "ann", "ANN", "Joanna", "Hannah Berg 12", "annA", "ﬁx", "fix", "FIX", "\u{212A}it", "kit", "ſun", "sun", "SUN",
        "an\u{303}n", "añn", "a%n", "a_n", "a\\n", "x", "", "AN", "n12",
    ]
    /// Values stored otherwise than as UTF-8 text of their characters.
    static let odd = [
        "CAST(X'C3B1616E6E' AS BLOB)",  // "ñann" as a blob
        "X'414E4E'",  // "ANN" as a blob
        "CAST(X'61FF616E6E' AS TEXT)",  // "a", a byte that is no UTF-8, "ann"
        "CAST(X'616E00616E6E' AS TEXT)",  // "an", NUL, "ann"
        "NULL",
    ]
    /// The ids of the blob rows of ``odd``.
    static let blobs: Set<Int64> = [100, 101]

    static func isBlob(_ row: Value) -> Bool {
        if case .dictionary(let d) = row, case .data? = d["s"] { return true }
        return false
    }

    static let needles = ["ann", "AN", "fi", "k", "K", "s", "%", "_", "a_n", "a%n", "\\", "n", "12", "ñ"]

    @Test(arguments: [false, true])
    func testFastFormSelectsAsSiftSearch(caseSensitiveLike: Bool) throws {
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE words (id INTEGER PRIMARY KEY, s TEXT)")
            for (i, s) in Self.words.enumerated() { try db.execute(sql: "INSERT INTO words VALUES (?, ?)", arguments: [i, s]) }
            for (i, sql) in Self.odd.enumerated() { try db.execute(sql: "INSERT INTO words VALUES (\(100 + i), \(sql))") }
            try db.execute(sql: "PRAGMA case_sensitive_like = \(caseSensitiveLike ? "ON" : "OFF")")
        }
        let schema = try db.read { try StoreSchema.read(from: $0) }
        let rows = try db.read { try FetchSpecification(entity: "words", sort: [SortKey("id")]).fetchValues($0, schema: schema) }
        var compared = 0
        for (op, kind) in [("CONTAINS", SearchKind.substring), ("BEGINSWITH", .prefix), ("ENDSWITH", .suffix)] {
            for options in ["", "[c]", "[d]", "[cd]", "[n]", "[cn]"] {
                for needle in Self.needles {
                    for negated in [false, true] {
                        let format = (negated ? "NOT " : "") + "s \(op)\(options) %@"
                        let filter = try Filter(format, needle)
                        let query = try FetchSpecification(entity: "words", filter: filter, sort: [SortKey("id")])
                            .sql(in: schema, dialect: .sqlite)
                        let lowered = try db.read { db in
                            try Int64.fetchAll(db, sql: "SELECT id FROM (\(query.statement.sql))", arguments: query.statement.arguments)
                        }
                        let bits = ComparisonOptions(format: options).rawValue
                        let general = try db.read { db in
                            try Int64.fetchAll(
                                db,
                                sql: "SELECT id FROM words WHERE \(negated ? "NOT " : "")sift_search(s, ?, ?, ?) ORDER BY id",
                                arguments: [needle, kind.code, bits])
                        }
                        // Blobs: memory raises on them (below); the
                        // prefix range of BEGINSWITH never selects one.
                        #expect(
                            lowered.filter { !Self.blobs.contains($0) } == general.filter { !Self.blobs.contains($0) },
                            "\(format) with \(needle)")
                        // Memory reads a blob as data, on which the
                        // string operators raise.
                        var memory: [Int64] = []
                        for row in rows where !Self.isBlob(row) {
                            do {
                                if try filter.evaluate(with: row), case .dictionary(let d) = row, case .int(let id)? = d["id"] {
                                    memory.append(Int64(id))
                                }
                            } catch {
                                Issue.record("\(format) with \(needle) on \(row): \(error)")
                            }
                        }
                        #expect(lowered.filter { !Self.blobs.contains($0) } == memory, "\(format) with \(needle) (memory)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == 3 * 6 * Self.needles.count * 2)
    }
}

extension ComparisonOptions {
    /// The options of `[cd]`-style text.
    fileprivate init(format: String) {
        self = []
        if format.contains("c") { insert(.caseInsensitive) }
        if format.contains("d") { insert(.diacriticInsensitive) }
        if format.contains("n") { insert(.normalized) }
    }
}

/// `sift_sort_key`, the sort of a connection without Sift's collations
/// (sqlite-nio): its keys order every pair of strings as the sort
/// comparison does, and as the collation of the same name.
struct SQLiteSortKeyTests {
    @Test(arguments: [SortKey.Comparison.compare, .caseInsensitive, .swift])
    func testKeysOrderAsTheComparison(_ comparison: SortKey.Comparison) throws {
        let strings = Array(Set(HostileStrings.all.filter { !$0.unicodeScalars.contains("\u{0}") } + [
            "a", "B", "é", "e\u{301}", "\u{E9}e", "e\u{301}e", "ß", "SS", "ss", "ﬁ", "fi", "\u{212A}", "k", "𝔸", "\u{FFFF}", "",
            "Z", "z", "ä", "a\u{308}", "\u{1F600}", "\u{FF21}",
        ])).sorted()
        let options: ComparisonOptions = [.compare: [], .caseInsensitive: [.caseInsensitive]][comparison] ?? [.swiftString]
        let db = try DatabaseQueue(configuration: .sift)
        let keys = try db.read { db in
            try strings.map { s in
                try Data.fetchOne(db, sql: "SELECT sift_sort_key(?, ?)", arguments: [s, options.rawValue])!
            }
        }
        var checked = 0
        for i in strings.indices {
            for j in strings.indices {
                let byKey: ComparisonResult = keys[i] == keys[j]
                    ? .orderedSame : (keys[i].lexicographicallyPrecedes(keys[j]) ? .orderedAscending : .orderedDescending)
                #expect(byKey == comparison.order(strings[i], strings[j]), "\(strings[i].debugDescription) \(strings[j].debugDescription)")
                checked += 1
            }
        }
        #expect(checked == strings.count * strings.count)
    }
}
