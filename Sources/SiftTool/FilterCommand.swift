import ArgumentParser
import CSiftEdit
import Foundation
import Sift

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Print the JSON records that match a predicate.",
        discussion: """
            Reads a JSON array or JSON Lines (one object per line) from FILE or standard input and prints \
            the matching records, in input order unless --sort is given, as the bytes they were in the \
            input (an array's element written on several lines prints on one line as JSON Lines, the \
            blanks between its tokens dropped). Records print as a table on a terminal and as JSON Lines \
            otherwise (--output). Exits with 1 when nothing matches, 2 on a parse error or invalid JSON \
            (with its line and column, in characters).

            The input is read in chunks of whole records (a few MB), evaluated on --jobs threads (one per \
            core by default) and printed in input order. JSON Lines and the elements of a JSON array are \
            streamed: at most 2 x jobs chunks are held, so memory does not grow with the input, except \
            with --sort, which keeps the matches in memory to sort them. --limit stops reading once that \
            many records are printed.

            The input is read as JSONSerialization reads it, except where that would change the data: \
            bytes that are not UTF-8 are an error (not replaced); an integer beyond 64 bits is an exact \
            decimal (up to 38 digits), other numbers the nearest double, and every number prints as it was \
            written; a number beyond a double's range (1e400) is an error. A member name repeated in an \
            object keeps its last value; two names that differ only in Unicode normalization (café and \
            cafe + U+0301) are an error, as a dictionary would merge them. A record (a line, or an array's \
            element) longer than --max-record-size bytes is an error; blank lines and blanks before a \
            record take no memory.

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

    @OptionGroup var grouping: GroupingOptions

    @Flag(help: ArgumentHelp(
        "With --select KEYPATHS: each distinct combination of their values once (Core Data's returnsDistinctResults), in the order first met."))
    var distinct = false

    @OptionGroup var policy: PolicyOptions

    @Option(help: ArgumentHelp(
        "Refuse a record (a line, an array's element) longer than this many bytes (leading blanks not counted); 64 MiB by default.",
        valueName: "bytes"))
    var maxRecordSize = ChunkReader.defaultMaximumRecordSize

    @Option(help: ArgumentHelp(
        "Threads that evaluate records, at most 2 x N chunks in memory; 1 reads, evaluates and prints on one thread. One per core by default.",
        valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp(
        "Bytes read at a time, cut at a record's end (a longer record makes its chunk longer); by default 1 MiB, less with more than 8 jobs.",
        valueName: "bytes", visibility: .hidden))
    var chunkSize: Int?

    @Option(help: ArgumentHelp(
        "At a record that is invalid or cannot be evaluated: stop (print what matched before it, exit 2) or skip it.",
        valueName: "stop|skip"))
    var onError: OnError = .stop

    /// What `sift filter` does at a record it cannot read or evaluate.
    enum OnError: String, ExpressibleByArgument, CaseIterable {
        case stop, skip
    }

    func run() throws {
        // Freed chunk buffers are reused, not given back and faulted in
        // again: 7-10% of the time of a grouped filter of 1,000,000 records.
        sift_memory_keep_chunks()
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
        var sortKeys: [SortKey] = []
        if let sort {
            do {
                sortKeys = try SortKey.parse(sort)
            } catch {
                Terminal.printError(error.rendered(colors: Terminal.stderrIsTTY))
                throw ExitCode(2)
            }
        }
        if let limit, limit < 0 { throw ValidationError("--limit must not be negative") }
        var grouped: (accumulator: GroupedFetchAccumulator, parsed: GroupingOptions.Parsed, request: FetchSpecification)?
        if distinct && (grouping.select == nil || grouping.groupBy != nil || grouping.having != nil) {
            throw ValidationError("--distinct takes --select KEYPATHS alone (no --group-by or --having)")
        }
        // --select of key paths alone: those properties of each match
        // (Core Data's propertiesToFetch), projected once the matches are
        // in (and sorted), as sift query --select does.
        var projection: (request: FetchSpecification, parsed: GroupingOptions.Parsed)?
        if grouping.select != nil, grouping.groupBy == nil, grouping.having == nil, !distinct {
            var request = FetchSpecification(sort: sortKeys, limit: limit)
            let parsed = try grouping.apply(to: &request, policy: policy, properties: true)
            if !request.isGrouped, request.properties != nil { projection = (request, parsed) }
        }
        if grouping.isGiven, projection == nil {
            var request = FetchSpecification(sort: sortKeys, limit: limit)
            // The distinct combinations of key paths are the groups of a
            // grouping by them, with nothing else fetched.
            var grouping = grouping
            if distinct { grouping.groupBy = grouping.select }
            let parsed = try grouping.apply(to: &request, policy: policy)
            grouped = (try GroupedFetchAccumulator(request), parsed, request)
        }
        try policy.check(sort: sortKeys, parsedFrom: sort, of: grouped?.request)
        if maxRecordSize < 1 { throw ValidationError("--max-record-size must be at least 1") }

        let jobs = self.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if let chunkSize, chunkSize < 1 { throw ValidationError("--chunk-size must be at least 1") }

        var matched = 0
        var skipped = 0
        var records = 0
        var kept: [([UInt8], Value)] = []
        // With --select of key paths alone: the results so far.
        var projected: [Value] = []
        var printer = RecordPrinter(output: output ?? .default)
        let reader = try ChunkReader(
            path: file, maximumRecordSize: maxRecordSize, chunkSize: chunkSize ?? ChunkReader.chunkSize(jobs: jobs))
        var progress = Progress(total: reader.totalBytes)
        let (colors, stopAtFailure, limit) = (Terminal.stderrIsTTY, onError == .stop, maxRecordSize)
        // Each thread evaluates with a filter compiled for it (see ParallelChunks).
        // Grouping adds each chunk's matches to a part of its own on the
        // thread that found them; the main thread merges the parts in
        // input order, which keeps each group's terms in input order
        // (a double sum's rounding depends on it).
        // Each record is scanned once, for the filter's keys and the
        // grouping's together (GroupedRecordFilter).
        let part = try grouped.map { try GroupedFetchAccumulator(partOf: $0.request) }
        let groupedRequest = grouped?.request
        let (results, stop) = ParallelChunks.results(of: reader, jobs: jobs) { () -> (Chunk) -> ChunkResult in
            if let groupedRequest, let part {
                let filter = GroupedRecordFilter(parsed, grouping: groupedRequest)
                return {
                    $0.evaluate(
                        maximumRecordSize: limit, colors: colors, stopAtFailure: stopAtFailure, grouping: filter, into: part)
                }
            }
            let test = RecordTests.reading(parsed.compiled())
            return { $0.evaluate(maximumRecordSize: limit, colors: colors, stopAtFailure: stopAtFailure, test: test) }
        }
        defer { stop() }
        // Stop reading once the limit is printed (or, with --limit 0, once
        // a match says what the exit status is); a sort needs every match.
        let enough = sortKeys.isEmpty && grouped == nil ? self.limit.map { max($0, 1) } : nil
        // The options read for each match, read once here (a property
        // wrapper's getter is not free).
        let (count, shown) = (self.count, self.limit ?? .max)
        reading: while let result = results() {
            var matchInChunk = 0
            for event in result.events {
                switch event {
                case .match(let range):
                    matched += 1
                    if grouped != nil {
                        // Memory grows with the groups, not the records.
                        do {
                            defer { matchInChunk += 1 }
                            if let stopped = result.groupingStopped, matchInChunk == stopped.match {
                                if let part = result.groups { try grouped!.accumulator.merge(part) }
                                throw stopped.error
                            }
                        } catch let error as EvaluationError {
                            progress.clear()
                            Terminal.printError(grouped!.parsed.locate(error).rendered(colors: colors))
                            throw ExitCode(2)
                        }
                    } else if let projection {
                        if !count {
                            let value = try RecordPrinter.decode(result.bytes[range]).predicateValue
                            if sortKeys.isEmpty {
                                // Unsorted: only the selected values are kept.
                                projected += try Self.project([value], projection, colors: colors)
                            } else {
                                kept.append(([], value))
                            }
                        }
                    } else if !sortKeys.isEmpty {
                        let bytes = Array(result.bytes[range])
                        kept.append((bytes, try RecordPrinter.decode(bytes[...]).predicateValue))
                    } else if !count, matched <= shown {
                        try printer.add(result.bytes[range])
                    }
                    if let enough, matched >= enough { break reading }
                case .failure(let failure):
                    progress.clear()
                    if onError == .skip {
                        skipped += 1
                        Terminal.printError("skipped: " + failure.message)
                        continue
                    }
                    // The matches so far (unsorted, so already in order) are out first.
                    if sortKeys.isEmpty && !count {
                        if let projection {
                            Self.printProjected(projected, projection, output: output ?? .default)
                        } else {
                            printer.finishUnfinished()
                        }
                    }
                    Terminal.printError(failure.detail)
                    throw ExitCode(2)
                }
            }
            if grouped != nil, result.groupingStopped == nil, let part = result.groups {
                do {
                    try grouped!.accumulator.merge(part)
                } catch {
                    progress.clear()
                    Terminal.printError(grouped!.parsed.locate(error).rendered(colors: colors))
                    throw ExitCode(2)
                }
            }
            records += result.records
            progress.update(bytes: result.inputOffset, records: records, matched: matched)
        }
        progress.clear()
        if let grouped {
            let results: [Value]
            do {
                results = try grouped.accumulator.results()
            } catch {
                Terminal.printError(grouped.parsed.locate(error).rendered(colors: colors))
                throw ExitCode(2)
            }
            if count {
                var out = OutputBuffer()
                out.write(String(results.count))
                out.flush()
            } else {
                GroupedOutput.print(
                    GroupingOptions.rows(results, columns: grouped.parsed.columns), columns: grouped.parsed.columns,
                    output: output ?? .default)
            }
            if skipped > 0 {
                Terminal.printError("skipped \(skipped) record\(skipped == 1 ? "" : "s") (--on-error skip)")
            }
            if results.isEmpty { throw ExitCode(1) }
            return
        }
        if let projection, !count {
            if !sortKeys.isEmpty { projected = try Self.project(kept.map(\.1), projection, colors: colors) }
            Self.printProjected(projected, projection, output: output ?? .default)
        } else if !sortKeys.isEmpty {
            let order: [Int]
            do {
                order = try Sorting.permutation(kept.map { $0.1 }, by: sortKeys)
            } catch {
                Terminal.printError(error.rendered(colors: false))
                throw ExitCode(2)
            }
            if !count {
                for i in order.prefix(self.limit ?? order.count) { try printer.add(kept[i].0[...]) }
            }
        }
        if count {
            var out = OutputBuffer()
            out.write(String(self.limit.map { min($0, matched) } ?? matched))
            out.flush()
        } else if projection == nil {
            printer.finish()
        }
        if skipped > 0 {
            Terminal.printError("skipped \(skipped) record\(skipped == 1 ? "" : "s") (--on-error skip)")
        }
        if matched == 0 { throw ExitCode(1) }
    }
}

extension FilterCommand {
    /// `values` projected, sorted and limited by `projection`'s request;
    /// its error is printed with a caret in `--select` (exit 2).
    static func project(
        _ values: [Value], _ projection: (request: FetchSpecification, parsed: GroupingOptions.Parsed), colors: Bool
    ) throws -> [Value] {
        do {
            return try projection.request.execute(on: values)
        } catch {
            Terminal.printError(projection.parsed.locate(error).rendered(colors: colors))
            throw ExitCode(2)
        }
    }

    /// Prints projected results as grouped results print, their columns
    /// the selected key paths.
    static func printProjected(
        _ results: [Value], _ projection: (request: FetchSpecification, parsed: GroupingOptions.Parsed), output: RowOutput
    ) {
        let columns = projection.parsed.columns
        GroupedOutput.print(GroupingOptions.rows(results, columns: columns), columns: columns, output: output)
    }
}

/// Prints records as JSON Lines or a JSON array as they come, as the bytes
/// they were in the input, or as a table at the end (columns: the keys in
/// first-seen order).
struct RecordPrinter {
    let output: RowOutput
    private var out = OutputBuffer()
    private var printed = 0
    private var table: [JSONObject] = []

    init(output: RowOutput) { self.output = output }

    /// Adds a record given as its bytes in the input, one JSON value.
    mutating func add(_ record: ArraySlice<UInt8>) throws {
        switch output {
        case .jsonl:
            // A record on several lines (an element of a pretty-printed
            // array) loses its line breaks, so that it is one line; the
            // blanks between its tokens go with them, the tokens stay.
            if record.contains(0x0A) { out.write(bytes: JSONLayout.oneLine(record)) } else { out.write(bytes: record) }
            out.write("")
        case .json:
            out.write(printed == 0 ? "[\n  " : ",\n  ", newline: false)
            out.write(bytes: record)
        case .table, .csv:
            let value = try Self.decode(record)
            if case .object(let o) = value { table.append(o) } else { table.append(JSONObject([("value", value)])) }
        }
        printed += 1
    }

    /// A record that matched, decoded again for a table or a sort.
    static func decode(_ record: ArraySlice<UInt8>) throws -> JSONValue {
        do {
            return try JSONValue(parsingUTF8: record)
        } catch {
            throw CommandFailure("a matching record is not valid JSON: \(error)")
        }
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
        case .table, .csv:
            var columns: [String] = []
            var seen: Set<String> = []
            for o in table { for k in o.keys where seen.insert(k).inserted { columns.append(k) } }
            let rows = table.map { o in columns.map { o[$0]?.predicateValue ?? .null } }
            if output == .csv {
                for line in CSVText.lines(columns, rows) { out.write(line) }
            } else if !rows.isEmpty {
                for line in RowFormatting.table(columns, rows) { out.write(line) }
            }
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
        guard enabled, ContinuousClock.now - last > .milliseconds(200) else { return }
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

/// Buffered standard output.
struct OutputBuffer {
    private var pending: [UInt8] = []

    mutating func write(_ line: String, newline: Bool = true) {
        pending.append(contentsOf: line.utf8)
        if newline { pending.append(0x0A) }
        if pending.count > 1 << 16 { flush() }
    }

    mutating func write(bytes: some Collection<UInt8>) {
        pending.append(contentsOf: bytes)
        if pending.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
    }
}

/// The layout of JSON text given as bytes.
enum JSONLayout {
    /// `bytes` without the blanks between tokens (outside strings): one
    /// line, every token as it was written.
    static func oneLine(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var (inString, escaped) = (false, false)
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
            } else if Chunk.isBlank(b) {
                continue
            } else if b == UInt8(ascii: "\"") {
                inString = true
            }
            out.append(b)
        }
        return out
    }
}
