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

    private enum Child {
        case predicate(PredicateNode)
        case expression(ExpressionNode)
        case label(String)
    }

    private static func emit(
        _ label: String, _ children: [Child], prefix: String, childPrefix: String, into lines: inout [String]
    ) {
        lines.append(prefix + label)
        for (i, child) in children.enumerated() {
            let last = i == children.count - 1
            let p = childPrefix + (last ? "└─ " : "├─ ")
            let c = childPrefix + (last ? "   " : "│  ")
            switch child {
            case .predicate(let node): visit(node, prefix: p, childPrefix: c, into: &lines)
            case .expression(let node): visit(node, prefix: p, childPrefix: c, into: &lines)
            case .label(let text): lines.append(p + text)
            }
        }
    }

    private static func at(_ range: SourceRange?) -> String {
        range.map { "  @\($0)" } ?? ""
    }

    private static func visit(_ p: PredicateNode, prefix: String, childPrefix: String, into lines: inout [String]) {
        switch p.kind {
        case .constant(let b):
            emit((b ? "TRUEPREDICATE" : "FALSEPREDICATE") + at(p.range), [], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .and(let cs):
            emit("AND" + at(p.range), cs.map { .predicate($0) }, prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .or(let cs):
            emit("OR" + at(p.range), cs.map { .predicate($0) }, prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .not(let c):
            emit("NOT" + at(p.range), [.predicate(c)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .comparison(let c):
            var label = "comparison "
            if let keyword = c.modifier.keyword { label += keyword + " " }
            label += c.op.symbol
            if !c.options.isEmpty { label += "[\(c.options.letters)]" }
            emit(label + at(p.range), [.expression(c.lhs), .expression(c.rhs)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        }
    }

    private static func visit(_ e: ExpressionNode, prefix: String, childPrefix: String, into lines: inout [String]) {
        let r = at(e.range)
        switch e.kind {
        case .constant(let v):
            emit("constant \(FormatPrinter.format(.constant(v))) (\(v.typeName))" + r, [], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .evaluatedObject:
            emit("SELF" + r, [], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .variable(let name):
            emit("variable $\(name)" + r, [], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .keyPath(let keys):
            emit("keyPath \(keys.joined(separator: "."))" + r, [], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .path(let base, let keys):
            emit("path .\(keys.joined(separator: "."))" + r, [.expression(base)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .variableKey(let base, let key):
            emit("key from a variable" + r, [.expression(base), .expression(key)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .aggregate(let items):
            emit("aggregate" + r, items.map { .expression($0) }, prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .function(let f, let args):
            emit("function \(f.rawValue)" + r, args.map { .expression($0) }, prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .index(let base, let sub):
            let index: Child
            switch sub {
            case .expression(let i): index = .expression(i)
            case .first: index = .label("FIRST")
            case .last: index = .label("LAST")
            case .size: index = .label("SIZE")
            }
            emit("index" + r, [.expression(base), index], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .invocation(let receiver, let selector, let args):
            emit("FUNCTION \(selector)" + r, [.expression(receiver)] + args.map { .expression($0) }, prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .cast(let v, let type):
            emit("CAST to \(type)" + r, [.expression(v)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .ternary(let p, let a, let b):
            emit("TERNARY" + r, [.predicate(p), .expression(a), .expression(b)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .subquery(let c, let variable, let p):
            emit("SUBQUERY $\(variable)" + r, [.expression(c), .predicate(p)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .setOperation(let operation, let left, let right):
            emit(operation.keyword + r, [.expression(left), .expression(right)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .assignment(let variable, let v):
            emit("assign $\(variable)" + r, [.expression(v)], prefix: prefix, childPrefix: childPrefix, into: &lines)
        case .anyKey:
            emit("ANYKEY" + r, [], prefix: prefix, childPrefix: childPrefix, into: &lines)
        }
    }
}
