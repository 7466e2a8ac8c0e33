import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// AND, OR and NOT of comparisons read in place run as steps
/// (``InPlaceProgram``); they must answer as the general path does on the
/// same data as values, at the edges of every range, for strings kept
/// inline and not, and in every combination.
struct InPlaceProgramTests {
    /// "Ann" with the same bytes as the literal, but stored out of line.
    static let outOfLineAnn: String = {
        var s = String()
        s.reserveCapacity(64)
        s += "Ann"
        return s
    }()

    static let ages = [Int.min, Int.min + 1, -1, 0, 1, 29, 30, 31, 99, Int.max - 1, Int.max]
    static let scores = [
        -Double.infinity, -Double.greatestFiniteMagnitude, -1, -0.0, 0.0, Double.leastNonzeroMagnitude, 0.5.nextDown,
        0.5, 0.5.nextUp, 1, Double.greatestFiniteMagnitude, Double.infinity, Double.nan,
    ]
    static let names = [
        "", "a", "ab", "Ann", outOfLineAnn, "ann", "Anna", "abéry", "éé", "K", "\u{212A}", "123456789012345",
        "1234567890123456", "a long name, well past fifteen bytes", String(repeating: "é", count: 8),
    ]

    static let tags = ["x", "y", "", "é", "a tag longer than fifteen bytes", outOfLine("x")]

    static func outOfLine(_ s: String) -> String {
        var copy = String()
        copy.reserveCapacity(64)
        copy += s
        return copy
    }

    static let members: [StoredMember] = {
        var rng = SeededRandom(seed: 11)
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        return (0..<240).map { i in
            // Every age, score and name appears; the rest is random.
            let member = Member(
                name: i < names.count ? names[i] : pick(names), age: i < ages.count ? ages[i] : pick(ages),
                score: i < scores.count ? scores[i] : pick(scores), tags: (0..<Int(rng.next() % 4)).map { _ in pick(tags) },
                mentor: Mentor(name: pick(["Ann", outOfLineAnn, "ann", "Bob", "a mentor with a long name"]), level: pick([0, 2, 4])))
            return StoredMember(member)
        }
    }()

    /// A comparison of one key with a constant, as a format and its argument.
    static func leaf(_ rng: inout SeededRandom) -> (String, any FormatArgumentConvertible) {
        func pick<T>(_ a: [T]) -> T { a[Int(rng.next() % UInt64(a.count))] }
        let op = pick(["<", "<=", ">", ">=", "==", "!="])
        switch rng.next() % 9 {
        case 0, 1: return ("age \(op) %@", pick(ages))
        case 2: return ("score \(op) %@", pick(scores))
        case 3: return ("score \(op) %@", pick([0, 1, -1, 1 << 53]))  // an integer constant for a double
        case 4: return ("name \(pick(["==", "!="])) %@", pick(names + ["Ann"]))
        case 5: return ("mentor.name \(pick(["==", "!="])) %@", pick(["Ann", "Bob", "a mentor with a long name", ""]))
        case 6: return ("mentor.level \(op) %@", pick([0, 2, 3]))
        case 7:
            let format = pick(["ANY tags == %@", "ANY tags != %@", "ALL tags == %@", "ALL tags != %@", "NONE tags == %@", "%@ IN tags"])
            return (format, pick(["x", "y", "", "é", "a tag longer than fifteen bytes", "z"]))
        default:
            // Comparisons with a test of their own, and one that is not read
            // in place (the whole predicate then takes the closure tree).
            return (pick(["name BEGINSWITH[c] %@", "ANY tags == %@", "name CONTAINS %@", "flag == %@"]), pick(["a", "x"]))
        }
    }

    /// A random AND / OR / NOT tree of comparisons.
    static func tree(_ rng: inout SeededRandom, depth: Int) -> (String, [any FormatArgumentConvertible]) {
        if depth == 0 || rng.next() % 4 == 0 {
            let (format, argument) = leaf(&rng)
            return (format, [argument])
        }
        switch rng.next() % 5 {
        case 0:
            let (format, arguments) = tree(&rng, depth: depth - 1)
            return ("NOT (\(format))", arguments)
        default:
            let op = rng.next() % 2 == 0 ? "AND" : "OR"
            var formats: [String] = []
            var arguments: [any FormatArgumentConvertible] = []
            for _ in 0..<(2 + Int(rng.next() % 3)) {
                let (f, a) = tree(&rng, depth: depth - 1)
                formats.append("(\(f))")
                arguments += a
            }
            return (formats.joined(separator: " \(op) "), arguments)
        }
    }

