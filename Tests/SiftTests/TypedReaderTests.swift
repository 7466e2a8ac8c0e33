import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// Typed readers take direct paths; they must answer exactly as the general
/// path does on the same data as values.
struct TypedReaderTests {
    static let members: [Member] = {
        var rng = SeededRandom(seed: 7)
        let syllables = ["ab", "Ab", "ery", "éry", "ÉRY", "x", "ß", "ss", "e\u{301}", "K", "\u{212A}", "lo", " "]
        let tags = ["x", "y", "swift", "é", "X", "K", "\u{212A}"]
        return (0..<400).map { _ in
            func pick(_ a: [String]) -> String { a[Int(rng.next() % UInt64(a.count))] }
            let name = (0..<Int(1 + rng.next() % 4)).map { _ in pick(syllables) }.joined()
            let tagList = (0..<Int(rng.next() % 4)).map { _ in pick(tags) }
            let score = Double(rng.next() % 1000) / 1000
            return Member(
                name: name, age: Int(rng.next() % 100), score: score, tags: tagList,
                mentor: Mentor(name: pick(["Ann", "ann", "Anna", "Bob"]), level: Int(rng.next() % 5)))
        }
    }()

    static func dynamicValue(_ m: Member) -> Value {
        [
            "name": .string(m.name), "age": .int(m.age), "score": .double(m.score),
            "tags": .array(m.tags.map { .string($0) }),
            "mentor": ["name": .string(m.mentor.name), "level": .int(m.mentor.level)],
        ]
    }

    static let formats = [
        "age > 30", "age <= 30", "age == 42", "age != 42", "score < 0.5", "score >= 1", "score == 0.25", "age > 30.5",
        "name == 'ab'", "name != 'ab'", "name == 'éry'", "name BEGINSWITH 'ab'", "name BEGINSWITH[c] 'ab'",
        "name ENDSWITH[c] 'ery'", "name CONTAINS[cd] 'ery'", "name CONTAINS[c] 'ss'", "name CONTAINS[c] 'k'",
        "name BEGINSWITH[cd] 'e'", "name CONTAINS ''", "name ==[c] 'AB'",
        "ANY tags == 'x'", "ALL tags == 'x'", "ANY tags != 'x'", "NONE tags == 'y'", "'x' IN tags", "'é' IN tags",
        "mentor.name == 'Ann'", "mentor.level >= 3", "age > 30 AND score < 0.5 OR mentor.name == 'Ann'",
        "mentor.name BEGINSWITH[c] 'an'", "score > 9007199254740993",
        "name == 'K'", "name != 'K'", "name == 'abK'", "'K' IN tags", "ANY tags == 'K'",
    ]

    @Test(arguments: formats)
    func typedReadersAgreeWithValues(format: String) throws {
        let filter = try Filter(format)
        let typed = filter.compiled(for: Member.self)
        let dynamic = filter.compiled()
        var matches = 0
        for m in Self.members {
            let a = try typed.evaluate(with: m)
            let b = try dynamic.evaluate(with: Self.dynamicValue(m))
            #expect(a == b, "\(format) on \(m.name.unicodeScalars.map { String($0.value, radix: 16) })")
            if a { matches += 1 }
        }
        // Guard against a vacuous comparison.
        #expect(matches < Self.members.count || format.contains("!=") || format.contains("ALL") || format.contains("NONE"))
    }

    /// Extreme constants take the general path, and never trap.
    @Test func extremeConstants() throws {
        let m = Self.members[0]
        #expect(try Filter("score > %d", Int.min).compiled(for: Member.self).evaluate(with: m))
        #expect(try !Filter("age < %d", Int.min).compiled(for: Member.self).evaluate(with: m))
        #expect(try !Filter("score == %d", Int.max).compiled(for: Member.self).evaluate(with: m))
    }

    @Test func valueReadersStillWork() throws {
        let m = Self.members[0]
        #expect(Member.keyTable.reader(forKey: "age")?(m) == .int(m.age))
        #expect(try Filter("mentor.level == %d", m.mentor.level).compiled().evaluate(with: m))
        #expect(throws: EvaluationError.self) { try Filter("mentor.nothing == 1").compiled(for: Member.self).evaluate(with: m) }
    }
}
