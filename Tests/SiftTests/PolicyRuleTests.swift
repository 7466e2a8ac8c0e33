import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// The allow-list holds for any expression: every value a predicate can
/// observe is reached through a key path the policy allows.
struct PolicyRuleTests {
    static let issuePolicy = PredicatePolicy.untrusted(keyPaths: ["title", "author", "author.name"])

    /// Each of these passed the check and read `author.email` (or the
    /// object's keys) one character at a time.
    @Test(arguments: [
        ("author['email'] BEGINSWITH 'f'", "author.email"),
        ("author[FIRST] BEGINSWITH 'f'", "author"),
        ("author[LAST] BEGINSWITH 'f'", "author"),
        ("author[title] BEGINSWITH 'f'", "author"),
        ("authors[0].email BEGINSWITH 'f'", "authors.email"),
        ("'frank@x' IN author", "author"),
        ("author CONTAINS 'frank@x'", "author"),
        ("TERNARY(title == 'x', author, title).email BEGINSWITH 'f'", "author.email"),
        ("{author}[0].email BEGINSWITH 'f'", "author.email"),
        ("ANY {author}.email BEGINSWITH 'f'", "author.email"),
        ("@count == 11", "SELF"),
        ("author == title", "author"),
        ("lowercase:(author) == 'x'", "author"),
        ("author.@max.self BEGINSWITH 'f'", "author.self"),
    ])
    func bypassIsRefused(format: String, path: String) throws {
        let filter = try Filter(format)
        #expect {
            try Self.issuePolicy.check(filter)
        } throws: { error in
            (error as? PolicyViolation)?.part == .keyPath(path)
        }
    }

    @Test(arguments: [
        "author == nil", "author != nil AND author.name BEGINSWITH[c] 'a'", "author.@count == 2",
        "title CONTAINS[c] 'x' OR 'x' IN title", "author[SIZE] > 1", "author['name'] == 'Ann'",
        "TERNARY(title == 'x', author, title).name == 'Ann'", "{author.name, title}[FIRST] == 'x'",
    ])
    func allowedStillPasses(format: String) throws {
        try Self.issuePolicy.check(try Filter(format))
    }

    // MARK: - The proof: allowed predicates cannot tell non-allowed values apart

    static let object: Value = [
        "title": "Dune", "year": 1965, "secret": "s3cret",
        "author": ["name": "Frank", "email": "frank@x"],
        "authors": [["name": "Ann", "email": "ann@x"], ["name": "Bob", "email": "bob@y"]],
        "tags": ["scifi", "classic"],
        "meta": ["a": 1, "secret": "f00"],
    ]

    static let policies: [(String, PredicatePolicy)] = [
        ("untrusted", issuePolicy),
        ("leaves", PredicatePolicy(keyPaths: ["title", "year", "author.name", "tags.*", "authors.name"])),
        ("objects", PredicatePolicy(keyPaths: ["SELF", "meta", "meta.a", "authors", "authors.name", "author.name"])),
    ]

    @Test(arguments: 0..<3)
    func changingWhatIsNotAllowedChangesNoAnswer(policyIndex: Int) throws {
        let (name, policy) = Self.policies[policyIndex]
        let listed = policy.keyPaths ?? []
        var rng = SeededRandom(seed: 0x5EED + UInt64(policyIndex))
        var allowedCount = 0
        var failures: [String] = []
        for _ in 0..<10_000 {
            var maker = PredicateMaker(rng: &rng)
            let format = maker.predicate(depth: 3)
            guard let filter = try? Filter(format), (try? policy.check(filter)) != nil else { continue }
            let compiled = filter.compiled()
            allowedCount += 1
            let answer = Self.answer(compiled, Self.object)
            for round in 0..<3 {
                var mutation = SeededRandom(seed: rng.next() &+ UInt64(round))
                let changed = Self.changingHidden(Self.object, path: [], listed: listed, rng: &mutation)
                let other = Self.answer(compiled, changed)
                if other != answer {
                    failures.append("\(format): \(answer) on the object, \(other) with hidden values changed")
                    break
                }
            }
        }
        #expect(allowedCount > 200, "\(name): only \(allowedCount) generated predicates were allowed")
        let shown = failures.prefix(20).joined(separator: "\n")
        #expect(failures.isEmpty, "\(name): \(failures.count) allowed predicates see hidden values:\n\(shown)")
    }

    static func answer(_ filter: CompiledFilter, _ object: Value) -> String {
        do { return try filter.evaluate(with: object) ? "true" : "false" } catch { return "error \(error.code)" }
    }

    /// Whether everything at `path` may be read: a listed path with nothing
    /// listed below it, or a `path.*`, at or above it.
    static func readable(_ path: [String], _ listed: Set<String>) -> Bool {
        for end in 0...path.count {
            let prefix = end == 0 ? "SELF" : path[..<end].joined(separator: ".")
            if listed.contains(prefix + ".*") { return true }
            if listed.contains(prefix) && !listed.contains(where: { $0.hasPrefix(prefix + ".") }) { return true }
        }
        return false
    }

    static func hasListedBelow(_ path: [String], _ listed: Set<String>) -> Bool {
        path.isEmpty ? !listed.isEmpty : listed.contains { $0.hasPrefix(path.joined(separator: ".") + ".") }
    }

    /// The object with every value that no listed path reaches replaced by
    /// another value of any kind; the keys of dictionaries stay the same.
    static func changingHidden(_ value: Value, path: [String], listed: Set<String>, rng: inout SeededRandom) -> Value {
        if readable(path, listed) { return value }
        guard hasListedBelow(path, listed) else { return randomValue(&rng) }
        switch value {
        case .dictionary(let d):
            var out: [String: Value] = [:]
            for (k, v) in d { out[k] = changingHidden(v, path: path + [k], listed: listed, rng: &rng) }
            return .dictionary(out)
        case .array(let items):
            return .array(items.map { changingHidden($0, path: path, listed: listed, rng: &rng) })
        default:
            return value
        }
    }

    static func randomValue(_ rng: inout SeededRandom) -> Value {
        let choices: [Value] = [
            "frank@x", "f", "zz", "", 7, 1965, 2.5, nil, true, ["f", "zz"], [["name": "Ann", "email": "q"]],
            ["name": "Ann", "email": "f"], ["a": 1, "secret": "g"],
        ]
        return choices[Int(rng.next() % UInt64(choices.count))]
    }
}

