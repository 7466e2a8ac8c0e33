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

    /// What kind of error this is.
    public var code: Code
    /// A one-line description, without position (see ``SourceDiagnostic/rendered(colors:)``).
    public var message: String
    /// The UTF-8 byte range, in ``source``, that the error is about.
    public var range: SourceRange
    /// The format string that was parsed.
    public var source: String

    /// An error with its code, message, and the range it is about in `source`.
    public init(_ code: Code, _ message: String, range: SourceRange, source: String) {
        self.code = code
        self.message = message
        self.range = range
        self.source = source
    }
}
