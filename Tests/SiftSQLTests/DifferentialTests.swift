import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import XCTest

/// The backbone: for generated predicates and sort orders over generated
/// data, the primary keys in order from memory, from SQLite and from
/// PostgreSQL must be identical.
final class DifferentialTests: XCTestCase {
    static let seed: UInt64 = {
        if let s = ProcessInfo.processInfo.environment["SIFT_SEED"], let n = UInt64(s) { return n }
        return 20_261_123
    }()
    static let cases = Int(ProcessInfo.processInfo.environment["SIFT_CASES"] ?? "") ?? 3000

    struct Engines {
        let library: Library
        let sqlite: DatabaseQueue
        let postgres: PostgresClient?
    }

    static func engines(seed: UInt64) throws -> Engines {
        let library = Library(seed: seed)
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for s in Library.schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            for s in library.inserts(.sqlite) { try db.execute(sql: s.sql, arguments: s.arguments) }
        }
        var postgres: PostgresClient?
        if let pg = try PostgresClient.fromEnvironment() {
            let tables = ["book_tags", "chapters", "books", "tags", "authors"]
            try pg.execute("DROP TABLE IF EXISTS " + tables.map { SQLDialect.postgreSQL.quote($0) }.joined(separator: ", "))
            for s in Library.schema.createStatements(dialect: .postgreSQL) { try pg.execute(s) }
            for s in library.inserts(.postgreSQL) { _ = try pg.query(s) }
            postgres = pg
        }
        return Engines(library: library, sqlite: db, postgres: postgres)
    }

    /// The ids from the evaluator, or nil if it raises.
    static func memoryIDs(_ request: Sift.FetchRequest, _ books: [Value]) -> [Int]? {
        guard let rows = try? request.execute(on: books) else { return nil }
        return rows.map { row in
            guard case .dictionary(let d) = row, case .int(let id)? = d["id"] else { return -1 }
            return id
        }
    }

    static func sqliteIDs(_ query: SQLQuery, _ db: DatabaseQueue) throws -> [Int] {
        try db.read { db in
            try Int.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments)
        }
    }

    static func postgresIDs(_ query: SQLQuery, _ pg: PostgresClient) throws -> [Int] {
        try pg.query(query.statement).map { row in
            if case .integer(let i)? = row.first { return Int(i) }
            return -1
        }
    }

    func testGeneratedPredicates() throws {
        let seed = Self.seed
        print("differential seed \(seed) (SIFT_SEED=\(seed) SIFT_CASES=\(Self.cases) reproduces)")
        let engines = try Self.engines(seed: seed)
        var generator = PredicateGenerator(seed: seed)
        var compared = 0, raised = 0, refusedPG = 0
        var failures: [String] = []
        for n in 0..<Self.cases {
            let (format, args) = generator.predicate()
            let filter: Filter
            do {
                filter = try Filter(format, arguments: args)
            } catch {
                failures.append("case \(n): does not parse: \(format): \(error)")
                continue
            }
            let request = Sift.FetchRequest(entity: "Book", filter: filter)
            guard let expected = Self.memoryIDs(request, engines.library.books) else {
                raised += 1
                continue
            }
            let label = "case \(n) [\(filter.format)]"
            do {
                let q = try request.sql(in: Library.schema, dialect: .sqlite)
                do {
                    let got = try Self.sqliteIDs(q, engines.sqlite)
                    if got != expected {
                        failures.append("\(label)\n  memory \(expected)\n  sqlite \(got)\n  \(q.statement)")
                    }
                } catch {
                    failures.append("\(label): SQLite failed: \(error)\n  \(q.statement)")
                }
            } catch {
                failures.append("\(label): no SQLite form: \(error)")
            }
            if let pg = engines.postgres {
                do {
                    let q = try request.sql(in: Library.schema, dialect: .postgreSQL)
                    do {
                        let got = try Self.postgresIDs(q, pg)
                        if got != expected {
                            failures.append("\(label)\n  memory   \(expected)\n  postgres \(got)\n  \(q.statement)")
                        }
                    } catch {
                        failures.append("\(label): PostgreSQL failed: \(error)\n  \(q.statement)")
                    }
                } catch where error.code == .unsupported && filter.format.contains("MATCHES") {
                    refusedPG += 1
                } catch {
                    failures.append("\(label): no PostgreSQL form: \(error)")
                }
            }
            compared += 1
            if failures.count >= 15 { break }
        }
        print("differential: \(compared) predicates compared, \(raised) raise in memory, \(refusedPG) MATCHES patterns refused on PostgreSQL, PostgreSQL \(engines.postgres == nil ? "not available" : "compared")")
        XCTAssertTrue(failures.isEmpty, "seed \(seed):\n" + failures.prefix(15).joined(separator: "\n"))
        XCTAssertGreaterThan(compared, Self.cases / 2)
    }
}
