import Foundation
import PostgresNIO
import SiftSQL

/// What went wrong running a fetch on PostgreSQL, said in words: the kind,
/// the server's message (or the client's), the SQLSTATE when the server
/// sent one, and the statement.
public struct SiftPostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure a caller may want to tell apart.
    public enum Kind: String, Sendable, Hashable {
        /// The server could not be reached, or the connection was lost.
        case connection
        /// The server refused the user, the password or the database
        /// (SQLSTATE classes 28 and 3D).
        case authentication
        /// A table the statement names does not exist (42P01): the schema
        /// is not this database's.
        case unknownTable
        /// A value does not fit its column or parameter: out of range, a
        /// text containing NUL, a type Sift does not read (classes 22 and
        /// 42804).
        case valueDoesNotFit
        /// The request has no SQL form for this schema (see
        /// `SQLLoweringError` of SiftSQL).
        case lowering
        /// Any other error the server reported.
        case server
        /// The server is older than SiftPostgres supports
        /// (``PostgresServerVersion/minimumMajor``).
        case unsupportedServer
    }

    /// What kind of failure this is.
    public var kind: Kind
    /// The server's message, or the client's.
    public var message: String
    /// The SQLSTATE code, such as `42P01`, when the server sent one.
    public var sqlState: String?
    /// The statement that failed; empty when there was none.
    public var sql: String

    /// An error of `kind` saying `message`, about `sql`.
    public init(_ kind: Kind, _ message: String, sqlState: String? = nil, sql: String = "") {
        self.kind = kind
        self.message = message
        self.sqlState = sqlState
        self.sql = sql
    }

    /// An error PostgresNIO threw (connecting, say), in these terms: its
    /// kind from the server's SQLSTATE or from the client's error code; a
    /// decoding error is `.valueDoesNotFit`, and any other error `.server`,
    /// with its description.
    public init(_ error: any Error, sql: String = "") {
        if let error = error as? SiftPostgresError {
            self = error
            if self.sql.isEmpty { self.sql = sql }
            return
        }
        if error is PostgresDecodingError || error is DecodingError {
            self.init(.valueDoesNotFit, "\(error)", sql: sql)
            return
        }
        guard let error = error as? PSQLError else {
            self.init(.server, "\(error)", sql: sql)
            return
        }
        if let info = error.serverInfo, let state = info[.sqlState] {
            var message = info[.message] ?? "error \(state)"
            if let detail = info[.detail] { message += " (\(detail))" }
            self.init(Self.kind(sqlState: state), message, sqlState: state, sql: sql)
            return
        }
        let underlying = error.underlying.map { ": \($0)" } ?? ""
        switch error.code {
        case .connectionError:
            let reason = error.underlying.map { ": " + Self.reason($0) } ?? ""
            self.init(.connection, "cannot reach the server\(reason)", sql: sql)
        case .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed,
            .sslUnsupported, .failedToAddSSLHandler:
            self.init(.connection, "cannot reach the server (\(error.code))\(underlying)", sql: sql)
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            self.init(.authentication, "the server refused to authenticate (\(error.code))\(underlying)", sql: sql)
        default:
            self.init(.server, "\(error.code)\(underlying)", sql: sql)
        }
    }

    /// Why connecting failed, in a few words: each address tried and the
    /// system's reason (`127.0.0.1:1: Connection refused`), or the name
    /// that did not resolve, rather than NIO's nested descriptions.
    static func reason(_ error: any Error) -> String {
        switch error {
        case let e as NIOConnectionError:
            if e.connectionErrors.isEmpty {
                let lookup = (e.dnsAError ?? e.dnsAAAAError).map { reason($0) } ?? "no address"
                return "\(e.host):\(e.port): \(lookup)"
            }
            return e.connectionErrors.map { failure in
                let address = failure.target.ipAddress.map { "\($0):\(e.port)" } ?? "\(e.host):\(e.port)"
                return address + ": " + reason(failure.error)
            }.joined(separator: "; ")
        case let e as IOError:
            return String(cString: strerror(e.errnoCode))
        default:
            return "\(error)"
        }
    }

    /// The kind of a SQLSTATE.
    static func kind(sqlState state: String) -> Kind {
        switch state {
        case "42P01": return .unknownTable
        case "42804": return .valueDoesNotFit
        default: break
        }
        switch state.prefix(2) {
        case "28", "3D": return .authentication
        case "08", "57": return .connection
        case "22": return .valueDoesNotFit
        default: return .server
        }
    }

    /// The message, the SQLSTATE and the statement, for a log.
    public var description: String {
        var text = "PostgreSQL: " + message
        if let sqlState { text += " [\(sqlState)]" }
        if !sql.isEmpty { text += "\n  in: " + sql }
        return text
    }
}
