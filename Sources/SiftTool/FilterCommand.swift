import ArgumentParser
import Foundation
import Sift

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Print the JSON records that match a predicate.",
        discussion: """
            Reads a JSON array or JSON Lines (one object per line) from FILE or standard input and prints \
            the matching records as JSON Lines, in input order unless --sort is given. Without --sort, JSON \
            Lines input is streamed: memory does not grow with the input. Records print as a table on a \
            terminal and as JSON Lines otherwise (--output). Exits with 1 when nothing matches, 2 on a parse \
            error or invalid JSON (with its line and column, in characters).

            The input is read as JSONSerialization reads it, except where that would change the data: \
            bytes that are not UTF-8 are an error (not replaced); an integer beyond 64 bits is an exact \
            decimal (up to 38 digits), other numbers the nearest double, and every number prints as it was \
            written; a number beyond a double's range (1e400) is an error. A member name repeated in an \
            object keeps its last value; two names that differ only in Unicode normalization (café and \
            cafe + U+0301) are an error, as a dictionary would merge them. A JSON Lines record longer than \
            --max-record-size bytes is an error; blank lines and blanks before a record take no memory.

            At a record that is not valid JSON, too long, or that the predicate cannot evaluate (name < 5 \
            on a name), --on-error stop (the default) prints the records matched before it and the error, \
            and exits with 2; --on-error skip names each such record's line on standard error, goes on, \
            and ends with the number skipped (the exit status then says only whether anything matched). \
            A $VARIABLE without a value (--var) is an error before any record is read.

            Examples:
              sift filter 'age > 30 AND name BEGINSWITH[c] "a"' people.jsonl
              sift filter 'ANY tags == %@' --arg '"swift"' \\
                --sort 'age DESC' --limit 10 people.json
              cat events.jsonl | sift filter 'level IN {"error", "fault"}' --count
            """)

    @OptionGroup var input: FormatInput

    @Argument(help: "A JSON or JSON Lines file; '-' or none reads standard input.")
    var file: String?

    @Option(help: ArgumentHelp("Sort order, e.g. 'author.name ASC caseInsensitive, year DESC'.", valueName: "keys"))
    var sort: String?

    @Option(help: "Print at most this many records.")
    var limit: Int?

    @Flag(help: "Print only the number of matching records.")
    var count = false

    @Option(help: "How to print the records; by default a table on a terminal, else jsonl.")
    var output: RowOutput?

    @OptionGroup var policy: PolicyOptions

    @Option(help: ArgumentHelp(
        "Refuse a line of JSON Lines longer than this many bytes (leading blanks not counted); 64 MiB by default.",
        valueName: "bytes"))
    var maxRecordSize = RecordReader.defaultMaximumRecordSize

    @Option(help: ArgumentHelp(
        "At a record that is invalid or cannot be evaluated: stop (print what matched before it, exit 2) or skip it.",
        valueName: "stop|skip"))
    var onError: OnError = .stop

    /// What `sift filter` does at a record it cannot read or evaluate.
    enum OnError: String, ExpressibleByArgument, CaseIterable {
        case stop, skip
    }

    func run() throws {
        let parsed = try policy.check(try input.filter())
        if !parsed.variableNames.isEmpty {
            // Every record would fail alike: say so before reading any.
            do {
                _ = try parsed.substituting([:])
            } catch {
                let names = parsed.variableNames.sorted().map { "--var \($0)=JSON" }.joined(separator: " ")
                Terminal.printError(error.rendered(colors: Terminal.stderrIsTTY) + "\nnote: give a value with " + names)
                throw ExitCode(2)
            }
        }
        let filter = parsed.compiled()
        var sortKeys: [SortKey] = []
        if let sort {
            do {
                sortKeys = try SortKey.parse(sort)
            } catch {
                Terminal.printError(error.rendered(colors: Terminal.stderrIsTTY))
                throw ExitCode(2)
            }
            try policy.check(sort: sortKeys, parsedFrom: sort)
        }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        if maxRecordSize < 1 { throw ValidationError("--max-record-size must be at least 1") }

        var matched = 0
        var skipped = 0
        var kept: [(JSONValue, Value)] = []
        var printer = RecordPrinter(output: output ?? .default)
        let records = try RecordReader(path: file, maximumRecordSize: maxRecordSize)
        var progress = Progress(total: records.totalBytes)
        /// A record that cannot be read or evaluated: skipped, or the end,
        /// after the matches so far (unsorted, so already in order) are out.
        func failed(_ message: String, detail: String) throws {
            progress.clear()
            if onError == .skip {
                skipped += 1
                Terminal.printError("skipped: " + message)
                return
            }
            if sortKeys.isEmpty && !count { printer.finishUnfinished() }
            Terminal.printError(detail)
            throw ExitCode(2)
        }
        while true {
            let next: (Int, RecordReader.Record)?
            do {
                next = try records.next()
            } catch let failure as CommandFailure {
                // A line of JSON Lines that is too long: reading can go on at
                // the next line.
                try failed(TerminalText.visible(failure.message), detail: failure.description)
                continue
            }
            guard let (number, read) = next else { break }
            progress.update(bytes: records.bytesRead, records: number, matched: matched)
            let isMatch: Bool
            do {
                isMatch = try Self.matches(filter, read)
            } catch let failure as CommandFailure {
                // A line that is not valid JSON: reading goes on as well.
                try failed(TerminalText.visible(failure.message), detail: failure.description)
                continue
            } catch let error as EvaluationError {
                let place = records.isArray ? "record \(number)" : "line \(number)"
                try failed(
                    TerminalText.visible("\(place): \(error)"), detail: "\(place): " + error.rendered(colors: Terminal.stderrIsTTY))
                continue
            }
            guard isMatch else { continue }
            matched += 1
            if count && sortKeys.isEmpty { continue }
            // A match is decoded in full only to be printed or sorted (its
            // bytes were read as valid JSON: this cannot fail).
            let record = try read.decoded()
            if !sortKeys.isEmpty {
                kept.append((record, record.predicateValue))
            } else if !count {
                if let limit, matched > limit { break }
                printer.add(record)
            }
        }
        progress.clear()
        if !sortKeys.isEmpty {
            let order: [Int]
            do {
                order = try Sorting.permutation(kept.map { $0.1 }, by: sortKeys)
            } catch {
                Terminal.printError(error.rendered(colors: false))
                throw ExitCode(2)
            }
            if !count {
                for i in order.prefix(limit ?? order.count) { printer.add(kept[i].0) }
            }
        }
        if count {
            var out = OutputBuffer()
            out.write(String(limit.map { min($0, matched) } ?? matched))
            out.flush()
        } else {
            printer.finish()
        }
        if skipped > 0 {
            Terminal.printError("skipped \(skipped) record\(skipped == 1 ? "" : "s") (--on-error skip)")
        }
        if matched == 0 { throw ExitCode(1) }
    }
}

