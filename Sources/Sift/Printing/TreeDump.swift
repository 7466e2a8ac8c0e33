/// An indented outline of a syntax tree, one node a line, for `sift ast` and
/// the REPL's `:ast`:
///
///     AND
///     ├─ comparison BEGINSWITH[c]
///     │  ├─ keyPath name
///     │  └─ constant "ste"
///     …
public enum TreeDump {
    /// The outline of a predicate, one node a line.
    public static func dump(_ predicate: PredicateNode) -> String {
        var lines: [String] = []
        visit(predicate, prefix: "", childPrefix: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    /// The outline of an expression, one node a line.
    public static func dump(_ expression: ExpressionNode) -> String {
        var lines: [String] = []
        visit(expression, prefix: "", childPrefix: "", into: &lines)
        return lines.joined(separator: "\n")
    }

    private enum Line {
        case node(SyntaxChild.Node)
        case label(String)
    }

    private static func at(_ range: SourceRange?) -> String {
        range.map { "  @\($0)" } ?? ""
    }

    private static func visit(_ p: PredicateNode, prefix: String, childPrefix: String, into lines: inout [String]) {
        visit(.predicate(p), prefix: prefix, childPrefix: childPrefix, into: &lines)
    }

    private static func visit(_ e: ExpressionNode, prefix: String, childPrefix: String, into lines: inout [String]) {
        visit(.expression(e), prefix: prefix, childPrefix: childPrefix, into: &lines)
    }

    /// The node's line, then its children's (an index's `FIRST`, `LAST`,
    /// `SIZE` as a line of its own).
    private static func visit(_ node: SyntaxChild.Node, prefix: String, childPrefix: String, into lines: inout [String]) {
        var children = node.children.map { Line.node($0.node) }
        switch node {
        case .predicate(let p):
            lines.append(prefix + label(p) + at(p.range))
        case .expression(let e):
            lines.append(prefix + label(e) + at(e.range))
            if case .index(_, let sub) = e.kind, let word = subscriptWord(sub) { children.append(.label(word)) }
        }
        for (i, child) in children.enumerated() {
            let last = i == children.count - 1
            let p = childPrefix + (last ? "└─ " : "├─ ")
            let c = childPrefix + (last ? "   " : "│  ")
            switch child {
            case .node(let node): visit(node, prefix: p, childPrefix: c, into: &lines)
            case .label(let text): lines.append(p + text)
            }
        }
    }

    private static func subscriptWord(_ sub: ExpressionNode.Subscript) -> String? {
        switch sub {
        case .expression: return nil
        case .first: return "FIRST"
        case .last: return "LAST"
        case .size: return "SIZE"
        }
    }

    private static func label(_ p: PredicateNode) -> String {
        switch p.kind {
        case .constant(let b): return b ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and: return "AND"
        case .or: return "OR"
        case .not: return "NOT"
        case .comparison(let c):
            var label = "comparison "
            if let keyword = c.modifier.keyword { label += keyword + " " }
            label += c.op.symbol
            if !c.options.isEmpty { label += "[\(c.options.letters)]" }
            return label
        }
    }

    /// The node's line: what it is, without its children. A kind with
    /// nothing more to say shows its name (`aggregate`, `index`).
    private static func label(_ e: ExpressionNode) -> String {
        switch e.kind {
        case .constant(let v): return "constant \(FormatPrinter.format(.constant(v))) (\(v.typeName))"
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "variable $\(name)"
        case .keyPath(let keys): return "keyPath \(keys.joined(separator: "."))"
        case .path(_, let keys): return "path .\(keys.joined(separator: "."))"
        case .variableKey: return "key from a variable"
        case .function(let f, _): return "function \(f.rawValue)"
        case .invocation(_, let selector, _): return "FUNCTION \(selector)"
        case .cast(_, let type): return "CAST to \(type)"
        case .ternary: return "TERNARY"
        case .subquery(_, let variable, _): return "SUBQUERY $\(variable)"
        case .setOperation(let operation, _, _): return operation.keyword
        case .assignment(let variable, _): return "assign $\(variable)"
        case .anyKey: return "ANYKEY"
        default: return caseName(e.kind)
        }
    }

    /// The name of `kind`'s case: `aggregate` for `.aggregate([…])`.
    private static func caseName(_ kind: ExpressionNode.Kind) -> String {
        Mirror(reflecting: kind).children.first?.label ?? "\(kind)"
    }
}
