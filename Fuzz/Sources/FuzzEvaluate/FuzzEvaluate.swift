import FuzzSupport
import Sift

/// Parse, bind and evaluate against fixed objects. For every input: no
/// crash or trap (an `EvaluationError` is an answer, like `true` and
/// `false`); variables supplied when evaluating answer as the same values
/// substituted into the filter; a filter compiled for a type answers as the
/// same filter evaluated dynamically on the boxed object (both unless the
/// filter calls `random`, `randomn:` or `now`). Input that parses
/// as an expression is evaluated too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let filter = input.filter else {
        evaluateExpression(input.text)
        return 0
    }
    let variables = FuzzFixtures.variables
    let deterministic = (try? FuzzFixtures.deterministic.check(filter)) != nil

    let late = answer { () throws(EvaluationError) in
        try filter.compiled().evaluate(with: FuzzFixtures.object, variables: variables)
    }
    let bound: Filter
    do throws(ParseError) {
        bound = try filter.substituting(variables.mapValues { $0 as any ValueConvertible }, allowingUnbound: true)
    } catch where error.code == .argument && error.message.contains("after '.' names a key") {
        // A variable after a dot whose value is not a key path (`a.$MIN`):
        // substituting it is an error; evaluating is one only if it is read.
        return 0
    } catch {
        FuzzCheck.fail("substituting with allowingUnbound threw", input: input.text, error.rendered())
    }
    let early = answer { () throws(EvaluationError) in try bound.compiled().evaluate(with: FuzzFixtures.object) }
    if deterministic {
        expectSame(late, early, input: input, "variables when evaluating", "substituted: \(FuzzCheck.quoted(bound.format))")
    }

    let record = FuzzRecord.sample
    let dynamic = answer { () throws(EvaluationError) in try bound.compiled().evaluate(with: record) }
    let typed = answer { () throws(EvaluationError) in
        try bound.compiled(for: FuzzRecord.self).evaluate(with: record)
    }
    if deterministic {
        expectSame(dynamic, typed, input: input, "dynamic on FuzzRecord", "compiled for FuzzRecord")
    }
    return 0
}

/// `true`, `false`, or the error's code (messages may differ between the
/// ways of evaluating; the outcome may not).
private enum Answer: Equatable, CustomStringConvertible {
    case value(Bool)
    case error(EvaluationError.Code, String)

    static func == (a: Answer, b: Answer) -> Bool {
        switch (a, b) {
        case (.value(let x), .value(let y)): return x == y
        case (.error(let x, _), .error(let y, _)): return x == y
        default: return false
        }
    }

    var description: String {
        switch self {
        case .value(let b): return "\(b)"
        case .error(_, let rendered): return rendered
        }
    }
}

private func answer(_ body: () throws(EvaluationError) -> Bool) -> Answer {
    do throws(EvaluationError) {
        return .value(try body())
    } catch {
        return .error(error.code, error.rendered())
    }
}

private func expectSame(_ a: Answer, _ b: Answer, input: FuzzInput, _ aName: String, _ bName: String) {
    guard a != b else { return }
    FuzzCheck.fail("two ways of evaluating answer differently", input: input.text, "\(aName): \(a)", "\(bName): \(b)")
}

private func evaluateExpression(_ text: String) {
    guard let expression = try? FormatParser.parseExpression(text, arguments: FuzzFixtures.arguments) else { return }
    do throws(EvaluationError) {
        _ = try expression.value(with: FuzzFixtures.object, variables: FuzzFixtures.variables, source: text)
    } catch {
        _ = error.rendered()
    }
}
