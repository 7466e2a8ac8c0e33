extension ExpressionNode {
    /// Parses an expression in the format language: `author.name`,
    /// `price * %@`, `@sum.items.price`.
    public init(format: String, _ arguments: any FormatArgumentConvertible..., options: ParseOptions = .default)
        throws(ParseError)
    {
        self = try FormatParser.parseExpression(
            format, arguments: arguments.map { $0.formatArgument }, options: options)
    }
}

extension PredicateNode {
    /// Parses a predicate in the format language; see ``Filter``.
    public init(format: String, _ arguments: any FormatArgumentConvertible..., options: ParseOptions = .default)
        throws(ParseError)
    {
        self = try FormatParser.parsePredicate(
            format, arguments: arguments.map { $0.formatArgument }, options: options)
    }
}
