import Foundation
import Testing

@testable import Sift

struct SubstitutionTests {
    @Test func replacesVariablesEverywhere() throws {
        let f = try Filter("$X BETWEEN {$LO, $HI} AND ANY tags IN $LIST AND TERNARY($F == 1, a, b) == $X")
        let bound = try f.substituting(["X": 5, "LO": 1, "HI": 10, "LIST": ["a", "b"], "F": 1])
        #expect(bound.format == #"5 BETWEEN {1, 10} AND ANY tags IN {"a", "b"} AND TERNARY(1 == 1, a, b) == 5"#)
        // An aggregate of variables becomes a constant array, as if written as one.
        #expect(bound == (try Filter("5 BETWEEN {1, 10} AND ANY tags IN {'a', 'b'} AND TERNARY(1 == 1, a, b) == 5")))
    }

    @Test func subqueryVariablesAreLocal() throws {
        let f = try Filter("SUBQUERY(authors, $a, $a.age > $MIN).@count > 0")
        #expect(f.variableNames == ["MIN"])
        let bound = try f.substituting(["MIN": 30, "a": "ignored"])
        #expect(bound.format == "SUBQUERY(authors, $a, $a.age > 30).@count > 0")
    }

    @Test func unboundVariablePointsAtIt() throws {
        let f = try Filter("age > $MIN AND name == $NAME")
        do {
            _ = try f.substituting(["MIN": 1])
            Issue.record("expected an error")
        } catch {
            #expect(error.code == .unboundVariable)
            #expect(error.range == SourceRange(23, 28))
            #expect(error.source == "age > $MIN AND name == $NAME")
        }
    }

    @Test func nullVariables() throws {
        let f = try Filter("date = $DATE")
        #expect(try f.substituting(["DATE": Value.nsNull]).format == "date == <null>")
        #expect(try f.substituting(["DATE": Value.null]).format == "date == nil")
        let date = Date(timeIntervalSinceReferenceDate: 0)
        #expect(try f.substituting(["DATE": date]).format == #"date == CAST(0, "NSDate")"#)
    }

    @Test func substitutionKeepsRanges() throws {
        let f = try Filter("age > $MIN")
        let bound = try f.substituting(["MIN": 3])
        guard case .comparison(let c) = bound.predicate.kind else { throw CancellationError() }
        #expect(c.rhs.range == SourceRange(6, 10))
    }
}