extension FilterCommand {
    /// Whether `record` matches: a line of JSON Lines is read from its bytes
    /// by the filter, which decodes only the values the predicate reads.
    /// Throws the record's invalid JSON at its line and column (a
    /// `CommandFailure`), or the `EvaluationError`.
    static func matches(_ filter: CompiledFilter, _ record: RecordReader.Record) throws -> Bool {
        switch record {
        case .value(let value): return try filter.evaluate(with: value.predicateValue)
        case .line(let bytes, let place):
            do {
                return try bytes.withUnsafeBytes { try filter.evaluate(jsonUTF8: $0) }
            } catch let error as JSONError {
                throw place.invalid(error, in: bytes)
            }
        }
    }
}

/// Prints records as JSON Lines or a JSON array as they come, or as a
/// table at the end (columns: the keys in first-seen order).
struct RecordPrinter {
    let output: RowOutput
    private var out = OutputBuffer()
    private var printed = 0
    private var table: [JSONObject] = []

    init(output: RowOutput) { self.output = output }

    mutating func add(_ record: JSONValue) {
        switch output {
        case .jsonl: out.write(record.jsonText)
        case .json: out.write((printed == 0 ? "[\n  " : ",\n  ") + record.jsonText, newline: false)
        case .table:
            if case .object(let o) = record { table.append(o) } else { table.append(JSONObject([("value", record)])) }
        }
        printed += 1
    }

    /// Prints what was added before an error: the JSON Lines, the JSON
    /// array's elements so far (left open, so that nothing reads it as the
    /// whole answer), or the table of the rows so far.
    mutating func finishUnfinished() {
        if output == .json {
            if printed > 0 { out.write("") }
            out.flush()
        } else {
            finish()
        }
    }

