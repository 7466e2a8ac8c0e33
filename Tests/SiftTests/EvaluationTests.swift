import Foundation
import Testing

@testable import Sift

private let book: Value = [
    "title": "The Stand", "year": 1978, "price": 9.5, "tags": ["horror", "epic"],
    "author": ["name": "Stephen King", "born": 1947],
    "reviews": [["stars": 5, "by": "Ann"], ["stars": 3, "by": "Bob"], ["stars": 4]],
    "word": "café", "decomposed": "cafe\u{301}", "missing": .nsNull,
]

private func eval(_ format: String, _ args: any FormatArgumentConvertible..., on object: Value = book) throws -> Bool {
    try Filter(format, arguments: args).evaluate(with: object)
}

func evalError(_ format: String, on object: Value = book) -> EvaluationError? {
    do {
        _ = try Filter(format).evaluate(with: object)
        return nil
    } catch let e as EvaluationError {
        return e
    } catch {
        return nil
    }
}

struct EvaluationTests {
    /// UUIDs order by their bytes, as `NSUUID`'s `compare:` and a store's
    /// BLOB column order them; they equal only UUIDs.
    @Test func uuidOrdering() throws {
        let low = UUID(uuidString: "00FFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!
        let high = UUID(uuidString: "7F000000-0000-0000-0000-000000000000")!
        let top = UUID(uuidString: "80000000-0000-0000-0000-000000000000")!
        #expect(try eval("%@ < %@", low, high))
        #expect(try eval("%@ > %@", top, high))
        #expect(try eval("%@ BETWEEN %@", high, [low, top]))
        #expect(try !eval("%@ == %@", low, low.uuidString))
        let rows: [Value] = [["u": .uuid(top)], ["u": .uuid(low)], ["u": .null], ["u": .uuid(high)]]
        #expect(try rows.sorted(by: [.ascending("u")]) == [rows[2], rows[1], rows[3], rows[0]])
    }

    @Test func nilSemantics() throws {
        #expect(try eval("nothing == nil"))
        #expect(try eval("missing == nil"))
        #expect(try eval("nothing != 'x'"))
        #expect(try !eval("nothing < 5"))
        #expect(try !eval("nothing > 5"))
        #expect(try eval("nothing <= nil"))
        #expect(try !eval("nothing BEGINSWITH 'a'"))
        #expect(try eval("author.nothing.deeper == nil"))
        #expect(try eval("SELF == nil", on: .null))
    }

    @Test func numbersBridge() throws {
        #expect(try eval("year == 1978.0"))
        #expect(try eval("1 == TRUE"))
        #expect(try !eval("year == '1978'"))
        #expect(try eval("price > 9 AND price < 10"))
        #expect(try eval("9007199254740993 > 9007199254740992.0"))  // exact, not through Double
        #expect(try eval("year / 4 == 494 AND year / 4.0 == 494.5"))
    }

    @Test func strings() throws {
        #expect(try eval("title BEGINSWITH[c] 'the s'"))
        #expect(try eval("title CONTAINS 'Stand' AND title ENDSWITH 'and'"))
        #expect(try !eval("title CONTAINS ''"))
        #expect(try !eval("word == decomposed"))
        #expect(try eval("word <= decomposed AND word >= decomposed"))
        #expect(try eval("decomposed ==[d] 'cafe'"))
        #expect(try eval("'STRASSE' ==[c] 'straße'"))
        #expect(try eval("'ÉCOLE' BEGINSWITH[cd] 'eco'"))
        #expect(try eval("'A' < 'a' AND 'Z' < 'a' AND '10' < '9'"))
        #expect(try eval("title LIKE '*St?nd' AND NOT title LIKE 'the*'"))
        #expect(try eval("title LIKE[c] 'the*'"))
        #expect(try eval("'a*b' LIKE 'a\\\\*b' AND NOT 'axb' LIKE 'a\\\\*b'"))
    }

    @Test func regularExpressions() throws {
        #expect(try eval("title MATCHES 'The S.*'"))
        #expect(try !eval("title MATCHES 'Stand'"))
        #expect(try eval("'ab' MATCHES 'a|ab'"))
        #expect(try eval("title MATCHES[c] 'the stand'"))
        #expect(try eval("word MATCHES[d] 'cafe'"))
        #expect(try eval("'ü' MATCHES '\\\\p{L}'"))
        let bad = try #require(evalError("title MATCHES '('"))
        #expect(bad.code == .invalidRegex)
        #expect(bad.range == SourceRange(0, 17))
        #expect(evalError("title MATCHES 'a{2, 3}'")?.code == .invalidRegex)
    }

    @Test func catastrophicPatternsStop() throws {
        let subject = String(repeating: "a", count: 40) + "b"
        let e = evalError("SELF MATCHES '(a+)+c'", on: .string(subject))
        #expect(e?.code == .regexLimit || e == nil)
        // LIKE never backtracks exponentially.
        let long = String(repeating: "a", count: 20_000)
        #expect(try !eval("SELF LIKE '*a*a*a*a*a*a*a*a*b'", on: .string(long)))
    }

    @Test func collections() throws {
        #expect(try eval("ANY tags == 'epic'"))
        #expect(try eval("ALL reviews.stars >= 3"))
        #expect(try eval("NONE reviews.stars > 5"))
        #expect(try eval("ALL nothing == 1"))
        #expect(try !eval("ANY nothing == 1"))
        #expect(try eval("'epic' IN tags AND tags CONTAINS 'horror' AND NOT tags CONTAINS 'hor'"))
        #expect(try eval("reviews.@count == 3 AND reviews.@sum.stars == 12 AND reviews.@max.stars == 5"))
        #expect(try eval("reviews.@avg.stars == 4"))
        #expect(try eval("reviews.by CONTAINS 'Ann'"))
        #expect(try eval("reviews[1].stars == 3 AND reviews[LAST].stars == 4 AND reviews[SIZE] == 3"))
        #expect(try eval("SUBQUERY(reviews, $r, $r.stars > 3).@count == 2"))
        #expect(try eval("year BETWEEN {1970, 1980} AND NOT year BETWEEN {1980, 1990}"))
        #expect(try eval("tags == {'horror', 'epic'}"))
        #expect(try eval("%@ IN tags", "epic"))
    }

    @Test func functions() throws {
        #expect(try eval("sum({1, 2, 3}) == 6 AND average({2, 4}) == 3 AND median({1, 2, 3, 10}) == 2.5"))
        #expect(try eval("modulus:by:(year, 100) == 78 AND abs(-3) == 3 AND sqrt(16) == 4 AND log(1000) == 3"))
        #expect(try eval("uppercase(author.name) == 'STEPHEN KING' AND length(title) == 9"))
        #expect(try eval("FUNCTION(title, 'stringByAppendingString:', '!') == 'The Stand!'"))
        #expect(try eval("CAST('1978', 'NSNumber') == year AND CAST(year, 'NSString') == '1978'"))
        #expect(try eval("TERNARY(year < 1980, 'old', 'new') == 'old'"))
        #expect(try eval("now() > CAST(0, 'NSDate')"))
        #expect(try eval("5 & 3 == 1 AND 5 | 3 == 7 AND 1 << 4 == 16 AND ~0 == -1"))
    }

    @Test func errorsPointAtTheNode() throws {
        let mismatch = try #require(evalError("year > 5 AND title < 5"))
        #expect(mismatch.code == .typeMismatch)
        #expect(mismatch.range == SourceRange(13, 22))
        #expect(mismatch.rendered().contains("^~~~~~~~~"))
        #expect(evalError("title BEGINSWITH 5")?.code == .typeMismatch)
        #expect(evalError("ANY title == 'x'")?.code == .notACollection)
        #expect(evalError("tags[5] == 'x'")?.code == .indexOutOfRange)
        #expect(evalError("year / 0 == 1")?.code == .divisionByZero)
        #expect(evalError("9223372036854775807 + 1 == 0")?.code == .overflow)
        #expect(evalError("nothing + 1 == 1")?.code == .typeMismatch)
        #expect(evalError("year > $MIN")?.code == .unboundVariable)
        #expect(evalError("FUNCTION(title, 'explode') == 1")?.code == .unknownFunction)
        #expect(evalError("CAST(year, 'NSWidget') == 1")?.code == .unknownType)
        #expect(evalError("reviews.@sum == 1")?.code == .missingKeyPath)
        #expect(evalError("title.nonsense == 1")?.code == .unknownKey)
    }

    @Test func shortCircuit() throws {
        // The right side would raise; it is never evaluated.
        #expect(try !eval("year > 2000 AND title < 5"))
        #expect(try eval("year < 2000 OR title < 5"))
    }

    @Test func variablesAtEvaluation() throws {
        let f = try Filter("year > $MIN").compiled()
        #expect(try f.evaluate(with: book, variables: ["MIN": 1900]))
        #expect(try !f.evaluate(with: book, variables: ["MIN": 2000]))
    }

    @Test func compiledFiltersAreSharedAcrossThreads() async throws {
        let filter = try Filter("title BEGINSWITH[c] 'the' AND ANY reviews.stars > 4").compiled()
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 { group.addTask { try filter.evaluate(with: book) } }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func filteringArrays() throws {
        let values: [Value] = (0..<10).map { ["n": .int($0)] }
        #expect(try values.filter(Filter("n >= 7")).count == 3)
    }

    /// AND and OR of any number of tests (compiled as pairs of halves)
    /// answer as the first test that decides, in order, and evaluate none
    /// after it: a test that would throw is not reached. With no test that
    /// decides, the one that throws is reached; with no tests at all, AND is
    /// true and OR false.
    @Test func andOrOfManyTestsStopAtTheFirstThatDecides() throws {
        let record: Value = ["n": 5, "s": "x"]
        let json = Array(#"{"n": 5, "s": "x"}"#.utf8)
        let throwing = try Filter("s < 5").predicate  // a string ordered against a number
        for isAnd in [true, false] {
            let goOn = try Filter(isAnd ? "n == 5" : "n == 6").predicate
            let decide = try Filter(isAnd ? "n == 6" : "n == 5").predicate
            for count in [0, 1, 2, 3, 4, 7, 8, 100, 1000] {
                for decider in Set([nil, 0, count / 2, count - 1]) where decider.map({ (0..<count).contains($0) }) ?? true {
                    var children = Array(repeating: goOn, count: count)
                    if let decider {
                        children[decider] = decide
                        children.insert(throwing, at: decider + 1)
                    } else if count > 0 {
                        children.append(throwing)
                    }
                    let filter = Filter(PredicateNode(isAnd ? .and(children) : .or(children))).compiled()
                    let answer = try? filter.evaluate(with: record)
                    let raw = json.withUnsafeBytes { try? filter.evaluate(jsonUTF8: $0) }
                    let expected: Bool? = decider != nil ? !isAnd : (count == 0 ? isAnd : nil)
                    #expect(answer == expected && raw == expected, "\(isAnd ? "AND" : "OR") of \(count), decided by \(decider.map(String.init) ?? "none")")
                }
            }
        }
    }
}
