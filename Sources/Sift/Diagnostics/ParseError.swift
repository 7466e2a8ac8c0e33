/// A format string that cannot be turned into a predicate or expression:
/// a syntax error, a format argument that does not fit its specifier, or a
/// limit that was exceeded. Always carries the range it is about.
public struct ParseError: SourceDiagnostic, Hashable, Sendable {
    /// What went wrong, for programs that react to particular errors.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The text is not in the language (stage "parse").
        case syntax
        /// A format argument is missing or does not fit its specifier, or a
        /// variable substituted after a dot (`a.$KEY`) is not a key path
        /// string (stage "bind").
        case argument
        /// A `$VARIABLE` has no value in a substitution (stage "bind").
        case unboundVariable
        /// Nesting depth, `SUBQUERY` nesting or input length is over the
        /// parser's limit (``ParseOptions``).
        case limit

        /// The stage name used by `sift check`: `parse` or `bind`.
        public var stage: String {
            switch self {
            case .syntax, .limit: return "parse"
            case .argument, .unboundVariable: return "bind"
            }
        }
    }

    public var code: Code
    public var message: String
    public var range: SourceRange
    public var source: String

    public init(_ code: Code, _ message: String, range: SourceRange, source: String) {
        self.code = code
        self.message = message
        self.range = range
        self.source = source
    }
}
