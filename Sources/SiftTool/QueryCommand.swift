import ArgumentParser
import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Print the rows of a SQLite or PostgreSQL database that match a predicate.",
        discussion: """
            Opens DATABASE read-only, writing nothing next to it (not even the -shm of a WAL database), infers \
            its schema (plain tables with foreign keys, or Core Data's layout: entity Book is table ZBOOK, \
            attribute title is column ZTITLE, keys matched ignoring case) unless \
            --schema gives one, and runs the fetch in SQL. Rows print as a table on a terminal and as JSON Lines \
            otherwise, keyed by attribute name (the primary key under its column name); dates print as ISO 8601, \
            data as base64. Exits with 1 when nothing matches (--count still prints 0), 2 on a usage, parse \
            or lowering error. A writer's lock is waited for up to SIFT_BUSY_TIMEOUT seconds (5); a WAL \
            database that no connection has open (it has no -shm) is read from a copy in $TMPDIR of at most \
            SIFT_MAX_COPY_SIZE bytes (1073741824), unless it lies on a read-only file system.

            DATABASE may be a PostgreSQL URL (postgresql://user:password@host:port/database, or postgres://): \
            the schema is read from the catalog of its current schema (public) and the fetch runs on the \
            server. What the URL leaves out comes from PGHOST, PGPORT, PGUSER, PGPASSWORD and PGDATABASE. \
            Connection and server errors are one line, without the password; Ctrl-C cancels the statement \
            on the server.

            Examples:
              sift query Library.sqlite Book \\
                'year > 1980 AND author.name BEGINSWITH[cd] "e"' --sort 'title'
              sift query Library.sqlite Book 'tags.@count == 0' --count
              sift query postgresql://ann@db.example.com/library books \\
                'author.name BEGINSWITH "A"' --sort 'year DESC' --limit 20
            """)

    @Argument(help: "The SQLite database, or a postgresql:// URL.")
    var database: String

    @Argument(help: "The entity to fetch (see `sift schema DB`).")
    var entity: String

    @OptionGroup var input: FormatInput

    @OptionGroup var fetch: FetchOptions

    @OptionGroup var grouping: GroupingOptions

    @Option(help: ArgumentHelp("A schema JSON file to use instead of the inferred schema.", valueName: "file"))
    var schema: String?

    @OptionGroup var model: ModelOption

    @Option(help: "How to print the rows; by default a table on a terminal, else jsonl.")
    var output: RowOutput?

    @Flag(help: ArgumentHelp(
        "Print each row's identifier instead: its Core Data object ID (x-coredata://…/Entity/p3) on a Core Data store, else its primary key."))
    var ids = false

    @OptionGroup var policy: PolicyOptions

    func validate() throws {
        if ids && fetch.count { throw ValidationError("--ids prints identifiers and --count a count: give one of them") }
        if ids && output != nil { throw ValidationError("--ids prints one identifier a line: --output does not apply") }
        if ids && grouping.isGiven { throw ValidationError("--ids prints objects' identifiers: a grouped fetch gives groups") }
    }

    func run() throws {
        let filter = try input.filter()
        try policy.check(filter)
        let store = try open()
        defer { store.close() }
        var request = try fetch.request(entity: entity, filter: filter)
        let grouped = grouping.isGiven ? try grouping.apply(to: &request, policy: policy, properties: true) : nil
        try policy.check(sort: request.sort, parsedFrom: fetch.sort, of: request)

        if fetch.count {
            let statement: BoundStatement
            do {
                statement = try request.countSQL(in: store.schema, dialect: store.dialect)
            } catch {
                throw grouped?.report(error) ?? error.report()
            }
            let count = try store.count(statement)
            print(count)
            if count == 0 { throw ExitCode(1) }
            return
        }

        let query: SQLQuery
        do {
            query = try ids
                ? request.objectIDSQL(in: store.schema, dialect: store.dialect)
                : request.sql(in: store.schema, dialect: store.dialect)
        } catch {
            throw grouped?.report(error) ?? error.report()
        }
        let rows = try store.rows(query)
        if let grouped {
            let results = rows.map { Value.dictionary(query.object($0)) }
            GroupedOutput.print(
                GroupingOptions.rows(results, columns: grouped.columns), columns: grouped.columns,
                output: output ?? .default)
            if rows.isEmpty { throw ExitCode(1) }
            return
        }
        var out = OutputBuffer()
        if ids {
            for row in rows { out.write(store.schema.objectID(of: row, in: query)) }
            out.flush()
            if rows.isEmpty { throw ExitCode(1) }
            return
        }
        switch output ?? .default {
        case .jsonl:
            for row in rows { out.write(RowFormatting.object(query, row).jsonText) }
        case .json:
            out.write(rows.isEmpty ? "[]" : "[\n" + rows.map { "  " + RowFormatting.object(query, $0).jsonText }
                .joined(separator: ",\n") + "\n]")
        case .table:
            // A composite's elements in columns of their own, by key path.
            let names = query.columns.map { c in c.composite.map { $0 + "." + c.name } ?? c.name }
            for line in RowFormatting.table(names, rows, types: query.columns.map(\.type)) { out.write(line) }
        case .csv:
            let names = query.columns.map { c in c.composite.map { $0 + "." + c.name } ?? c.name }
            for line in CSVText.lines(names, rows) { out.write(line) }
        }
        out.flush()
        if rows.isEmpty { throw ExitCode(1) }
    }
}

