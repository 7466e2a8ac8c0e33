import FuzzSupport
import Sift

/// Parse and print. For every input: no crash or trap; a predicate that
/// parses prints in a form that parses back to the same tree and prints the
/// same again; the same holds for the input parsed as an expression. Error
/// rendering, tree dumps, the JSON form and policy checks run on the way.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    if let filter = input.filter {
        FuzzCheck.roundTrip(filter, input: input.text)
        FuzzCheck.codable(filter.predicate, input: input.text)
        _ = TreeDump.dump(filter.predicate)
        _ = filter.variableNames
        do throws(PolicyViolation) {
            _ = try filter.checked(by: untrusted)
        } catch {
            _ = error.rendered()
        }
    }
    do throws(ParseError) {
        let expression = try FormatParser.parseExpression(input.text, arguments: FuzzFixtures.arguments)
        FuzzCheck.roundTrip(expression, input: input.text)
        _ = TreeDump.dump(expression)
    } catch {
        _ = error.rendered()
    }
    return 0
}

private let untrusted = PredicatePolicy.untrusted(keyPaths: ["name", "age", "author.name", "tags", "authors.*"])
