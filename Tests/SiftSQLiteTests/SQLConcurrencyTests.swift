import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// One schema lowering from many tasks, and the `sift_*` SQL functions
/// (with their shared pattern caches) running on many connections of a
/// pool at once: every task must get the rows one task gets.
struct SQLConcurrencyTests {
    @Test func loweringAndFunctionsFromManyTasks() async throws {
        let library = Library(seed: 7)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-pool-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: path) }
        let pool = try DatabasePool(path: path.path, configuration: .sift)
        try await pool.write { db in
            for s in Library.schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            for s in library.inserts(.sqlite) { try db.execute(sql: s.sql, arguments: s.arguments) }
        }
        var generator = PredicateGenerator(seed: 11)
        var filters: [Filter] = []
        while filters.count < 60 {
            let (format, args) = generator.predicate()
            // Lowered, and not failing on its rows (arithmetic can overflow).
            guard let f = try? Filter(format, arguments: args),
                let q = try? FetchSpecification(entity: "Book", filter: f).sql(in: Library.schema, dialect: .sqlite),
                (try? await pool.read({ try Int.fetchAll($0, sql: q.statement.sql, arguments: q.statement.arguments) })) != nil
            else { continue }
            filters.append(f)
        }
        // Regular expressions and folding exercise the functions' caches.
        filters += try ["title MATCHES '(?i)caf.*'", "title CONTAINS[cd] 'strasse'", "code LIKE[c] '*a?b*'"]
            .map { try Filter($0) }
        let schema = Library.schema
        let all = filters
        @Sendable func run(_ filter: Filter) throws -> (String, [Int]) {
            let query = try FetchSpecification(entity: "Book", filter: filter).sql(in: schema, dialect: .sqlite)
            let ids = try pool.read { db in
                try Int.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
            }
            return (query.statement.sql, ids)
        }
        let expected = try all.map(run)
        #expect(expected.contains { !$0.1.isEmpty })

        try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var differing = 0
                    for i in all.indices.reversed() where (i + task) % 2 == 0 || task == 0 {
                        let (sql, ids) = try run(all[i])
                        if sql != expected[i].0 || ids != expected[i].1 { differing += 1 }
                    }
                    return differing
                }
            }
            for try await differing in group { #expect(differing == 0) }
        }
    }
}
