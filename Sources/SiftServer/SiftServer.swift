import Foundation
import Hummingbird
import Logging
import NIOCore
import Sift
import SiftSQL

/// `sift serve`: one database, read-only, as a JSON API and a web page, on
/// Hummingbird.
///
/// Datasette's convention: a path with `.json` (or a request that accepts
/// `application/json`) answers JSON, the same path without it a page.
///
/// - `GET /.json`: the entities, with their counts, attributes and relationships;
/// - `GET /ENTITY.json?filter=…&sort=…&limit=…&offset=…`:
///   `{"count": N, "rows": [...], "next": URL}` (`next` absent on the last page);
/// - `GET /ENTITY/sql.json?filter=…`: the SQL and its bound values;
/// - `GET /ENTITY/why/ID.json?filter=…`: each part of the filter, and
///   whether the object with primary key ID matches it.
///
/// The parameters are read by `FetchSpecification(entity:query:options:)`
/// with the settings' ``ServerSettings/fetch`` options; every error is a
/// `RequestProblem` document (`application/problem+json`).
public struct SiftServer: Sendable {
    /// The database served (its first connection).
    public var database: ServedDatabase { connections[0] }
    /// The connections to the database: statements run on each one at a
    /// time, on all of them at once.
    public let connections: [ServedDatabase]
    /// Where the server listens and what it allows.
    public let settings: ServerSettings

    /// A server of `database` with `settings`, one statement at a time.
    public init(database: ServedDatabase, settings: ServerSettings = ServerSettings()) {
        self.init(connections: [database], settings: settings)
    }

    /// A server of the database that `connections` (one or more) reach,
    /// with `settings`: the requests' statements run on the connections at
    /// once, each connection running one at a time. The name, schema,
    /// dialect and row format are the first connection's.
    public init(connections: [ServedDatabase], settings: ServerSettings = ServerSettings()) {
        precondition(!connections.isEmpty, "SiftServer needs at least one connection")
        self.connections = connections
        self.settings = settings
    }

    /// Serves until the task is cancelled or the process is stopped;
    /// `onStart` gets the server's URL (with the port chosen when the
    /// settings' port is 0) once it listens.
    public func run(onStart: @escaping @Sendable (String) -> Void) async throws {
        let api = ServerAPI(databases: connections, settings: settings)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            await api.respond(to: request)
        }
        var logger = Logger(label: "sift.serve")
        logger.logLevel = .warning
        let host = settings.host
        let application = Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: settings.port), serverName: nil),
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                onStart("http://\(host.contains(":") ? "[\(host)]" : host):\(port)/")
            },
            logger: logger)
        try await application.runService(gracefulShutdownSignals: [.sigterm, .sigint])
    }
}
