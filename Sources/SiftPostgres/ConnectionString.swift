import Foundation
import PostgresNIO

extension PostgresConnection.Configuration {
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
        var fields: [String: String] = [:]
        if connectionString.hasPrefix("postgresql://") || connectionString.hasPrefix("postgres://") {
            guard let url = URLComponents(string: connectionString) else {
                throw SiftPostgresError(.connection, "not a PostgreSQL URL: \(connectionString)")
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
        let user = fields["user"] ?? "postgres"
        if host.hasPrefix("/") {
            self.init(
                unixSocketPath: host + "/.s.PGSQL.\(port)", username: user, password: fields["password"],
                database: fields["dbname"])
        } else {
            self.init(
                host: host, port: port, username: user, password: fields["password"], database: fields["dbname"],
                tls: .disable)
        }
    }
}
