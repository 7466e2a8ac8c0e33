import Foundation
import Testing

@testable import Sift
import struct SiftTestSupport.SeededRandom

/// The plan (``EvaluationPlan``) chooses each comparison's strategy by one
/// rule: for known shapes it picks the expected one (so that a change of the
/// rule shows here), and on random trees every strategy answers as the
/// general path does, on typed objects, dictionaries and tables.
struct EvaluationPlanTests {
    typealias Expected = (format: String, strategy: String)

    static func strategies<Root>(_ plan: EvaluationPlan<Root>) -> [String] {
        plan.decisions.map(\.strategy.name)
    }

    static func typedPlan<T: KeyValueReadable>(_ format: String, _: T.Type, paths: EvaluationPaths = .fast, budget: Int? = nil)
        throws -> EvaluationPlan<ObjectAddress>
    {
        Compiler(source: format, root: RootAccess<ObjectAddress>.typed(T.self), budget: budget, paths: paths)
            .plan(try Filter(format).predicate)
    }

    static func dynamicPlan(_ format: String, paths: EvaluationPaths = .fast) throws -> EvaluationPlan<Value> {
        Compiler(source: format, root: .dynamic, paths: paths).plan(try Filter(format).predicate)
    }

    static func tablePlan(_ format: String, _ table: ValueTable, paths: EvaluationPaths = .fast) throws -> EvaluationPlan<Int> {
        Compiler(source: format, root: RootAccess<Int>.rows(of: table), paths: paths).plan(try Filter(format).predicate)
    }

    /// The plan for raw JSON records, when the predicate has a scan.
    static func recordPlan(_ format: String, paths: EvaluationPaths = .fast) throws -> EvaluationPlan<JSONSlots>? {
        let predicate = try Filter(format).predicate
        return JSONScan(predicate).map { Compiler(source: format, root: RootAccess<JSONSlots>.record($0), paths: paths).plan(predicate) }
    }

    /// Objects of a type with stored properties: read in place where there
    /// is an offset, by the typed reader where there is not, the general
    /// path where the property's type does not answer as the general path.
    @Test func typedObjectsTakeTheExpectedStrategies() throws {
        let stored: [Expected] = [
            ("age > 30", "in place"), ("score < 0.5", "in place"), ("score < 1", "in place"),
            ("name == 'Ann'", "in place"), ("name ==[n] 'Ann'", "in place"), ("name BEGINSWITH[c] 'ab'", "in place"),
            ("ANY tags == 'x'", "in place"), ("ALL tags != 'x'", "in place"), ("'x' IN tags", "in place"),
            ("mentor.level == 2", "in place"), ("mentor.name == 'Ann'", "in place"),
            ("shout == 'ERY'", "typed reader"), ("shout CONTAINS 'R'", "typed reader"),
            ("age > 2.5", "general"), ("score > 9007199254740993", "general"), ("name ==[c] 'ann'", "general"),
            ("flag == YES", "general"), ("extra == 3", "general"), ("ANY tags ==[c] 'x'", "general"),
            ("age IN {1, 2}", "general"), ("name LIKE 'a*'", "general"), ("nothing == 1", "general"),
            ("tags.@count > 1", "general"), ("age + 1 > 30", "general"),
        ]
        for (format, strategy) in stored {
            #expect(Self.strategies(try Self.typedPlan(format, StoredMember.self)) == [strategy], "\(format)")
        }
        // A class's properties have no offset: typed readers.
        for format in ["age > 30", "name == 'Ann'", "score < 0.5", "ANY tags == 'x'", "mentor.name == 'Ann'"] {
            #expect(Self.strategies(try Self.typedPlan(format, MemberObject.self)) == ["typed reader"], "\(format)")
        }
    }

    /// The largest AND, OR and NOT read wholly in place run as steps, and
    /// the whole predicate when it is one comparison read in place; a lone
    /// search does not.
    @Test func partsReadInPlaceRunAsSteps() throws {
        func shape(_ format: String) throws -> String {
            func visit(_ node: EvaluationPlan<ObjectAddress>.Node) -> String {
                switch node {
                case .constant: return "k"
                case .and(let c): return "and(" + c.map(visit).joined(separator: ",") + ")"
                case .or(let c): return "or(" + c.map(visit).joined(separator: ",") + ")"
                case .not(let c): return "not(" + visit(c) + ")"
                case .comparison: return "c"
                case .steps: return "steps"
                }
            }
            return visit(try Self.typedPlan(format, StoredMember.self).root)
        }
        #expect(try shape("age > 30") == "steps")
        #expect(try shape("age > 30 AND score < 0.5 OR mentor.name == 'Ann'") == "steps")
        #expect(try shape("name CONTAINS 'a'") == "c")
        #expect(try shape("NOT name CONTAINS 'a'") == "not(c)")
        #expect(try shape("name CONTAINS 'a' AND age > 3") == "steps")
        #expect(try shape("(age > 3 OR score < 0.5) AND flag == YES") == "and(steps,c)")
        // A comparison alone inside a part that is not read in place keeps
        // its own test.
        #expect(try shape("NOT (age > 3 AND shout == 'A')") == "not(and(c,c))")
        #expect(try shape("TRUEPREDICATE AND age > 3") == "and(k,c)")
        // A lone string comparison has a step of its own only where the
        // layout check holds.
        let words = !LayoutChecks.forcedToFail
        #expect(try shape("ANY tags == 'x'") == (words ? "steps" : "c"))
        #expect(try shape("NOT name == 'Ann'") == (words ? "steps" : "not(c)"))
    }

