import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// A query to run: SQL text and its arguments.
public struct SQLRun: Sendable {
    public var sql: String
    public var bindings: [SQLValue]

    public init(sql: String, bindings: [SQLValue] = []) {
        self.sql = sql
        self.bindings = bindings
    }

    public init(_ statement: BoundStatement) {
        self.init(sql: statement.sql, bindings: statement.bindings)
    }

    /// The bindings as GRDB arguments, converted at each run as
    /// `FetchSpecification.fetchCount` does.
    public var arguments: StatementArguments {
        BoundStatement(sql: sql, bindings: bindings).arguments
    }

    /// `COUNT(*)`, prepared and run.
    public func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: sql, arguments: arguments) ?? -1
    }

    /// `COUNT(*)` through the connection's cached statement for this SQL:
    /// prepared on first use, then only bound and run.
    public func countPrepared(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: sql), arguments: arguments) ?? -1
    }

    /// The first column of every row (the ids), prepared and run.
    public func ids(_ db: Database) throws -> [Int64] {
        try Int64.fetchAll(db, sql: sql, arguments: arguments)
    }

    /// `EXPLAIN QUERY PLAN`, one line per node, indented by depth.
    public func plan(_ db: Database) throws -> String {
        let rows = try GRDB.Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments)
        var depth: [Int: Int] = [0: -1]
        return rows.map { row -> String in
            let id: Int = row["id"]
            let parent: Int = row["parent"]
            let d = (depth[parent] ?? -1) + 1
            depth[id] = d
            return String(repeating: "  ", count: d) + (row["detail"] as String)
        }.joined(separator: "\n")
    }
}

/// A hand-written form of a case's condition, on `people p`.
public struct HandWrittenSQL: Sendable {
    /// Tells the forms of one case apart (`IN`, `EXISTS`, …).
    public var label: String
    /// What follows FROM: `people p`, possibly with joins.
    public var from: String
    public var condition: String

    public init(_ label: String, from: String = "people p", _ condition: String) {
        self.label = label
        self.from = from
        self.condition = condition
    }

    public var count: SQLRun { SQLRun(sql: "SELECT COUNT(*) FROM \(from) WHERE \(condition)") }

    /// The same columns, in the same order, as the lowered select.
    public var select: SQLRun {
        SQLRun(sql: "SELECT p.id, p.name, p.age, p.score FROM \(from) WHERE \(condition) ORDER BY p.id")
    }
}

/// One predicate: its Sift format and its hand-written SQL forms.
public struct SQLCase: Sendable {
    public var number: Int
    public var format: String
    public var handWritten: [HandWrittenSQL]

    /// The fetch request on `Person` with the predicate (parsed here).
    public func request() throws -> FetchSpecification {
        FetchSpecification(entity: "Person", filter: try Filter(format), sort: [], limit: nil)
    }

    /// The lowered `COUNT(*)` statement (SQLite).
    public func loweredCount() throws -> SQLRun {
        SQLRun(try request().countSQL(in: sqlSchema, dialect: .sqlite))
    }

    /// The lowered full select (SQLite): id and every attribute, ordered by id.
    public func loweredSelect() throws -> SQLRun {
        SQLRun(try request().sql(in: sqlSchema, dialect: .sqlite).statement)
    }
}

public let sqlCases: [SQLCase] = [
    SQLCase(number: 1, format: "age > 30", handWritten: [
        HandWrittenSQL("", "p.age > 30"),
    ]),
    SQLCase(number: 2, format: "name BEGINSWITH 'ab'", handWritten: [
        // The range of names that begin with the bytes of 'ab'; it counts
        // what BEGINSWITH 'ab' does only because no name here has a letter
        // that decomposes to b and a mark after its a.
        HandWrittenSQL("range", "p.name >= 'ab' AND p.name < 'ac'"),
        // The same result on any data: also a followed by ḃ, ḅ or ḇ.
        HandWrittenSQL(
            "exact",
            "(p.name >= 'ab' AND p.name < 'ac') OR (p.name >= 'aḃ' AND p.name < 'aḈ' AND substr(p.name, 2, 1) IN ('ḃ', 'ḅ', 'ḇ'))"),
    ]),
    SQLCase(number: 3, format: "ANY tags.name == 'x'", handWritten: [
        HandWrittenSQL("IN", "p.id IN (SELECT person_id FROM tags WHERE name = 'x')"),
        HandWrittenSQL("EXISTS", "EXISTS (SELECT 1 FROM tags t WHERE t.person_id = p.id AND t.name = 'x')"),
    ]),
    SQLCase(number: 4, format: "age > 30 AND score < 0.5 OR author.name == 'Ann'", handWritten: [
        HandWrittenSQL("IN", "(p.age > 30 AND p.score < 0.5) OR p.author_id IN (SELECT id FROM authors WHERE name = 'Ann')"),
        // The unary + keeps the planner from answering the OR with two index
        // searches (a MULTI-INDEX OR over 690,000 people_age entries).
        HandWrittenSQL("IN +", "(p.age > 30 AND p.score < 0.5) OR +p.author_id IN (SELECT id FROM authors WHERE name = 'Ann')"),
        HandWrittenSQL(
            "JOIN", from: "people p LEFT JOIN authors a ON a.id = p.author_id",
            "(p.age > 30 AND p.score < 0.5) OR a.name = 'Ann'"),
    ]),
]
