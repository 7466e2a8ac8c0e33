import Sift
import SiftSQL
import SQLKit
import SQLiteKit
import SQLiteNIO

/// Where a fetch runs: the database's dialect, and on SQLite a connection
/// with Sift's functions installed.
enum Connection {
    /// Runs `body` on `database`: PostgreSQL as it is; SQLite on one
    /// connection of its `SQLiteDatabase` (Fluent's SQLite database is one),
    /// after installing the `sift_*` functions on it.
    static func run<T: Sendable>(
        _ database: any SQLDatabase, regexLimits: RegexLimits,
        _ body: @escaping @Sendable (StatementRunner) async throws(SiftSQLKitError) -> T
    ) async throws(SiftSQLKitError) -> T {
        switch try DatabaseDialect.of(database) {
        case .postgreSQL:
            return try await body(StatementRunner(database: database, dialect: .postgreSQL))
        default:
            guard let sqlite = database as? any SQLiteDatabase else {
                throw SiftSQLKitError(
                    .database,
                    "this SQLite database is only an SQLDatabase: Sift installs its SQL functions on the connection, "
                        + "which needs sqlite-nio's SQLiteDatabase (Fluent's SQLite database, a SQLiteConnection, or "
                        + "the database of a SQLite connection pool): pass that one")
            }
            return try await run(sqlite, regexLimits: regexLimits, body)
        }
    }

    /// Runs `body` on one connection of `database`, with the `sift_*`
    /// functions installed on it.
    static func run<T: Sendable>(
        _ database: any SQLiteDatabase, regexLimits: RegexLimits,
        _ body: @escaping @Sendable (StatementRunner) async throws(SiftSQLKitError) -> T
    ) async throws(SiftSQLKitError) -> T {
        do {
            return try await database.withConnection { connection in
                try await SQLiteConnectionFunctions.install(on: connection, regexLimits: regexLimits)
                return try await body(StatementRunner(database: connection.sql(), dialect: .sqlite))
            }
        } catch let error as SiftSQLKitError {
            throw error
        } catch {
            throw SiftSQLKitError(.database, "\(error)")
        }
    }

    /// The lowering options for `dialect` on SiftSQLKit's connections:
    /// SQLite's have Sift's functions but not its collations.
    static func options(_ options: SQLLoweringOptions, _ dialect: Dialect) -> SQLLoweringOptions {
        var options = options
        if dialect == .sqlite { options.siftCollations = false }
        return options
    }
}
