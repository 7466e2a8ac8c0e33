import Foundation

/// Prints syntax trees as Apple's canonical `predicateFormat` text.
///
/// Rules (from observed Apple output where known): one space around
/// operators; `=` prints `==`, `<>` prints `!=`, `SOME` prints `ANY`, `NONE`
/// prints `NOT ANY`; word operators upper-case with options after them
/// (`BEGINSWITH[cd]`); strings double-quoted; `TRUE`/`FALSE` print `1`/`0`;
/// dates print `CAST(<seconds since 2001>, "NSDate")`; a compound predicate
/// (AND, OR, NOT) inside a compound predicate is parenthesised
/// (`a AND (NOT b)`, `NOT (NOT a)`); an infix operation that is an operand
/// of another is parenthesised (`(a + b) + c`, `a + (b * c)`);
/// `FUNCTION(a, "sel:" , b)` has a blank before the comma after the selector
/// when arguments follow. `parse(print(p)) == p` except where Apple's text
/// itself does not parse back (`<null>`, keys that are not identifiers,
/// dictionaries).
public enum FormatPrinter {
    /// The canonical text of a predicate: `FormatPrinter.format(filter.predicate)`.
    public static func format(_ predicate: PredicateNode) -> String {
        var out = ""
        write(predicate, into: &out)
        return out
    }

    /// The canonical text of an expression: `price * (1 + 0.2)`.
    public static func format(_ expression: ExpressionNode) -> String {
        var out = ""
        write(expression, into: &out)
        return out
    }

    // MARK: - Predicates

