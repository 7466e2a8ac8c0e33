import ArgumentParser
import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import Synchronization

#if SIFT_SERVE
import SiftPostgres
import SiftServer

struct ServeCommand: ParsableCommand {
    static let commands: [any ParsableCommand.Type] = [ServeCommand.self]

    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a database read-only: a JSON API and a web page that filter it with predicates.",
        discussion: """
            Opens DATABASE as `sift query` does (a SQLite file read-only, a Core Data or SwiftData store with \
            --model, or a postgresql:// URL) and serves it over HTTP until interrupted, printing its URL. \
            Every path answers JSON with .json (or Accept: application/json), else a page:

              /.json                    the entities, their counts and schema
              /ENTITY.json?filter=…&sort=…&limit=…&offset=…
                                        {"count": N, "rows": [...], "next": URL}
              /ENTITY/sql.json?filter=… the SQL and its bound values
              /ENTITY/why/ID.json?filter=…
                                        each part of the filter, and whether object ID matches it

            Errors are RFC 9457 problem documents (application/problem+json) naming the parameter, with a \
            caret under the part at fault. Statements run on --connections connections at once, one at a time on \
            each; a request is refused at once (503) when --max-requests are already waiting or running, and \
            interrupted (503) past --timeout.

            Examples:
              sift serve Library.sqlite
              sift serve Recipes.sqlite --model Recipes.momd --port 8080
              sift serve --sample --port 0
            """)

    @Argument(help: "The SQLite database or Core Data store, or a postgresql:// URL.")
    var database: String?

    @Flag(help: "Serve the REPL's sample data (books, authors, tags, memos), written to a SQLite file in a new temporary folder.")
    var sample = false

    @OptionGroup var model: ModelOption

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one.")
    var port = 8001

    @Option(help: ArgumentHelp("The most rows a request may ask for (limit=).", valueName: "rows"))
    var maxLimit = 1000

    @Option(help: ArgumentHelp("The longest a request's statements may run.", valueName: "seconds"))
    var timeout: Double = 10

    @Option(help: ArgumentHelp("The most requests waiting or running at once; one more is refused.", valueName: "n"))
    var maxRequests = 8

    @Option(help: ArgumentHelp(
        "Connections to the database: statements run on them at once, one at a time on each (by default one a processor, at most 4).",
        valueName: "n"))
    var connections = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))

    @OptionGroup var policy: PolicyOptions

    func validate() throws {
        if sample == (database != nil) { throw ValidationError("give a DATABASE or --sample, not both") }
        if sample && model.model != nil { throw ValidationError("--model describes a Core Data store, not the sample") }
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds") }
        guard maxRequests > 0 else { throw ValidationError("--max-requests must be 1 or more") }
        guard (1...64).contains(connections) else { throw ValidationError("--connections must be from 1 to 64") }
        guard maxLimit > 0 else { throw ValidationError("--max-limit must be 1 or more") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() throws {
        let (path, schemaPath) = try sample ? Self.writeSample() : (database!, nil)
        // Written at once, unbuffered: whoever started the server waits for these lines.
        if sample { FileHandle.standardOutput.write(Data("sample data: \(path)\n".utf8)) }
        if PostgresURL.matches(path), model.model != nil { throw PostgresURL.modelGiven }
        let coreDataModel = PostgresURL.matches(path) ? nil : try model.load()
        var stores: [QueryCommand.Store] = []
        defer { stores.forEach { $0.close() } }
        // The schema is read once, on the first connection: reading a
        // PostgreSQL schema also checks the server's case folding, one
        // statement over some 2,800 scalars.
        for _ in 0..<connections {
            // Ctrl-C stops the server (its graceful shutdown), not the
            // statements under way.
            stores.append(try QueryCommand.Store.open(
                path, schema: schemaPath, model: coreDataModel, known: stores.first?.schema, interruptible: false))
        }
        let name = PostgresURL.matches(path)
            ? PostgresConnectionString.redacted(path) : URL(fileURLWithPath: path).lastPathComponent
        let served = stores.map { store in
            ServedDatabase(
                name: name, schema: stores[0].schema, dialect: store.dialect, count: store.count, each: store.each,
                interrupt: store.interrupt, rowJSON: RowFormatting.object)
        }
        let settings = ServerSettings(
            host: host, port: port,
            fetch: RequestFetchOptions(
                policy: policy.policy, defaultLimit: min(50, maxLimit), maximumLimit: maxLimit,
                maximumCost: policy.policy?.evaluationBudget),
            timeout: .milliseconds(Int(timeout * 1000)), maximumConcurrentRequests: maxRequests)
        let server = SiftServer(connections: served, settings: settings)
        let failure = Mutex<(any Error)?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                try await server.run { url in
                    FileHandle.standardOutput.write(Data("serving \(name) at \(url)\n".utf8))
                }
            } catch {
                failure.withLock { $0 = error }
            }
            done.signal()
        }
        done.wait()
        if let error = failure.withLock({ $0 }) { throw CommandFailure("cannot serve on \(host):\(port): \(error)") }
    }

    /// The REPL's sample data in `library.sqlite` in a new temporary folder,
    /// and its schema in `schema.json` beside it (the tables have no foreign
    /// keys to infer the relationships from; `sift query --schema` takes it).
    static func writeSample() throws -> (database: String, schema: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sample-" + UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("library.sqlite").path
        let file = try DatabaseQueue(path: path)
        try SampleData.database().backup(to: file)
        try file.close()
        let schema = folder.appendingPathComponent("schema.json")
        try SampleData.schema.jsonData().write(to: schema)
        return (path, schema.path)
    }
}
#else
/// Without SiftServer (a build with SIFT_WITHOUT_POSTGRES=1) there is no `serve`.
enum ServeCommand {
    static let commands: [any ParsableCommand.Type] = []
}
#endif
