import Foundation
import Logging
import NIOCore
import NIOPosix
import Sift
import SiftSQL
import SiftSQLKit
import SiftTestSupport
import SQLKit
import Testing

/// MySQL's dialect as SQLKit's MySQL driver names it ("mysql": backticks,
/// `?` placeholders). No MySQL driver is at hand, so this database holds
/// only the dialect: SiftSQLKit must refuse it before sending anything,
/// and any statement that reaches it fails the test.
struct MySQLDialect: SQLDialect {
    var name: String { "mysql" }
    var identifierQuote: any SQLExpression { SQLRaw("`") }
    var literalStringQuote: any SQLExpression { SQLRaw("'") }
    var supportsAutoIncrement: Bool { true }
    var autoIncrementClause: any SQLExpression { SQLRaw("AUTO_INCREMENT") }
    func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?") }
    func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "1" : "0") }
    var literalDefault: any SQLExpression { SQLRaw("DEFAULT") }
}

struct MySQLDialectDatabase: SQLDatabase {
    var logger: Logger { Logger(label: "MySQLDialectDatabase") }
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { MySQLDialect() }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        Issue.record("a statement reached the MySQL database: \(serialize(query).sql)")
        return eventLoop.makeSucceededVoidFuture()
    }
}

struct DialectRefusalTests {
    /// Fetches, counts and schema reading refuse MySQL, naming it.
    @Test func testMySQLIsRefused() async throws {
        let database = MySQLDialectDatabase()
        let request = FetchSpecification(entity: "Book", filter: try Filter("year > 1980"))
        func refusesMySQL(_ error: any Error) -> Bool {
            guard let error = error as? SiftSQLKitError else { return false }
            return error.kind == .unsupportedDialect && error.message.contains("\"mysql\"")
        }
        await #expect { _ = try await request.fetchValues(database, schema: Library.schema) } throws: { refusesMySQL($0) }
        await #expect { _ = try await request.fetchCount(database, schema: Library.schema) } throws: { refusesMySQL($0) }
        await #expect { _ = try await StoreSchema.read(from: database) } throws: { refusesMySQL($0) }
    }
}
