/// A predicate parsed from Apple's format-string language, with its format
/// arguments bound: the main entry point of the library.
///
/// ```swift
/// let filter = try Filter("author.name BEGINSWITH[c] %@ AND year > %d", "ste", 1980)
/// filter.format   // author.name BEGINSWITH[c] "ste" AND year > 1980
/// ```
public struct Filter: Sendable, Hashable, CustomStringConvertible {
    /// The syntax tree, with format arguments substituted.
    public let predicate: PredicateNode

    /// The format string this filter was parsed from, if it was parsed.
    /// Error ranges (also from ``substituting(_:allowingUnbound:)``) point into it.
    public let source: String?

    /// The most work one evaluation of one object may do, in units (a byte
    /// of a string compared or searched, an element of a collection
    /// visited, a value given to a function), or nil for no limit. Past it
    /// the evaluation throws an ``EvaluationError`` with the code `.limit`.
    /// ``checked(by:)`` sets it from ``PredicatePolicy/evaluationBudget``.
    /// A filter with a budget is evaluated by the general path, which
    /// counts its work, never by the faster paths for typed properties,
    /// dictionaries and tables (as with ``EvaluationPaths/generalOnly``).
    /// Equality and hashing ignore it.
    public var evaluationBudget: Int?

    /// The longest string a `FUNCTION` (or a custom selector) may make by
    /// joining or replacing, in UTF-16 units
    /// (``defaultMaximumFunctionResultLength`` unless changed):
    /// `stringByReplacingOccurrencesOfString:withString:`,
    /// `stringByAppendingString:`, `stringByAppendingPathComponent:` or
    /// `stringByAppendingPathExtension:` whose result would be longer throws
    /// an ``EvaluationError`` with the code `.limit` before making it.
    /// (Methods of one string, such as `uppercaseString`, are bounded by its
    /// length and counted by the work budget.) Equality and hashing ignore
    /// it.
    public var maximumFunctionResultLength: Int = Filter.defaultMaximumFunctionResultLength

    /// 64 Mi UTF-16 units: each replacement can multiply a string's length,
    /// and nested calls multiply again.
    public static let defaultMaximumFunctionResultLength = 64 << 20

    /// Wraps a syntax tree.
    public init(_ predicate: PredicateNode) {
        self.predicate = predicate
        self.source = nil
    }

    /// Wraps a syntax tree parsed from `source` (its nodes' ranges point
    /// into it), as a rewritten copy of a parsed filter keeps its text for
    /// error messages.
    public init(_ predicate: PredicateNode, source: String?) {
        self.predicate = predicate
        self.source = source
    }

    /// Parses `format`, consuming `arguments` for its `%@`, `%K`, `%d`, …
    /// specifiers in order.
    public init(_ format: String, _ arguments: any FormatArgumentConvertible..., options: ParseOptions = .default)
        throws(ParseError)
    {
        try self.init(format, arguments: arguments, options: options)
    }

    /// Parses `format` with an array of arguments.
    public init(_ format: String, arguments: [any FormatArgumentConvertible], options: ParseOptions = .default)
        throws(ParseError)
    {
        predicate = try FormatParser.parsePredicate(
            format, arguments: arguments.map { $0.formatArgument }, options: options)
        source = format
    }

    /// Whether two filters have the same syntax tree (source text and ranges aside).
    public static func == (lhs: Filter, rhs: Filter) -> Bool { lhs.predicate == rhs.predicate }
    /// Hashes the syntax tree, as ``==(_:_:)`` compares it.
    public func hash(into hasher: inout Hasher) { hasher.combine(predicate) }

    /// Apple's canonical `predicateFormat` text.
    public var format: String { FormatPrinter.format(predicate) }

    /// The canonical format, as ``format``.
    public var description: String { format }

    /// The names of the `$VARIABLES` still to be substituted.
    public var variableNames: [String] { predicate.variableNames }

    /// Substitutes `$VARIABLES`. Every variable must have a value unless
    /// `allowingUnbound` is true.
    public func substituting(
        _ variables: [String: any ValueConvertible], allowingUnbound: Bool = false
    ) throws(ParseError) -> Filter {
        let values = variables.mapValues { $0.predicateValue }
        var substitution = Substitution(
            variables: values, allowingUnbound: allowingUnbound, source: source ?? format)
        var out = Filter(try substitution.apply(predicate), source: source)
        out.evaluationBudget = evaluationBudget
        out.maximumFunctionResultLength = maximumFunctionResultLength
        return out
    }
}
