import Foundation
import Testing

@testable import Sift

/// Many inputs against each limit, not just the two on either side of it:
/// every input is answered or refused with the limit's error, and a refusal
/// at one size means a refusal at every larger size.
struct LimitSweepTests {
    /// Five ways to nest, each `depth` levels deep.
    static func nested(_ form: Int, _ depth: Int) -> String {
        switch form {
        case 0: return String(repeating: "(", count: depth) + "a == 1" + String(repeating: ")", count: depth)
        case 1: return String(repeating: "NOT ", count: depth) + "a == 1"
        case 2: return "a == " + String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        case 3: return "a == " + String(repeating: "abs(", count: depth) + "1" + String(repeating: ")", count: depth)
        default: return "a == " + String(repeating: "-", count: depth) + "b"
        }
    }

    /// Depths 1 to 600 in five forms (3,000 inputs), and 100,000 levels.
    @Test func nestingSweep() {
        var tried = 0
        for form in 0..<5 {
            var refusedAt: Int?
            for depth in 1...600 {
                tried += 1
                do {
                    _ = try FormatParser.parsePredicate(Self.nested(form, depth))
                    #expect(refusedAt == nil, "form \(form): depth \(depth) parses after \(refusedAt ?? 0) was refused")
                } catch {
                    #expect(error.code == .limit, "form \(form) depth \(depth): \(error.message)")
                    if refusedAt == nil { refusedAt = depth }
                }
            }
            // Refused from one level past the default limit of 100.
            #expect(refusedAt == 101, "form \(form) refused from \(refusedAt ?? 0)")
            // Far past the limit: refused at once, not a stack overflow.
            #expect(throws: ParseError.self) { try FormatParser.parsePredicate(Self.nested(form, 100_000)) }
        }
        #expect(tried == 3_000)
    }

    /// Lengths 0 to 300 bytes against a limit of 200 (301 inputs).
    @Test func lengthSweep() {
        let options = ParseOptions(maximumLength: 200)
        for length in 0...300 {
            let format = length < 8 ? String(repeating: " ", count: length) + "" : "a == '" + String(repeating: "x", count: length - 8) + "'"
            let actual = format.utf8.count
            do {
                _ = try FormatParser.parsePredicate(format, options: options)
                #expect(actual <= 200)
            } catch {
                // Short strings are too short to be predicates; past the
                // limit, the limit is the error.
                if actual > 200 { #expect(error.code == .limit, "\(actual) bytes: \(error.message)") } else {
                    #expect(actual < 8, "\(actual) bytes: \(error.message)")
                }
            }
        }
    }

    /// SUBQUERY depths 1 to 12 under limits 0 to 10 (132 inputs).
    @Test func subqueryDepthSweep() {
        for limit in 0...10 {
            for depth in 1...12 {
                let options = ParseOptions(maximumSubqueryDepth: limit)
                do {
                    _ = try FormatParser.parsePredicate(LimitTests.nestedSubqueries(depth), options: options)
                    #expect(depth <= limit, "depth \(depth) parsed under a limit of \(limit)")
                } catch {
                    #expect(depth > limit && error.code == .limit, "depth \(depth), limit \(limit): \(error.message)")
                }
            }
        }
    }

    /// Eight patterns known for catastrophic backtracking, each on subjects
    /// of 3 lengths (24 inputs): an answer, or the regex limit's error.
    @Test func catastrophicPatternsSweep() throws {
        let patterns = [
            "(a+)+$", "(a|aa)+$", "(a*)*b", "(x+x+)+y", "((a|a)*)*c", "(.*a){12}", "^(\\w+\\s?)*$", "(a|b|ab)*c",
        ]
        var limited = 0
        for pattern in patterns {
            let filter = try Filter("SELF MATCHES %@", pattern).compiled()
            for length in [25, 1_000, 5_000] {
                let subject = Value.string(String(repeating: "a", count: length) + "!")
                do {
                    _ = try filter.evaluate(with: subject)
                } catch {
                    #expect(error.code == .regexLimit, "\(pattern) on \(length): \(error.message)")
                    limited += 1
                }
            }
        }
        // Most of them need the limit to stop at all.
        #expect(limited >= 12)
    }

