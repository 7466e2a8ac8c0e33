import FluentKit
import Foundation
import Sift
import SiftSQL
import SiftSQLKit
import SiftTestSupport
import SQLKit
import Testing

/// README.md's SQLKit and Fluent example, as written, on the `Library`
/// fixture through Fluent's SQLite driver.
struct ReadmeSQLKitTests {
    @Test func testReadmeExample() async throws {
        let library = try FluentSQLiteLibrary(seed: SQLKitDifferentialTests.seed)
        let database = library.database

        // database: Fluent's req.db on SQLite or PostgreSQL
        let sql = database as! any SQLDatabase
        let schema = try await StoreSchema.read(from: sql)
        let request = try FetchSpecification(entity: "books", query: "filter=year+%3E+1950&sort=year+DESC&limit=3")
        let rows = try await request.fetchValues(sql, schema: schema)
        let recent = try await FluentBook.query(on: database).filter(sift: try Filter("year > 1950"), schema: schema).all()

        let memory = try FetchSpecification(entity: "Book", filter: try Filter("year > 1950"), sort: [.descending("year")])
            .execute(on: library.library.books)
        #expect(GeneratedFetches.ids(rows) == Array(GeneratedFetches.ids(memory).prefix(3)))
        #expect(rows.count == 3)
        #expect(Set(recent.compactMap(\.id)) == Set(GeneratedFetches.ids(memory)))
        await library.close()
    }
}