/// Found in review: forms the first version of the rule let through or
/// could not check.
struct PolicyRuleReviewTests {
    /// A dictionary constant (a `%@` argument, a decoded tree) compared with
    /// an object reads everything inside it.
    @Test func dictionaryConstantsLookInside() throws {
        let policy = PredicatePolicy(keyPaths: ["author", "author.name"])
        let guess: Value = ["name": "A", "email": "guess@x"]
        for format in ["author == %@", "author IN %@", "ANY authors == %@"] {
            let argument: Value = format.hasSuffix("IN %@") ? [guess] : guess
            #expect(throws: PolicyViolation.self, "\(format)") { try policy.check(try Filter(format, argument)) }
        }
        try policy.check(try Filter("author == %@", "Ann"))
        try policy.check(try Filter("author IN %@", ["a", "b"]))
    }

    /// Collection operators nest: the parser counts them as levels, and a
    /// path bound from %K (not bounded by the parser) is checked without
    /// running out of stack.
    @Test func collectionOperatorChains() throws {
        let chain = (0..<200).map { _ in "@max" }.joined(separator: ".")
        #expect {
            try Filter("a." + chain + ".self == 1")
        } throws: { error in
            (error as? ParseError)?.code == .limit
        }
        let long = "a." + (0..<100_000).map { _ in "@max" }.joined(separator: ".")
        let filter = try Filter("%K == 1", long)
        let outcome = OnThread.run(stackSize: 512 * 1024) { () -> String in
            do throws(PolicyViolation) {
                try PredicatePolicy(keyPaths: ["a"]).check(filter)
                return "allowed"
            } catch {
                if case .nesting = error.part { return "nesting" }
                return "\(error.part)"
            }
        }
        #expect(outcome == "nesting")
    }
}
