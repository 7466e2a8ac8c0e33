/// Limits and choices for parsing a format string.
public struct ParseOptions: Sendable, Hashable {
    /// The deepest nesting accepted, both of brackets `(`, `[` and `{` and
    /// of the tree: `NOT`s, operators, calls, subscripts and compounds
    /// each count a level. A bracket that only groups adds no level of the
    /// tree of its own, so the printed form of any tree that parses (which
    /// brackets a NOT or an operation inside another, as Apple prints it)
    /// parses too. Deeper input is a parse error, never a stack overflow.
    public var maximumDepth: Int
    /// The longest format string accepted, in UTF-8 bytes.
    public var maximumLength: Int
    /// The deepest nesting of `SUBQUERY` inside `SUBQUERY` accepted (in its
    /// collection or its predicate). Each level runs its predicate once per
    /// element of the level above, in memory as in SQL, so the cost grows
    /// as the product of the collections' sizes.
    public var maximumSubqueryDepth: Int
    /// Apple ignores format arguments that no specifier uses. Set this to make
    /// them an error instead.
    public var rejectsExtraArguments: Bool

    /// Options; each defaults to the value in ``default``.
    public init(
        maximumDepth: Int = 100, maximumLength: Int = 1 << 20, maximumSubqueryDepth: Int = 8,
        rejectsExtraArguments: Bool = false
    ) {
        self.maximumDepth = maximumDepth
        self.maximumLength = maximumLength
        self.maximumSubqueryDepth = maximumSubqueryDepth
        self.rejectsExtraArguments = rejectsExtraArguments
    }

    /// Depth 100, 1 MiB of text, `SUBQUERY` 8 deep, extra arguments ignored.
    public static let `default` = ParseOptions()
}

/// Parses format strings into syntax trees, substituting format arguments
/// (`%@`, `%K`, `%d`, …) as it goes, left to right, as Apple's parser does.
/// `$VARIABLES` are kept; substitute them with
/// ``PredicateNode/substituting(_:allowingUnbound:)``.
public enum FormatParser {
    /// Parses a predicate: `name BEGINSWITH[c] %@ AND year > %d`.
    public static func parsePredicate(
        _ format: String, arguments: [FormatArgument] = [], options: ParseOptions = .default
    ) throws(ParseError) -> PredicateNode {
        try withParser(format, arguments, options) { parser throws(ParseError) in try parser.parseWholePredicate() }
    }

    /// Parses an expression: `author.name`, `price * 1.2`, `@count`.
    public static func parseExpression(
        _ format: String, arguments: [FormatArgument] = [], options: ParseOptions = .default
    ) throws(ParseError) -> ExpressionNode {
        try withParser(format, arguments, options) { parser throws(ParseError) in try parser.parseWholeExpression() }
    }

    /// Parses a predicate from raw bytes, which must be UTF-8. Invalid UTF-8
    /// is reported with its offset instead of being repaired.
    public static func parsePredicate(
        utf8 bytes: some Collection<UInt8>, arguments: [FormatArgument] = [], options: ParseOptions = .default
    ) throws(ParseError) -> PredicateNode {
        try parsePredicate(validatedString(bytes), arguments: arguments, options: options)
    }

    /// Validates UTF-8, throwing a ranged error at the first bad byte.
    public static func validatedString(_ bytes: some Collection<UInt8>) throws(ParseError) -> String {
        let array = Array(bytes)
        var offset = 0
        var iterator = array.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
            case .emptyInput:
                return String(decoding: array, as: UTF8.self)
            case .error:
                let text = String(decoding: array, as: UTF8.self)
                throw ParseError(
                    .syntax, "invalid UTF-8 at byte \(offset)", range: SourceRange(offset, offset + 1), source: text)
            }
        }
    }

    private static func withParser<T>(
        _ format: String, _ arguments: [FormatArgument], _ options: ParseOptions,
        _ body: (inout Parser) throws(ParseError) -> T
    ) throws(ParseError) -> T {
        let source = format
        var format = format
        let result: Result<T, ParseError> = format.withUTF8 { bytes in
            do throws(ParseError) {
                guard bytes.count <= options.maximumLength else {
                    throw ParseError(
                        .limit, "the format string is \(bytes.count) bytes long; the limit is \(options.maximumLength)",
                        range: SourceRange(options.maximumLength, bytes.count), source: source)
                }
                let tokens = try Lexer(bytes: bytes, source: source).tokenize()
                var parser = try Parser(
                    bytes: bytes, source: source, tokens: tokens, arguments: arguments, options: options)
                return .success(try body(&parser))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
