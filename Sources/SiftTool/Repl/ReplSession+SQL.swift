import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// `:sql`: the SQL of a fetch, run and compared with memory on SQLite data.
extension ReplSession {
    // MARK: - :sql

    func sql(_ argument: String) -> Reply {
        let words = argument.split(separator: " ", maxSplits: 1).map(String.init)
        var dialect = dataset.server == nil ? Dialect.sqlite : .postgreSQL
        var predicate = argument
        if let w = words.first, ["sqlite", "postgres", "postgresql"].contains(w.lowercased()) {
            dialect = w.lowercased() == "sqlite" ? .sqlite : .postgreSQL
            predicate = words.count > 1 ? words[1] : ""
        }
        guard let schema = dataset.schema else {
            return failure("SQL needs a schema: the data comes from JSON; :load a SQLite file (or use the sample)")
        }
        let filter: Filter
        switch self.filter(argument: predicate) {
        case .success(let (f, _)): filter = f
        case .failure(let e): return e.reply(style)
        }
        var request = FetchSpecification(entity: collection.name, filter: filter, sort: sort, limit: limit)
        if let grouping { request = grouping.applied(to: request) }
        let query: SQLQuery
        do {
            query = try request.sql(in: schema, dialect: dialect)
        } catch {
            return failure(error)
        }
        var lines = [TerminalText.visible(query.statement.sql, keepingLayout: true)]
        for line in SQLComments.bindings(query.statement, dialect: dialect) { lines.append(style.dim(line)) }
        guard dialect == .sqlite, let database = dataset.database, let keys = collection.primaryKeys else {
            return Reply(output: lines.joined(separator: "\n"))
        }
        // Run it on the database and compare with the evaluator's answer.
        if let grouping {
            lines.append(compareGroups(request, query, grouping, database))
            return Reply(output: lines.joined(separator: "\n"))
        }
        do {
            let sqlKeys = try database.read { try request.fetchPrimaryKeys($0, schema: schema) }
            var memory: [Int] = []
            let compiled = try forRows(filter).compiled()
            for (i, row) in collection.rows.enumerated() where try compiled.evaluate(with: row, variables: variables) {
                memory.append(i)
            }
            if !sort.isEmpty {
                memory = try Sorting.permutation(memory.map { collection.rows[$0] }, by: sort).map { memory[$0] }
            }
            if let limit { memory = Array(memory.prefix(limit)) }
            let memoryKeys = memory.map { keys[$0] }
            let count = Self.rows(sqlKeys.count)
            if sqlKeys == memoryKeys {
                lines.append(style.green("SQLite: \(count), the same as in memory."))
            } else {
                let rowNumber = Dictionary(keys.enumerated().map { ($0.element, $0.offset + 1) }, uniquingKeysWith: { a, _ in a })
                let sqlRows = sqlKeys.map { rowNumber[$0].map(String.init) ?? "?" }.joined(separator: ", ")
                let memRows = memory.map { String($0 + 1) }.joined(separator: ", ")
                lines.append(style.red("SQLite: \(count) (#\(sqlRows)); in memory: #\(memRows)."))
            }
        } catch let e as EvaluationError {
            lines.append(e.rendered(colors: style.enabled))
        } catch let e as SQLLoweringError {
            // The predicate has SQL, but memory cannot answer it.
            lines.append(e.rendered(colors: style.enabled))
        } catch {
            lines.append(style.red("SQLite: " + TerminalText.visible(SchemaFile.describe(error))))
        }
        return Reply(output: lines.joined(separator: "\n"))
    }

    /// A grouped fetch's results from SQLite against memory's, as
    /// multisets (the order of groups tied in the sort is unspecified).
    private func compareGroups(_ request: FetchSpecification, _ query: SQLQuery, _ g: ReplGrouping, _ database: DatabaseQueue)
        -> String
    {
        do {
            let sqlRows = try database.read { db in
                try Row.fetchAll(db, sql: query.statement.sql, arguments: query.statement.arguments).map(query.values)
            }
            let sql = GroupingOptions.rows(sqlRows.map { Value.dictionary(query.object($0)) }, columns: g.columns)
            var inMemory = request
            let filter = try forRows(request.filter ?? Filter("TRUEPREDICATE"))
            inMemory.filter = nil
            inMemory.entity = nil
            // In input order, as the objects come to a grouped fetch.
            let matched = try matches(filter).sorted().map { collection.row($0) }
            let memory = GroupingOptions.rows(try inMemory.execute(on: matched), columns: g.columns)
            // As multisets: groups tied in the sort come in no fixed order in SQL.
            let same = Dictionary(sql.map { ($0, 1) }, uniquingKeysWith: +) == Dictionary(memory.map { ($0, 1) }, uniquingKeysWith: +)
            let count = sql.count == 1 ? "1 group" : "\(sql.count) groups"
            return same
                ? style.green("SQLite: \(count), the same as in memory.")
                : style.red("SQLite: \(count); in memory \(memory.count), not the same:\n")
                    + RowFormatting.table(g.columns, sql).joined(separator: "\n") + "\nin memory:\n"
                    + RowFormatting.table(g.columns, memory).joined(separator: "\n")
        } catch let e as any SourceDiagnostic {
            return e.rendered(colors: style.enabled)
        } catch {
            return style.red("SQLite: " + TerminalText.visible(SchemaFile.describe(error)))
        }
    }
}
