import Foundation
import GRDB
import Sift
import Testing

@testable import SiftTool

/// Dates in rows: ISO 8601 for every year (expanded, with a sign, beyond
/// 0001…9999), and the stored number, never a calendar date, when no year
/// stands for it. Foundation's formatter printed 1e15 s, 1e300 s and +inf
/// as year 506713 and 2^63 s as 0001-01-03.
struct DateTextTests {
    static func text(_ seconds: Double) -> String {
        DateText.iso8601(Date(timeIntervalSinceReferenceDate: seconds))
    }

    @Test func yearsOutsideFourDigitsAreExpanded() {
        #expect(Self.text(0) == "2001-01-01T00:00:00.000Z")
        #expect(Self.text(252_423_993_599.5) == "9999-12-31T23:59:59.500Z")
        #expect(Self.text(-63_114_076_800) == "0001-01-01T00:00:00.000Z")
        #expect(Self.text(252_423_993_600) == "+010000-01-01T00:00:00.000Z")
        #expect(Self.text(1e12) == "+033689-09-27T01:46:40.000Z")
        // The bounds of ECMAScript's dates, ±8.64e15 ms from 1970, as its
        // toISOString prints them.
        #expect(Self.text(8.64e12 - 978_307_200) == "+275760-09-13T00:00:00.000Z")
        #expect(Self.text(-8.64e12 - 978_307_200) == "-271821-04-20T00:00:00.000Z")
        // 11,574,074,074 days and 6,400 s: 79,222 cycles of 400 Gregorian
        // years past the date 2001-01-01 + 110,540 days (2303-07-06).
        #expect(Self.text(1e15) == "+31690739-07-06T01:46:40.000Z")
        #expect(Self.text(-1e15) == "-31686738-06-29T22:13:20.000Z")
        // Before Foundation's year 1: proleptic Gregorian, year 0 is 1 BC.
        #expect(Self.text(-63_114_076_800.5) == "0000-12-29T23:59:59.500Z")
        #expect(Self.text(-63_145_526_400) == "0000-01-01T00:00:00.000Z")
        #expect(Self.text(-63_145_526_400.25) == "-000001-12-31T23:59:59.750Z")
        #expect(Self.text(9.2e18) == "+291536396263-09-01T11:33:20.000Z")
    }

    @Test func noYearStandsForTheRestSoTheNumberPrints() {
        #expect(Self.text(9_223_372_036_854_775_808) == #"CAST(9.223372036854776e+18, "NSDate")"#)
        #expect(Self.text(-9_223_372_036_854_775_808) == #"CAST(-9.223372036854776e+18, "NSDate")"#)
        #expect(Self.text(1e300) == #"CAST(1e+300, "NSDate")"#)
        #expect(Self.text(.infinity) == #"CAST(1e999, "NSDate")"#)
        #expect(Self.text(-.infinity) == #"CAST(-1e999, "NSDate")"#)
        #expect(Self.text(.nan) == #"CAST(nan, "NSDate")"#)
    }

    /// Every eleventh day from 1583 to 12000 as Foundation's Gregorian
    /// calendar has it.
    @Test func civilDaysAgreeWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for days in stride(from: Int64(-152_000), through: 3_652_059, by: 11) {
            let date = Date(timeIntervalSinceReferenceDate: Double(days) * 86_400)
            let (year, month, day) = DateText.civil(daysSince2001: days)
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            if Int(year) != c.year || Int(month) != c.month || Int(day) != c.day {
                Issue.record("day \(days): \(year)-\(month)-\(day), Foundation \(c)")
                return
            }
        }
    }
}

extension CommandLineTests {
    /// A Core Data-like store whose dates are far out: JSON and table
    /// output print the same text for each.
    @Test func farDatesInRows() throws {
        let path = Self.temporaryPath("Far.sqlite")
        let schema = Self.temporaryPath("far.json")
        defer { for p in [path, schema] { try? FileManager.default.removeItem(atPath: p) } }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZEVENT ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZWHEN TIMESTAMP );
                INSERT INTO ZEVENT VALUES (1, 1, 1, 0), (2, 1, 1, 1e15), (3, 1, 1, 1e300), (4, 1, 1, 9e999),
                    (5, 1, 1, -9e999), (6, 1, 1, 9223372036854775808.0), (7, 1, 1, 252423993600);
                """)
        }
        try queue.close()
        try Data("""
            {"entities": [{"name": "Event", "table": "ZEVENT", "primaryKey": "Z_PK", "attributes": [
              {"name": "when", "column": "ZWHEN", "type": "date"}]}]}
            """.utf8).write(to: URL(fileURLWithPath: schema))
        let expected = [
            "2001-01-01T00:00:00.000Z", "+31690739-07-06T01:46:40.000Z", #"CAST(1e+300, "NSDate")"#,
            #"CAST(1e999, "NSDate")"#, #"CAST(-1e999, "NSDate")"#, #"CAST(9.223372036854776e+18, "NSDate")"#,
            "+010000-01-01T00:00:00.000Z",
        ]
        let query = ["query", path, "Event", "TRUEPREDICATE", "--schema", schema]
        let jsonl = try sift(query + ["--output", "jsonl"])
        #expect(jsonl.status == 0, "\(jsonl.stderr)")
        let lines = expected.enumerated().map { i, text in
            #"{"Z_PK":\#(i + 1),"when":"# + JSONValue.string(text).jsonText + "}"
        }
        #expect(jsonl.stdout == lines.joined(separator: "\n") + "\n")
        let table = try sift(query + ["--output", "table"])
        #expect(table.status == 0)
        // After the right-aligned key and the blanks between the columns.
        let cells = table.stdout.split(separator: "\n").dropFirst(2).prefix(expected.count).map { line in
            String(line.split(separator: " ", maxSplits: 1)[1].drop { $0 == " " })
        }
        #expect(cells == expected)
    }
}
