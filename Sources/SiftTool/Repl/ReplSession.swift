import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// The REPL's state and its answer to each input, without the terminal:
/// a line in, text out. ``ReplCommand`` adds line editing and history.
final class ReplSession {
    /// What one input produced.
    struct Reply: Equatable {
        var output: String
        var isError = false
        var quit = false
    }

    private(set) var dataset: Dataset {
        didSet { tables = [:] }
    }
    /// Each collection's rows as a table (columns by key), built on its
    /// first query; a JSON file's records are evaluated on their bytes
    /// instead (``JSONRecords``).
    private var tables: [Int: ValueTable] = [:]
    private(set) var current: Int
    private(set) var sort: [SortKey] = []
    private(set) var limit: Int?
    private(set) var variables: [String: Value] = [:]
    private(set) var arguments: [Value] = []
    /// The last predicate that parsed, as typed.
    private(set) var lastSource: String?
    private let style: Style
    /// Columns of text available for tables.
    private let width: Int

    /// Rows shown when no `:limit` is set.
    static let defaultShown = 20

    init(dataset: Dataset, colors: Bool = false, width: Int = 120) {
        self.dataset = dataset
        current = 0
        style = Style(enabled: colors)
        self.width = max(40, width)
    }

    var collection: Dataset.Collection { dataset.collections[current] }

    /// The words tab completion offers: commands, keywords, key paths.
    var completionWords: [String] {
        Self.commands.map { ":" + $0.name } + Self.keywords + collection.keyPaths
            + dataset.collections.map(\.name) + variables.keys.sorted().map { "$" + $0 }
    }

    /// Shown when the REPL starts.
    var banner: String {
        var lines = ["sift — Apple's predicate language. :help lists the commands, :quit leaves."]
        lines.append(loadedDescription)
        return lines.joined(separator: "\n")
    }

    private var loadedDescription: String {
        let names = dataset.collections.map { c in
            let name = TerminalText.visible(c.name)
            let shown = c.name == collection.name ? style.bold(name) : name
            return dataset.server == nil ? shown + " (\(c.count))" : shown
        }
        return "Loaded \(TerminalText.visible(dataset.origin)): " + names.joined(separator: ", ")
            + (dataset.collections.count > 1 ? ". Predicates run on \(collectionName); :use switches." : ".")
    }

    /// The prompt for a new input.
    var prompt: String { "\(collectionName)> " }

    /// The current collection's name as shown (a file or table name may
    /// hold any character).
    private var collectionName: String { TerminalText.visible(collection.name) }

    // MARK: - Input

    /// Whether `text` needs another line: an open parenthesis or brace, an
    /// unclosed quote, or a trailing `AND`, `OR`, `NOT`. (Not a bracket: `[c` missing its `]` is a typo to
    /// report, not a reason to wait.)
    static func isIncomplete(_ text: String) -> Bool {
        var depth = 0
        var quote: Character?
        var escaped = false
        for c in text {
            if let q = quote {
                if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == q { quote = nil }
                continue
            }
            switch c {
            case "\"", "'": quote = c
            case "(", "{": depth += 1
            case ")", "}": depth -= 1
            default: break
            }
        }
        if quote != nil || depth > 0 { return true }
        let last = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.map { $0.uppercased() }
        return ["AND", "OR", "NOT", "&&", "||"].contains(last ?? "")
    }

    /// Answers one input: a `:command` or a predicate.
    func handle(_ input: String) -> Reply {
        let text = input.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.isEmpty { return Reply(output: "") }
        guard text.hasPrefix(":") else { return run(text) }
        let body = text.dropFirst()
        let name = String(body.prefix { !$0.isWhitespace })
        let argument = body.dropFirst(name.count).trimmingCharacters(in: .whitespaces)
        let matches = Self.commands.filter { $0.name == name || $0.aliases.contains(name) }
        guard let command = matches.first else {
            let near = Self.commands.filter { $0.name.hasPrefix(name) && !name.isEmpty }.map { ":" + $0.name }
            return failure(
                "unknown command :\(name)" + (near.isEmpty ? "" : " (did you mean \(near.joined(separator: " or "))?)")
                    + "; :help lists the commands")
        }
        return command.run(self, argument)
    }

