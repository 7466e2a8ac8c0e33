extension Parser {
    /// Substitutes the argument of a format specifier, as Apple's parser does
    /// while it reads the string. Errors point at the specifier.
    mutating func bindSpecifier(_ token: Token) throws(ParseError) -> ExpressionNode {
        let conversion = token.flag
        let spec = text(token)
        if conversion == UInt8(ascii: "%") {
            return ExpressionNode(.constant(.string("%")), range: token.range)
        }
        let argument = try takeArgument(token)

        switch conversion {
        case UInt8(ascii: "K"):
            return ExpressionNode(.keyPath(try keys(of: argument, token)), range: token.range)
        case UInt8(ascii: "@"):
            switch argument {
            case .value(let value): return ExpressionNode(.constant(value), range: token.range)
            case .expression(let expression): return withRange(expression, token.range)
            case .predicate: throw error("unreachable", token.range, .argument)
            }
        default:
            guard case .value(let value) = argument else {
                throw error("\(spec) needs a value, got an expression; use %@ to insert an expression", token.range, .argument)
            }
            return ExpressionNode(.constant(try convert(value, for: conversion, spec: spec, range: token.range)), range: token.range)
        }
    }

    /// The keys of a `%K` after a dot (`%K.%K`, `$t.%K`), which extend the
    /// key path before it: the argument may hold dots, as anywhere else.
    /// Only `%K` names a key; the other specifiers insert values.
    mutating func bindKeySpecifier(_ token: Token) throws(ParseError) -> [String] {
        guard token.flag == UInt8(ascii: "K") else {
            throw error(
                "expected a key after '.', found \(text(token)): only %K stands for a key "
                    + "(the other specifiers insert values)", token.range)
        }
        return try keys(of: try takeArgument(token), token)
    }

    /// The argument a specifier stands for (the next one, or the one its
    /// position names), which must exist and must not be a predicate.
    private mutating func takeArgument(_ token: Token) throws(ParseError) -> FormatArgument {
        let spec = text(token)
        let index: Int
        if let dollar = spec.firstIndex(of: "$") {
            // The lexer takes a position only as digits that start with 1 to
            // 9 (`%0$@` is not a specifier, as positions start at 1), so the
            // number fails to convert only when it is larger than Int.max.
            // That is an error: taking the next argument instead would bind
            // a value the string does not ask for.
            guard let position = Int(spec[spec.index(after: spec.startIndex)..<dollar]) else {
                throw error(
                    "the argument position in \(spec) is too large", token.range, .argument)
            }
            index = position - 1
        } else {
            index = nextArgument
            nextArgument += 1
        }
        guard index < arguments.count else {
            let given = arguments.count == 1 ? "1 was given" : "\(arguments.count) were given"
            throw error(
                "missing format argument for \(spec): it needs argument \(index + 1) but \(given)", token.range,
                .argument)
        }
        argumentsUsed = max(argumentsUsed, index + 1)
        let argument = arguments[index]

        if case .predicate = argument {
            throw error(
                "\(spec) cannot stand for a predicate: format arguments are values, key paths or expressions; "
                    + "combine predicates with AND, OR and NOT instead", token.range, .argument)
        }
        return argument
    }

    /// The keys a `%K` argument names: a key path string (split at dots)
    /// or a key path expression.
    private func keys(of argument: FormatArgument, _ token: Token) throws(ParseError) -> [String] {
        switch argument {
        case .value(.string(let path)):
            guard let keys = ExpressionNode.keys(ofKeyPath: path) else {
                throw error(
                    "%K needs a key path, got \(path.isEmpty ? "an empty string" : "\"\(path)\", which has an empty key")",
                    token.range, .argument)
            }
            return keys
        case .expression(let expression):
            if case .keyPath(let keys) = expression.kind { return keys }
            throw error("%K needs a key path string, got an expression", token.range, .argument)
        case .value(let value):
            throw error("%K needs a key path string, got \(describe(value))", token.range, .argument)
        case .predicate:
            throw error("%K needs a key path string, got a predicate", token.range, .argument)
        }
    }

    private func withRange(_ expression: ExpressionNode, _ range: SourceRange) -> ExpressionNode {
        var copy = expression
        copy.range = range
        return copy
    }

    private func describe(_ value: Value) -> String {
        value.isNull ? "nil" : "a value of type \(value.typeName)"
    }

    /// Converts an argument for a numeric, character or C-string specifier.
    private func convert(_ value: Value, for conversion: UInt8, spec: String, range: SourceRange) throws(ParseError)
        -> Value
    {
        switch conversion {
        case UInt8(ascii: "d"), UInt8(ascii: "i"), UInt8(ascii: "D"), UInt8(ascii: "u"), UInt8(ascii: "U"),
            UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "o"), UInt8(ascii: "O"):
            guard let number = NumericValue(value) else {
                throw error("\(spec) needs an integer, got \(describe(value))", range, .argument)
            }
            switch number {
            case .int(let i): return .int(i)
            case .double(let d):
                guard let i = Int(exactly: d.rounded(.towardZero)) else {
                    throw error("\(spec) needs an integer, got \(d)", range, .argument)
                }
                return .int(i)
            case .decimal:
                guard let i = Int(exactly: number.doubleValue.rounded(.towardZero)) else {
                    throw error("\(spec) needs an integer, got \(describe(value))", range, .argument)
                }
                return .int(i)
            }
        case UInt8(ascii: "f"), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "g"), UInt8(ascii: "G"):
            guard let number = NumericValue(value) else {
                throw error("\(spec) needs a number, got \(describe(value))", range, .argument)
            }
            return .double(number.doubleValue)
        case UInt8(ascii: "c"), UInt8(ascii: "C"):
            switch value {
            case .string(let s) where s.unicodeScalars.count == 1: return value
            case .int(let code):
                if let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: code)), code >= 0, code <= 0x10FFFF {
                    return .string(String(scalar))
                }
                throw error("\(spec) needs a character, got \(code)", range, .argument)
            default:
                throw error("\(spec) needs a single character, got \(describe(value))", range, .argument)
            }
        default:  // s, S
            guard case .string = value else {
                throw error("\(spec) needs a string, got \(describe(value))", range, .argument)
            }
            return value
        }
    }
}