    /// The layout of inline strings holds here, so the tests below test
    /// comparing strings by their words; with `SIFT_LAYOUT_CHECKS=fail`
    /// (`make test` runs these suites again so) every check fails, as on a
    /// platform whose layouts differ, and strings are compared by the
    /// leaves' own tests: the same tests then check that fallback.
    @Test func inlineStringsAreRecognised() throws {
        let holds = !LayoutChecks.forcedToFail
        #expect(InlineString.layoutHolds == holds)
        #expect((InlineString("Ann") != nil && InlineString("123456789012345") != nil) == holds)
        #expect(InlineString("1234567890123456") == nil)
        #if os(Linux)
            #expect(StringArrayLayout.holds == holds)
        #endif
        let tags = try Filter("ANY tags == 'x'").compiled(for: StoredMember.self, paths: .fast).program
        #expect(tags?.steps.map(\.operation) == (holds ? [.anyString] : nil))
        let program = try #require(
            Filter("age > 30 AND score < 0.5 OR mentor.name == 'Ann'").compiled(for: StoredMember.self, paths: .fast).program)
        #expect(program.steps.map(\.operation) == [.allOf, .intRange, .doubleRange, holds ? .string : .leaf])
        #expect(program.steps.map(\.ifTrue) == [InPlaceProgram.answerTrue, 0, 0, InPlaceProgram.answerTrue])
        #expect(program.steps.map(\.ifFalse)[0] == 3)
    }

    @Test func singleTestsTakeTheirOwnPath() throws {
        #expect(try Filter("name BEGINSWITH[c] 'ab'").compiled(for: StoredMember.self, paths: .fast).program == nil)
        #expect(try Filter("flag == YES AND age > 3").compiled(for: StoredMember.self, paths: .fast).program == nil)
        #expect(try Filter("age > 3").compiled(for: StoredMember.self, paths: .fast).program != nil)
        #expect(try Filter("NOT name BEGINSWITH[c] 'ab'").compiled(for: StoredMember.self, paths: .fast).program == nil)
    }

    /// Whether filters compiled without saying take the steps: not under
    /// `SIFT_EVAL_GENERAL_ONLY=1` (`make test` runs these suites again so),
    /// when the tests below check the general path's answers instead.
    static let stepsByDefault = EvaluationPaths.default == .fast

    @Test func randomPredicatesAgreeWithValues() throws {
        var rng = SeededRandom(seed: 2026)
        let values = Self.members.map(InPlaceReaderTests.dynamicValue)
        var programs = 0
        for _ in 0..<400 {
            let (format, arguments) = Self.tree(&rng, depth: 3)
            let filter = try Filter(format, arguments: arguments)
            let typed = filter.compiled(for: StoredMember.self)
            let dynamic = filter.compiled()
            if typed.program != nil { programs += 1 }
            var expected: [Int] = []
            for (i, m) in Self.members.enumerated() {
                let a = try typed.evaluate(with: m)
                let b = try dynamic.evaluate(with: values[i])
                #expect(a == b, "\(filter.format) on \(m.name) \(m.age) \(m.score) \(m.mentor.name)")
                if b { expected.append(i) }
            }
            #expect(try Self.members.count(where: typed) == expected.count, "\(filter.format)")
            #expect(try Self.members.filter(typed).map(\.age) == expected.map { Self.members[$0].age }, "\(filter.format)")
            #expect(try Self.members.first(where: typed)?.age == expected.first.map { Self.members[$0].age })
            #expect(try Self.members.dropFirst(5).count(where: typed) == expected.filter { $0 >= 5 }.count)
        }
        // Most of them are run as steps (none with the general path only).
        #expect(Self.stepsByDefault ? programs > 150 : programs == 0)
    }

    /// Each number operator against the edges, alone (a loop of its own for
    /// an integer) and in a group of two.
    @Test(arguments: ["<", "<=", ">", ">=", "==", "!="])
    func numberEdges(op: String) throws {
        let values = Self.members.map(InPlaceReaderTests.dynamicValue)
        var formats: [(String, [any FormatArgumentConvertible])] = []
        for age in Self.ages { formats.append(("age \(op) %@", [age])) }
        for score in Self.scores {
            formats.append(("score \(op) %@", [score]))
            formats.append(("score \(op) %@ AND age \(op) 30", [score]))
            formats.append(("NOT (score \(op) %@ OR age \(op) 30)", [score]))
        }
        for (format, arguments) in formats {
            let filter = try Filter(format, arguments: arguments)
            let typed = filter.compiled(for: StoredMember.self)
            #expect((typed.program != nil) == Self.stepsByDefault)
            let expected = try values.filter { try filter.compiled().evaluate(with: $0) }.count
            #expect(try Self.members.count(where: typed) == expected, "\(filter.format)")
            for (m, v) in zip(Self.members, values) {
                #expect(try typed.evaluate(with: m) == filter.compiled().evaluate(with: v), "\(filter.format) \(m.age) \(m.score)")
            }
        }
    }

    @Test func emptyArrays() throws {
        let typed = try Filter("age > 1 OR mentor.name == 'Ann'").compiled(for: StoredMember.self)
        #expect(try [StoredMember]().count(where: typed) == 0)
        #expect(try [StoredMember]().filter(typed).isEmpty)
        #expect(try [StoredMember]().first(where: typed) == nil)
    }
}
