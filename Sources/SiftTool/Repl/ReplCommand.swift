import ArgumentParser
import CSiftEdit
import Foundation
import SiftCatalog

struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl",
        abstract: "Try predicates interactively on sample data, JSON or a SQLite file.",
        discussion: """
            With no DATA, loads the built-in sample (books, authors, tags, memos). DATA may be a JSON array, \
            JSON Lines, a SQLite file (entities read from its schema), or a PostgreSQL URL \
            (postgresql://user:password@host:port/database, or postgres://; PGHOST, PGPORT, PGUSER, PGPASSWORD \
            and PGDATABASE fill in what it leaves out), whose predicates run on the server: each one is a \
            fetch there, :sql shows its statement, Ctrl-C cancels it. Type a predicate to see the matching \
            rows; :help lists the commands (:ast, :format, :sql, :why N, :sort, :limit, :set, :args, :use, \
            :load, :schema, :quit). History is kept in ~/.sift_history (or $SIFT_HISTORY).

            Examples:
              sift repl
              sift repl books.json
              sift repl Library.sqlite --use Book
              sift repl postgresql://ann@db.example.com/library --use books
            """)

    @Argument(help: "A JSON, JSON Lines or SQLite file, or a postgresql:// URL; the sample data when omitted.")
    var data: String?

    @OptionGroup var model: ModelOption

    @Option(help: ArgumentHelp("The entity to start on.", valueName: "name"))
    var use: String?

    @Option(help: ArgumentHelp("The history file; 'none' keeps no history.", valueName: "file"))
    var history: String?

    func run() throws {
        let coreDataModel = try model.load()
        let dataset = try data.map { try Dataset.load(path: $0, model: coreDataModel) } ?? Dataset.sample()
        let interactive = isatty(0) != 0 && isatty(1) != 0
        let colors = Terminal.stdoutIsTTY && ProcessInfo.processInfo.environment["NO_COLOR"].map(\.isEmpty) ?? true
        let session = ReplSession(dataset: dataset, colors: colors, width: Terminal.columns)
        defer { session.dataset.server?.close() }
        if let use {
            guard dataset.collection(named: use) != nil else {
                throw CommandFailure(
                    "--use \(use): no such entity; there are " + dataset.collections.map(\.name).joined(separator: ", "))
            }
            _ = session.handle(":use " + use)
        }
        let editor = interactive ? LineEditor(historyPath: historyPath) : nil
        if interactive { print(session.banner) }
        while true {
            editor?.setWords(session.completionWords)
            guard var input = editor?.readLine(prompt: session.prompt) ?? (interactive ? nil : Swift.readLine()) else {
                break
            }
            // Open parentheses or quotes continue on the next line.
            while ReplSession.isIncomplete(input) && !input.hasPrefix(":") || input.hasSuffix("\\") {
                if input.hasSuffix("\\") { input.removeLast() }
                let prompt = String(repeating: ".", count: max(3, session.prompt.count - 2)) + "> "
                // An empty line submits what there is (to see the error).
                guard let more = editor?.readLine(prompt: prompt) ?? (interactive ? nil : Swift.readLine()),
                    !more.trimmingCharacters(in: .whitespaces).isEmpty
                else { break }
                input += " " + more
            }
            editor?.remember(input)
            let reply = session.handle(input)
            if reply.quit { break }
            if reply.output.isEmpty { continue }
            if reply.isError && !interactive {
                Terminal.printError(reply.output)
            } else {
                print(reply.isError ? Credentials.masked(reply.output) : reply.output)
            }
        }
    }

    private var historyPath: String? {
        if let history { return history == "none" ? nil : (history as NSString).expandingTildeInPath }
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SIFT_HISTORY"] { return path.isEmpty ? nil : path }
        return environment["HOME"].map { $0 + "/.sift_history" }
    }
}

/// libedit: line editing, history saved after every line, completion.
final class LineEditor {
    private let historyPath: String?
    static let historyLimit = 1000

    init(historyPath: String?) {
        self.historyPath = historyPath
        sift_edit_setup("sift")
        if let historyPath { _ = sift_edit_read_history(historyPath) }
    }

    func readLine(prompt: String) -> String? {
        guard let line = sift_edit_readline(prompt) else { return nil }
        defer { free(line) }
        return String(cString: line)
    }

    /// Adds a line to the history and saves the history at once, so that
    /// nothing is lost if the session ends abruptly.
    func remember(_ line: String) {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        sift_edit_add_history(line)
        if let historyPath { _ = sift_edit_write_history(historyPath, Int32(Self.historyLimit)) }
    }

    func setWords(_ words: [String]) {
        var pointers = words.map { strdup($0) }
        defer { for p in pointers { free(p) } }
        pointers.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buffer.count) { base in
                sift_edit_set_words(base, Int32(buffer.count))
            }
        }
    }
}
