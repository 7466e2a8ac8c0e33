import Foundation
import Synchronization
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// Evaluating a filter on a record's raw JSON bytes
/// (``CompiledFilter/evaluate(jsonUTF8:maximumDepth:)``) answers as decoding
/// the record and evaluating its value does, errors included: on generated
/// records of every kind of value, valid and not, and generated predicates.
struct RawJSONTests {
    static let seed = UInt64(ProcessInfo.processInfo.environment["SIFT_SEED"] ?? "") ?? 2205
    static let cases = Int(ProcessInfo.processInfo.environment["SIFT_CASES"] ?? "") ?? 3000

    /// The answer or the error, as text: the same text both ways means the
    /// same answer, or an error of the same kind, message and place.
    static func outcome(_ evaluate: () throws -> Bool) -> String {
        do {
            return try evaluate() ? "true" : "false"
        } catch let error as JSONError {
            return "JSON error: \(error)"
        } catch let error as EvaluationError {
            return "evaluation error \(error.code) \(error.range): \(error)"
        } catch {
            return "other error: \(error)"
        }
    }

    /// Decoding the record, then evaluating its value: the reference.
    static func decoded(_ filter: CompiledFilter, _ record: [UInt8], maximumDepth: Int) -> String {
        outcome { try filter.evaluate(with: JSONValue(parsingUTF8: record, maximumDepth: maximumDepth).predicateValue) }
    }

    static func raw(_ filter: CompiledFilter, _ record: [UInt8], maximumDepth: Int) -> String {
        outcome { try record.withUnsafeBytes { try filter.evaluate(jsonUTF8: $0, maximumDepth: maximumDepth) } }
    }

    @Test func generatedRecordsAnswerAsDecoding() throws {
        let seed = Self.seed
        var generator = RecordGenerator(seed: seed)
        let paths: EvaluationPaths = .default
        var scanned = 0, failures = 0, errors = 0
        for n in 0..<Self.cases {
            let (format, key) = generator.predicate()
            var filter = try key.map { try Filter(format, $0) } ?? Filter(format)
            // Some with a budget, whose work is counted on the values read.
            if generator.below(8) == 0 { filter.evaluationBudget = 200 }
            let compiled = filter.compiled(paths: paths)
            // The reference takes the general path only: the scan's fast
            // paths (strings tested on their bytes among them) are checked
            // against it, not against the decoded value's own fast paths.
            let reference = filter.compiled(paths: .generalOnly)
            for _ in 0..<4 {
                let record = generator.record()
                let maximumDepth = generator.below(4) == 0 ? 3 : 512
                let expected = Self.decoded(reference, record, maximumDepth: maximumDepth)
                let answer = Self.raw(compiled, record, maximumDepth: maximumDepth)
                if expected.hasPrefix("JSON") || expected.hasPrefix("evaluation") { errors += 1 }
                let isScanned = record.withUnsafeBufferPointer {
                    compiled.scan?.evaluate($0, maximumDepth: maximumDepth) { _ in true } != nil
                }
                if isScanned { scanned += 1 }
                if answer != expected {
                    failures += 1
                    if failures <= 10 {
                        Issue.record(
                            """
                            case \(n) (SIFT_SEED=\(seed)): \(format) with maximum depth \(maximumDepth)
                            record: \(RecordGenerator.shown(record))
                            raw bytes: \(answer)
                            decoded:   \(expected)
                            """)
                    }
                }
            }
        }
        // The scan itself answered for many records (not only the full
        // decoding it falls back on), and errors of both kinds were met.
        let total = Self.cases * 4
        #expect(scanned * 4 > total, "scanned \(scanned) of \(total) (SIFT_SEED=\(seed))")
        #expect(errors * 10 > total, "errors \(errors) of \(total) (SIFT_SEED=\(seed))")
    }

