import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// `:why`: each part of a predicate for one row.
extension ReplSession {
    // MARK: - :why

    /// Each part of the predicate evaluated against row `n`, so a user sees
    /// which part failed.
    func why(_ argument: String) -> Reply {
        let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first, let n = Int(first) else {
            return failure("usage: :why N [predicate] — N is the row number in the # column")
        }
        if dataset.server != nil {
            return failure(":why evaluates rows in memory; on a PostgreSQL server the rows stay there (try :sql)")
        }
        guard n >= 1 && n <= collection.count else {
            return failure("no row \(n): \(collection.name) has rows 1 to \(collection.count)")
        }
        var filter: Filter
        let source: String
        switch self.filter(argument: parts.count > 1 ? parts[1] : "") {
        case .success(let (f, s)): (filter, source) = (f, s)
        case .failure(let e): return e.reply(style)
        }
        do {
            filter = try forRows(filter)
        } catch {
            return failure(error)
        }
        let row = collection.row(n - 1)
        var lines = table([n - 1])
        explain(filter.predicate, row: row, source: source, indent: "", into: &lines)
        return Reply(output: lines.joined(separator: "\n"))
    }

    func explain(_ node: PredicateNode, row: Value, source: String, indent: String, into lines: inout [String]) {
        let mark: String
        var note = ""
        do {
            mark = try Filter(node).evaluate(with: row, variables: variables) ? style.green("✓") : style.red("✗")
        } catch {
            mark = style.red("!")
            note = "  " + style.red(TerminalText.visible(error.message))
        }
        lines.append(indent + mark + " " + TerminalText.visible(FormatPrinter.format(node)) + note)
        let deeper = indent + "    "
        switch node.kind {
        case .and(let children), .or(let children):
            for child in children { explain(child, row: row, source: source, indent: deeper, into: &lines) }
        case .not(let child):
            explain(child, row: row, source: source, indent: deeper, into: &lines)
        case .comparison(let c):
            for operand in [c.lhs, c.rhs] {
                switch operand.kind {
                case .constant, .variable: continue
                default: break
                }
                let shown: String
                do {
                    let v = try operand.value(with: row, variables: variables, source: source)
                    shown = TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(Self.summarised(v))))
                } catch {
                    shown = style.red(TerminalText.visible(error.message))
                }
                lines.append(deeper + style.dim(TerminalText.visible(FormatPrinter.format(operand)) + " = ") + shown)
            }
        case .constant:
            break
        }
    }

    /// Objects inside a value shown by name or title, so a to-many key path
    /// prints as a short list.
    static func summarised(_ value: Value) -> Value {
        switch value {
        case .dictionary(let d):
            for key in ["name", "title"] { if let v = d[key], case .string = v { return v } }
            return .dictionary(d.mapValues { v in
                if case .dictionary = v { return .string("{…}") }
                if case .array = v { return .string("[…]") }
                return v
            })
        case .array(let items): return .array(items.map(summarised))
        case .set(let items): return .array(items.map(summarised))
        default: return value
        }
    }
}
