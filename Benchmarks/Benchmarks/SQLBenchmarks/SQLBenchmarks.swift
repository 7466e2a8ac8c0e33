import Benchmark
import Foundation
import GRDB
import SQLSupport
import Sift
import SiftSQL
import SiftSQLite

// Fetch requests lowered to SQL (SiftSQL), and the lowered queries run on
// SQLite (SiftSQLite, GRDB) next to hand-written SQL for the same rows.
//
//   N lower sqlite / postgres   `FetchSpecification(entity: "Person", filter: f).sql(in:dialect:)`,
//                               f parsed once, outside the measured loop; 1,000 lowerings
//                               per sample (`scalingFactor: .kilo`), so the rows marked `*`
//                               are ns and mallocs per lowering
//   Nc count lowered            the `countSQL(in:dialect: .sqlite)` statement, run
//   Nc count hand-written …     `SELECT COUNT(*) FROM people p WHERE …`, written by hand
//   Np count …                  the same two, each statement prepared once (GRDB's
//                               `cachedStatement`) and then only bound and run
//   Ns select lowered           the full select (`sql(in:dialect: .sqlite)`: id, name,
//                               age, score, ORDER BY id), its first column (the ids) fetched
//   Ns select hand-written …    `SELECT p.id, p.name, p.age, p.score FROM people p WHERE …
//                               ORDER BY p.id`, first column fetched
//
// One query per iteration, in µs: prepared, bound (the lowered bindings
// converted to GRDB arguments at every run, as `fetchCount` does), stepped,
// on the same connection. The database (1,000,000 people, ~1.5M tags, 10
// authors; `Support/SQLSupport`) is generated and written to a temporary
// file in the setup of each query benchmark (package-benchmark runs every
// benchmark in its own process) and deleted in its teardown. `SQLPlans`
// prints the SQL, the row counts and EXPLAIN QUERY PLAN of every query.

/// Built on first use: by the setup of the query benchmarks only.
let database: BenchmarkDatabase = {
    do {
        return try BenchmarkDatabase()
    } catch {
        fatalError("cannot build the database: \(error)")
    }
}()

@Sendable func loadDatabase() async throws { blackHole(database.people) }
@Sendable func removeDatabase() async throws { database.remove() }

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock],
        timeUnits: .microseconds,
        warmupIterations: 2,
        scalingFactor: .one,
        maxDuration: .seconds(3),
        maxIterations: 2_000
    )
    let lowering = Benchmark.Configuration(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 3,
        scalingFactor: .kilo,
        maxDuration: .seconds(2),
        maxIterations: 10_000
    )

    for c in sqlCases {
        let n = c.number
        let filter: Filter
        let count: SQLRun
        let select: SQLRun
        do {
            filter = try Filter(c.format)
            count = try c.loweredCount()
            select = try c.loweredSelect()
        } catch {
            fatalError("cannot lower \(c.format): \(error)")
        }

        for dialect in Dialect.allCases {
            Benchmark("\(n) lower \(dialect.rawValue): \(c.format)", configuration: lowering) { benchmark in
                for _ in benchmark.scaledIterations {
                    let request = FetchSpecification(entity: "Person", filter: filter, sort: [], limit: nil)
                    blackHole(try request.sql(in: sqlSchema, dialect: dialect))
                }
            }
        }

        // Each count prepared at every run (c), and prepared once through
        // GRDB's cached statement, then only bound and run (p): the SQL
        // itself, without SQLite's compilation of it.
        let counts: [(String, @Sendable (SQLRun, Database) throws -> Int)] = [
            ("c", { try $0.count($1) }), ("p", { try $0.countPrepared($1) }),
        ]
        for (kind, run) in counts {
            Benchmark("\(n)\(kind) count lowered: \(c.format)", closure: { _ in
                try database.queue.inDatabase { db in blackHole(try run(count, db)) }
            }, setup: loadDatabase, teardown: removeDatabase)

            for h in c.handWritten {
                let label = h.label.isEmpty ? "" : " " + h.label
                let hand = h.count
                Benchmark("\(n)\(kind) count hand-written\(label): \(h.condition)", closure: { _ in
                    try database.queue.inDatabase { db in blackHole(try run(hand, db)) }
                }, setup: loadDatabase, teardown: removeDatabase)
            }
        }

        Benchmark("\(n)s select lowered: \(c.format)", closure: { _ in
            try database.queue.inDatabase { db in blackHole(try select.ids(db)) }
        }, setup: loadDatabase, teardown: removeDatabase)

        for h in c.handWritten {
            let label = h.label.isEmpty ? "" : " " + h.label
            let run = h.select
            Benchmark("\(n)s select hand-written\(label): \(h.condition)", closure: { _ in
                try database.queue.inDatabase { db in blackHole(try run.ids(db)) }
            }, setup: loadDatabase, teardown: removeDatabase)
        }
    }
}