    static func write(_ predicate: PredicateNode, into out: inout String) {
        switch predicate.kind {
        case .constant(let value):
            out += value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let children):
            writeCompound(children, separator: andSeparator, empty: "TRUEPREDICATE", into: &out)
        case .or(let children):
            writeCompound(children, separator: orSeparator, empty: "FALSEPREDICATE", into: &out)
        case .not(let child):
            out += notPrefix
            writeOperand(child, into: &out)
        case .comparison(let comparison):
            write(comparison, into: &out)
        }
    }

    /// The connectives as printed, from ``OperatorTable/connectives``.
    private static let andSeparator = " " + OperatorTable.word(.and) + " "
    private static let orSeparator = " " + OperatorTable.word(.or) + " "
    private static let notPrefix = OperatorTable.word(.not) + " "

    private static func writeCompound(
        _ children: [PredicateNode], separator: String, empty: String, into out: inout String
    ) {
        guard !children.isEmpty else {
            out += empty
            return
        }
        if children.count == 1 {
            write(children[0], into: &out)
            return
        }
        for (index, child) in children.enumerated() {
            if index > 0 { out += separator }
            writeOperand(child, into: &out)
        }
    }

    /// A child of AND, OR or NOT: parenthesised when it is itself a compound
    /// predicate. NOT is one too (Apple's NSCompoundPredicate of type NOT):
    /// Apple prints `a == 1 AND (NOT b IN {1, 2})` and, by the same rule,
    /// `NOT (NOT a == 1)`. A NOT at the top, or as the predicate of a
    /// SUBQUERY or TERNARY (which are expressions, not compounds), prints
    /// bare: `NOT name BEGINSWITH "bob"`.
    private static func writeOperand(_ child: PredicateNode, into out: inout String) {
        if precedence(child) < .comparison {
            out += "("
            write(child, into: &out)
            out += ")"
        } else {
            write(child, into: &out)
        }
    }

    /// How tightly a predicate binds as printed (see ``Precedence``).
    static func precedence(_ predicate: PredicateNode) -> Precedence {
        switch predicate.kind {
        case .or: return .or
        case .and: return .and
        case .not: return .not
        case .comparison: return .comparison
        case .constant: return .postfix
        }
    }

    private static func write(_ comparison: Comparison, into out: inout String) {
        if let keyword = comparison.modifier.keyword { out += keyword + " " }
        write(comparison.lhs, into: &out)
        out += " "
        out += comparison.op.symbol
        if !comparison.options.isEmpty {
            out += "[" + comparison.options.letters + "]"
        }
        out += " "
        write(comparison.rhs, into: &out)
    }

    // MARK: - Expressions

    /// How tightly an expression binds as printed, by the parser's table
    /// (``OperatorTable``): an infix operation at its operator's level; a
    /// negation, `~x` and a negative number as a prefix operation;
    /// everything else (calls, keys, literals) as a primary.
    static func precedence(_ expression: ExpressionNode) -> Precedence {
        switch expression.kind {
        case .assignment: return .assignment
        case .setOperation(let operation, _, _): return OperatorTable.infix(operation).precedence
        case .function(let function, let arguments):
            if function.row.prefix != nil, function.arity == 1 || isNegation(arguments) { return .prefix }
            return OperatorTable.infix(function)?.precedence ?? .postfix
        case .constant(let value):
            if let n = NumericValue(value), n.doubleValue < 0 || n.doubleValue.sign == .minus { return .prefix }
            return .postfix
        default: return .postfix
        }
    }

    /// `from:subtract:(0, x)` prints as `-x`, unless x is a number literal
    /// (`-5` would read back as the constant -5). `NO - x` too: `NO` prints
    /// as `0`, which reads back as the integer, so that the printed form
    /// prints the same again.
    private static func isNegation(_ arguments: [ExpressionNode]) -> Bool {
        guard arguments.count == 2 else { return false }
        switch arguments[0].kind {
        case .constant(.int(0)), .constant(.bool(false)): break
        default: return false
        }
        if case .constant(let value) = arguments[1].kind, value.isNumber { return false }
        return true
    }

    private static func writeWrapped(_ expression: ExpressionNode, when condition: Bool, into out: inout String) {
        if condition { out += "(" }
        write(expression, into: &out)
        if condition { out += ")" }
    }

    // swiftlint:disable:next cyclomatic_complexity
    static func write(_ expression: ExpressionNode, into out: inout String) {
        switch expression.kind {
        case .constant(let value):
            write(value, into: &out)
        case .evaluatedObject:
            out += "SELF"
        case .variable(let name):
            out += "$"
            writeKey(name, into: &out)
        case .keyPath(let components):
            writeKeyPath(components, into: &out)
        case .path(let base, let components):
            writePostfixBase(base, into: &out)
            out += "."
            writeKeyPath(components, into: &out)
        case .variableKey(let base, let key):
            // Apple's printing of `$a.$b` is not observed. Key paths print
            // their pieces joined with dots (`$a.name`), so a variable piece
            // prints as `base.$b`, which reads back as the same tree.
            writePostfixBase(base, into: &out)
            out += "."
            write(key, into: &out)
        case .aggregate(let elements):
            out += "{"
            for (index, element) in elements.enumerated() {
                if index > 0 { out += ", " }
                write(element, into: &out)
            }
            out += "}"
        case .function(let function, let arguments):
            writeFunction(function, arguments, into: &out)
        case .index(let base, let index):
            writePostfixBase(base, into: &out)
            out += "["
            switch index {
            case .first: out += "FIRST"
            case .last: out += "LAST"
            case .size: out += "SIZE"
            case .expression(let e): write(e, into: &out)
            }
            out += "]"
        case .invocation(let receiver, let selector, let arguments):
            // Apple writes a blank before the comma that follows the
            // selector (`FUNCTION(a, "pow:" , 3)`) and none without arguments
            // (`FUNCTION("a", "uppercase")`); later arguments are taken to
            // follow with ", " as everywhere else.
            out += "FUNCTION("
            write(receiver, into: &out)
            out += ", "
            writeString(selector, into: &out)
            for (index, argument) in arguments.enumerated() {
                out += index == 0 ? " , " : ", "
                write(argument, into: &out)
            }
            out += ")"
        case .cast(let value, let type):
            out += "CAST("
            write(value, into: &out)
            out += ", "
            writeString(type, into: &out)
            out += ")"
        case .ternary(let condition, let whenTrue, let whenFalse):
            out += "TERNARY("
            write(condition, into: &out)
            out += ", "
            write(whenTrue, into: &out)
            out += ", "
            write(whenFalse, into: &out)
            out += ")"
        case .subquery(let collection, let variable, let predicate):
            out += "SUBQUERY("
            write(collection, into: &out)
            out += ", $"
            writeKey(variable, into: &out)
            out += ", "
            write(predicate, into: &out)
            out += ")"
        case .setOperation(let operation, let left, let right):
            // `a UNION b MINUS c` groups to the left, so a set expression on
            // the right is bracketed; so is an assignment on either side,
            // which would take the rest as its value.
            let op = OperatorTable.infix(operation)
            writeWrapped(left, when: op.brackets(precedence(left), onLeft: true), into: &out)
            out += " " + op.spelling + " "
            writeWrapped(right, when: op.brackets(precedence(right), onLeft: false), into: &out)
        case .assignment(let variable, let value):
            out += "$"
            writeKey(variable, into: &out)
            out += " := "
            write(value, into: &out)
        case .anyKey:
            out += "ANYKEY"
        }
    }

    /// The base of `.key` or `[index]`: parenthesised unless it is a primary
    /// that is not a number (`5.x` would lex as a malformed number).
    private static func writePostfixBase(_ base: ExpressionNode, into out: inout String) {
        var needsParentheses = precedence(base) < .postfix
        if case .constant(let value) = base.kind, value.isNumber { needsParentheses = true }
        writeWrapped(base, when: needsParentheses, into: &out)
    }

    /// An operand of an infix operator is parenthesised when it is itself an
    /// infix operation (or an assignment), whatever the precedences, as Apple
    /// prints it: `("b\"" + $b) + $c`, `(a * b) + c`, `(2 ** 3) ** 2`. A
    /// prefix `-x` or `~x` binds tighter than every infix operator and prints
    /// bare (`-b * 2`). Arguments of calls, subscripts and aggregates are not
    /// operands of an operator and print bare (`abs:(a - b)`, `tags[i + 1]`).
    private static func writeFunction(_ function: BuiltinFunction, _ arguments: [ExpressionNode], into out: inout String) {
        let level = precedence(ExpressionNode(.function(function, arguments)))
        if let op = OperatorTable.infix(function), arguments.count == 2, level < .prefix {
            writeWrapped(arguments[0], when: op.brackets(precedence(arguments[0]), onLeft: true), into: &out)
            out += " " + op.spelling + " "
            writeWrapped(arguments[1], when: op.brackets(precedence(arguments[1]), onLeft: false), into: &out)
            return
        }
        if level == .prefix, let prefix = function.row.prefix, let operand = arguments.last {
            out += prefix.spelling
            let start = out.endIndex
            writeWrapped(operand, when: precedence(operand) < .prefix, into: &out)
            if out[start...].hasPrefix("-") { out.insert(" ", at: start) }
            return
        }
        out += function.selector
        out += "("
        for (index, argument) in arguments.enumerated() {
            if index > 0 { out += ", " }
            write(argument, into: &out)
        }
        out += ")"
    }

    // MARK: - Keys

    private static func writeKeyPath(_ components: [String], into out: inout String) {
        for (index, component) in components.enumerated() {
            if index > 0 {
                out += "."
                // KVC's `self` key after a dot prints as written (`nums.@max.self`).
                if component.lowercased() == "self" {
                    out += component
                    continue
                }
            }
            writeKey(component, into: &out)
        }
    }

    /// A key, with `#` before reserved words. Keys that are not identifiers
    /// (from `%K`) print as they are, as Apple prints them.
    private static func writeKey(_ key: String, into out: inout String) {
        if Lexer.isReserved(key) { out += "#" }
        out += key
    }

    // MARK: - Values

    /// How Booleans print: as 1 and 0, as in Apple's `predicateFormat`, or
    /// as `true` and `false`, which keep their kind (``Value/description``).
    enum Booleans { case digits, words }

    static func write(_ value: Value, into out: inout String, booleans: Booleans = .digits) {
        switch value {
        case .null: out += "nil"
        case .nsNull: out += "<null>"
        case .bool(let b): out += booleans == .digits ? (b ? "1" : "0") : (b ? "true" : "false")
        case .int(let i): out += String(i)
        case .double(let d): out += formatDouble(d)
        case .decimal(let d): out += d.description
        case .string(let s): writeString(s, into: &out)
        case .date(let date):
            out += "CAST("
            out += formatSeconds(date.timeIntervalSinceReferenceDate)
            out += ", \"NSDate\")"
        case .data(let data):
            out += "CAST(\"" + data.base64EncodedString() + "\", \"NSData\")"
        case .uuid(let uuid):
            out += "CAST(\"" + uuid.uuidString + "\", \"NSUUID\")"
        case .array(let elements):
            writeList(elements.map { element in
                var text = ""
                write(element, into: &text, booleans: booleans)
                return text
            }, into: &out)
        case .set(let elements):
            writeList(elements.map { element in
                var text = ""
                write(element, into: &text, booleans: booleans)
                return text
            }.sorted(), into: &out)
        case .dictionary(let dictionary):
            // Apple prints an NSDictionary's description, which does not parse back.
            out += "{"
            for key in dictionary.keys.sorted() {
                out += key + " = "
                write(dictionary[key] ?? .null, into: &out, booleans: booleans)
                out += "; "
            }
            out += "}"
        case .object(let object):
            // Apple prints the object's description, which does not parse back.
            out += "<" + object.description + ">"
        }
    }

    private static func writeList(_ items: [String], into out: inout String) {
        out += "{"
        out += items.joined(separator: ", ")
        out += "}"
    }

    /// Shortest text that reads back as the same double; whole values keep
    /// `.0` so they stay doubles (integer division depends on it).
    static func formatDouble(_ d: Double) -> String {
        if d.isNaN { return "nan" }
        if d.isInfinite { return d < 0 ? "-1e999" : "1e999" }
        return d.description
    }

    /// Seconds for a date: whole seconds without a fraction, as Apple prints them.
    private static func formatSeconds(_ seconds: Double) -> String {
        if seconds == seconds.rounded(), abs(seconds) < 1e15 { return String(Int(seconds)) }
        return formatDouble(seconds)
    }

    /// A string between double quotes, as Apple prints one: `"` and `\`
    /// escaped with a backslash (observed: `"Quote \""`, `"Quote \\"`,
    /// SPEC §11), every other character as it is, a tab, a carriage return
    /// or another control character included (observed on iOS: the
    /// `predicateFormat` of `identifier == %@` with `"Can't Do i\t"` holds a
    /// real tab, zmian/xcore's PredicateQueryTests; conformance case
    /// ob-185). Two characters are escaped, so that the text reads back:
    /// a line feed prints as `\n`, because Apple's parser refuses a raw one
    /// inside quotes and so does Sift's (``Lexer``, conformance case
    /// str-027); NUL prints as `\u0000`, because a format string handed over
    /// as a C string (a command-line argument) ends at a raw one.
    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\0": out += "\\u0000"
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension PredicateNode: CustomStringConvertible {
    /// The canonical format string.
    public var description: String { FormatPrinter.format(self) }
}

extension ExpressionNode: CustomStringConvertible {
    /// The canonical format string.
    public var description: String { FormatPrinter.format(self) }
}
