import Foundation
import Sift
import SiftSQL

// `sift query`, `sift schema` and `sift repl` take a PostgreSQL URL in place
// of a SQLite file. They run through SiftPostgres (PostgresNIO) rather than
// libpq: one executor, the one the differential suite checks against memory
// and SQLite (binding each value in its column's type, reading each cell
// back by the attribute's type), instead of a second one only the tool would
// use; and no libpq headers to install to build the tool. Building the root
// package builds SiftPostgres anyway; only `swift build --product sift` now
// builds NIO too. SIFT_WITHOUT_POSTGRES=1 (`make tsan`) leaves SiftPostgres
// out, and then the tool is built without it: the SIFT_POSTGRES define is
// set only when it is there, and a URL is refused with the reason.

/// `postgresql://` and `postgres://` URLs, which name a PostgreSQL database
/// where the SQL commands take a SQLite file.
enum PostgresURL {
    static func matches(_ argument: String) -> Bool {
        argument.hasPrefix("postgresql://") || argument.hasPrefix("postgres://")
    }

    /// The error for `--model` with a URL.
    static let modelGiven = CommandFailure("--model describes a Core Data store, not a PostgreSQL database")
}

#if SIFT_POSTGRES
import PostgresNIO
import SiftPostgres
import Synchronization

/// A connection to a PostgreSQL database and the schema read from its
/// catalog, for commands that run synchronously (ArgumentParser's `run`,
/// libedit's REPL): every call waits for the server's answer.
final class PostgresDatabase: Sendable {
    /// The URL as it may be shown: without its password.
    let name: String
    let schema: StoreSchema
    /// Why tables standing for foreign tables were left out of the schema
    /// read (their keys could not be read on their servers).
    let notes: [String]
    private let connection: PostgresConnection
    private let configuration: PostgresConnection.Configuration
    /// The server process serving the connection, which a cancel request
    /// names.
    private let backend: Int64
    /// Whether Ctrl-C while a statement runs cancels it (the REPL, `sift
    /// query`), rather than reaching the process's own handling (`sift
    /// serve`, which shuts down on it).
    private let interruptible: Bool

    private init(
        name: String, schema: StoreSchema, notes: [String], connection: PostgresConnection,
        configuration: PostgresConnection.Configuration, backend: Int64, interruptible: Bool
    ) {
        self.name = name
        self.schema = schema
        self.notes = notes
        self.connection = connection
        self.configuration = configuration
        self.backend = backend
        self.interruptible = interruptible
    }

    /// Connects to `url` (`postgresql://user:password@host:port/database`;
    /// what it leaves out comes from `PGHOST`, `PGPORT`, `PGUSER`,
    /// `PGPASSWORD` and `PGDATABASE`) and reads the schema of its current
    /// schema (`public`) unless `schema` is given.
    static func open(_ url: String, schema given: StoreSchema? = nil, interruptible: Bool = true) throws -> PostgresDatabase {
        let name = PostgresConnectionString.redacted(url)
        let configuration: PostgresConnection.Configuration
        do {
            configuration = try PostgresConnection.Configuration(connectionString: url)
        } catch {
            throw CommandFailure("\(name): \(error.message)")
        }
        return try wait(name: name) {
            let connection = try await connect(configuration)
            do {
                try await connection.checkServerVersion()
                // A page read through a cursor (each(_:batch:_:)) keeps its
                // transaction open while a slow client reads; a server-wide
                // idle-in-transaction timeout must not end the session then.
                _ = try await connection.rows(BoundStatement(sql: "SET idle_in_transaction_session_timeout = 0", bindings: []))
                let backend = try await connection.rows(BoundStatement(sql: "SELECT pg_backend_pid()::bigint", bindings: []))
                guard case .integer(let pid)? = backend.first?.first else {
                    throw SiftPostgresError(.server, "the server did not say which process serves the connection")
                }
                let schema: StoreSchema
                let notes = Mutex<[String]>([])
                if let given {
                    schema = given
                } else {
                    schema = try await StoreSchema.read(from: connection, note: { note in notes.withLock { $0.append(note) } })
                }
                return PostgresDatabase(
                    name: name, schema: schema, notes: notes.withLock { $0 }, connection: connection, configuration: configuration,
                    backend: pid, interruptible: interruptible)
            } catch {
                try? await connection.close()
                throw error
            }
        }
    }

    /// The rows `query` returns, each value read by its column's type.
    func rows(_ query: SQLQuery) throws -> [[Value]] {
        try run(query.statement).map(query.values)
    }

    /// The rows of `query`, handed to `body` as a cursor reads them,
    /// `batch` at a time: memory holds one batch, however many rows the
    /// statement gives (`sift serve` writes a page this way). The cursor
    /// lives in a read-only transaction, ended (and the cursor with it)
    /// before this returns or throws.
    func each(_ query: SQLQuery, batch: Int = 256, _ body: ([Value]) throws -> Void) throws {
        do {
            _ = try run(BoundStatement(sql: "BEGIN READ ONLY", bindings: []))
            _ = try run(BoundStatement(
                sql: "DECLARE sift_rows NO SCROLL CURSOR FOR " + query.statement.sql, bindings: query.statement.bindings))
            let size = max(1, batch)
            let fetch = BoundStatement(sql: "FETCH FORWARD \(size) FROM sift_rows", bindings: [])
            while true {
                let rows = try run(fetch)
                for row in rows { try body(query.values(row)) }
                if rows.count < size { break }
            }
            _ = try run(BoundStatement(sql: "COMMIT", bindings: []))
        } catch {
            // A failed or cancelled statement leaves the transaction aborted:
            // end it, so that the connection serves the next statement. A
            // cancel sent for the statement that failed can still land on
            // the ROLLBACK: then it is sent once more. (Outside a
            // transaction, ROLLBACK only warns.)
            let rollback = BoundStatement(sql: "ROLLBACK", bindings: [])
            if (try? run(rollback)) == nil { _ = try? run(rollback) }
            throw error
        }
    }

