/// A named value a grouped fetch computes for each group, as Core Data's
/// `NSExpressionDescription`: `total = sum:(price)`.
///
/// The expression is an aggregate over the group's objects: `count:(x)`
/// (the objects whose `x` is not nil; `count:(SELF)` counts the objects),
/// `sum:(x)`, `average:(x)`, `min:(x)` or `max:(x)`, where `x` is any
/// expression of one object (`sum:(price * quantity)`: Core Data's SQLite
/// store accepts only a key path there; Sift takes any expression).
public struct ExpressionDescription: Sendable, Hashable {
    /// The key the value has in each result, and the variable
    /// (`$total`) a ``FetchSpecification/having`` predicate reads it by.
    public var name: String
    /// The aggregate.
    public var expression: ExpressionNode
    /// The text the expression was parsed from (its printed form for one
    /// built in code), which errors point into.
    public var source: String

    /// A description of `expression` called `name`.
    public init(name: String, expression: ExpressionNode) {
        self.name = name
        self.expression = expression
        self.source = FormatPrinter.format(expression)
    }

    /// A description of the expression `format` (`"sum:(price)"`) called `name`.
    public init(name: String, format: String, _ arguments: any FormatArgumentConvertible...) throws(ParseError) {
        self.name = name
        self.expression = try FormatParser.parseExpression(format, arguments: arguments.map { $0.formatArgument })
        self.source = format
    }
}
