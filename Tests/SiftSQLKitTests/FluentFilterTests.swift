import FluentKit
import Foundation
import Sift
import SiftSQL
import SiftSQLKit
import SiftTestSupport
import Testing

/// A book as a Fluent model of the `Library` fixture's `books` table: its
/// key only, which is what the filter's answers are compared by.
final class FluentBook: Model, @unchecked Sendable {
    static let schema = "books"

    @ID(custom: "id", generatedBy: .database) var id: Int?

    init() {}
}

/// `QueryBuilder.filter(sift:schema:)` on Fluent's SQLite driver: the
/// models of generated predicates, alone and beside Fluent's own filters
/// (whose values SQLKit numbers before Sift's), are memory's.
@Suite(.serialized)
struct FluentFilterTests {
    @Test func testGeneratedPredicatesAsFluentFilters() async throws {
        let seed = SQLKitDifferentialTests.seed &+ 2
        let sqlite = try FluentSQLiteLibrary(seed: seed)
        let books = sqlite.library.books
        var generator = PredicateGenerator(seed: seed)
        var failures: [String] = []
        var compared = 0, raised = 0
        for _ in 0..<max(50, SQLKitDifferentialTests.cases / 20) {
            let (format, arguments) = generator.predicate(depth: 2)
            let filter = try Filter(format, arguments: arguments)
            // Beside a Fluent filter: memory's answer is the conjunction's.
            let besideFluent = generator.chance(0.5)
            let combined = besideFluent ? try Filter("id > %d AND (\(format))", arguments: [3 as any FormatArgumentConvertible] + arguments) : filter
            guard let expected = GeneratedFetches.memoryIDs(FetchSpecification(entity: "Book", filter: combined), books) else {
                raised += 1
                continue
            }
            do {
                var query = FluentBook.query(on: sqlite.database)
                if besideFluent { query = query.filter(\.$id > 3) }
                let got = try await query.filter(sift: filter, schema: Library.schema).sort(\.$id).all().map { $0.id ?? -1 }
                if got != expected { failures.append("\(format)\n  memory \(expected)\n  fluent \(got)") }
                compared += 1
            } catch where GeneratedFetches.raisesPastShortCircuit(error, combined, books) {
            } catch {
                failures.append("\(format): \(error)")
            }
            if failures.count >= 10 { break }
        }
        print("SiftSQLKit Fluent filter seed \(seed): \(compared) predicates compared, \(raised) raise in memory")
        await sqlite.close()
        #expect(failures.isEmpty, Comment(rawValue: failures.joined(separator: "\n")))
        #expect(compared >= 30)
    }

    /// A key path the schema does not have is refused before any SQL runs,
    /// with the lowering's message.
    @Test func testUnknownKeyIsRefused() async throws {
        let sqlite = try FluentSQLiteLibrary(seed: SQLKitDifferentialTests.seed)
        await #expect {
            _ = try await FluentBook.query(on: sqlite.database).filter(sift: try Filter("pages > 3"), schema: Library.schema)
        } throws: { error in
            (error as? SiftSQLKitError)?.kind == .lowering && "\(error)".contains("pages")
        }
        await sqlite.close()
    }
}