    /// Each slot the scan fills holds what reading its key path from the
    /// decoded record gives, exactly (a number to the last bit, `NSNull`
    /// apart from nil, a repeated key's last value): a difference that no
    /// comparison of the predicates above happens to see is seen here.
    @Test func slotsHoldWhatDecodingGives() throws {
        var generator = RecordGenerator(seed: Self.seed)
        let predicate = try Filter(
            "age > 1 OR name == 'x' OR score < 1 OR ANY tags == 'x' OR author.name == 'x' OR author.age > 1 "
                + "OR a.b.name == 'x' OR other == 1 OR K == 1 OR description == 'x' OR author.description == 1 OR authors == 1 OR abcdefgh == 1"
        ).predicate
        let scan = try #require(JSONScan(predicate))
        var paths: [(node: Int, path: [String])] = []
        func visit(_ nodes: Range<Int>, _ prefix: [String]) {
            for n in scan.members[nodes] {
                paths.append((n, prefix + [scan.nodes[n].name]))
                visit(scan.nodes[n].children, prefix + [scan.nodes[n].name])
            }
        }
        visit(scan.roots, [])
        var compared = 0
        for _ in 0..<Self.cases * 4 {
            let record = generator.record()
            guard let decoded = try? JSONValue(parsingUTF8: record).predicateValue else { continue }
            let scanned = record.withUnsafeBufferPointer { bytes in
                scan.evaluate(bytes, maximumDepth: 512) { slots in
                    for (node, path) in paths where slots.kinds[node] != JSONScan.unread {
                        // The value at the path, through dictionaries and nulls.
                        var expected = decoded
                        for key in path {
                            switch expected {
                            case .dictionary(let d): expected = d[key] ?? .null
                            case .null, .nsNull: expected = .null
                            default: Issue.record("\(path) goes through \(expected)")
                            }
                        }
                        let whole = scan.nodes[node].isWhole || slots.kinds[node] == JSONScan.decoded
                        let got = whole ? slots.value(node) : scan.value(node, in: slots)
                        let same: Bool
                        switch (got, expected) {
                        case (.double(let a), .double(let b)): same = a.bitPattern == b.bitPattern
                        case (.dictionary, .dictionary) where !whole: same = true
                        default: same = got == expected
                        }
                        if !same {
                            Issue.record("\(path): \(got), decoded \(expected) in \(RecordGenerator.shown(record))")
                            return false
                        }
                        compared += 1
                    }
                    return true
                }
            }
            _ = scanned
        }
        #expect(compared > Self.cases * 8, "compared \(compared)")
    }