    /// An error reply; the message may quote input or data, so characters
    /// a terminal would act on are shown as escapes.
    private func failure(_ message: String) -> Reply {
        Reply(output: style.red("error:") + " " + TerminalText.visible(message), isError: true)
    }

    /// The reply to `error`; raised by record `place` (`row 3 (line 4)`),
    /// it names it first, as `sift filter` does.
    private func failure(_ error: any Error, at place: String? = nil) -> Reply {
        let prefix = place.map { TerminalText.visible($0) + ": " } ?? ""
        if let d = error as? any SourceDiagnostic {
            return Reply(output: prefix + d.rendered(colors: style.enabled), isError: true)
        }
        if let e = error as? CommandFailure { return failure(prefix + e.message) }
        return failure(prefix + "\(error)")
    }

    /// The members of an object that `keys` read: the first key of each
    /// path, or nil (all of them) when a path starts with an operator or
    /// `self`, which read the object as a whole.
    private static func members(sortedBy keys: [SortKey]) -> Set<String>? {
        var names: Set<String> = []
        for key in keys {
            guard let first = key.keyPath.first, !first.hasPrefix("@"), first.lowercased() != "self" else { return nil }
            names.insert(first)
        }
        return names
    }

    // MARK: - Predicates

    /// Parses and binds `source` with the `:args`, substituting the `:set`
    /// variables that are set (the others stay for evaluation to report).
    private func filter(_ source: String) throws -> Filter {
        let filter = try Filter(source, arguments: arguments)
        return variables.isEmpty ? filter : try filter.substituting(variables, allowingUnbound: true)
    }

    /// The predicate given to a command, or the last one.
    private func filter(argument: String) -> Result<(Filter, String), ReplError> {
        guard let source = argument.isEmpty ? lastSource : argument else {
            return .failure(ReplError("no predicate yet: type one, or give one after the command"))
        }
        do {
            let parsed = try filter(source)
            lastSource = source
            return .success((parsed, source))
        } catch let e as any SourceDiagnostic {
            return .failure(ReplError(diagnostic: e))
        } catch {
            return .failure(ReplError("\(error)"))
        }
    }

    /// `filter` as evaluated on the rows of the current collection: for rows
    /// read from a database, with its key paths resolved against the schema
    /// as the SQL lowering resolves them, so that a key is found (ignoring
    /// case) or refused, never read as nil, and memory answers as `:sql`.
    private func forRows(_ filter: Filter) throws -> Filter {
        guard let schema = dataset.schema, collection.primaryKeys != nil else { return filter }
        return try schema.resolve(filter, entity: collection.name, maximumDepth: Dataset.relationshipDepth)
    }

    private func run(_ source: String) -> Reply {
        let filter: Filter
        do {
            filter = try forRows(self.filter(source))
        } catch {
            return failure(error)
        }
        lastSource = source
        if let server = dataset.server { return run(filter, on: server) }
        let matches: [Int]
        let clock = ContinuousClock()
        let start = clock.now
        do {
            matches = try Interruption.catching { try self.matches(filter, stop: $0) }
        } catch let failure as JSONRecords.Failure {
            return self.failure(failure.error, at: collection.records?.place(of: failure.index))
        } catch {
            return failure(error)
        }
        let elapsed = clock.now - start
        let shown = matches.prefix(limit ?? Self.defaultShown)
        var lines: [String] = []
        if !shown.isEmpty { lines += table(Array(shown)) }
        var summary = "\(matches.count) of \(collection.count) match"
        if matches.count == 1 { summary = "1 of \(collection.count) matches" }
        summary += " (\(Self.duration(elapsed)))"
        if shown.count < matches.count {
            summary += limit == nil ? "; first \(shown.count) shown, :limit N for more" : "; limit \(shown.count)"
        }
        lines.append(style.dim(summary))
        return Reply(output: lines.joined(separator: "\n"))
    }

