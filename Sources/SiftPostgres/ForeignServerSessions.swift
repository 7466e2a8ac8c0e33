import NIOCore
import NIOSSL
import PostgresNIO
import SiftCatalog
import SiftSQL

/// The connections a schema reading makes to a coordinator's foreign
/// servers (`ForeignTableKeys`): one a server, opened on first use and
/// kept until ``close()``; a server that failed once is not tried again.
/// Every connection and every answer must come within `timeout`: a server
/// that takes longer is closed and counts as failed, so that reading a
/// schema never waits on a stalled shard for longer than that.
actor ForeignServerSessions {
    private let timeout: Duration
    private var open: [ForeignTableKeys.Server: PostgresConnection] = [:]
    private var failed: [ForeignTableKeys.Server: SiftPostgresError] = [:]

    init(timeout: Duration) {
        self.timeout = timeout
    }

    /// `statement`'s rows on `server`.
    func rows(_ statement: BoundStatement, on server: ForeignTableKeys.Server) async throws -> [[SQLValue]] {
        if let error = failed[server] { throw error }
        do {
            let connection: PostgresConnection
            if let known = open[server] {
                connection = known
            } else {
                connection = try await Self.connect(server, timeout: timeout)
                open[server] = connection
            }
            return try await Self.answer(statement, on: connection, within: timeout)
        } catch {
            let failure = error as? SiftPostgresError ?? SiftPostgresError(error)
            failed[server] = failure
            if let connection = open.removeValue(forKey: server) { try? await connection.close() }
            throw failure
        }
    }

    /// Closes every connection.
    func close() async {
        for connection in open.values { try? await connection.close() }
        open = [:]
    }

    private static func connect(_ server: ForeignTableKeys.Server, timeout: Duration) async throws -> PostgresConnection {
        let options = server.options
        let host = options["host"] ?? ""
        guard let port = Int(options["port"] ?? "5432"), (1...65535).contains(port) else {
            throw SiftPostgresError(.connection, "port \(options["port"] ?? "") is not a port number")
        }
        let user = options["user"] ?? "postgres"
        var configuration: PostgresConnection.Configuration
        if host.isEmpty || host.hasPrefix("/") {
            // libpq's default socket directory when no host is given.
            let directory = host.isEmpty ? "/var/run/postgresql" : host
            configuration = PostgresConnection.Configuration(
                unixSocketPath: directory + "/.s.PGSQL.\(port)", username: user, password: options["password"],
                database: options["dbname"])
        } else {
            configuration = PostgresConnection.Configuration(
                host: host, port: port, username: user, password: options["password"], database: options["dbname"],
                tls: try tls(options["sslmode"]))
        }
        let seconds = timeout.components.seconds
        configuration.options.connectTimeout = .seconds(max(1, seconds))
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: SiftPostgres.quietLogger)
        } catch {
            throw SiftPostgresError(error)
        }
    }

    /// The TLS libpq would use for `sslmode` (`prefer` when none): `allow`
    /// and `prefer` try TLS and go on without it if the server has none,
    /// `require` insists, neither checking the certificate (as libpq does
    /// without a root certificate); `verify-ca` checks it against the
    /// system's trusted roots, `verify-full` the host name too.
    static func tls(_ sslmode: String?) throws -> PostgresConnection.Configuration.TLS {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch sslmode ?? "prefer" {
        case "disable":
            return .disable
        case "allow", "prefer":
            configuration.certificateVerification = .none
            return .prefer(try NIOSSLContext(configuration: configuration))
        case "require":
            configuration.certificateVerification = .none
            return .require(try NIOSSLContext(configuration: configuration))
        case "verify-ca":
            configuration.certificateVerification = .noHostnameVerification
            return .require(try NIOSSLContext(configuration: configuration))
        case "verify-full":
            return .require(try NIOSSLContext(configuration: configuration))
        case let other:
            throw SiftPostgresError(
                .connection, "sslmode \(other) is not one of disable, allow, prefer, require, verify-ca, verify-full")
        }
    }

    /// `statement`'s rows, or a timeout once `timeout` has passed: the
    /// connection is then closed, which ends the statement's wait.
    private static func answer(
        _ statement: BoundStatement, on connection: PostgresConnection, within timeout: Duration
    ) async throws -> [[SQLValue]] {
        try await withThrowingTaskGroup(of: [[SQLValue]]?.self) { group in
            group.addTask { try await connection.rows(statement) }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            let first = try await group.next() ?? nil
            if let rows = first {
                group.cancelAll()
                return rows
            }
            try? await connection.close()
            group.cancelAll()
            throw SiftPostgresError(.connection, "no answer within \(timeout)")
        }
    }
}