extension QueryCommand {
    /// Where the fetch runs: its schema, its SQL dialect, and how it runs a
    /// count and a query. `sift serve` runs the same, from its own threads.
    struct Store: Sendable {
        var schema: StoreSchema
        var dialect: Dialect
        var count: @Sendable (BoundStatement) throws -> Int
        var rows: @Sendable (SQLQuery) throws -> [[Value]]
        /// Hands each row to `body` as it is read (SQLite's cursor; on
        /// PostgreSQL a server-side cursor, a batch at a time).
        var each: @Sendable (SQLQuery, ([Value]) throws -> Void) throws -> Void
        /// Stops the statement under way, which then fails.
        var interrupt: @Sendable () -> Void = {}
        var close: @Sendable () -> Void = {}
    }

    /// The SQLite file, or the PostgreSQL database a URL names, with the
    /// schema read from it unless --schema gives one.
    func open() throws -> Store {
        if PostgresURL.matches(database), model.model != nil { throw PostgresURL.modelGiven }
        return try Store.open(database, schema: schema, model: PostgresURL.matches(database) ? nil : try model.load())
    }
}

extension QueryCommand.Store {
    /// `database` (a SQLite file or a `postgresql://` URL), with the schema
    /// `known` (that of another connection to it), else that of the file at
    /// `schemaPath`, else the one read from it (through `model` for a Core
    /// Data store). With `interruptible`, Ctrl-C cancels a PostgreSQL
    /// statement under way instead of reaching the process.
    static func open(
        _ database: String, schema schemaPath: String?, model coreDataModel: CoreDataModel?, known: StoreSchema? = nil,
        interruptible: Bool = true
    ) throws -> Self {
        if PostgresURL.matches(database) {
            let database = try PostgresDatabase.open(
                database, schema: try known ?? schemaPath.map { try SchemaFile.load($0) }, interruptible: interruptible)
            return Self(
                schema: database.schema, dialect: .postgreSQL, count: database.count, rows: database.rows,
                each: { query, body in try database.each(query, body) },
                interrupt: database.cancel, close: database.close)
        }
        try InputFile.requireRegular(database)
        let limits = try ReadOnlyDatabase.Limits.fromEnvironment()
        let queue: DatabaseQueue
        let schema: StoreSchema
        do {
            queue = try ReadOnlyDatabase.open(path: database, limits: limits)
            if let known {
                schema = known
            } else if let path = schemaPath {
                schema = try SchemaFile.load(path)
            } else {
                schema = try queue.read { try StoreSchema.read(from: $0, model: coreDataModel) }
            }
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure("\(database): " + SchemaFile.describe(error))
        }
        @Sendable func run<T>(_ body: (Database) throws -> T) throws -> T {
            do {
                return try queue.read(body)
            } catch {
                throw CommandFailure(SchemaFile.describe(error))
            }
        }
        @Sendable func each(_ query: SQLQuery, _ body: ([Value]) throws -> Void) throws {
            // An error of `body`'s own (sift serve's timeout while it waits
            // for a slow client) passes through as it is, not as the
            // database's failure.
            var bodyError: (any Error)?
            do {
                try run { db in
                    let rows = try Row.fetchCursor(db, sql: query.statement.sql, arguments: query.statement.arguments)
                    while let row = try rows.next() {
                        do {
                            try body(query.values(row))
                        } catch {
                            bodyError = error
                            throw error
                        }
                    }
                }
            } catch {
                throw bodyError ?? error
            }
        }
        return Self(
            schema: schema, dialect: .sqlite,
            count: { statement in
                try run { db in try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0 }
            },
            rows: { query in
                var rows: [[Value]] = []
                try each(query) { rows.append($0) }
                return rows
            },
            each: each, interrupt: queue.interrupt)
    }
}

/// How rows are printed: a table, JSON Lines, one JSON array, or CSV
/// (``CSVText``).
enum RowOutput: String, ExpressibleByArgument, CaseIterable {
    case table, jsonl, json, csv

    /// A table on a terminal, else JSON Lines.
    static var `default`: RowOutput { Terminal.stdoutIsTTY ? .table : .jsonl }
}

/// Rows as JSON objects and as a text table.
enum RowFormatting {

    /// A row of `query` as a JSON object, its keys in the order of the
    /// columns; a composite attribute as an object of its elements.
    static func object(_ query: SQLQuery, _ row: [Value]) -> JSONValue {
        let values = query.object(row)
        var o = JSONObject()
        for column in query.columns {
            let name = column.composite ?? column.name
            if o[name] == nil { o[name] = json(values[name] ?? .null) }
        }
        return .object(o)
    }

