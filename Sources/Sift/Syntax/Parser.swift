/// Recursive-descent parser over the token array.
///
/// Precedence and associativity are ``Precedence`` and ``OperatorTable``'s:
/// OR < AND < NOT < comparison < set operations < `|` < `^` < `&` < shifts
/// < `+` `-` < `*` `/` < `**` < unary `-` `~` < postfix `.key` `[index]`.
///
/// Recursion happens only at brackets, whose depth is checked before parsing
/// starts. `NOT NOT …`, `- - …`, `a + b + …` and `a[0][0]…` are parsed with
/// loops, but each still nests the tree one level deeper, and code that walks
/// the tree (printing, evaluation, even destroying it) recurses; ``level``
/// counts the parser's depth and, without the grouping brackets
/// (``groups``), the depth of the tree being built, so that no input can
/// build one deep enough to overflow the stack.
struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: String
    let tokens: [Token]
    /// For each opening bracket token, the index of its closing token.
    let matching: [Int32]
    var position = 0
    let arguments: [FormatArgument]
    var nextArgument = 0
    var argumentsUsed = 0
    let options: ParseOptions
    /// The depth of the parser's recursion at the current point (see above).
    var level = 0
    /// How many of those levels are grouping brackets that add no node to
    /// the tree: a `(…)` around an expression, or around a predicate that is
    /// not an AND/OR compound. The depth limit applies to `level - groups`,
    /// the depth of the tree; the brackets themselves are bounded where they
    /// are matched.
    /// Printing parenthesises a compound inside a compound and an operation
    /// inside an operation (`NOT (NOT a)`, `(a + b) + c`, as Apple does), so
    /// counting a group and the node inside it would refuse the printed form
    /// of a tree that parsed.
    var groups = 0
    /// How many `SUBQUERY`s enclose the current point.
    var subqueryLevel = 0

    init(
        bytes: UnsafeBufferPointer<UInt8>, source: String, tokens: [Token], arguments: [FormatArgument],
        options: ParseOptions
    ) throws(ParseError) {
        self.bytes = bytes
        self.source = source
        self.tokens = tokens
        self.arguments = arguments
        self.options = options
        self.matching = try Parser.matchBrackets(tokens, source: source, maximumDepth: options.maximumDepth)
    }

    /// Pairs every bracket with its partner in one pass, checking depth.
    private static func matchBrackets(_ tokens: [Token], source: String, maximumDepth: Int) throws(ParseError)
        -> [Int32]
    {
        var matching = [Int32](repeating: -1, count: tokens.count)
        var stack: [Int] = []
        for (index, token) in tokens.enumerated() {
            switch token.kind {
            case .leftParen, .leftBracket, .leftBrace:
                stack.append(index)
                if stack.count > maximumDepth {
                    throw ParseError(
                        .limit, "nesting is deeper than the limit of \(maximumDepth) levels", range: token.range,
                        source: source)
                }
            case .rightParen, .rightBracket, .rightBrace:
                let close = closer(token.kind)
                guard let open = stack.popLast() else {
                    throw ParseError(.syntax, "unmatched '\(close)'", range: token.range, source: source)
                }
                let opening = tokens[open]
                let expected = closer(partner(opening.kind))
                guard expected == close else {
                    throw ParseError(
                        .syntax, "expected '\(expected)' to close the '\(closer(opening.kind))' at column "
                            + "\(DiagnosticRenderer.lineAndColumn(of: Int(opening.start), in: source).column), found '\(close)'",
                        range: token.range, source: source)
                }
                matching[open] = Int32(index)
            default:
                break
            }
        }
        if let open = stack.last {
            let opening = tokens[open]
            throw ParseError(
                .syntax, "this '\(closer(opening.kind))' is never closed: expected '\(closer(partner(opening.kind)))'",
                range: opening.range, source: source)
        }
        return matching
    }

    private static func partner(_ kind: TokenKind) -> TokenKind {
        switch kind {
        case .leftParen: return .rightParen
        case .leftBracket: return .rightBracket
        default: return .rightBrace
        }
    }

    private static func closer(_ kind: TokenKind) -> String {
        switch kind {
        case .leftParen: return "("
        case .rightParen: return ")"
        case .leftBracket: return "["
        case .rightBracket: return "]"
        case .leftBrace: return "{"
        default: return "}"
        }
    }

    // MARK: - Token access

    var current: Token { tokens[position] }

    func peek(_ offset: Int = 1) -> Token {
        tokens[min(position + offset, tokens.count - 1)]
    }

    mutating func advance() { if position < tokens.count - 1 { position += 1 } }

    func text(_ token: Token) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[Int(token.start)..<Int(token.end)]), as: UTF8.self)
    }

    func error(_ message: String, _ range: SourceRange, _ code: ParseError.Code = .syntax) -> ParseError {
        ParseError(code, message, range: range, source: source)
    }

    /// A description of the current token for "found …" messages.
    var found: String {
        current.kind == .end ? "the end of the input" : "'\(text(current))'"
    }

    mutating func expect(_ kind: TokenKind, _ what: String) throws(ParseError) -> Token {
        guard current.kind == kind else {
            throw error("expected \(what), found \(found)", current.range)
        }
        let token = current
        advance()
        return token
    }

    // MARK: - Entry points

    mutating func parseWholePredicate() throws(ParseError) -> PredicateNode {
        guard current.kind != .end else {
            throw error("the format string is empty: expected a predicate", current.range)
        }
        let predicate = try parseOr()
        try finish(what: "predicate")
        return predicate
    }

    mutating func parseWholeExpression() throws(ParseError) -> ExpressionNode {
        guard current.kind != .end else {
            throw error("the format string is empty: expected an expression", current.range)
        }
        let expression = try parseExpression()
        try finish(what: "expression")
        return expression
    }

    private mutating func finish(what: String) throws(ParseError) {
        guard current.kind == .end else {
            if isComparisonOperator(at: position) {
                throw error("comparisons cannot be chained; combine them with AND", current.range)
            }
            throw error("unexpected \(found) after the end of the \(what)", current.range)
        }
        if options.rejectsExtraArguments && argumentsUsed < arguments.count {
            throw error(
                "\(arguments.count) format arguments were given but the format uses \(argumentsUsed)",
                .at(bytes.count), .argument)
        }
    }

    // MARK: - Predicates

    /// Goes `count` levels deeper into the tree, failing past the limit.
    /// The allowance of two over ``ParseOptions/maximumDepth`` is for the
    /// top-level predicate and its comparison, so that exactly
    /// `maximumDepth` nested function calls or `NOT`s are accepted. The
    /// stack is watched by the parser's own depth, groups included.
    mutating func descend(_ count: Int = 1) throws(ParseError) {
        level += count
        if level - groups > options.maximumDepth + 2 {
            throw error("nesting is deeper than the limit of \(options.maximumDepth) levels", current.range, .limit)
        }
        if level >= Parser.stackCheckLevel { try checkStack() }
    }

    /// Past this depth every level checks the room left on the stack.
    static let stackCheckLevel = 16
    /// The stack kept free below the deepest parser frame: for the error,
    /// and for the code that walks the tree afterwards (its frames per level
    /// are much smaller than the parser's).
    static let stackMargin: UInt = 128 * 1024

    /// Fails with the limit's error when the thread's stack is nearly used up
    /// (before the depth limit, on a thread with a small stack).
    func checkStack() throws(ParseError) {
        guard StackBounds.isNearEnd(margin: Parser.stackMargin) else { return }
        throw error(
            "nesting is too deep for the stack of this thread (\(level - 2) levels; ParseOptions.maximumDepth is \(options.maximumDepth))",
            current.range, .limit)
    }

    mutating func parseOr() throws(ParseError) -> PredicateNode {
        try descend()
        defer { level -= 1 }
        // The level counts the OR, or the AND when there is no OR; an AND
        // inside an OR counts one of its own, as it does when printing
        // brackets it (`a OR (b AND c)`).
        let andsNest = connectiveAhead(.or)
        let first = try parseAnd(nested: andsNest)
        guard current.kind == .or else { return first }
        var children = [first]
        while current.kind == .or {
            advance()
            children.append(try parseAnd(nested: andsNest))
        }
        return PredicateNode(.or(children), range: span(children))
    }

    mutating func parseAnd(nested: Bool) throws(ParseError) -> PredicateNode {
        let counted = nested && connectiveAhead(.and)
        if counted { try descend() }
        defer { if counted { level -= 1 } }
        let first = try parseNot()
        guard current.kind == .and else { return first }
        var children = [first]
        while current.kind == .and {
            advance()
            children.append(try parseNot())
        }
        return PredicateNode(.and(children), range: span(children))
    }

    private func span(_ children: [PredicateNode]) -> SourceRange? {
        guard let first = children.first?.range, let last = children.last?.range else { return nil }
        return first.union(last)
    }

    /// `NOT NOT …`, and `NOT (NOT (…))` as printing writes it (the form
    /// Apple prints), are read in one loop: a bracket group that holds just
    /// a NOT and its operand is opened here instead of by recursing, so the
    /// printed form of a chain takes no more stack than the chain.
    mutating func parseNot() throws(ParseError) -> PredicateNode {
        // Each prefix is a NOT, or a `(` around a NOT.
        var prefixes: [(start: Int32, isGroup: Bool)] = []
        var nots = 0
        defer { level -= nots }
        while true {
            if current.kind == .not {
                prefixes.append((current.start, false))
                try descend()
                nots += 1
                advance()
            } else if current.kind == .leftParen, peek().kind == .not, !holdsCompound(position),
                !opensExpression(position)
            {
                prefixes.append((current.start, true))
                advance()
            } else {
                break
            }
        }
        var predicate = try parsePrimaryPredicate()
        var end = predicate.range?.upperBound ?? Int(current.start)
        for prefix in prefixes.reversed() {
            if prefix.isGroup {
                end = Int(try expect(.rightParen, "')'").end)
                predicate.range = SourceRange(Int(prefix.start), end)
            } else {
                predicate = PredicateNode(.not(predicate), range: SourceRange(Int(prefix.start), end))
            }
        }
        return predicate
    }

    mutating func parsePrimaryPredicate() throws(ParseError) -> PredicateNode {
        switch current.kind {
        case .kwTruePredicate:
            let range = current.range
            advance()
            return PredicateNode(.constant(true), range: range)
        case .kwFalsePredicate:
            let range = current.range
            advance()
            return PredicateNode(.constant(false), range: range)
        case .leftParen:
            if opensExpression(position) {
                return try parseComparison()
            }
            let open = current.start
            // `parseOr` counts a level for the compound it builds; a group
            // around anything else (`(NOT a)`, `(a == 1)`) adds no node.
            let grouping = holdsCompound(position) ? 0 : 1
            groups += grouping
            defer { groups -= grouping }
            advance()
            var inner = try parseOr()
            let closing = try expect(.rightParen, "')'")
            inner.range = SourceRange(Int(open), Int(closing.end))
            return inner
        case .end, .and, .or:
            throw missingPredicateError()
        default:
            return try parseComparison()
        }
    }

    /// Whether the `(` at token `open` opens an expression on the left of a
    /// comparison (`(age + 10) / 2 == 20`) rather than a predicate group:
    /// decided by what follows its matching `)`.
    private func opensExpression(_ open: Int) -> Bool {
        let close = Int(matching[open])
        return isExpressionContinuation(tokens[close + 1].kind) || isComparisonOperator(at: close + 1)
    }

    /// Whether an AND (or an OR) comes before the end of the predicate that
    /// starts here: before the bracket or comma that closes it, or, for an
    /// AND, before the next OR. Inner brackets are skipped by their matching
    /// token, so each token is looked at a bounded number of times.
    private func connectiveAhead(_ kind: TokenKind) -> Bool {
        var index = position
        while index < tokens.count {
            switch tokens[index].kind {
            case kind: return true
            case .or, .end, .rightParen, .rightBracket, .rightBrace, .comma: return false
            case .leftParen, .leftBracket, .leftBrace: index = Int(matching[index]) + 1
            default: index += 1
            }
        }
        return false
    }

    /// Whether the bracket group opening at token `open` holds an AND or OR
    /// outside its own inner brackets. Inner brackets are skipped by their
    /// matching token, so each token is looked at for one group only.
    private func holdsCompound(_ open: Int) -> Bool {
        let close = Int(matching[open])
        var index = open + 1
        while index < close {
            switch tokens[index].kind {
            case .and, .or: return true
            case .leftParen, .leftBracket, .leftBrace: index = Int(matching[index]) + 1
            default: index += 1
            }
        }
        return false
    }

    @inline(never)
    private func missingPredicateError() -> ParseError {
        if current.kind == .end {
            return error("expected a predicate at the end of the input", current.range)
        }
        return error("expected a predicate before '\(text(current))'", current.range)
    }

    /// Tokens that continue an expression after a closing `)`: a postfix
    /// `.key` or `[index]`, or an infix operator.
    private func isExpressionContinuation(_ kind: TokenKind) -> Bool {
        kind == .dot || kind == .leftBracket || OperatorTable.infix(kind) != nil
    }

    func isComparisonOperator(at index: Int) -> Bool {
        guard index < tokens.count else { return false }
        let kind = tokens[index].kind
        if kind == .identifier {
            return index + 1 < tokens.count && tokens[index + 1].kind == .colon && tokens[index].flag == 0
        }
        return ComparisonOperator(token: tokens[index]) != nil
    }

    @inline(never)
    private func optionsNotAllowedError(_ op: ComparisonOperator) -> ParseError {
        error("\(op.symbol) takes no options", current.range.union(tokens[Int(matching[position])].range))
    }

    @inline(never)
    private func chainedComparisonError() -> ParseError {
        error("comparisons cannot be chained; combine them with AND", current.range)
    }

    mutating func parseComparison() throws(ParseError) -> PredicateNode {
        let start = current.start
        var modifier = ComparisonModifier.direct
        var negated = false
        if let spelling = ComparisonModifier.spelling(current.kind) {
            modifier = spelling.modifier
            negated = spelling.negated
            advance()
        }

        let lhs = try parseExpression()
        let op = try parseOperator(after: lhs)
        var options: ComparisonOptions = []
        if current.kind == .leftBracket {
            guard op.takesOptions else { throw optionsNotAllowedError(op) }
            let start = current.range
            options = try parseOptions()
            if let problem = options.problem(after: op) {
                throw error(problem, start.union(tokens[position - 1].range))
            }
        }
        let rhs = try parseExpression()
        if isComparisonOperator(at: position) { throw chainedComparisonError() }
        let range = SourceRange(Int(start), rhs.range?.upperBound ?? Int(current.start))
        let comparison = Comparison(lhs, op, rhs, modifier: modifier, options: options)
        let predicate = PredicateNode(.comparison(comparison), range: range)
        return negated ? PredicateNode(.not(predicate), range: range) : predicate
    }

    private mutating func parseOperator(after lhs: ExpressionNode) throws(ParseError) -> ComparisonOperator {
        let op: ComparisonOperator
        if let builtin = ComparisonOperator(token: current) {
            op = builtin
        } else if current.kind == .identifier, isComparisonOperator(at: position) {
            op = .customSelector(text(current) + ":")
            advance()
        } else {
            throw operatorError(after: lhs)
        }
        advance()
        return op
    }

    private func operatorError(after lhs: ExpressionNode) -> ParseError {
        let lhsText = lhs.range.map { range in
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<range.upperBound]), as: UTF8.self)
        }
        let after = lhsText.map { " after '\($0)'" } ?? ""
        switch current.kind {
        case .end:
            return error(
                "expected a comparison operator (\(Parser.operatorExamples), …)\(after); "
                    + "an expression alone is not a predicate", current.range)
        case .not where ComparisonOperator(token: peek())?.family == .membership(containerOnLeft: false):
            return error(
                "'NOT IN' is not an operator; write NOT (x IN y)", current.range.union(peek().range))
        case .identifier:
            let word = text(current)
            if let suggestion = Parser.suggestOperator(for: word) {
                return error("unknown operator '\(word)'; did you mean \(suggestion)?", current.range)
            }
            return error("expected a comparison operator\(after), found \(found)", current.range)
        default:
            return error("expected a comparison operator\(after), found \(found)", current.range)
        }
    }

    /// The operators an error gives as examples, by family: `==`, `!=`,
    /// `<`, `>`, `IN`, `CONTAINS`, `LIKE`.
    private static let operatorExamples = [
        OperatorFamily.equality(equal: true), .equality(equal: false), .ordering(greater: false, orEqual: false),
        .ordering(greater: true, orEqual: false), .membership(containerOnLeft: false),
        .membership(containerOnLeft: true), .pattern(.wildcard),
    ].compactMap { ComparisonOperator(family: $0)?.symbol }.joined(separator: ", ")

    private static let operatorWords = ComparisonOperator.Builtin.allCases.filter(\.isWord).map(\.rawValue)

    /// The operator word closest to a misspelling, if it is close enough.
    static func suggestOperator(for word: String) -> String? {
        let upper = word.uppercased()
        guard upper.count >= 3 else { return nil }
        var best: (String, Int)?
        for candidate in operatorWords {
            let distance = Suggestion.editDistance(Array(upper.utf8), Array(candidate.utf8))
            if distance <= 2, distance < (best?.1 ?? Int.max) { best = (candidate, distance) }
        }
        return best?.0
    }

    /// `[cd]` after an operator.
    private mutating func parseOptions() throws(ParseError) -> ComparisonOptions {
        let open = current
        advance()
        guard current.kind != .rightBracket else {
            throw error(
                "expected option letters (\(ComparisonOptions.letterList)) inside '[]'", open.range.union(current.range))
        }
        var options: ComparisonOptions = []
        let lettersToken = current
        let isWord = lettersToken.kind == .identifier && lettersToken.flag == 0
        for byte in isWord ? Array(text(lettersToken).utf8) : [0] {
            guard let option = ComparisonOptions.option(letter: byte) else {
                throw error(
                    "unknown option '\(text(lettersToken))'; options are \(ComparisonOptions.described)",
                    lettersToken.range)
            }
            options.insert(option)
        }
        advance()
        _ = try expect(.rightBracket, "']' after the options")
        return options
    }
}