    /// The positions (from 0) of the rows of the current collection that
    /// match `filter`, in the `:sort` order. A JSON file's records are
    /// evaluated on their bytes, and only the members sorted by are decoded;
    /// an error there is a ``JSONRecords/Failure`` naming the record.
    func matches(_ filter: Filter, stop: Interruption? = nil) throws -> [Int] {
        var matches: [Int]
        let sorted: [Value]
        if let records = collection.records {
            matches = try records.indices(where: filter, variables: variables, stop: stop)
            sorted = sort.isEmpty ? [] : records.values(at: matches, keeping: Self.members(sortedBy: sort))
        } else {
            let rows = collection.rows
            let rowTable = tables[current] ?? ValueTable(rows)
            tables[current] = rowTable
            guard let found = try rowTable.indices(where: filter, variables: variables, until: { stop?.happened == true })
            else { throw Interruption.Stopped() }
            matches = found
            sorted = sort.isEmpty ? [] : matches.map { rows[$0] }
        }
        if !sort.isEmpty {
            let order = try Sorting.permutation(sorted, by: sort)
            matches = order.map { matches[$0] }
        }
        return matches
    }

    /// `filter` run on the server: the first matches (`:limit`, else
    /// ``defaultShown``) and the number of matches, counted there too.
    private func run(_ filter: Filter, on server: PostgresDatabase) -> Reply {
        let shown = FetchSpecification(
            entity: collection.name, filter: filter, sort: sort, limit: limit ?? Self.defaultShown)
        let all = FetchSpecification(entity: collection.name, filter: filter)
        let clock = ContinuousClock()
        let start = clock.now
        let query: SQLQuery
        let rows: [[Value]]
        let count: Int
        do {
            query = try shown.sql(in: server.schema, dialect: .postgreSQL)
            rows = try server.rows(query)
            count = try server.count(all.countSQL(in: server.schema, dialect: .postgreSQL))
        } catch {
            return failure(error)
        }
        let elapsed = clock.now - start
        let objects = rows.map { Value.dictionary(query.object($0)) }
        var lines: [String] = []
        if !objects.isEmpty { lines += table(objects, numbers: Array(1...objects.count)) }
        var summary = count == 1 ? "1 match" : "\(count) matches"
        summary += " (\(Self.duration(elapsed)), on the server)"
        if rows.count < count {
            summary += limit == nil ? "; first \(rows.count) shown, :limit N for more" : "; limit \(rows.count)"
        }
        lines.append(style.dim(summary))
        return Reply(output: lines.joined(separator: "\n"))
    }

    static func duration(_ d: Duration) -> String {
        let (seconds, attoseconds) = d.components
        let micro = Double(seconds) * 1e6 + Double(attoseconds) / 1e12
        if micro < 1000 { return String(format: "%.0f µs", micro) }
        if micro < 1e6 { return String(format: "%.1f ms", micro / 1000) }
        return String(format: "%.2f s", micro / 1e6)
    }

    // MARK: - Tables

    /// The rows at `indices` (0-based positions in the collection) as a
    /// table: `#` (the row number `:why` takes), then as many columns as fit.
    func table(_ indices: [Int]) -> [String] {
        table(indices.map { collection.row($0) }, numbers: indices.map { $0 + 1 })
    }

    /// `rows` as a table, each numbered in the `#` column.
    private func table(_ rows: [Value], numbers: [Int]) -> [String] {
        let maxCell = 32
        var header = ["#"]
        var cells: [[String]] = numbers.map { [String($0)] }
        var widths = [max(1, cells.map { $0[0].count }.max() ?? 1)]
        var numeric = [true]
        var used = widths[0]
        for column in collection.columns {
            let values = rows.map { Self.member($0, column) }
            let texts = values.map { RowFormatting.cell($0, width: maxCell) }
            let name = TerminalText.visible(column)
            let w = max(name.count, texts.map(\.count).max() ?? 0)
            if used + 2 + w > width { continue }
            used += 2 + w
            header.append(name)
            widths.append(w)
            numeric.append(values.allSatisfy { $0.isNull || $0.isNumber } && values.contains { $0.isNumber })
            for i in cells.indices { cells[i].append(texts[i]) }
        }
        func line(_ items: [String]) -> String { RowFormatting.line(items, widths: widths, rightAlign: numeric) }
        var lines = [style.bold(line(header))]
        lines.append(style.dim(widths.map { String(repeating: "─", count: $0) }.joined(separator: "  ")))
        for row in cells { lines.append(line(row)) }
        return lines
    }