    /// A value in JSON: NaN and ±Infinity as strings, dates as ISO-8601
    /// strings (``DateText``), data as base64, UUIDs
    /// as `uuidString` gives them (upper case, as Apple's platforms print
    /// them and as `CAST('…', 'NSUUID')` is printed), decimals as their
    /// digits.
    static func json(_ value: Value) -> JSONValue {
        switch value {
        case .null, .nsNull: return .null
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        // JSON has no NaN or infinities: they are written as the strings
        // PostgreSQL and JavaScript spell them with, never as null.
        case .double(let d) where d.isNaN: return .string("NaN")
        case .double(let d) where d.isInfinite: return .string(d < 0 ? "-Infinity" : "Infinity")
        case .double(let d): return .double(d)
        case .decimal(let d): return JSONNumber(d).map(JSONValue.number) ?? .null
        case .string(let s): return .string(s)
        case .date(let d): return .string(DateText.iso8601(d))
        case .data(let d): return .string(d.base64EncodedString())
        case .uuid(let u): return .string(u.uuidString)
        case .array(let items): return .array(items.map(json))
        case .set(let items): return .array(items.map(json))
        case .dictionary(let d):
            return .object(JSONObject(d.sorted { $0.key < $1.key }.map { ($0.key, json($0.value)) }))
        case .object(let o): return .string(o.typeName)
        }
    }

    /// A cell: text on one line, at most `width` characters (a UUID is
    /// never cut); objects by
    /// their name or title (else their first string, else `#id`), lists
    /// joined with commas. Line breaks show as `↵`, tabs as spaces, and
    /// other characters a terminal would act on as escapes (`\u{1B}`),
    /// counted in the width as shown.
    static func cell(_ value: Value, width: Int = 40) -> String {
        let text: String
        switch value {
        case .null, .nsNull: text = ""
        case .string(let s): text = s
        case .date(let d): text = DateText.iso8601(d)
        case .data(let d): text = "<\(d.count) bytes>"
        case .bool(let b): text = b ? "true" : "false"
        // Whole, whatever the width: a UUID cut short identifies nothing.
        case .uuid(let u): return u.uuidString
        case .dictionary(let d):
            let named = ["name", "title"].lazy.compactMap { d[$0] }.first { if case .string = $0 { true } else { false } }
            let string = d.keys.sorted().lazy.compactMap { d[$0] }.first { if case .string = $0 { true } else { false } }
            if let v = named ?? string { return cell(v, width: width) }
            if let id = d["id"], id.isNumber { return "#" + cell(id, width: width) }
            return "{\(d.count) keys}"
        case .array(let items):
            text = items.isEmpty ? "—" : items.map { cell($0, width: width) }.joined(separator: ", ")
        case .set(let items):
            return cell(.array(Array(items)), width: width)
        default:
            if case .string(let s) = json(value) { text = s } else { text = json(value).jsonText }
        }
        let line = TerminalText.visible(
            text.replacingOccurrences(of: "\r\n", with: "↵").replacingOccurrences(of: "\n", with: "↵")
                .replacingOccurrences(of: "\t", with: " "))
        return line.count > width ? String(line.prefix(width - 1)) + "…" : line
    }

    /// Header, rule, rows (numbers right-aligned), and the number of rows.
    static func table(_ names: [String], _ rows: [[Value]], types: [AttributeType]) -> [String] {
        table(names, rows, numeric: types.map { $0 == .integer || $0 == .double || $0 == .decimal })
    }

    /// A table whose numeric columns are found from the values.
    static func table(_ names: [String], _ rows: [[Value]]) -> [String] {
        let numeric = names.indices.map { i in
            let column = rows.map { i < $0.count ? $0[i] : .null }
            return column.allSatisfy { $0.isNull || $0.isNumber } && column.contains { $0.isNumber }
        }
        return table(names, rows, numeric: numeric)
    }

    static func table(_ names: [String], _ rows: [[Value]], numeric: [Bool]) -> [String] {
        let names = names.map { TerminalText.visible($0) }
        let cells = rows.map { $0.map { cell($0) } }
        var widths = names.map(\.count)
        for row in cells {
            for (i, c) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], c.count) }
        }
        var lines = [line(names, widths: widths, rightAlign: numeric)]
        lines.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
        for row in cells { lines.append(line(row, widths: widths, rightAlign: numeric)) }
        lines.append(rows.count == 1 ? "(1 row)" : "(\(rows.count) rows)")
        return lines
    }

    /// Cells padded to their column's width, two spaces apart; numbers
    /// right-aligned, no trailing spaces.
    static func line(_ items: [String], widths: [Int], rightAlign: [Bool]) -> String {
        var out = ""
        for (i, item) in items.enumerated() {
            let pad = String(repeating: " ", count: max(0, widths[i] - item.count))
            if i > 0 { out += "  " }
            out += rightAlign[i] ? pad + item : item + pad
        }
        while out.last == " " { out.removeLast() }
        return out
    }
}