    /// The number a count statement returns.
    func count(_ statement: BoundStatement) throws -> Int {
        guard case .integer(let count)? = try run(statement).first?.first else {
            throw CommandFailure("\(name): the count statement returned no count")
        }
        return Int(count)
    }

    /// Runs `statement`. Ctrl-C meanwhile asks the server to cancel it (from
    /// a connection of its own, as libpq's cancel request does), so that the
    /// server does not go on with a statement nobody waits for; the
    /// statement then fails with the server's "canceling statement".
    private func run(_ statement: BoundStatement) throws -> [[SQLValue]] {
        let connection = self.connection
        let (configuration, backend) = (self.configuration, self.backend)
        let cancel: @Sendable () async -> Void = { await Self.cancel(configuration, backend) }
        let onInterrupt = interruptible ? cancel : nil
        return try Self.wait(name: name, onInterrupt: onInterrupt) {
            try await connection.rows(statement)
        }
    }

    /// Asks the server to cancel the statement under way, if one is, and
    /// waits for the request to be sent (`sift serve`'s timeout).
    func cancel() {
        let (configuration, backend) = (self.configuration, self.backend)
        _ = try? Self.wait(name: name) { await Self.cancel(configuration, backend) }
    }

    /// Sends a cancel request for `backend`'s statement from a connection of
    /// its own, as libpq's cancel request does.
    private static func cancel(_ configuration: PostgresConnection.Configuration, _ backend: Int64) async {
        guard let canceller = try? await connect(configuration) else { return }
        _ = try? await canceller.rows(BoundStatement(sql: "SELECT pg_cancel_backend($1::integer)", bindings: [.integer(backend)]))
        try? await canceller.close()
    }

    func close() {
        let connection = self.connection
        _ = try? Self.wait(name: name) { try await connection.close() }
    }

    private static func connect(_ configuration: PostgresConnection.Configuration) async throws -> PostgresConnection {
        var logger = Logger(label: "sift")
        logger.logLevel = .critical
        do {
            return try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        } catch {
            throw SiftPostgresError(error)
        }
    }

    /// Runs `body` to its end from synchronous code, on a task of its own
    /// while this thread waits. Nothing `body` awaits needs this thread
    /// (NIO's event loops and the concurrency pool have their own, and no
    /// work here is on the main actor), so the wait cannot deadlock. While
    /// it runs, SIGINT calls `onInterrupt` instead of ending the process;
    /// the wait ends once both are done. Errors come back as one line,
    /// `URL: message`.
    private static func wait<T: Sendable>(
        name: String, onInterrupt: (@Sendable () async -> Void)? = nil,
        _ body: @escaping @Sendable () async throws -> T
    ) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let interrupts = AsyncStream<Void>.makeStream()
        let catcher = onInterrupt == nil ? nil : InterruptCatcher.start { interrupts.continuation.yield() }
        Task.detached {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in interrupts.stream { await onInterrupt?() }
                }
                let result: Result<T, any Error>
                do {
                    result = .success(try await body())
                } catch {
                    result = .failure(error)
                }
                outcome.withLock { $0 = result }
                // The interrupt task ends once a cancel under way is sent.
                interrupts.continuation.finish()
            }
            done.signal()
        }
        done.wait()
        catcher?.stop()
        switch outcome.withLock({ $0 }) {
        case .success(let value)?: return value
        case .failure(let error as SiftPostgresError)?: throw CommandFailure("\(name): \(describe(error))")
        case .failure(let error)?: throw CommandFailure("\(name): \(error)")
        case nil: throw CommandFailure("\(name): no answer")
        }
    }

    /// A server error on one line: the message and its SQLSTATE, without
    /// the statement (`:sql` shows that).
    private static func describe(_ error: SiftPostgresError) -> String {
        let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
        return message + (error.sqlState.map { " [\($0)]" } ?? "")
    }
}
#else
/// Without SiftPostgres (a build with SIFT_WITHOUT_POSTGRES=1), every
/// PostgreSQL URL is refused with the reason.
final class PostgresDatabase: Sendable {
    let name: String
    let schema: StoreSchema
    let notes: [String] = []

    private init(name: String, schema: StoreSchema) {
        self.name = name
        self.schema = schema
    }

    static func open(_ url: String, schema: StoreSchema? = nil, interruptible: Bool = true) throws -> PostgresDatabase {
        throw CommandFailure("this sift was built without PostgreSQL (SIFT_WITHOUT_POSTGRES=1): rebuild it without that setting")
    }

    func rows(_ query: SQLQuery) throws -> [[Value]] { [] }
    func each(_ query: SQLQuery, batch: Int = 256, _ body: ([Value]) throws -> Void) throws {}
    func count(_ statement: BoundStatement) throws -> Int { 0 }
    func cancel() {}
    func close() {}
}
#endif