    /// Dictionaries: key paths walked through them, for the comparisons
    /// whose constant and operator have a test on the spot.
    @Test func dictionariesTakeTheExpectedStrategies() throws {
        let expected: [Expected] = [
            ("age > 30", "dictionary walk"), ("score < 0.5", "dictionary walk"), ("author.name == 'Ann'", "dictionary walk"),
            ("name BEGINSWITH[c] 'ab'", "dictionary walk"), ("ANY tags == 'x'", "dictionary walk"),
            ("ALL tags != 'x'", "dictionary walk"), ("a.b.c.d == 1", "dictionary walk"),
            ("'x' IN tags", "general"), ("name ==[c] 'ann'", "general"),
            ("@count > 1", "general"), ("tags.@count > 1", "general"), ("age IN {1, 2}", "general"),
            ("ANY tags == 1", "general"), ("age BETWEEN {1, 2}", "general"),
        ]
        for (format, strategy) in expected {
            #expect(Self.strategies(try Self.dynamicPlan(format)) == [strategy], "\(format)")
        }
        // A NaN constant orders with nothing: left to the general path.
        let nan = try Filter("score < %@", Double.nan).predicate
        #expect(Self.strategies(Compiler(source: "", root: .dynamic).plan(nan)) == ["general"])
    }

    /// Tables: the arrays, strings or column of the key path; the general
    /// path where the table has no column.
    @Test func tablesTakeTheExpectedStrategies() throws {
        let rows: [Value] = (0..<16).map { i in
            var row: [String: Value] = [
                "age": .int(i), "name": .string("n\(i)"), "tags": .array([.string("x\(i % 3)")]),
                "author": ["name": .string("a\(i % 2)"), "age": i % 5 == 0 ? .null : .int(i)],
                "mixed": i % 2 == 0 ? .int(i) : .string("s"),
            ]
            // In fewer than one row in eight: no column.
            if i == 0 { row["rare"] = .int(1) }
            return .dictionary(row)
        }
        let table = ValueTable(rows)
        let expected: [Expected] = [
            ("ANY tags == 'x1'", "table list"), ("ALL tags != 'x1'", "table list"),
            ("name == 'n3'", "table strings"), ("name CONTAINS '1'", "table strings"),
            ("author.name == 'a1'", "table strings"),
            ("age > 3", "table column"), ("author.age < 5", "table column"), ("mixed == 'x'", "table column"),
            ("author.name.x == 'a'", "table column"),
            ("missing == 3", "general"), ("rare == 1", "general"), ("'x' IN tags", "general"), ("age IN {1, 2}", "general"),
        ]
        for (format, strategy) in expected {
            #expect(Self.strategies(try Self.tablePlan(format, table)) == [strategy], "\(format)")
        }
    }

    /// The general path only, and a budget: every comparison general, no
    /// steps, and the reason says why.
    @Test func generalOnlyAndBudgetsPlanTheGeneralPath() throws {
        let format = "age > 30 AND name BEGINSWITH 'a' OR ANY tags == 'x'"
        let plans = [
            try Self.typedPlan(format, StoredMember.self, paths: .generalOnly),
            try Self.typedPlan(format, StoredMember.self, budget: 1_000),
        ]
        for plan in plans {
            #expect(plan.program == nil)
            #expect(Self.strategies(plan) == ["general", "general", "general"])
            #expect(plan.decisions.allSatisfy { $0.reason.contains("fast paths are off") })
        }
        #expect(Self.strategies(try Self.dynamicPlan(format, paths: .generalOnly)) == ["general", "general", "general"])
        let table = ValueTable(ValueTableTests.rows)
        #expect(Self.strategies(try Self.tablePlan(format, table, paths: .generalOnly)) == ["general", "general", "general"])
    }

