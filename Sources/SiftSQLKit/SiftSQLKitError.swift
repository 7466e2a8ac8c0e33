import Foundation

/// Why SiftSQLKit could not run a fetch or read a schema.
public struct SiftSQLKitError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Hashable {
        /// The database speaks a dialect Sift has no lowering for (MySQL).
        case unsupportedDialect
        /// The request does not lower to SQL (a refused form, an unknown key).
        case lowering
        /// The database (or the driver) failed the statement.
        case database
        /// A stored value or a row does not fit what was asked of it.
        case valueDoesNotFit
        /// The schema cannot be read through this database.
        case schema
    }

    /// The kind of failure.
    public var kind: Kind
    /// What went wrong, for people.
    public var message: String
    /// The statement that failed, when one did.
    public var sql: String?

    /// An error of `kind` saying `message`, about `sql` when given.
    public init(_ kind: Kind, _ message: String, sql: String? = nil) {
        self.kind = kind
        self.message = message
        self.sql = sql
    }

    /// The message, and the statement when there is one.
    public var description: String {
        guard let sql else { return message }
        return message + " (SQL: " + sql + ")"
    }
}
