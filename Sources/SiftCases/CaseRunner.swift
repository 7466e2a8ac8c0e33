import Sift

/// Runs conformance cases: one JSON object per line,
/// `{"id", "format", "args"?, "vars"?, "object", "expect"?, "canonical"?, "canonical_subst"?}`.
/// `sift check` and the test suite share this code path.
public struct CaseRunner: Sendable {
    public init() {}

    /// What happened to one case.
    public struct Outcome: Sendable, Hashable {
        public var id: String
        /// The stage that failed (`parse`, `bind` or `eval`), or nil on success.
        public var stage: String?
        public var error: String?
        public var result: Bool?
        /// The canonical text right after parsing (arguments bound, variables not).
        public var canonical: String?
        /// The canonical text after substituting `vars`.
        public var canonicalSubstituted: String?

        public var ok: Bool { stage == nil }

        /// The output line of `sift check`.
        public var jsonLine: String {
            var o = JSONObject()
            o["id"] = .string(id)
            o["ok"] = .bool(ok)
            if let result { o["result"] = .bool(result) }
            if let canonical { o["canonical"] = .string(canonical) }
            if let canonicalSubstituted, canonicalSubstituted != canonical {
                o["canonical_subst"] = .string(canonicalSubstituted)
            }
            if let stage { o["stage"] = .string(stage) }
            if let error { o["error"] = .string(error) }
            return JSONValue.object(o).jsonText
        }
    }

    /// What a case expects, and whether an outcome meets it.
    public struct Expectation: Sendable, Hashable {
        public var expect: JSONValue?
        public var canonical: String?
        public var canonicalSubstituted: String?

        /// Reasons the outcome differs from the expectation; empty if it meets it.
        public func mismatches(_ outcome: Outcome) -> [String] {
            var problems: [String] = []
            switch expect {
            case .bool(let b)?:
                if outcome.result != b {
                    problems.append(
                        "expected \(b), got " + (outcome.result.map { "\($0)" } ?? "\(outcome.stage ?? "") error: \(outcome.error ?? "")"))
                }
            case .string("parse_error")?:
                if outcome.stage != "parse" && outcome.stage != "bind" {
                    problems.append("expected a parse error, got " + (outcome.stage.map { "an error at \($0)" } ?? "success"))
                }
            case .string("eval_error")?:
                if outcome.stage != "eval" {
                    problems.append("expected an evaluation error, got " + (outcome.stage.map { "an error at \($0): \(outcome.error ?? "")" } ?? "success"))
                }
            case .string("error")?:
                if outcome.ok { problems.append("expected an error, got success") }
            default:
                break
            }
            if let canonical, outcome.canonical != canonical {
                problems.append("expected canonical \(canonical), got \(outcome.canonical ?? "none")")
            }
            if let canonicalSubstituted, outcome.canonicalSubstituted != canonicalSubstituted {
                problems.append("expected substituted canonical \(canonicalSubstituted), got \(outcome.canonicalSubstituted ?? "none")")
            }
            return problems
        }
    }

    /// A case read from a line.
    public struct Case: Sendable {
        public var id: String
        public var format: String
        public var arguments: [FormatArgument]
        public var variables: [String: Value]?
        public var object: Value
        public var expectation: Expectation
    }

    /// Reads one line. Throws a message if the line is not a valid case.
    public func readCase(_ line: String) throws(CaseValues.ConversionError) -> Case {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: line)
        } catch {
            throw CaseValues.ConversionError(description: "invalid JSON: \(error)")
        }
        guard case .object(let o) = json else {
            throw CaseValues.ConversionError(description: "a case is a JSON object")
        }
        guard case .string(let format)? = o["format"] else {
            throw CaseValues.ConversionError(description: "a case needs a \"format\" string")
        }
        let id: String
        switch o["id"] {
        case .string(let s)?: id = s
        case let other?: id = other.jsonText
        case nil: id = ""
        }
        var arguments: [FormatArgument] = []
        if let args = o["args"] {
            guard case .array(let list) = args else {
                throw CaseValues.ConversionError(description: "\"args\" must be an array")
            }
            for item in list { arguments.append(try CaseValues.argument(item)) }
        }
        let variables = try o["vars"].map { (v) throws(CaseValues.ConversionError) in try CaseValues.variables(v) }
        let object = try CaseValues.object(o["object"] ?? .null)
        var expectation = Expectation()
        expectation.expect = o["expect"]
        if case .string(let c)? = o["canonical"] { expectation.canonical = c }
        if case .string(let c)? = o["canonical_subst"] { expectation.canonicalSubstituted = c }
        return Case(
            id: id, format: format, arguments: arguments, variables: variables, object: object,
            expectation: expectation)
    }

    /// Parses, binds and evaluates one case.
    public func run(_ c: Case) -> Outcome {
        var outcome = Outcome(id: c.id)
        let filter: Filter
        do {
            filter = try Filter(c.format, arguments: c.arguments)
        } catch {
            outcome.stage = error.code.stage
            outcome.error = error.description
            return outcome
        }
        outcome.canonical = filter.format
        var bound = filter
        if let variables = c.variables {
            // Variables the case gives no value for stay in place: evaluating
            // them is the error, as in Foundation.
            do {
                bound = try filter.substituting(variables, allowingUnbound: true)
            } catch {
                outcome.stage = error.code.stage
                outcome.error = error.description
                return outcome
            }
            outcome.canonicalSubstituted = bound.format
        }
        do {
            outcome.result = try bound.compiled().evaluate(with: c.object)
        } catch {
            outcome.stage = "eval"
            outcome.error = error.description
        }
        return outcome
    }

    /// Runs one input line (a case, or an error outcome if the line is not one).
    public func run(line: String, number: Int) -> (Outcome, Expectation) {
        do {
            let c = try readCase(line)
            return (run(c), c.expectation)
        } catch {
            var outcome = Outcome(id: "line \(number)")
            outcome.stage = "parse"
            outcome.error = "line \(number): \(error)"
            return (outcome, Expectation())
        }
    }
}
