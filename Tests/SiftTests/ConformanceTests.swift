import Foundation
import Sift
import SiftCases
import Testing

/// Every conformance case goes through the same code path as `sift check`.
/// Until evaluation exists, what is checked is everything up to it: whether
/// the case parses and binds as expected, and its canonical forms.
struct ConformanceTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cases")

    /// The case files: the language case by case, the cross-check set, and
    /// the cases taken from test suites that ran on Apple's Foundation.
    static let files = ["language.jsonl", "probe.jsonl", "observed.jsonl"]

    static func lines(_ name: String) throws -> [(number: Int, text: String)] {
        let text = try String(contentsOf: fixtures.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").enumerated().map { ($0.offset + 1, String($0.element)) }
    }

    /// Cases answered differently on purpose, each with its reason.
    static func deviations() throws -> [String: String] {
        let url = fixtures.deletingLastPathComponent().appendingPathComponent("deviations.json")
        return try JSONDecoder().decode([String: String].self, from: Data(contentsOf: url))
    }

    @Test(arguments: Self.files)
    func everyCaseAsExpected(file: String) throws {
        let runner = CaseRunner()
        let deviations = try Self.deviations()
        let lines = try Self.lines(file)
        #expect(lines.count > 100)
        var failures: [String] = []
        var deviating = 0
        for (number, line) in lines {
            let c = try runner.readCase(line)
            let outcome = runner.run(c)
            let problems = c.expectation.mismatches(outcome)
            if let reason = deviations[c.id] {
                #expect(!reason.isEmpty)
                if problems.isEmpty {
                    failures.append("\(c.id) is listed as a deviation but now behaves as expected; remove it")
                }
                deviating += 1
                continue
            }
            if !problems.isEmpty {
                failures.append("\(c.id) (line \(number)) \(c.format): \(problems.joined(separator: "; "))")
            }
        }
        #expect(deviating <= 5)
        #expect(failures.isEmpty, "\(failures.count) cases differ:\n\(failures.joined(separator: "\n"))")
    }

    @Test func deviationsNameRealCases() throws {
        let ids = try Self.files.flatMap { file in
            try Self.lines(file).map { try CaseRunner().readCase($0.text).id }
        }
        for id in try Self.deviations().keys {
            #expect(ids.contains(id), "deviation \(id) names no case")
        }
    }

    /// Every tree the parser builds decodes from its JSON form: decoding
    /// refuses only what parsing never gives.
    @Test(arguments: Self.files)
    func everyParsedTreeDecodes(file: String) throws {
        let runner = CaseRunner()
        var failures: [String] = []
        var checked = 0
        for (_, line) in try Self.lines(file) {
            let c = try runner.readCase(line)
            guard let filter = try? Filter(c.format, arguments: c.arguments),
                let data = try? JSONEncoder().encode(filter.predicate)
            else { continue }
            checked += 1
            do {
                let decoded = try JSONDecoder().decode(PredicateNode.self, from: data)
                if decoded != filter.predicate { failures.append("\(c.id): decodes to another tree") }
            } catch {
                failures.append("\(c.id): \(c.format): \(error)")
            }
        }
        #expect(checked > 100)
        #expect(failures.isEmpty, "\(failures.count) cases:\n\(failures.joined(separator: "\n"))")
    }

    /// parse(print(x)) == x and print(parse(print(x))) == print(x) for every
    /// case that parses.
    @Test(arguments: Self.files)
    func canonicalFormRoundTrips(file: String) throws {
        let runner = CaseRunner()
        var failures: [String] = []
        var checked = 0
        var holes = 0
        for (_, line) in try Self.lines(file) {
            let c = try runner.readCase(line)
            guard let filter = try? Filter(c.format, arguments: c.arguments) else { continue }
            checked += 1
            let printed = filter.format
            if let hole = RoundTrip.knownHole(filter.predicate) {
                // As with Apple's printer, values and keys without a literal
                // spelling print in a form that does not read back; if it does
                // read back, printing it again must be stable.
                holes += 1
                if let reparsed = try? Filter(printed), reparsed.format != printed {
                    failures.append("\(c.id): unstable print (\(hole)): \(printed) -> \(reparsed.format)")
                }
                continue
            }
            do {
                let reparsed = try Filter(printed)
                if reparsed != filter {
                    failures.append("\(c.id): \(c.format) prints as \(printed), which parses differently")
                } else if reparsed.format != printed {
                    failures.append("\(c.id): printing is not idempotent: \(printed) -> \(reparsed.format)")
                }
            } catch {
                failures.append("\(c.id): \(c.format) prints as \(printed), which does not parse: \(error)")
            }
        }
        #expect(checked > 100)
        #expect(holes < 10)
        #expect(failures.isEmpty, "\(failures.count) cases:\n\(failures.joined(separator: "\n"))")
    }

    @Test func checkOutputLines() throws {
        let runner = CaseRunner()
        let (ok, _) = runner.run(
            line: #"{"id":"a","format":"name == %@","args":["x"],"object":{"name":"x"},"expect":true}"#, number: 1)
        #expect(ok.canonical == #"name == "x""#)
        let (bad, _) = runner.run(line: #"{"id":"b","format":"name ==","object":{}}"#, number: 2)
        #expect(bad.jsonLine.hasPrefix(#"{"id":"b","ok":false,"stage":"parse","error":"#))
        let (bind, _) = runner.run(line: #"{"id":"c","format":"name == %@","object":{}}"#, number: 3)
        #expect(bind.stage == "bind")
        let (junk, expectation) = runner.run(line: "{not json", number: 4)
        #expect(junk.stage == "parse" && junk.error?.contains("line 4") == true)
        #expect(expectation.mismatches(junk).isEmpty)
    }
}

/// Trees whose printed form cannot read back as the same tree, as with
/// Apple's own printer: NSNull prints as `<null>`, dictionaries and sets
/// print in a form that is not a literal, and `%K` keys that are not
/// identifiers print bare.
enum RoundTrip {
    static func knownHole(_ p: PredicateNode) -> String? {
        switch p.kind {
        case .constant: return nil
        case .and(let cs), .or(let cs): return cs.lazy.compactMap(knownHole).first
        case .not(let c): return knownHole(c)
        case .comparison(let c): return knownHole(c.lhs) ?? knownHole(c.rhs)
        }
    }

    static func knownHole(_ e: ExpressionNode) -> String? {
        switch e.kind {
        case .constant(let v): return knownHole(v)
        case .keyPath(let keys):
            return keys.allSatisfy(isIdentifierOrOperator) ? nil : "key that is not an identifier"
        case .path(let b, let keys):
            return knownHole(b) ?? (keys.allSatisfy(isIdentifierOrOperator) ? nil : "key that is not an identifier")
        case .variableKey(let b, let k): return knownHole(b) ?? knownHole(k)
        case .aggregate(let items): return items.lazy.compactMap(knownHole).first
        case .function(_, let args): return args.lazy.compactMap(knownHole).first
        case .index(let b, let s):
            if case .expression(let i) = s { return knownHole(b) ?? knownHole(i) }
            return knownHole(b)
        case .invocation(let r, _, let args): return knownHole(r) ?? args.lazy.compactMap(knownHole).first
        case .cast(let v, _): return knownHole(v)
        case .ternary(let p, let a, let b): return knownHole(p) ?? knownHole(a) ?? knownHole(b)
        case .subquery(let c, _, let p): return knownHole(c) ?? knownHole(p)
        case .setOperation(_, let l, let r): return knownHole(l) ?? knownHole(r)
        case .assignment(_, let v): return knownHole(v)
        case .evaluatedObject, .variable, .anyKey: return nil
        }
    }

    static func knownHole(_ v: Value) -> String? {
        switch v {
        case .nsNull: return "<null>"
        case .dictionary: return "dictionary"
        case .set: return "set"
        case .array(let items): return items.lazy.compactMap(knownHole).first
        default: return nil
        }
    }

    static func isIdentifierOrOperator(_ key: String) -> Bool {
        guard let first = key.unicodeScalars.first else { return false }
        let rest = key.unicodeScalars.dropFirst()
        let ok: (Unicode.Scalar) -> Bool = { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_" || ("0"..."9").contains($0)) }
        if first == "@" { return rest.allSatisfy(ok) }
        return first.isASCII && (first.properties.isAlphabetic || first == "_") && rest.allSatisfy(ok)
    }
}
