import FluentKit
import FluentSQLiteDriver
import Foundation
import GRDB
import Logging
import PostgresKit
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import SiftTestSupport
import SQLKit
import SQLiteKit
import NIOCore
import NIOPosix

/// The `Library` fixture in a temporary SQLite file (written with GRDB),
/// opened through Fluent's SQLite driver, whose database is both an
/// SQLKit `SQLDatabase` and sqlite-nio's `SQLiteDatabase`.
final class FluentSQLiteLibrary: Sendable {
    let library: Library
    let path: String
    let databases: Databases
    let database: any FluentKit.Database

    /// The SQLKit face of ``database``.
    var sql: any SQLDatabase { database as! any SQLDatabase }

    convenience init(seed: UInt64) throws {
        try self.init(Library(seed: seed))
    }

    init(_ library: Library) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-sqlkit-\(UUID().uuidString).sqlite").path
        self.library = library
        self.path = path
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for s in Library.schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            for s in library.inserts(.sqlite) { try db.execute(sql: s.sql, arguments: s.arguments) }
        }
        try queue.close()
        let group = MultiThreadedEventLoopGroup.singleton
        databases = Databases(threadPool: NIOThreadPool.singleton, on: group)
        databases.use(.sqlite(SQLiteConfiguration(storage: .file(path: path))), as: .sqlite)
        database = databases.database(.sqlite, logger: Logger(label: "SiftSQLKitTests"), on: group.any())!
    }

    /// Shuts the pool down and removes the file.
    func close() async {
        await databases.shutdownAsync()
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The `Library` fixture in the throwaway PostgreSQL server's `public`
/// schema (as the differential suite sets it up), or nil without
/// SIFT_POSTGRES; `sql` is its connection through postgres-kit.
struct PostgresLibrary {
    let connection: PostgresConnection
    var sql: any SQLDatabase { connection.sql() }

    static func connect(_ library: Library) async throws -> PostgresLibrary? {
        guard let pg = try await PostgresServer.connect() else { return nil }
        let tables = ["book_tags", "chapters", "books", "tags", "authors"]
        let drop = "DROP TABLE IF EXISTS " + tables.map { Dialect.postgreSQL.quote($0) }.joined(separator: ", ")
        try await PostgresServer.setUp(pg, [drop] + Library.schema.createStatements(dialect: .postgreSQL))
        try await PostgresServer.setUp(pg, library.inserts(.postgreSQL))
        return PostgresLibrary(connection: pg)
    }
}
