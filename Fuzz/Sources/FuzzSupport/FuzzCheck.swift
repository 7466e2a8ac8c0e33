import Foundation
import Sift

/// The properties every target checks, and how a broken one is reported:
/// a trap, which libFuzzer records as a crash with the input that caused it.
public enum FuzzCheck {
    /// Stops with a message that shows the input and what went wrong.
    public static func fail(_ what: String, input: String, _ details: String...) -> Never {
        var message = "fuzz property broken: \(what)\n  input: \(quoted(input))"
        for d in details { message += "\n  " + d }
        fatalError(message)
    }

    /// A string with its escapes visible, for messages.
    public static func quoted(_ s: String) -> String {
        s.debugDescription
    }

    /// A predicate's printed form and tree, for messages.
    public static func describe(_ p: PredicateNode) -> String {
        "printed: \(quoted(FormatPrinter.format(p)))\n" + TreeDump.dump(p)
    }

    /// `parse(print(p)) == p`, and printing that tree again gives the same text.
    public static func roundTrip(_ filter: Filter, input: String) {
        let printed = filter.format
        let again: Filter
        do throws(ParseError) {
            again = try Filter(printed)
        } catch {
            fail("the printed form does not parse", input: input, "printed: \(quoted(printed))", error.rendered())
        }
        guard again == filter else {
            fail(
                "the printed form parses to another tree", input: input,
                "original " + describe(filter.predicate), "reparsed " + describe(again.predicate))
        }
        let reprinted = again.format
        guard reprinted == printed else {
            fail("printing is not stable", input: input, "printed: \(quoted(printed))", "then: \(quoted(reprinted))")
        }
    }

    /// The same for an expression parsed on its own (`ExpressionNode(format:)`).
    public static func roundTrip(_ expression: ExpressionNode, input: String) {
        let printed = FormatPrinter.format(expression)
        let again: ExpressionNode
        do throws(ParseError) {
            again = try ExpressionNode(format: printed)
        } catch {
            fail("the printed expression does not parse", input: input, "printed: \(quoted(printed))", error.rendered())
        }
        guard again == expression else {
            fail(
                "the printed expression parses to another tree", input: input, "printed: \(quoted(printed))",
                TreeDump.dump(expression), TreeDump.dump(again))
        }
    }
}

extension FuzzCheck {
    /// The JSON form of a parsed tree decodes to the same tree. Encoding may
    /// fail: Foundation's JSON coders stop at 512 levels of nesting, about
    /// 125 levels of predicate (the parser accepts 500).
    public static func codable(_ predicate: PredicateNode, input: String) {
        guard let json = try? JSONEncoder().encode(predicate) else { return }
        do {
            let decoded = try JSONDecoder().decode(PredicateNode.self, from: json)
            guard decoded == predicate else {
                fail(
                    "the JSON form decodes to another tree", input: input, describe(predicate),
                    "decoded " + describe(decoded))
            }
        } catch {
            fail(
                "the JSON form does not decode", input: input, describe(predicate),
                "json: " + String(decoding: json, as: UTF8.self), "\(error)")
        }
    }
}
