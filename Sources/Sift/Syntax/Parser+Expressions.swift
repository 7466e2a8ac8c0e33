extension Parser {
    // MARK: - Binary operators

    mutating func parseExpression() throws(ParseError) -> ExpressionNode {
        try descend()
        defer { level -= 1 }
        if current.kind == .variable, peek().kind == .colonEquals {
            let variable = current
            advance()
            advance()
            let value = try parseExpression()
            return ExpressionNode(
                .assignment(variable: variableName(variable), value),
                range: SourceRange(Int(variable.start), value.range?.upperBound ?? Int(variable.end)))
        }
        return try parseBinary(minimumPrecedence: OperatorTable.loosestInfix)
    }

    /// Precedence climbing over ``OperatorTable/infix``.
    private mutating func parseBinary(minimumPrecedence: Precedence) throws(ParseError) -> ExpressionNode {
        var lhs = try parseUnary()
        var wraps = 0
        defer { level -= wraps }
        while let op = OperatorTable.infix(current.kind), op.precedence >= minimumPrecedence {
            try descend()
            wraps += 1
            advance()
            let rhs = try parseBinary(
                minimumPrecedence: op.associativity == .left ? op.precedence.tighter : op.precedence)
            let range = union(lhs.range, rhs.range)
            switch op.node {
            case .function(let function): lhs = ExpressionNode(.function(function, [lhs, rhs]), range: range)
            case .set(let operation): lhs = ExpressionNode(.setOperation(operation, lhs, rhs), range: range)
            }
        }
        return lhs
    }

    private func union(_ a: SourceRange?, _ b: SourceRange?) -> SourceRange? {
        guard let a, let b else { return a ?? b }
        return a.union(b)
    }

    // MARK: - Unary operators

    private mutating func parseUnary() throws(ParseError) -> ExpressionNode {
        var prefixes: [Token] = []
        while OperatorTable.prefix(current.kind) != nil {
            prefixes.append(current)
            try descend()
            advance()
        }
        let prefixCount = prefixes.count
        defer { level -= prefixCount }
        var operand: ExpressionNode
        if let last = prefixes.last, last.kind == .minus, current.kind == .number {
            // A literal has no sign: fold `-5` into the constant -5.
            let number = current
            advance()
            operand = ExpressionNode(
                .constant(try numberValue(number, negative: true)),
                range: SourceRange(Int(last.start), Int(number.end)))
            prefixes.removeLast()
            operand = try parsePostfix(operand)
        } else {
            operand = try parsePostfix(try parsePrimary())
        }
        for prefix in prefixes.reversed() {
            let range = SourceRange(Int(prefix.start), operand.range?.upperBound ?? Int(prefix.end))
            guard let function = OperatorTable.prefix(prefix.kind) else { continue }
            if function.arity == 1 {
                operand = ExpressionNode(.function(function, [operand]), range: range)
            } else if case .constant(let value) = operand.kind, let negated = Parser.negate(value) {
                operand = ExpressionNode(.constant(negated), range: range)
            } else {
                // Unary minus is `from:subtract:(0, x)`, as in Apple's trees.
                operand = ExpressionNode(.function(function, [.constant(.int(0)), operand]), range: range)
            }
        }
        return operand
    }

    static func negate(_ value: Value) -> Value? {
        switch value {
        case .int(let i): return i == Int.min ? .double(-Double(i)) : .int(-i)
        case .double(let d): return .double(-d)
        case .decimal(let d): return .decimal(-d)
        default: return nil
        }
    }

    // MARK: - Postfix

    private mutating func parsePostfix(_ base: ExpressionNode) throws(ParseError) -> ExpressionNode {
        var expression = base
        var wraps = 0
        defer { level -= wraps }
        // The keys after dots are gathered and added to the path at once,
        // before a subscript or at the end: adding them one at a time
        // copied the path for every key, quadratic in its length.
        var keys: [String] = []
        var keysEnd = 0
        while true {
            switch current.kind {
            case .dot where peek().kind == .formatSpecifier:
                // `%K.%K`, `$t.%K`: the argument's keys (it may hold dots)
                // join the path as if written there.
                advance()
                let specifier = current
                advance()
                keys.append(contentsOf: try bindKeySpecifier(specifier))
                keysEnd = Int(specifier.end)
            case .dot where peek().kind == .variable:
                // `$a.$b`, `author.$field`: a key named by a variable's value.
                advance()
                let variable = current
                advance()
                if !keys.isEmpty {
                    expression = try appendingCounted(keys, to: expression, end: keysEnd, wraps: &wraps)
                    keys.removeAll(keepingCapacity: true)
                }
                try descend()
                wraps += 1
                let key = ExpressionNode(.variable(variableName(variable)), range: variable.range)
                expression = ExpressionNode(
                    .variableKey(expression, key: key),
                    range: SourceRange(expression.range?.lowerBound ?? Int(variable.start), Int(variable.end)))
            case .dot:
                advance()
                let component = try parseKeyComponent()
                if CollectionOperator.isOperator(component.name) {
                    // A collection operator applies the rest of the path to
                    // each element: evaluating and checking it nest, so it
                    // counts as a level (`a.@max.@max.…` is bounded as
                    // brackets are).
                    try descend()
                    wraps += 1
                }
                keys.append(component.name)
                keysEnd = component.end
            case .leftBracket:
                if !keys.isEmpty {
                    expression = appending(keys, to: expression, end: keysEnd)
                    keys.removeAll(keepingCapacity: true)
                }
                let open = current
                try descend()
                wraps += 1
                advance()
                let index: ExpressionNode.Subscript
                switch (current.kind, peek().kind) {
                case (.kwFirst, .rightBracket): index = .first; advance()
                case (.kwLast, .rightBracket): index = .last; advance()
                case (.kwSize, .rightBracket): index = .size; advance()
                case (.rightBracket, _):
                    throw error("expected an index inside '[]'", open.range.union(current.range))
                default: index = .expression(try parseExpression())
                }
                let close = try expect(.rightBracket, "']' after the index")
                let start = expression.range?.lowerBound ?? Int(open.start)
                expression = ExpressionNode(
                    .index(expression, index), range: SourceRange(start, Int(close.end)))
            default:
                return keys.isEmpty ? expression : appending(keys, to: expression, end: keysEnd)
            }
        }
    }

    private func appending(_ keys: [String], to base: ExpressionNode, end: Int) -> ExpressionNode {
        base.appending(keys, range: SourceRange(base.range?.lowerBound ?? end, end))
    }

    /// ``appending(_:to:end:)`` before a key from a variable: keys after
    /// one (`a.$b.c.$d`) wrap it in a path, a level of the tree.
    private mutating func appendingCounted(_ keys: [String], to base: ExpressionNode, end: Int, wraps: inout Int)
        throws(ParseError) -> ExpressionNode
    {
        switch base.kind {
        case .keyPath, .evaluatedObject, .path: break
        default:
            try descend()
            wraps += 1
        }
        return appending(keys, to: base, end: end)
    }

    /// A key after `.`: `name`, `#IN`, `@count`.
    private mutating func parseKeyComponent() throws(ParseError) -> (name: String, end: Int) {
        let token = current
        switch token.kind {
        case .identifier:
            advance()
            return (identifierName(token), Int(token.end))
        case .collectionOperator:
            advance()
            return (text(token), Int(token.end))
        case .kwSelf:
            // `nums.@max.self`: KVC's `self` key, the value itself.
            advance()
            return (text(token), Int(token.end))
        default:
            if isWordKeyword(token) {
                throw error(
                    "'\(text(token))' is a reserved word; write #\(text(token)) to use it as a key", token.range)
            }
            throw error("expected a key after '.', found \(found)", token.range)
        }
    }

    /// Whether a token is a keyword spelled as a word (so `#word` would escape it).
    func isWordKeyword(_ token: Token) -> Bool {
        guard token.kind != .identifier, token.kind != .end, Int(token.start) < bytes.count else { return false }
        return Lexer.isIdentifierStart(bytes[Int(token.start)])
    }

    func identifierName(_ token: Token) -> String {
        let start = Int(token.start) + Int(token.flag)  // skip '#'
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<Int(token.end)]), as: UTF8.self)
    }

    func variableName(_ token: Token) -> String {
        let start = Int(token.start) + 1 + Int(token.flag)  // skip '$' and '#'
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<Int(token.end)]), as: UTF8.self)
    }

    // MARK: - Primary expressions

    /// A primary expression. The common cases are handled here and the rest
    /// in ``parseOtherPrimary(_:)``, so that this function, which is on the
    /// recursive path of every nested `(`, keeps a small stack frame.
    private mutating func parsePrimary() throws(ParseError) -> ExpressionNode {
        let token = current
        switch token.kind {
        case .number:
            advance()
            return ExpressionNode(.constant(try numberValue(token, negative: false)), range: token.range)
        case .string:
            advance()
            return ExpressionNode(.constant(.string(try stringValue(token))), range: token.range)
        case .identifier where token.flag != 0 || (peek().kind != .leftParen && peek().kind != .colon):
            advance()
            return ExpressionNode(.keyPath([identifierName(token)]), range: token.range)
        case .leftParen:
            // A group adds no node. An operator chain counts a level for
            // each operator as it reads it, whether or not its left operand
            // is bracketed: `(a + b) + c` counts as `a + b + c` does.
            groups += 1
            defer { groups -= 1 }
            advance()
            var inner = try parseExpression()
            let close = try expect(.rightParen, "')'")
            inner.range = SourceRange(Int(token.start), Int(close.end))
            return inner
        default:
            return try parseOtherPrimary(token)
        }
    }

    @inline(never)
    private mutating func parseOtherPrimary(_ token: Token) throws(ParseError) -> ExpressionNode {
        switch token.kind {
        case .kwNull:
            advance()
            return ExpressionNode(.constant(.null), range: token.range)
        case .kwTrue, .kwFalse:
            advance()
            return ExpressionNode(.constant(.bool(token.kind == .kwTrue)), range: token.range)
        case .kwSelf:
            advance()
            return ExpressionNode(.evaluatedObject, range: token.range)
        case .kwAnyKey:
            advance()
            return ExpressionNode(.anyKey, range: token.range)
        case .variable:
            advance()
            return ExpressionNode(.variable(variableName(token)), range: token.range)
        case .formatSpecifier:
            advance()
            return try bindSpecifier(token)
        case .collectionOperator:
            advance()
            return ExpressionNode(.keyPath([text(token)]), range: token.range)
        case .identifier:
            if token.flag == 0, peek().kind == .leftParen {
                return try parseCall()
            }
            if token.flag == 0, peek().kind == .colon, peek(2).kind == .leftParen || peek(2).kind == .identifier {
                return try parseSelectorCall()
            }
            advance()
            return ExpressionNode(.keyPath([identifierName(token)]), range: token.range)
        case .leftBrace:
            return try parseAggregate()
        case .kwSubquery:
            return try parseSubquery()
        case .kwCast:
            advance()
            let (arguments, range) = try parseArguments(openedAt: token, name: "CAST")
            return try makeCast(arguments, range: range)
        default:
            throw primaryError(token)
        }
    }

    @inline(never)
    private func primaryError(_ token: Token) -> ParseError {
        switch token.kind {
        case .kwFirst, .kwLast, .kwSize:
            return error(
                "'\(text(token))' is only valid as an index, as in tags[\(text(token).uppercased())]; "
                    + "write #\(text(token)) to use it as a key", token.range)
        case .end:
            let after = position > 0 ? " after '\(text(tokens[position - 1]))'" : ""
            return error("expected an expression\(after), found the end of the input", token.range)
        default:
            if isWordKeyword(token) {
                return error(
                    "'\(text(token))' is a reserved word; write #\(text(token)) to use it as a key", token.range)
            }
            return error("expected an expression, found \(found)", token.range)
        }
    }

    /// `{a, b, c}`; folded into a constant array when every element is constant.
    private mutating func parseAggregate() throws(ParseError) -> ExpressionNode {
        let open = current
        advance()
        var elements: [ExpressionNode] = []
        if current.kind != .rightBrace {
            while true {
                elements.append(try parseExpression())
                if current.kind == .comma {
                    advance()
                    continue
                }
                break
            }
        }
        let close = try expect(.rightBrace, "',' or '}' in the list")
        let range = SourceRange(Int(open.start), Int(close.end))
        var constants: [Value] = []
        constants.reserveCapacity(elements.count)
        for element in elements {
            guard case .constant(let value) = element.kind else {
                return ExpressionNode(.aggregate(elements), range: range)
            }
            constants.append(value)
        }
        return ExpressionNode(.constant(.array(constants)), range: range)
    }

    /// `(a, b, …)` after a call name; returns the arguments and the call's range.
    private mutating func parseArguments(openedAt nameToken: Token, name: String) throws(ParseError)
        -> ([ExpressionNode], SourceRange)
    {
        _ = try expect(.leftParen, "'(' after \(name)")
        var arguments: [ExpressionNode] = []
        if current.kind != .rightParen {
            while true {
                arguments.append(try parseExpression())
                if current.kind == .comma {
                    advance()
                    continue
                }
                break
            }
        }
        let close = try expect(.rightParen, "',' or ')' in the arguments of \(name)")
        return (arguments, SourceRange(Int(nameToken.start), Int(close.end)))
    }

    /// `name(args)`: a one-part built-in, `FUNCTION(…)` or `TERNARY(…)`.
    private mutating func parseCall() throws(ParseError) -> ExpressionNode {
        let nameToken = current
        let name = text(nameToken)
        advance()
        switch name.uppercased() {
        case "FUNCTION":
            let (arguments, range) = try parseArguments(openedAt: nameToken, name: "FUNCTION")
            return try makeInvocation(arguments, range: range)
        case "TERNARY":
            return try parseTernary(nameToken)
        default:
            break
        }
        guard let function = BuiltinFunction(selector: name + ":") ?? BuiltinFunction(selector: name),
            function.hasShortForm
        else {
            throw unknownFunction(name, nameToken.range)
        }
        let (arguments, range) = try parseArguments(openedAt: nameToken, name: name)
        return try makeFunction(function, arguments, range: range)
    }

    /// `sum:(x)`, `modulus:by:(a, b)`, `castObject:toType:(x, "NSDate")`.
    private mutating func parseSelectorCall() throws(ParseError) -> ExpressionNode {
        let first = current
        var selector = ""
        while current.kind == .identifier, current.flag == 0, peek().kind == .colon {
            selector += text(current) + ":"
            advance()
            advance()
        }
        guard current.kind == .leftParen else {
            throw error("expected '(' after the function name '\(selector)', found \(found)", current.range)
        }
        let nameRange = SourceRange(Int(first.start), Int(current.start))
        switch selector {
        case "castObject:toType:":
            let (arguments, range) = try parseArguments(openedAt: first, name: selector)
            return try makeCast(arguments, range: range)
        case "objectFrom:withIndex:":
            let (arguments, range) = try parseArguments(openedAt: first, name: selector)
            guard arguments.count == 2 else { throw arityError(selector, 2, arguments.count, range) }
            return ExpressionNode(.index(arguments[0], .expression(arguments[1])), range: range)
        default:
            guard let function = BuiltinFunction(selector: selector) else {
                throw unknownFunction(selector, nameRange)
            }
            let (arguments, range) = try parseArguments(openedAt: first, name: selector)
            return try makeFunction(function, arguments, range: range)
        }
    }

    private func unknownFunction(_ name: String, _ range: SourceRange) -> ParseError {
        error("unknown function '\(name)'", range)
    }

    private func arityError(_ name: String, _ expected: Int, _ got: Int, _ range: SourceRange) -> ParseError {
        let noun = expected == 1 ? "argument" : "arguments"
        return error("\(name) takes \(expected) \(noun), got \(got)", range)
    }

    private func makeFunction(_ function: BuiltinFunction, _ arguments: [ExpressionNode], range: SourceRange)
        throws(ParseError) -> ExpressionNode
    {
        guard arguments.count == function.arity else {
            throw arityError(function.selector, function.arity, arguments.count, range)
        }
        return ExpressionNode(.function(function, arguments), range: range)
    }

    /// `CAST(value, "Type")`. A number cast to `NSDate` is folded into a date
    /// constant, which is how dates print.
    private func makeCast(_ arguments: [ExpressionNode], range: SourceRange) throws(ParseError) -> ExpressionNode {
        guard arguments.count == 2 else { throw arityError("CAST", 2, arguments.count, range) }
        guard case .constant(.string(let type)) = arguments[1].kind else {
            throw error(
                "the type in CAST must be a string such as 'NSDate'", arguments[1].range ?? range,
                fromSpecifier(arguments[1]) ? .argument : .syntax)
        }
        if type == "NSDate", case .constant(let value) = arguments[0].kind {
            switch value {
            case .int, .double, .decimal:
                if let seconds = NumericValue(value)?.doubleValue {
                    return ExpressionNode(.constant(.date(Date(timeIntervalSinceReferenceDate: seconds))), range: range)
                }
            default:
                break
            }
        }
        // The printer writes UUID and data constants as casts of strings.
        if case .constant(.string(let text)) = arguments[0].kind {
            if type == "NSUUID", let uuid = UUID(uuidString: text) {
                return ExpressionNode(.constant(.uuid(uuid)), range: range)
            }
            if type == "NSData", let data = Data(base64Encoded: text) {
                return ExpressionNode(.constant(.data(data)), range: range)
            }
        }
        return ExpressionNode(.cast(arguments[0], type: type), range: range)
    }

    /// Whether an operand was written as `%@` (or `%1$@`), which can stand
    /// for a value of any kind, so that a wrong one is the argument's fault,
    /// not the text's. (`%d` can never give a string: that is the text's.)
    private func fromSpecifier(_ e: ExpressionNode) -> Bool {
        guard let r = e.range, r.lowerBound < r.upperBound, r.upperBound <= bytes.count else { return false }
        return bytes[r.lowerBound] == UInt8(ascii: "%") && bytes[r.upperBound - 1] == UInt8(ascii: "@")
    }

    /// `FUNCTION(receiver, "selector", args…)`.
    private func makeInvocation(_ arguments: [ExpressionNode], range: SourceRange) throws(ParseError)
        -> ExpressionNode
    {
        guard arguments.count >= 2 else {
            throw error("FUNCTION takes a receiver, a selector and its arguments, got \(arguments.count)", range)
        }
        guard case .constant(.string(let selector)) = arguments[1].kind, !selector.isEmpty else {
            throw error(
                "the selector in FUNCTION must be a string such as 'uppercaseString'", arguments[1].range ?? range,
                fromSpecifier(arguments[1]) ? .argument : .syntax)
        }
        return ExpressionNode(.invocation(arguments[0], selector: selector, Array(arguments.dropFirst(2))), range: range)
    }

    /// `TERNARY(predicate, whenTrue, whenFalse)`.
    private mutating func parseTernary(_ nameToken: Token) throws(ParseError) -> ExpressionNode {
        _ = try expect(.leftParen, "'(' after TERNARY")
        let condition = try parseOr()
        _ = try expect(.comma, "',' after the condition of TERNARY")
        let whenTrue = try parseExpression()
        _ = try expect(.comma, "',' after the second argument of TERNARY")
        let whenFalse = try parseExpression()
        let close = try expect(.rightParen, "')' to close TERNARY (it takes three arguments)")
        return ExpressionNode(
            .ternary(condition, whenTrue, whenFalse), range: SourceRange(Int(nameToken.start), Int(close.end)))
    }

    /// `SUBQUERY(collection, $variable, predicate)`.
    private mutating func parseSubquery() throws(ParseError) -> ExpressionNode {
        let keyword = current
        subqueryLevel += 1
        defer { subqueryLevel -= 1 }
        if subqueryLevel > options.maximumSubqueryDepth {
            throw error(
                "SUBQUERY is nested deeper than the limit of \(options.maximumSubqueryDepth) levels "
                    + "(ParseOptions.maximumSubqueryDepth)", keyword.range, .limit)
        }
        advance()
        _ = try expect(.leftParen, "'(' after SUBQUERY")
        let collection = try parseExpression()
        _ = try expect(.comma, "',' after the collection of SUBQUERY")
        guard current.kind == .variable else {
            throw error("the second argument of SUBQUERY must be a variable such as $x, found \(found)", current.range)
        }
        let variable = variableName(current)
        advance()
        _ = try expect(.comma, "',' and a predicate after the variable of SUBQUERY")
        let predicate = try parseOr()
        let close = try expect(.rightParen, "')' to close SUBQUERY")
        return ExpressionNode(
            .subquery(collection, variable: variable, predicate),
            range: SourceRange(Int(keyword.start), Int(close.end)))
    }
}

import Foundation
