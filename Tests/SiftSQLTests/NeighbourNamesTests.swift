import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLite
import Testing

/// A file that imports GRDB, PostgresNIO and Foundation with every Sift
/// library uses the names of each without qualifying them: this file
/// compiles only if none of Sift's public names is also one of theirs
/// (`FetchRequest` below is GRDB's protocol; Sift's former `FetchRequest`
/// is an unavailable alias, which lookup sets aside).
struct NeighbourNamesTests {
    /// GRDB's `FetchRequest`, unqualified.
    func titles(_ request: some FetchRequest<Row>, in db: Database) throws -> [String] {
        try request.fetchAll(db).map { $0["title"] }
    }

    @Test func testSiftAndGRDBTogether() throws {
        let schema = StoreSchema([
            Entity("Book", table: "books", attributes: [Attribute("title", .string), Attribute("year", .integer)])
        ])
        let spec = FetchSpecification(entity: "Book", filter: try Filter("year > 1980"), sort: [.ascending("title")])
        let statement: BoundStatement = try spec.sql(in: schema, dialect: Dialect.sqlite).statement
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for sql in schema.createStatements(dialect: .sqlite) { try db.execute(sql: sql) }
            try db.execute(sql: "INSERT INTO books (id, title, year) VALUES (1, 'It', 1986), (2, 'Carrie', 1974)")
        }
        let viaSift = try db.read { try spec.fetchValues($0, schema: schema) }.map { $0["title"]?.stringValue }
        let viaGRDB = try db.read { db in
            try titles(SQLRequest<Row>(sql: statement.sql, arguments: statement.arguments), in: db)
        }
        #expect(viaSift == ["It"])
        #expect(viaGRDB == ["It"])
        #expect(try db.read { try Row.fetchAll($0, sql: "SELECT title FROM books ORDER BY id") }.count == 2)
        // Foundation's and PostgresNIO's names beside Sift's.
        let _: Predicate<Int> = #Predicate { $0 > 1 }
        let _: SortDescriptor<URLComponents>? = nil
        let _: PostgresQuery = "SELECT 1"
        let _: Value = .int(1)
    }
}
