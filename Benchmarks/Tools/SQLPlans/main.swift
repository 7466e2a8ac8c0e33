// Builds the SQLBenchmarks database and prints, for each of the four cases:
// the lowered SQL (both dialects), the hand-written SQL, their COUNT(*)
// results and whether the fetched ids agree, and EXPLAIN QUERY PLAN of every
// query. Exits with status 1 if a lowered query and a hand-written one differ.
//
//   SQLPlans [--n N] [--keep]
//       --keep leaves the database file (path printed) for the sqlite3 shell
//   SQLPlans --lower CASE [--dialect sqlite|postgres] [--reps R]
//       only lowers case CASE (1-4) R times (default 100,000) in
//       lowerRepeatedly(_:_:_:), for callgrind or perf; prints µs per lowering
//   SQLPlans --count CASE [--hand] [--n N] [--reps R]
//       builds the database, then runs case CASE's lowered COUNT(*) (or its
//       first hand-written one) R times (default 2,000), prepared at each run
//       as SQLBenchmarks does, in countRepeatedly(_:_:_:); prints µs per query
import Foundation
import GRDB
import SQLSupport
import Sift
import SiftSQL

var count = SQLData.defaultCount
var lowerCase: Int?
var dialect = Dialect.sqlite
var reps = 100_000
var keep = false
var countCase: Int?
var handWritten = false
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    switch a {
    case "--n": count = arguments.popFirst().flatMap { Int($0) } ?? count
    case "--lower": lowerCase = arguments.popFirst().flatMap { Int($0) }
    case "--dialect": dialect = arguments.popFirst().flatMap { Dialect(rawValue: $0) } ?? dialect
    case "--keep": keep = true
    case "--count": countCase = arguments.popFirst().flatMap { Int($0) }
    case "--hand": handWritten = true
    case "--reps": reps = arguments.popFirst().flatMap { Int($0) } ?? reps
    default:
        FileHandle.standardError.write("unknown argument \(a)\n".data(using: .utf8)!)
        exit(2)
    }
}

/// Lowers the request `reps` times; the filter is parsed by the caller.
@inline(never)
func lowerRepeatedly(_ filter: Filter, _ dialect: Dialect, _ reps: Int) throws -> Int {
    var length = 0
    for _ in 0..<reps {
        let request = FetchSpecification(entity: "Person", filter: filter, sort: [], limit: nil)
        length &+= try request.sql(in: sqlSchema, dialect: dialect).statement.sql.utf8.count
    }
    return length
}

if let lowerCase {
    guard let c = sqlCases.first(where: { $0.number == lowerCase }) else {
        FileHandle.standardError.write("no case \(lowerCase)\n".data(using: .utf8)!)
        exit(2)
    }
    let filter = try Filter(c.format)
    let start = Date()
    let length = try lowerRepeatedly(filter, dialect, reps)
    let seconds = Date().timeIntervalSince(start)
    print(String(format: "%.2f µs per lowering (%d × %@ %@; %d bytes of SQL)", seconds * 1e6 / Double(reps), reps,
                 dialect.rawValue, c.format, length / max(reps, 1)))
    exit(0)
}

/// Runs the count `reps` times on one connection.
@inline(never)
func countRepeatedly(_ run: SQLRun, _ db: Database, _ reps: Int) throws -> Int {
    var total = 0
    for _ in 0..<reps { total &+= try run.count(db) }
    return total
}

if let countCase {
    guard let c = sqlCases.first(where: { $0.number == countCase }), let hand = c.handWritten.first else {
        FileHandle.standardError.write("no case \(countCase)\n".data(using: .utf8)!)
        exit(2)
    }
    let run = handWritten ? hand.count : try c.loweredCount()
    let database = try BenchmarkDatabase(count: count)
    let reps = CommandLine.arguments.contains("--reps") ? reps : 2_000
    let (seconds, total) = try database.queue.inDatabase { db in
        let start = Date()
        let total = try countRepeatedly(run, db, reps)
        return (Date().timeIntervalSince(start), total)
    }
    print(String(format: "%.1f µs per query (%d × %@; %d rows)", seconds * 1e6 / Double(reps), reps,
                 handWritten ? hand.condition : c.format, total / max(reps, 1)))
    database.remove()
    exit(0)
}

let database = try BenchmarkDatabase(count: count)
if keep { print("database: \(database.path)") }
print("SQLite \(try database.queue.read { try String.fetchOne($0, sql: "SELECT sqlite_version()") } ?? "?")")
print(
    "\(database.people) people, \(database.tags) tags, \(SQLData.authorNames.count) authors; generated in "
        + String(
            format: "%.2f s, inserted in %.2f s, indexed in %.2f s", database.generateSeconds, database.insertSeconds,
            database.indexSeconds))
for s in sqlSchema.createStatements(dialect: .sqlite) + extraIndexes { print("  \(s)") }

func show(_ title: String, _ run: SQLRun, _ db: Database) throws {
    print("\n\(title)")
    print("  " + BoundStatement(sql: run.sql, bindings: run.bindings).description.replacingOccurrences(of: "\n", with: "\n  "))
    print(try run.plan(db).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
}

let failed = try database.queue.read { db -> Bool in
    var failed = false
    for c in sqlCases {
        print("\n== \(c.number) \(c.format)")
        let postgres = try c.request().sql(in: sqlSchema, dialect: .postgreSQL).statement
        print("PostgreSQL select:\n  \(postgres.description.replacingOccurrences(of: "\n", with: "\n  "))")

        let count = try c.loweredCount()
        let select = try c.loweredSelect()
        let n = try count.count(db)
        let ids = try select.ids(db)
        print("lowered: COUNT(*) \(n), select \(ids.count) rows")
        try show("lowered count", count, db)
        try show("lowered select", select, db)
        for h in c.handWritten {
            let label = h.label.isEmpty ? "hand-written" : "hand-written \(h.label)"
            let hn = try h.count.count(db)
            let hids = try h.select.ids(db)
            let same = hn == n && hids == ids
            if !same { failed = true }
            print("\n\(label): COUNT(*) \(hn), select \(hids.count) rows: \(same ? "same as lowered" : "DIFFERENT")")
            try show("\(label) count", h.count, db)
            try show("\(label) select", h.select, db)
        }
    }
    return failed
}
if !keep { database.remove() }
if failed {
    print("\nA hand-written query disagrees with the lowered one.")
    exit(1)
}