    /// The description names each comparison's strategy and reason.
    @Test func descriptionShowsStrategiesAndReasons() throws {
        let plan = try Self.typedPlan("age > 30 AND score < 0.5 OR shout == 'A' OR flag == YES", StoredMember.self)
        let lines = plan.description.split(separator: "\n").map(String.init)
        let offset = MemoryLayout<StoredMember>.offset(of: \.age)!
        #expect(lines.contains("      age > 30: in place (a stored property at offset \(offset))"), "\(plan.description)")
        #expect(lines.contains { $0.hasPrefix("  steps (") }, "\(plan.description)")
        #expect(lines.contains { $0.hasPrefix("  shout == \"A\": typed reader") }, "\(plan.description)")
        #expect(lines.contains { $0.hasPrefix("  flag == ") && $0.contains(": general (") }, "\(plan.description)")
        #expect(lines.first == "OR")
        // Strings are compared by their inline words only where the layout
        // check holds (SIFT_LAYOUT_CHECKS=fail makes it fail).
        let name = try Self.typedPlan("name == 'Ann'", StoredMember.self)
        let words = !LayoutChecks.forcedToFail
        #expect(name.decisions[0].reason.hasSuffix(words ? "inline strings by their words" : "(layout check failed)"))
        guard case .inPlace(let leaf) = name.decisions[0].strategy else {
            Issue.record("name == 'Ann' is not read in place")
            return
        }
        #expect(leaf.inlineStrings == words)
    }

    /// Random trees over every strategy: the plan's answers are the
    /// general path's, on typed objects (structs and classes), dictionaries
    /// and tables, and every strategy is taken somewhere.
    /// `value` as JSON, when it has only JSON's kinds of value (a finite
    /// double).
    static func json(_ value: Value) -> JSONValue? {
        switch value {
        case .null, .nsNull: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return d.isFinite ? .double(d) : nil
        case .string(let s): return .string(s)
        case .array(let items):
            let converted = items.compactMap(json)
            return converted.count == items.count ? .array(converted) : nil
        case .dictionary(let d):
            var members: [(String, JSONValue)] = []
            for (k, v) in d.sorted(by: { $0.key < $1.key }) {
                guard let j = json(v) else { return nil }
                members.append((k, j))
            }
            return .object(JSONObject(members))
        default: return nil
        }
    }

    /// An answer or an error, as text (errors of any type).
    static func outcome(_ evaluate: () throws -> Bool) -> String {
        do { return try evaluate() ? "true" : "false" } catch { return "error: \(error)" }
    }

    @Test func everyStrategyAnswersAsTheGeneralPath() throws {
        var rng = SeededRandom(seed: 2027)
        let members = InPlaceProgramTests.members
        let objects = members.map(MemberObject.init)
        let values = members.map(InPlaceReaderTests.dynamicValue)
        let table = ValueTable(values)
        let records = values.map { Self.json($0).map { Array($0.jsonText.utf8) } }
        #expect(records.filter { $0 != nil }.count * 2 > records.count)
        var seen: Set<String> = []
        for _ in 0..<200 {
            let (format, arguments) = InPlaceProgramTests.tree(&rng, depth: 3)
            let filter = try Filter(format, arguments: arguments)
            let text = filter.format
            for plan in [
                Self.strategies(try Self.typedPlan(text, StoredMember.self)),
                Self.strategies(try Self.typedPlan(text, MemberObject.self)),
                Self.strategies(try Self.dynamicPlan(text)), Self.strategies(try Self.tablePlan(text, table)),
                try Self.recordPlan(text).map(Self.strategies) ?? [],
            ] {
                seen.formUnion(plan)
            }
            let general = filter.compiled(paths: .generalOnly)
            let stored = filter.compiled(for: StoredMember.self, paths: .fast)
            let object = filter.compiled(for: MemberObject.self, paths: .fast)
            let dynamic = filter.compiled(paths: .fast)
            var expected: [Int] = []
            for i in members.indices {
                let answer = EvaluationPathsTests.outcome { () throws(EvaluationError) in try general.evaluate(with: values[i]) }
                #expect(EvaluationPathsTests.outcome { () throws(EvaluationError) in try stored.evaluate(with: members[i]) } == answer, "\(text)")
                if !text.contains("flag") {  // a key MemberObject lacks
                    #expect(EvaluationPathsTests.outcome { () throws(EvaluationError) in try object.evaluate(with: objects[i]) } == answer, "\(text)")
                }
                #expect(EvaluationPathsTests.outcome { () throws(EvaluationError) in try dynamic.evaluate(with: values[i]) } == answer, "\(text)")
                // The member as a JSON record, read from its bytes (slots),
                // against the general path on the record decoded.
                if let record = records[i] {
                    let decoded = try JSONValue(parsingUTF8: record).predicateValue
                    let reference = EvaluationPathsTests.outcome { () throws(EvaluationError) in try general.evaluate(with: decoded) }
                    let raw = Self.outcome { try record.withUnsafeBytes { try dynamic.evaluate(jsonUTF8: $0) } }
                    #expect(raw == reference, "\(text) on \(String(decoding: record, as: UTF8.self))")
                }
                if answer == "true" { expected.append(i) }
            }
            #expect(try members.count(where: stored) == expected.count, "\(text)")
            #expect(try table.indices(where: filter, paths: .fast) == expected, "\(text)")
        }
        let all = [
            "in place", "typed reader", "dictionary walk", "table list", "table strings", "table column", "record slot",
            "general",
        ]
        #expect(seen == Set(all), "\(seen)")
    }
}