    mutating func finish() {
        switch output {
        case .jsonl: break
        case .json: out.write(printed == 0 ? "[]" : "\n]")
        case .table:
            var columns: [String] = []
            var seen: Set<String> = []
            for o in table { for k in o.keys where seen.insert(k).inserted { columns.append(k) } }
            let rows = table.map { o in columns.map { o[$0]?.predicateValue ?? .null } }
            if !rows.isEmpty { for line in RowFormatting.table(columns, rows) { out.write(line) } }
        }
        out.flush()
    }
}

/// A progress line on standard error while a large input is read on a
/// terminal: percent (when the size is known), records, matches.
struct Progress {
    let total: Int?
    private let enabled: Bool
    private var shown = false
    private var last = ContinuousClock.now

    init(total: Int?) {
        self.total = total
        enabled = Terminal.stderrIsTTY && (total ?? Int.max) > 16 << 20
    }

    mutating func update(bytes: Int, records: Int, matched: Int) {
        guard enabled, records % 1024 == 0, ContinuousClock.now - last > .milliseconds(200) else { return }
        last = ContinuousClock.now
        var line = "\r"
        if let total, total > 0 {
            let fraction = min(1, Double(bytes) / Double(total))
            let filled = Int(fraction * 30)
            line += "[" + String(repeating: "=", count: filled) + String(repeating: " ", count: 30 - filled) + "] "
            line += String(format: "%3.0f%% ", fraction * 100)
        }
        line += "\(records) records, \(matched) matched"
        FileHandle.standardError.write(Data(line.utf8))
        shown = true
    }

    mutating func clear() {
        guard shown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        shown = false
    }
}

/// Reads JSON records one at a time: the elements of a top-level array, or
/// one value per line (JSON Lines), streaming the latter.
///
/// The input is a JSON array when its first non-blank byte is `[`, however
/// many blanks come before it. For JSON Lines, memory is bounded by the
/// longest record: blanks between records are dropped as they are read, the
/// search for the end of a line looks at each byte once, and a line longer
/// than `maximumRecordSize` bytes (from its first non-blank byte) is refused
/// with its line number. Bytes that are not UTF-8 are an error at their line
/// and column, never replaced.
final class RecordReader {
    /// The default of `--max-record-size`, 64 MiB: far above any record of
    /// JSON Lines met in practice, while input that has no newlines (a binary
    /// file read by mistake) is refused before it takes much memory.
    static let defaultMaximumRecordSize = 64 << 20

    /// A record as read: the bytes of a line of JSON Lines (with where it
    /// is, for errors), or an element of a JSON array, read with the array.
    enum Record {
        case line(ArraySlice<UInt8>, Place)
        case value(JSONValue)

        /// The record decoded (a line again, from its bytes).
        func decoded() throws -> JSONValue {
            switch self {
            case .value(let value): return value
            case .line(let bytes, let place):
                do { return try JSONValue(parsingUTF8: bytes) } catch { throw place.invalid(error, in: bytes) }
            }
        }
    }

    /// Where a record's bytes start: the lines before it, and the blanks
    /// dropped before it on its first line.
    struct Place {
        let linesBefore: Int
        let blanks: Int

        /// The error at its line and column in the input.
        func invalid(_ error: JSONError, in bytes: ArraySlice<UInt8>) -> CommandFailure {
            let (line, column) = DiagnosticRenderer.lineAndColumn(of: error.offset, inUTF8: bytes)
            return CommandFailure(
                "invalid JSON at line \(linesBefore + line), column \(line == 1 ? blanks + column : column): "
                    + error.message)
        }
    }

    private var arrayItems: [JSONValue]?
    /// Whether the records are the elements of a JSON array (numbered by
    /// element) rather than lines (numbered by line).
    var isArray: Bool { arrayItems != nil }
    /// Whether the rest of the current line is to be dropped: the line was
    /// refused as too long before its end was read.
    private var discardingLine = false
    private var arrayIndex = 0
    private let handle: FileHandle
    private let maximumRecordSize: Int
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var start = 0
    /// Where the search for the next newline resumes: `buffer[start..<scanned]` has none.
    private var scanned = 0
    private var atEnd = false
    /// The lines read so far, blank ones included.
    private var lineNumber = 0
    /// The blanks of the current line dropped before `start` (for columns).
    private var droppedBlanks = 0
    /// Bytes read so far, and the input's size when it is a file.
    private(set) var bytesRead = 0
    let totalBytes: Int?

