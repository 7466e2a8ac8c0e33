import Foundation
import PostgresNIO
import SiftCatalog

/// The configurations that a libpq connection string can make:
/// `PostgresConnection.Configuration` for one connection and
/// `PostgresClient.Configuration` for a pool.
public protocol SiftPostgresConfiguration {
    /// The configuration's TLS setting.
    associatedtype TLS
    /// No TLS.
    static var withoutTLS: TLS { get }
    /// A configuration for a server at `host` and `port`.
    init(host: String, port: Int, username: String, password: String?, database: String?, tls: TLS)
    /// A configuration for a server listening on the Unix socket at `unixSocketPath`.
    init(unixSocketPath: String, username: String, password: String?, database: String?)
}

extension PostgresConnection.Configuration: SiftPostgresConfiguration {
    /// TLS disabled: connection strings that ask for TLS are refused.
    public static var withoutTLS: TLS { .disable }
}

extension PostgresClient.Configuration: SiftPostgresConfiguration {
    /// TLS disabled: connection strings that ask for TLS are refused.
    public static var withoutTLS: TLS { .disable }
}

extension SiftPostgresConfiguration {
    /// A configuration from a libpq connection string: a URL
    /// (`postgresql://user:password@host:port/database`, or `postgres://`)
    /// or `key=value` pairs (`host=127.0.0.1 port=5432 user=postgres
    /// dbname=shop`). The keys read are `host`, `port`, `user`, `password`
    /// and `dbname`; `host` starting with `/` is the directory of a unix
    /// socket (`.s.PGSQL.<port>` inside it). What the string leaves out
    /// comes from `PGHOST`, `PGPORT`, `PGUSER`, `PGPASSWORD` and
    /// `PGDATABASE` in `environment`, then from libpq's defaults
    /// (localhost, 5432, the user `postgres`). TLS is not used; any other
    /// key (`sslmode`, `connect_timeout`…) is refused rather than ignored.
    public init(connectionString: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(SiftPostgresError)
    {
        let c = try ConnectionString(connectionString, environment: environment)
        if let socket = c.unixSocketPath {
            self.init(unixSocketPath: socket, username: c.user, password: c.password, database: c.database)
        } else {
            self.init(
                host: c.host, port: c.port, username: c.user, password: c.password, database: c.database,
                tls: Self.withoutTLS)
        }
    }
}

/// The settings of a libpq connection string that both configurations take.
struct ConnectionString {
    var host: String
    var port: Int
    var user: String
    var password: String?
    var database: String?
    /// The socket's path when `host` is a directory.
    var unixSocketPath: String? { host.hasPrefix("/") ? host + "/.s.PGSQL.\(port)" : nil }

    init(_ connectionString: String, environment: [String: String]) throws(SiftPostgresError) {
        var fields: [String: String] = [:]
        if connectionString.hasPrefix("postgresql://") || connectionString.hasPrefix("postgres://") {
            guard let url = URLComponents(string: connectionString) else {
                throw SiftPostgresError(
                    .connection, "not a PostgreSQL URL: \(PostgresConnectionString.redacted(connectionString))")
            }
            fields["host"] = url.host.flatMap { $0.isEmpty ? nil : $0.removingPercentEncoding }
            fields["port"] = url.port.map(String.init)
            fields["user"] = url.user.flatMap { $0.removingPercentEncoding }
            fields["password"] = url.password.flatMap { $0.removingPercentEncoding }
            let database = url.path.drop { $0 == "/" }
            if !database.isEmpty { fields["dbname"] = String(database).removingPercentEncoding }
            for item in url.queryItems ?? [] where fields[item.name] == nil { fields[item.name] = item.value }
        } else {
            for pair in connectionString.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw SiftPostgresError(.connection, "\(pair) in the connection string is not key=value")
                }
                fields[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
            }
        }
        // A key left unread would be a setting silently dropped (sslmode=require
        // among them): refused instead.
        let known: Set<String> = ["host", "port", "user", "password", "dbname"]
        if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
            throw SiftPostgresError(
                .connection, "\(unknown) in the connection string is not supported (host, port, user, password, dbname)")
        }
        let defaults = ["host": "PGHOST", "port": "PGPORT", "user": "PGUSER", "password": "PGPASSWORD", "dbname": "PGDATABASE"]
        for (key, variable) in defaults where fields[key] == nil {
            if let value = environment[variable], !value.isEmpty { fields[key] = value }
        }
        let host = fields["host"] ?? "localhost"
        guard let port = Int(fields["port"] ?? "5432"), (1...65535).contains(port) else {
            throw SiftPostgresError(.connection, "port \(fields["port"] ?? "") is not a port number")
        }
        self.host = host
        self.port = port
        user = fields["user"] ?? "postgres"
        password = fields["password"]
        database = fields["dbname"]
    }
}

/// Connection strings as they may be shown in a message, a log or a prompt.
public enum PostgresConnectionString {
    /// `connectionString` with its password replaced by `***`: the one in
    /// a URL's user information (`postgresql://ann:***@host/db`) or query
    /// (`?password=***`), and the value of `password=` in the `key=value`
    /// form, quoted or not. A URL's user information runs to its last `@`,
    /// so a password holding an `@`, `?` or `/` that is not
    /// percent-encoded is hidden whole too.
    public static func redacted(_ connectionString: String) -> String {
        Credentials.masked(connectionString, connectionString: true)
    }
}
