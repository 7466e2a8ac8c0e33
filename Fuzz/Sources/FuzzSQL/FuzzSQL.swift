import FuzzSupport
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// Parse and lower to SQL. For every input: no crash or trap; lowering
/// either throws an `SQLLoweringError` or gives SQL that SQLite prepares,
/// with as many bindings as placeholders, for both the fetch and the count;
/// when the evaluator answers the same request on the same rows, SQLite runs
/// the statement and returns the same rows in the same order. PostgreSQL's
/// SQL is only produced.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = FuzzInput(data, size)
    guard let filter = input.filter else { return 0 }
    // The input's length chooses the rest of the request, so that every
    // shape of request meets every predicate without spending input bytes.
    let shape = requestShapes[size % requestShapes.count]
    let request = FetchSpecification(
        entity: "Record", filter: filter, sort: shape.sort, offset: shape.offset, limit: shape.limit)

    _ = lower { () throws(SQLLoweringError) in try request.sql(in: FuzzLibrary.schema, dialect: .postgreSQL) }
    _ = lower { () throws(SQLLoweringError) in try request.countSQL(in: FuzzLibrary.schema, dialect: .postgreSQL) }
    guard let query = lower({ () throws(SQLLoweringError) in try request.sql(in: FuzzLibrary.schema, dialect: .sqlite) })
    else { return 0 }
    let count = lower { () throws(SQLLoweringError) in try request.countSQL(in: FuzzLibrary.schema, dialect: .sqlite) }

    // Key paths resolve ignoring case in SQL (for Core Data's upper-case
    // columns) but not in dictionaries: compare only predicates whose key
    // paths are spelled as in the schema.
    let comparable = (try? exactKeyPaths.check(filter)) != nil
    let expected = comparable ? try? request.execute(on: FuzzLibrary.values).map(primaryKey) : nil
    do {
        try database.read { db in
            let ids = try run(query.statement, db, input: input).map { Int.fromDatabaseValue($0[0]) ?? -1 }
            if let expected, ids != expected {
                FuzzCheck.fail(
                    "SQLite and the evaluator return different rows", input: input.text,
                    "memory: \(expected)", "sqlite: \(ids)", "\(query.statement)")
            }
            if let count {
                let n = try run(count, db, input: input).first.flatMap { Int.fromDatabaseValue($0[0]) }
                if let expected, n != expected.count {
                    FuzzCheck.fail(
                        "the count differs from the rows", input: input.text, "memory: \(expected.count)",
                        "sqlite count: \(n.map(String.init) ?? "none")", "\(count)")
                }
            }
        }
    } catch {
        // SQLite may fail where the evaluator raises (a bad MATCHES pattern).
        if let expected {
            FuzzCheck.fail(
                "SQLite failed where the evaluator answers", input: input.text, "memory: \(expected)", "\(error)",
                "\(query.statement)")
        }
    }
    return 0
}

private let database: DatabaseQueue = {
    do {
        return try FuzzLibrary.database()
    } catch {
        fatalError("cannot create the fuzz database: \(error)")
    }
}()

private let exactKeyPaths = PredicatePolicy(keyPaths: FuzzLibrary.keyPaths(of: "Record"))

private struct RequestShape {
    var sort: [SortKey] = []
    var offset = 0
    var limit: Int?
}

private let requestShapes: [RequestShape] = [
    RequestShape(),
    RequestShape(sort: [.ascending("name")]),
    RequestShape(sort: [.descending("author.name", .caseInsensitive), .ascending("score")], limit: 2),
    RequestShape(sort: [.ascending("word", .localizedStandard)], offset: 1),
    RequestShape(sort: [.descending("published"), .ascending("title", .localized)], offset: 1, limit: 2),
]

private func lower<T>(_ body: () throws(SQLLoweringError) -> T) -> T? {
    do throws(SQLLoweringError) {
        return try body()
    } catch {
        _ = error.rendered()
        return nil
    }
}

private func primaryKey(_ row: Value) -> Int {
    if case .dictionary(let d) = row, case .int(let id)? = d["id"] { return id }
    return -1
}

/// Prepares (which must succeed), binds (the count must match), and runs.
private func run(_ statement: BoundStatement, _ db: Database, input: FuzzInput) throws -> [GRDB.Row] {
    let prepared: Statement
    do {
        prepared = try db.makeStatement(sql: statement.sql)
    } catch {
        FuzzCheck.fail("SQLite does not accept the SQL", input: input.text, "\(error)", "\(statement)")
    }
    let arguments = statement.arguments
    do {
        try prepared.validateArguments(arguments)
    } catch {
        FuzzCheck.fail("the bindings do not fit the SQL", input: input.text, "\(error)", "\(statement)")
    }
    return try GRDB.Row.fetchAll(prepared, arguments: arguments)
}