    init(path: String?, maximumRecordSize: Int = RecordReader.defaultMaximumRecordSize) throws {
        if let path, path != "-" {
            // Any file that can be read is taken, not only a regular one: a
            // FIFO or `/dev/stdin` is a stream like standard input, and
            // `sift filter P <(command)` passes one. (Opening a FIFO waits
            // for its writer, as `cat` does.) The commands that need a
            // whole file call `InputFile.requireRegular` first.
            guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no such file: \(path)") }
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw CommandFailure("cannot read \(path)")
            }
            handle = h
            totalBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        } else {
            handle = FileHandle.standardInput
            totalBytes = nil
        }
        self.maximumRecordSize = maximumRecordSize
        try skipBlanks()
        if start < buffer.count, buffer[start] == UInt8(ascii: "[") {
            while !atEnd { try fill() }
            let document = buffer[start...]
            do {
                guard case .array(let items) = try JSONValue(parsingUTF8: document) else {
                    throw CommandFailure("not an array")
                }
                arrayItems = items
            } catch let e as JSONError {
                throw Place(linesBefore: lineNumber, blanks: droppedBlanks).invalid(e, in: document)
            }
            buffer = []
            start = 0
        }
    }

    private func fill() throws {
        // Drop the lines already read before appending (once per chunk, not per line).
        if start > 0 {
            buffer.removeSubrange(..<start)
            scanned -= start
            start = 0
        }
        let chunk = handle.readData(ofLength: 1 << 16)
        if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
        bytesRead += chunk.count
    }

    /// Moves `start` past blanks, reading on while there are only blanks;
    /// each newline among them ends a blank line.
    private func skipBlanks() throws {
        while true {
            var (position, lines, blanks) = (start, lineNumber, droppedBlanks)
            buffer.withUnsafeBufferPointer { bytes in
                scan: while position < bytes.count {
                    switch bytes[position] {
                    case 0x0A:
                        lines += 1
                        blanks = 0
                    case 0x20, 0x09, 0x0D: blanks += 1
                    default: break scan
                    }
                    position += 1
                }
            }
            (start, lineNumber, droppedBlanks) = (position, lines, blanks)
            if start < buffer.count {
                scanned = max(scanned, start)
                return
            }
            guard !atEnd else { return }
            try fill()
        }
    }

    /// The next record with its number (1-based), or nil at the end.
    func next() throws -> (Int, Record)? {
        if let items = arrayItems {
            guard arrayIndex < items.count else { return nil }
            arrayIndex += 1
            return (arrayIndex, .value(items[arrayIndex - 1]))
        }
        if discardingLine { try discardLine() }
        while true {
            try skipBlanks()
            guard start < buffer.count else { return nil }
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                return try record(upTo: newline, resumingAt: newline + 1)
            }
            if atEnd { return try record(upTo: buffer.count, resumingAt: buffer.count) }
            scanned = buffer.count
            guard buffer.count - start <= maximumRecordSize else {
                discardingLine = true
                throw tooLong()
            }
            try fill()
        }
    }

    /// Drops the rest of the current line, a chunk at a time, keeping none
    /// of it.
    private func discardLine() throws {
        discardingLine = false
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                lineNumber += 1
                droppedBlanks = 0
                start = newline + 1
                scanned = start
                return
            }
            start = buffer.count
            scanned = buffer.count
            if atEnd { return }
            try fill()
        }
    }

    /// The line `buffer[start..<end]`, then moves on to `next` (also when
    /// it fails: reading can go on after a bad line).
    private func record(upTo end: Int, resumingAt next: Int) throws -> (Int, Record) {
        defer {
            lineNumber += 1
            droppedBlanks = 0
            start = next
            scanned = next
        }
        guard end - start <= maximumRecordSize else { throw tooLong() }
        return (lineNumber + 1, .line(buffer[start..<end], Place(linesBefore: lineNumber, blanks: droppedBlanks)))
    }

    private func tooLong() -> CommandFailure {
        CommandFailure(
            "the record at line \(lineNumber + 1) is longer than the limit of \(maximumRecordSize) bytes "
                + "(--max-record-size)")
    }

}

/// Buffered standard output.
struct OutputBuffer {
    private var pending = ""

    mutating func write(_ line: String, newline: Bool = true) {
        pending += line
        if newline { pending += "\n" }
        if pending.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}
