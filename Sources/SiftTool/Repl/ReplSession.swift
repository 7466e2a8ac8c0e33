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

    var dataset: Dataset {
        didSet { tables = [:] }
    }
    /// Each collection's rows as a table (columns by key), built on its
    /// first query; a JSON file's records are evaluated on their bytes
    /// instead (``JSONRecords``).
    var tables: [Int: ValueTable] = [:]
    var current: Int
    var sort: [SortKey] = []
    var limit: Int?
    var variables: [String: Value] = [:]
    var arguments: [Value] = []
    /// The last predicate that parsed, as typed.
    var lastSource: String?
    /// The `:group` setting: predicates then answer with groups.
    var grouping: ReplGrouping?
    let style: Style
    /// Columns of text available for tables.
    let width: Int

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

    var loadedDescription: String {
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
    var collectionName: String { TerminalText.visible(collection.name) }

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
    func failure(_ message: String) -> Reply {
        Reply(output: style.red("error:") + " " + TerminalText.visible(message), isError: true)
    }

    /// The reply to `error`; raised by record `place` (`row 3 (line 4)`),
    /// it names it first, as `sift filter` does.
    func failure(_ error: any Error, at place: String? = nil) -> Reply {
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
    static func members(sortedBy keys: [SortKey]) -> Set<String>? {
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
    func filter(_ source: String) throws -> Filter {
        let filter = try Filter(source, arguments: arguments)
        return variables.isEmpty ? filter : try filter.substituting(variables, allowingUnbound: true)
    }

    /// The predicate given to a command, or the last one.
    func filter(argument: String) -> Result<(Filter, String), ReplError> {
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
    func forRows(_ filter: Filter) throws -> Filter {
        guard let schema = dataset.schema, collection.primaryKeys != nil else { return filter }
        return try schema.resolve(filter, entity: collection.name, maximumDepth: Dataset.relationshipDepth)
    }

    func run(_ source: String) -> Reply {
        let filter: Filter
        do {
            filter = try forRows(self.filter(source))
        } catch {
            return failure(error)
        }
        lastSource = source
        if let grouping { return runGrouped(filter, grouping) }
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
    func run(_ filter: Filter, on server: PostgresDatabase) -> Reply {
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
        Command(name: "group", usage: ":group KEYS [SELECT key, n = count:(SELF), …] [HAVING pred] | none",
                help: "one row per group, with aggregates (as sift filter --group-by)") { s, a in s.setGrouping(a) },
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

    func help() -> Reply {
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
