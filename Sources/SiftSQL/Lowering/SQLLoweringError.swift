import Sift

/// A fetch request that cannot be lowered to SQL, reported before any SQL
/// reaches a database: an unknown key path, a to-many key without an
/// aggregate, a type the column cannot hold, or a construct the dialect
/// cannot express with the same meaning as in memory.
public struct SQLLoweringError: SourceDiagnostic, Hashable, Sendable {
    /// What went wrong, for programs that react to particular errors.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The request names an entity the schema does not have.
        case unknownEntity
        /// A key path names no attribute or relationship of its entity.
        case unknownKey
        /// A to-many relationship used where one value is needed
        /// (`tags.name == 'x'`: say `ANY tags.name == 'x'`).
        case toManyKey
        /// A constant of a kind the operator cannot compare with the column
        /// (`name < 5`), as the evaluator would raise.
        case typeMismatch
        /// A construct with no SQL form of the same meaning in this dialect.
        case unsupported
        /// Over a limit of ``SQLLoweringOptions``: more bound values than
        /// allowed, or a MATCHES pattern over its `RegexLimits`.
        case limit
    }

    /// What kind of error this is.
    public var code: Code
    /// A one-line description, without position.
    public var message: String
    /// The entity the key path was resolved against.
    public var entity: String
    /// The key at fault, if any.
    public var key: String?
    /// The UTF-8 byte range, in ``source``, of the part that cannot be lowered.
    public var range: SourceRange
    /// The predicate's format (or the sort keys' text).
    public var source: String

    /// An error about `key` of `entity`, at `range` in `source`.
    public init(_ code: Code, _ message: String, entity: String, key: String? = nil, range: SourceRange, source: String) {
        self.code = code
        self.message = message
        self.entity = entity
        self.key = key
        self.range = range
        self.source = source
    }
}