    /// On a thread with a 512 KiB stack (the size of secondary threads on
    /// Apple platforms), every nesting form at depths up to 500 is parsed or
    /// refused with the limit's error, never a crash; what parses can be
    /// printed, compared, hashed, checked against a policy, compiled and
    /// evaluated there, and encoded and decoded or refused with the coders'
    /// error for a stack too small (in a debug build from about 65 levels
    /// of nested functions; a unary-minus chain of 99 levels overflowed).
    @Test func smallStacks() throws {
        let outcome = OnThread.run(stackSize: 512 * 1024) { () -> [String] in
            var problems: [String] = []
            var stackRefusals = 0
            var codingRefusals: [String] = []
            let policy = PredicatePolicy.untrusted(keyPaths: ["a", "b"])
            for form in 0..<5 {
                for depth in [1, 10, 25, 50, 55, 75, 99, 100, 101, 500] {
                    let format = Self.nested(form, depth)
                    let filter: Filter
                    do throws(ParseError) {
                        filter = try Filter(format)
                    } catch {
                        if error.code != .limit { problems.append("form \(form) depth \(depth): \(error.message)") }
                        if error.message.contains("stack") { stackRefusals += 1 }
                        continue
                    }
                    do {
                        let printed = filter.format
                        let again = try Filter(printed)
                        if again != filter { problems.append("form \(form) depth \(depth): printed form differs") }
                        var hasher = Hasher()
                        filter.hash(into: &hasher)
                        _ = hasher.finalize()
                        try policy.check(filter)
                        _ = try? filter.compiled().evaluate(with: ["a": 1, "b": 2])
                    } catch {
                        problems.append("form \(form) depth \(depth): \(error)")
                    }
                    do {
                        let json = try JSONEncoder().encode(filter.predicate)
                        if try JSONDecoder().decode(PredicateNode.self, from: json) != filter.predicate {
                            problems.append("form \(form) depth \(depth): decodes to another tree")
                        }
                    } catch {
                        guard "\(error)".contains("on this thread's stack") else {
                            problems.append("form \(form) depth \(depth): \(error)")
                            continue
                        }
                        codingRefusals.append("form \(form) depth \(depth)")
                        if depth < 50 { problems.append("form \(form) depth \(depth): refused to encode or decode") }
                    }
                }
            }
            #if DEBUG
                // A debug build's parser frames take more than 512 KiB for
                // 100 levels of abs(…): the stack check, not the depth
                // limit, refuses those; its larger frames make the coders
                // refuse the deepest function chains.
                if stackRefusals == 0 { problems.append("the stack check never refused") }
                if codingRefusals.isEmpty { problems.append("the coders never refused") }
            #endif
            return problems
        }
        #expect(outcome == [])
    }

    /// A decoded tree too deep for the thread's stack is a `DecodingError`,
    /// not a crash (the JSON is made on this thread, decoded on a small one).
    @Test func deepJSONOnASmallStack() throws {
        let filter = try Filter(Self.nested(4, 100))
        let json = try JSONEncoder().encode(filter.predicate)
        let outcome = OnThread.run(stackSize: 256 * 1024) { () -> String in
            do {
                let decoded = try JSONDecoder().decode(PredicateNode.self, from: json)
                return decoded == filter.predicate ? "decoded" : "decoded to another tree"
            } catch {
                return "\(error)".contains("on this thread's stack") ? "refused" : "\(error)"
            }
        }
        #if DEBUG
            #expect(outcome == "refused")
        #else
            #expect(outcome == "refused" || outcome == "decoded")
        #endif
    }
}
