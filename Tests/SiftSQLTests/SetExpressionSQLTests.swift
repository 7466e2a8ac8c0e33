import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

// UNION, INTERSECT and MINUS in SQL: between constants they fold into the
// set they make; read from a row they are refused.

extension LoweringTests {
    @Test func testConstantSetExpressionsFoldIntoBoundValues() throws {
        let union = try sql("year IN {1990, 2000} UNION {2000, 2010}")
        #expect(union.sql.contains(#"t0."year" IN (?1, ?2, ?3)"#), Comment(rawValue: union.sql))
        #expect(Set(union.bindings) == [.integer(1990), .integer(2000), .integer(2010)])
        let chain = try sql("year IN {1990, 2000} UNION {2010} MINUS {1990} INTERSECT %@", [2000, 2020])
        #expect(chain.sql.contains(#"t0."year" IN (?1)"#), Comment(rawValue: chain.sql))
        #expect(chain.bindings == [.integer(2000)])
        #expect(try where_("year IN {1990} INTERSECT {2000}") == "0", "an empty set matches nothing")
        #expect(try where_("year IN {1990} MINUS nil") == #"t0."year" IN (?1)"#, "a nil right side changes nothing")
        #expect(try where_("title IN {'a'} UNION {'b'}", dialect: .postgreSQL) == #"t0."title" = ANY($1)"#)
    }

    @Test func testSetExpressionsReadFromARowAreRefused() throws {
        for (format, range) in [
            ("year IN {1990} UNION %@", nil as SourceRange?),
            // The error points at the side read from a row.
            ("year IN tags.name UNION {1}", SourceRange(8, 17)),
            ("year IN {1} MINUS author.name", SourceRange(18, 29)),
            ("year IN {1} UNION ({2} INTERSECT price)", SourceRange(33, 38)),
        ] {
            do {
                _ = try sql(format, [1, 2] as [Int])
                if range != nil { Issue.record("\(format) lowered") }
            } catch let error as SQLLoweringError {
                guard let range else { Issue.record("\(format): \(error)"); continue }
                #expect(error.code == .unsupported, Comment(rawValue: format))
                #expect(error.message == "UNION, INTERSECT and MINUS have a SQL form only between constants", Comment(rawValue: format))
                #expect(error.range == range, Comment(rawValue: format))
            }
        }
    }

    @Test func testConstantSetExpressionErrorsAsInMemory() throws {
        for (format, message) in [
            ("year IN 5 UNION {1}", "UNION needs a set or an array on the left, not an integer"),
            ("year IN nil MINUS {1}", "MINUS needs a set or an array on the left, not nil"),
            ("year IN {1} INTERSECT 'x'", "INTERSECT needs an array, a set or a dictionary on the right, not a string"),
        ] {
            if let error = #expect(throws: (any Error).self, Comment(rawValue: format), performing: { try sql(format) }) {
                let e = error as? SQLLoweringError
                #expect(e?.code == .typeMismatch, Comment(rawValue: format))
                #expect(e?.message == message, Comment(rawValue: format))
                #expect(e?.range == SourceRange(8, format.utf8.count), Comment(rawValue: format))
            }
        }
    }
}

extension DifferentialTests {
    /// The folded forms give the rows the evaluator gives, on SQLite and
    /// (when it runs) PostgreSQL.
    @Test func testFoldedSetExpressions() async throws {
        try await Self.compareFixed("folded set expressions", [
            "year IN {1990, 2000, 2005} UNION {2010, 2015}",
            "year IN {1990, 2000, 2005} MINUS {2000}",
            "year IN {1990, 2000, 2005} INTERSECT {2005, 2010}",
            "NOT year IN {1990, 2000} UNION {2010} MINUS {2000}",
            "year IN {} UNION {} OR title IN {'a'} UNION {'b', 'c'}",
            "price IN {1.5, 2} UNION {2.0, 3} OR year IN {1, 1.0, 2} INTERSECT {1}",
            "ANY tags.name IN {'a', 'b'} UNION {'c'}",
            "{2000, 2010} UNION {2020} CONTAINS year",
            "year IN {2000} MINUS nil",
        ])
    }
}