    /// A string without escapes is compared on its bytes where they tell
    /// (ASCII, and Latin letters below U+0250), and made into a `String`
    /// where they do not: every string comparison the fast paths answer,
    /// with every option, answers as the general path does on the decoded
    /// record, for haystacks on both sides of each of those limits.
    @Test func stringsOnTheirBytesAnswerAsStrings() throws {
        let haystacks = [
            "Ann", "ann", "ANN", "an", "Hanna", "HANNAH", "Joanna", "", "x", "J\u{F3}anna", "\u{C5}NN \u{E9}",
            "Zo\u{EB} Ann", "Anne\u{301}", "ann\u{EB}", "\u{1C5}ann", "\u{FB00}ann", "Stra\u{DF}e", "STRASSE",
            "caf\u{E9}", "cafe\u{301}", "\u{130}stanbul", "istanbul", "\u{24F}ann", "\u{250}ann", "\u{1F600}ann",
            "\u{212A}", "K", "nn \u{E9}", "Ann\u{24F}",
        ]
        let needles = ["ann", "ANN", "Ann", "\u{E9}", "e", "ss", "\u{DF}", "a", "nn \u{E9}", "Zo\u{EB}", "k", "K", "i", "\u{24F}"]
        var compared = 0
        for op in ["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS"] {
            for options in ["", "[c]", "[d]", "[cd]", "[n]"] where !(op.hasSuffix("=") && options != "" && options != "[n]") {
                for needle in needles {
                    for path in ["name", "author.name"] {
                        let filter = try Filter("\(path) \(op)\(options) %@", needle)
                        let fast = filter.compiled(paths: .fast)
                        let scan = try #require(JSONScan(filter.predicate))
                        let plan = Compiler(source: "", root: RootAccess<JSONSlots>.record(scan), paths: .fast).plan(filter.predicate)
                        #expect(EvaluationPlanTests.strategies(plan) == ["record slot"], "\(filter.format)")
                        let reference = filter.compiled(paths: .generalOnly)
                        for haystack in haystacks {
                            let json = path == "name" ? ["name": haystack] : ["author": ["name": haystack]]
                            let record = try JSONSerialization.data(withJSONObject: json)
                            let expected = Self.decoded(reference, Array(record), maximumDepth: 512)
                            let answer = Self.raw(fast, Array(record), maximumDepth: 512)
                            #expect(answer == expected, "\(filter.format) on \(String(decoding: record, as: UTF8.self))")
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared > 2000)
    }

    /// One compiled filter, shared by threads that evaluate records at the
    /// same time, answers as it does on one thread (it keeps no state).
    @Test func threadsShareOneFilter() throws {
        var generator = RecordGenerator(seed: Self.seed)
        let records = (0..<400).map { _ in generator.record() }
        let filter = try Filter("name == 'Ann' OR author.name BEGINSWITH 'A' OR age > 30").compiled()
        let expected = records.map { Self.raw(filter, $0, maximumDepth: 512) }
        let answers = Mutex([[String]](repeating: [], count: 4))
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            let mine = records.map { Self.raw(filter, $0, maximumDepth: 512) }
            answers.withLock { $0[thread] = mine }
        }
        #expect(answers.withLock { $0 }.allSatisfy { $0 == expected })
        #expect(Set(expected).count > 2, "\(Set(expected))")
    }

    /// Predicates that read the record as a whole, or a key that may be
    /// canonically equivalent to another, are never scanned; the others
    /// read the keys of their paths only.
    @Test func whatTheScanReads() throws {
        #expect(JSONScan(try Filter("SELF == nil").predicate) == nil)
        #expect(JSONScan(try Filter("age > 3 OR @count > 3").predicate) == nil)
        #expect(JSONScan(try Filter("%K == 1", "caf\u{E9}").predicate) == nil)
        let scan = try #require(JSONScan(try Filter("age > 30 AND author.name == 'Ann' OR author.age < 3 OR tags.@count > 1").predicate))
        let roots = Array(scan.members[scan.roots])
        #expect(roots.map { scan.nodes[$0].name } == ["age", "author", "tags"])
        #expect(roots.map { scan.nodes[$0].isWhole } == [true, false, true])
        let author = Array(scan.members[scan.nodes[roots[1]].children])
        #expect(author.map { scan.nodes[$0].name } == ["name", "age"])
        #expect(scan.slot(["author", "age"])?.slot == author[1])
        // A key read whole reads everything below it.
        let whole = try #require(JSONScan(try Filter("author.name == 'Ann' OR author == nil").predicate))
        #expect(whole.members[whole.roots].map { whole.nodes[$0].isWhole } == [true] && whole.nodes.count == 1)
        #expect(whole.slot(["author", "name"])! == (0, 1))
    }
}

/// Records as JSON text, built by hand so that they can be anything a file
/// holds: escapes, surrogate pairs (valid and lone), non-ASCII keys and
/// values in NFC and NFD, keys repeated or canonically equivalent, nesting,
/// integers beyond 64 bits and numbers beyond a double's range, nulls,
/// empty arrays and objects, bytes that are not UTF-8, and invalid JSON of
/// many kinds (a valid record cut, or with a byte added or removed).
struct RecordGenerator {
    var rng: SeededRandom

    init(seed: UInt64) { rng = SeededRandom(seed: seed) }

    mutating func below(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
    mutating func pick<T>(_ items: [T]) -> T { items[below(items.count)] }

    /// Keys the predicates read, and others: escaped (`n\u0061me` is
    /// `name`), canonically equivalent (`café` NFC and NFD, the Kelvin sign
    /// and `K`), and plain ones read by no predicate.
    static let keys = [
        #""age""#, #""name""#, #""score""#, #""tags""#, #""author""#, #""a""#, #""b""#, #""other""#,
        #""n\u0061me""#, "\"caf\u{E9}\"", "\"cafe\u{301}\"", "\"\u{212A}\"", #""K""#, #""x y""#, #""""#,
        #""description""#, #""descriptive""#, #""ag""#, #""ages""#, #""authors""#, #""abcdefgh""#,
    ]

    static let strings = [
        #""Ann""#, #""ann""#, #""Joanna""#, #""x""#, #""""#, #""a\"b""#, #""line\nbreak""#, #""\/\\""#,
        #""\u0041nn""#, #""caf\u00e9""#, "\"caf\u{E9}\"", "\"cafe\u{301}\"", #""\ud83d\ude00""#,
        "\"\u{1F600}\"", "\"\u{130}stanbul\"", "\"Stra\u{DF}e\"", "\"J\u{F3}anna\"", "\"\u{C5}NN \u{E9}\"",
        "\"Zo\u{EB} Ann \u{2C6F}\"", "\"Anne\u{301}\"",
    ]

    /// Strings decoding refuses.
    static let badStrings: [[UInt8]] = [
        Array(#""\ud83d""#.utf8), Array(#""\ude00""#.utf8), Array(#""\ud83d\u0041""#.utf8), Array(#""\x""#.utf8),
        Array(#""\u12g4""#.utf8), [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22],
        [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0x41, 0x01, 0x22],
        [0x22, 0xE2, 0x82, 0x22],
    ]

    static let numbers = [
        "0", "-0", "30", "31", "-7", "29.5", "30.0", "0.5", "1e2", "1E+2", "2.5e-3", "-1.5E-1",
        "-0.0", "0.000001", "0.489604", "123456789012345", "1234567890123456", "0.123456789012345",
        "0.1234567890123456", "100.25", "1234567.891", "99999999999999999", "999999999999999999",
        "1000000000000000000", "0.0000000000000000000001", "0.00000000000000000000001", "5e-324",
        "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "0.1000000000000000055511151231257827", "1e400", "-1e400",
        "1e-400", String(repeating: "9", count: 320), "1" + String(repeating: "0", count: 301) + ".5",
    ]

    static let badNumbers = ["01", "1.", ".5", "-", "1e", "+1", "1e+", "0x10", "--1", "1.e3"]

    /// A number of random digits: up to 20 before the point and 25 after
    /// it, some with an exponent (the shapes read without the decoder's
    /// parsing and those just beyond them).
    mutating func randomNumber() -> [UInt8] {
        func digits(_ g: inout RecordGenerator, _ n: Int) -> String {
            String((0..<n).map { _ in Character(String(g.below(10))) })
        }
        var text = below(3) == 0 ? "-" : ""
        let whole = 1 + below(20)
        text += below(4) == 0 ? "0" : String(1 + below(9)) + digits(&self, whole - 1)
        if below(3) > 0 { text += "." + String(repeating: "0", count: below(3) == 0 ? below(22) : 0) + digits(&self, 1 + below(25)) }
        if below(10) == 0 { text += "e" + String(below(40) - 20) }
        return Array(text.utf8)
    }

    mutating func value(depth: Int) -> [UInt8] {
        switch below(depth > 3 ? 6 : 10) {
        case 0: return Array(pick(["null", "true", "false"]).utf8)
        case 1: return Array(pick(Self.numbers).utf8)
        case 2: return below(2) == 0 ? randomNumber() : Array(pick(Self.numbers).utf8)
        case 3, 4: return Array(pick(Self.strings).utf8)
        case 5: return below(3) == 0 ? Array(pick(Self.badNumbers).utf8) : Array(pick(Self.strings).utf8)
        case 6: return below(4) == 0 ? pick(Self.badStrings) : Array(pick(Self.strings).utf8)
        case 7:
            let count = below(4)
            var out: [UInt8] = Array("[".utf8)
            for i in 0..<count {
                if i > 0 { out += Array(pick([",", ", ", " ,\n"]).utf8) }
                out += value(depth: depth + 1)
            }
            return out + Array("]".utf8)
        default: return object(depth: depth + 1)
        }
    }

    mutating func object(depth: Int) -> [UInt8] {
        let count = below(depth == 0 ? 7 : 4)
        var out: [UInt8] = Array(pick(["{", "{ ", "\t{\n"]).utf8)
        for i in 0..<count {
            if i > 0 { out += Array(pick([",", ", "]).utf8) }
            // Mostly the keys predicates read, sometimes repeated.
            out += Array((below(3) == 0 ? pick(Self.keys) : pick(Array(Self.keys.prefix(6)))).utf8)
            out += Array(pick([":", " : "]).utf8)
            out += value(depth: depth)
        }
        return out + Array(pick(["}", " }", "}\n"]).utf8)
    }

    /// A record: mostly an object, valid or made invalid.
    mutating func record() -> [UInt8] {
        var out = below(12) == 0 ? value(depth: 0) : object(depth: 0)
        switch below(8) {
        case 0 where !out.isEmpty: out.removeSubrange(below(out.count)...)
        case 1 where !out.isEmpty: out.remove(at: below(out.count))
        case 2: out.insert(pick(Array("{}[]:,\"\\x0 -e".utf8) + [0xFF, 0x00, 0x80]), at: below(out.count + 1))
        case 3: out += Array(pick([" {}", "x", ",", "\n\n", " "]).utf8)
        default: break
        }
        return out
    }

    static let paths = [
        "age", "score", "name", "tags", "author", "author.name", "author.age", "a.b", "a.b.name", "other",
        "K", "tags.name", "author.tags", "description", "author.description", "authors", "abcdefgh",
    ]

    /// A predicate over the paths records have: comparisons of every kind
    /// of constant, searches, ANY, IN, collection operators and SUBQUERY,
    /// some in AND, OR and NOT.
    /// (`%K` is given the key, when there is one.)
    mutating func predicate() -> (format: String, key: String?) {
        func comparison(_ g: inout RecordGenerator) -> String {
            let p = g.pick(RecordGenerator.paths)
            switch g.below(16) {
            case 14: return "\(p) + 1 > 3"
            case 15: return "uppercase(\(p)) == 'ANN'"
            case 0: return "\(p) > \(g.pick(["30", "29.5", "-1", "9223372036854775807", "1e300", "0.1234567890123456"]))"
            case 1: return "\(p) == \(g.pick(["30", "0", "'Ann'", "nil", "YES", "30.0", "'café'"]))"
            case 2: return "\(p) != \(g.pick(["'Ann'", "nil", "31"]))"
            case 3: return "\(p) CONTAINS\(g.pick(["", "[c]", "[cd]"])) \(g.pick(["'ann'", "'É'", "'e'", "''"]))"
            case 4: return "\(p) BEGINSWITH\(g.pick(["", "[c]", "[n]"])) \(g.pick(["'A'", "'cafe'", "'\u{130}'"]))"
            case 5: return "ANY \(p) == \(g.pick(["'x'", "'Ann'", "30"]))"
            case 6: return "ALL \(p) != 'x'"
            case 7: return "'x' IN \(p)"
            case 8: return "\(p).@count > \(g.below(3))"
            case 9: return "SUBQUERY(\(p), $e, $e == 'x' OR age > 30).@count > 0"
            case 10: return "\(p) BETWEEN {0, 40}"
            case 11: return "\(p) IN {30, 'Ann', 31}"
            case 12: return "\(p) MATCHES 'A.*'"
            default: return "\(p) < \(g.pick(["0.5", "100", "'Z'"]))"
            }
        }
        switch below(7) {
        case 0: return (comparison(&self) + " AND " + comparison(&self), nil)
        case 1: return (comparison(&self) + " OR " + comparison(&self) + " AND " + comparison(&self), nil)
        case 2: return ("NOT " + comparison(&self), nil)
        case 3: return (pick(["SELF.age > 30", "@count > 2", "SELF == nil", "K == 1"]), nil)
        case 4: return ("%K == 1 OR " + comparison(&self), pick(["\u{212A}", "caf\u{E9}", "cafe\u{301}", "x y", "name"]))
        default: return (comparison(&self), nil)
        }
    }

    /// A record for a message: printable ASCII as it is, other bytes in hex.
    static func shown(_ record: [UInt8]) -> String {
        record.map { $0 >= 0x20 && $0 < 0x7F ? String(UnicodeScalar($0)) : "<\(String($0, radix: 16))>" }.joined()
    }
}