    private static func member(_ row: Value, _ key: String) -> Value {
        if case .dictionary(let d) = row { return d[key] ?? .null }
        return .null
    }

    // MARK: - :why

    /// Each part of the predicate evaluated against row `n`, so a user sees
    /// which part failed.
    fileprivate func why(_ argument: String) -> Reply {
        let parts = argument.split(separator: " ", maxSplits: 1).map(String.init)
        guard let first = parts.first, let n = Int(first) else {
            return failure("usage: :why N [predicate] — N is the row number in the # column")
        }
        if dataset.server != nil {
            return failure(":why evaluates rows in memory; on a PostgreSQL server the rows stay there (try :sql)")
        }
        guard n >= 1 && n <= collection.count else {
            return failure("no row \(n): \(collection.name) has rows 1 to \(collection.count)")
        }
        var filter: Filter
        let source: String
        switch self.filter(argument: parts.count > 1 ? parts[1] : "") {
        case .success(let (f, s)): (filter, source) = (f, s)
        case .failure(let e): return e.reply(style)
        }
        do {
            filter = try forRows(filter)
        } catch {
            return failure(error)
        }
        let row = collection.row(n - 1)
        var lines = table([n - 1])
        explain(filter.predicate, row: row, source: source, indent: "", into: &lines)
        return Reply(output: lines.joined(separator: "\n"))
    }

    private func explain(_ node: PredicateNode, row: Value, source: String, indent: String, into lines: inout [String]) {
        let mark: String
        var note = ""
        do {
            mark = try Filter(node).evaluate(with: row, variables: variables) ? style.green("✓") : style.red("✗")
        } catch {
            mark = style.red("!")
            note = "  " + style.red(TerminalText.visible(error.message))
        }
        lines.append(indent + mark + " " + TerminalText.visible(FormatPrinter.format(node)) + note)
        let deeper = indent + "    "
        switch node.kind {
        case .and(let children), .or(let children):
            for child in children { explain(child, row: row, source: source, indent: deeper, into: &lines) }
        case .not(let child):
            explain(child, row: row, source: source, indent: deeper, into: &lines)
        case .comparison(let c):
            for operand in [c.lhs, c.rhs] {
                switch operand.kind {
                case .constant, .variable: continue
                default: break
                }
                let shown: String
                do {
                    let v = try operand.value(with: row, variables: variables, source: source)
                    shown = TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(Self.summarised(v))))
                } catch {
                    shown = style.red(TerminalText.visible(error.message))
                }
                lines.append(deeper + style.dim(TerminalText.visible(FormatPrinter.format(operand)) + " = ") + shown)
            }
        case .constant:
            break
        }
    }

    /// Objects inside a value shown by name or title, so a to-many key path
    /// prints as a short list.
    private static func summarised(_ value: Value) -> Value {
        switch value {
        case .dictionary(let d):
            for key in ["name", "title"] { if let v = d[key], case .string = v { return v } }
            return .dictionary(d.mapValues { v in
                if case .dictionary = v { return .string("{…}") }
                if case .array = v { return .string("[…]") }
                return v
            })
        case .array(let items): return .array(items.map(summarised))
        case .set(let items): return .array(items.map(summarised))
        default: return value
        }
    }

    // MARK: - :sql

    fileprivate func sql(_ argument: String) -> Reply {
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
        let request = FetchSpecification(entity: collection.name, filter: filter, sort: sort, limit: limit)
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

    // MARK: - Settings

    fileprivate func setSort(_ argument: String) -> Reply {
        if argument.isEmpty || argument == "none" {
            sort = []
            return Reply(output: "unsorted (input order)")
        }
        do {
            let keys = try SortKey.parse(argument)
            // Resolved as SQL resolves them, for the rows in memory.
            if let schema = dataset.schema, collection.primaryKeys != nil {
                sort = try schema.resolve(keys, entity: collection.name, maximumDepth: Dataset.relationshipDepth)
            } else {
                sort = keys
            }
        } catch {
            return failure(error)
        }
        return Reply(output: "sorted by " + sort.map(\.description).joined(separator: ", "))
    }

    fileprivate func setLimit(_ argument: String) -> Reply {
        if argument.isEmpty || argument == "none" {
            limit = nil
            return Reply(output: "no limit (the first \(Self.defaultShown) matches are shown)")
        }
        guard let n = Int(argument), n >= 0 else { return failure("usage: :limit N (a number ≥ 0) or :limit none") }
        limit = n
        return Reply(output: "limit \(n)")
    }

    /// A constant typed in the predicate language: `1980`, `'Lem'`,
    /// `{1, 2}`, `CAST('2024-01-01T00:00:00Z', 'NSDate')`.
    private func constant(_ text: String) -> Result<Value, ReplError> {
        do {
            let e = try ExpressionNode(format: text)
            return .success(try e.value(with: .null, variables: variables, source: text))
        } catch let e as any SourceDiagnostic {
            return .failure(ReplError(diagnostic: e))
        } catch {
            return .failure(ReplError("\(error)"))
        }
    }

    fileprivate func set(_ argument: String) -> Reply {
        if argument.isEmpty {
            if variables.isEmpty { return Reply(output: "no variables; :set $NAME = value") }
            return Reply(output: variables.keys.sorted().map { name in
                "$\(name) = " + TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(variables[name] ?? .null)))
            }.joined(separator: "\n"))
        }
        let parts = argument.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = VariableName.parse(parts[0]) else {
            if parts[0].isEmpty || parts[0] == "$" {
                return failure("usage: :set $NAME = value (a constant such as 42, 'text', {1, 2}); :set $NAME removes it")
            }
            return failure("'\(parts[0])' is not a variable name: " + VariableName.rule)
        }
        guard parts.count == 2 else {
            variables[name] = nil
            return Reply(output: "$\(name) removed")
        }
        switch constant(parts[1]) {
        case .success(let v):
            variables[name] = v
            return Reply(output: "$\(name) = " + TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(v))))
        case .failure(let e):
            return e.reply(style)
        }
    }

    fileprivate func setArguments(_ argument: String) -> Reply {
        if argument == "none" {
            arguments = []
            return Reply(output: "no arguments")
        }
        if !argument.isEmpty {
            switch constant("{" + argument + "}") {
            case .success(.array(let values)): arguments = values
            case .success: return failure("usage: :args value, value, … (constants for %@, %d, %K in order)")
            case .failure(let e): return e.reply(style)
            }
        }
        if arguments.isEmpty { return Reply(output: "no arguments; :args 1980, 'Lem' binds %@ and %d in order") }
        return Reply(output: arguments.enumerated().map { i, v in
            "#\(i + 1) = " + TerminalText.visible(FormatPrinter.format(ExpressionNode.constant(v)))
        }.joined(separator: "\n"))
    }

    fileprivate func use(_ argument: String) -> Reply {
        guard !argument.isEmpty else { return Reply(output: loadedDescription) }
        guard let i = dataset.collection(named: argument) else {
            return failure(
                "no \(StoreSchema.echoed(argument)) here; there are " + StoreSchema.list(dataset.collections.map(\.name)))
        }
        if i != current {
            current = i
            sort = []
            lastSource = nil
        }
        return Reply(output: dataset.server == nil ? "\(collectionName): \(Self.rows(collection.count))" : "\(collectionName)")
    }

    fileprivate func load(_ argument: String) -> Reply {
        guard !argument.isEmpty else { return failure("usage: :load FILE (JSON, JSON Lines or SQLite), or :load sample") }
        let path = PostgresURL.matches(argument) ? argument : (argument as NSString).expandingTildeInPath
        do {
            let loaded = argument == "sample" ? try Dataset.sample() : try Dataset.load(path: path)
            dataset.server?.close()
            dataset = loaded
        } catch let e as CommandFailure {
            return failure(e.message)
        } catch {
            return failure("\(error)")
        }
        current = 0
        sort = []
        lastSource = nil
        return Reply(output: loadedDescription)
    }

    fileprivate func schemaDescription() -> Reply {
        guard let schema = dataset.schema else {
            // JSON: the keys seen and the kinds of value under each.
            var kinds: [String: Set<String>] = collection.records?.kinds() ?? [:]
            for case .dictionary(let d) in collection.rows {
                for (k, v) in d where !v.isNull { kinds[k, default: []].insert(v.typeName) }
            }
            let lines = collection.columns.map { k in
                "  \(TerminalText.visible(k)): " + (kinds[k]?.sorted().joined(separator: " | ") ?? "nil")
            }
            return Reply(output: ([style.bold(collectionName) + " (\(collection.count) objects)"] + lines)
                .joined(separator: "\n"))
        }
        var lines: [String] = []
        for entity in schema.entities {
            let count = dataset.collections.first { $0.name == entity.name }?.rows.count ?? 0
            // Names come from the database, which may hold any character.
            let name = TerminalText.visible(entity.name)
            var about = ["table \(TerminalText.visible(entity.table))"]
            if dataset.server == nil { about.append(Self.rows(count)) }
            if entity.isAbstract { about.append("abstract") }
            if let parent = entity.parent { about.append("parent \(TerminalText.visible(parent))") }
            lines.append(style.bold(name) + style.dim(" (" + about.joined(separator: ", ") + ")"))
            for a in entity.attributes {
                lines.append("  \(TerminalText.visible(a.name)): \(a.type.name)" + (a.isOptional ? "" : ", required"))
            }
            for c in entity.composites {
                let elements = c.elements.map { "\(TerminalText.visible($0.name)) \($0.type.name)" }
                lines.append("  \(TerminalText.visible(c.name)): composite {" + elements.joined(separator: ", ") + "}")
            }
            for r in entity.relationships {
                var kind = [schema.kind(of: r).rawValue]
                if let inverse = r.inverse { kind.append("inverse \(TerminalText.visible(inverse))") }
                if r.isOrdered { kind.append(r.orderColumn.map { "ordered by \(TerminalText.visible($0))" } ?? "ordered") }
                lines.append(
                    "  \(TerminalText.visible(r.name)) → \(TerminalText.visible(r.destination))"
                        + " (" + kind.joined(separator: ", ") + ")")
            }
            for k in entity.unsupportedKeys {
                lines.append(style.dim("  \(TerminalText.visible(k.name)): not in the store (\(TerminalText.visible(k.reason)))"))
            }
        }
        return Reply(output: lines.joined(separator: "\n"))
    }

    /// `1 row`, `2 rows`.
    static func rows(_ count: Int) -> String { count == 1 ? "1 row" : "\(count) rows" }

    // MARK: - Commands

    struct Command: Sendable {
        var name: String
        var aliases: [String] = []
        var usage: String
        var help: String
        var run: @Sendable (ReplSession, String) -> Reply
    }

    static let commands: [Command] = [
        Command(name: "ast", usage: ":ast [predicate]", help: "the syntax tree of the predicate (or the last one)") { s, a in
            switch s.filter(argument: a) {
            case .success(let (f, _)): return Reply(output: TerminalText.visible(TreeDump.dump(f.predicate), keepingLayout: true))
            case .failure(let e): return e.reply(s.style)
            }
        },
        Command(name: "format", usage: ":format [predicate]", help: "the canonical form (Apple's predicateFormat)") { s, a in
            switch s.filter(argument: a) {
            case .success(let (f, _)): return Reply(output: TerminalText.visible(f.format))
            case .failure(let e): return e.reply(s.style)
            }
        },
        Command(name: "sql", usage: ":sql [sqlite|postgres] [predicate]",
                help: "the SQL of the fetch, its bound values; on SQLite data, run and compared with memory") { s, a in
            s.sql(a)
        },
        Command(name: "why", usage: ":why N [predicate]", help: "each part of the predicate for row N: which part failed") {
            s, a in s.why(a)
        },
        Command(name: "sort", usage: ":sort KEY [ASC|DESC] [caseInsensitive], … | none", help: "the order of matches") {
            s, a in s.setSort(a)
        },
        Command(name: "limit", usage: ":limit N | none", help: "at most N matches (also in :sql)") { s, a in s.setLimit(a) },
        Command(name: "set", usage: ":set $NAME = value", help: "a $VARIABLE for predicates; :set lists them") { s, a in
            s.set(a)
        },
        Command(name: "args", usage: ":args value, … | none", help: "values for %@, %d, %K… in order") { s, a in
            s.setArguments(a)
        },
        Command(name: "use", aliases: ["entity"], usage: ":use NAME", help: "run predicates on another entity") { s, a in
            s.use(a)
        },
        Command(name: "load", usage: ":load FILE | sample", help: "JSON, JSON Lines or a SQLite file") { s, a in s.load(a) },
        Command(name: "schema", usage: ":schema", help: "the entities, their attributes and relationships") { s, _ in
            s.schemaDescription()
        },
        Command(name: "help", aliases: ["h", "?"], usage: ":help", help: "this list") { s, _ in s.help() },
        Command(name: "quit", aliases: ["q", "exit"], usage: ":quit", help: "leave (also Ctrl-D)") { _, _ in
            Reply(output: "", quit: true)
        },
    ]

    private func help() -> Reply {
        var lines = [
            "Type a predicate to list the matching \(collectionName), e.g.",
            "  " + style.bold(Self.example(for: collection.name)),
            "Commands:",
        ]
        let width = Self.commands.map(\.usage.count).max() ?? 0
        for c in Self.commands {
            lines.append("  " + c.usage + String(repeating: " ", count: width - c.usage.count) + "  " + style.dim(c.help))
        }
        lines.append("Tab completes keywords, commands and key paths; history is kept across sessions.")
        return Reply(output: lines.joined(separator: "\n"))
    }

    static func example(for collection: String) -> String {
        switch collection {
        case "Book": return "title BEGINSWITH[c] 'the' AND (year > 1950 OR ANY authors.born < 1850)"
        case "Author": return "name CONTAINS[cd] 'garcia' OR (born < 1900 AND books.@count >= 2)"
        case "Memo": return "pinned == YES OR body CONTAINS[cd] 'cafe'"
        case "Tag": return "books.@count >= 3 AND NOT name IN {'classic', 'nobel'}"
        default: return "name BEGINSWITH[c] 'a' AND age > 30"
        }
    }

    /// The words of the language that completion offers (the lexer's list,
    /// `Keywords`), the collection operators and the built-in functions (by
    /// selector: `sum:`, `raise:toPower:`).
    static let keywords: [String] =
        Keywords.completions + CollectionOperator.allCases.map(\.name) + BuiltinFunction.allCases.map(\.selector)
}

/// A REPL error: a message, or a diagnostic with a caret.
struct ReplError: Error {
    var message: String
    var diagnostic: (any SourceDiagnostic)?

    init(_ message: String) { self.message = message }
    init(diagnostic: any SourceDiagnostic) {
        message = diagnostic.message
        self.diagnostic = diagnostic
    }

    func reply(_ style: Style) -> ReplSession.Reply {
        if let diagnostic { return .init(output: diagnostic.rendered(colors: style.enabled), isError: true) }
        return .init(output: style.red("error:") + " " + TerminalText.visible(message), isError: true)
    }
}

/// ANSI colours, or none.
struct Style {
    var enabled: Bool
    private func wrap(_ code: String, _ s: String) -> String { enabled ? "\u{1B}[\(code)m\(s)\u{1B}[0m" : s }
    func bold(_ s: String) -> String { wrap("1", s) }
    func dim(_ s: String) -> String { wrap("2", s) }
    func red(_ s: String) -> String { wrap("31", s) }
    func green(_ s: String) -> String { wrap("32", s) }
}
