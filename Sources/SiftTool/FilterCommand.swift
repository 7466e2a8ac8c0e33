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
            Lines input is streamed: memory does not grow with the input. Exits with 1 when nothing matches.
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

    func run() throws {
        let filter = try input.filter().compiled()
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

        var matched = 0
        var kept: [(JSONValue, Value)] = []
        var output = OutputBuffer()
        let records = try RecordReader(path: file)
        while let (number, record) = try records.next() {
            let value = record.predicateValue
            let isMatch: Bool
            do {
                isMatch = try filter.evaluate(with: value)
            } catch {
                Terminal.printError("record \(number): " + error.rendered(colors: Terminal.stderrIsTTY))
                throw ExitCode(2)
            }
            guard isMatch else { continue }
            matched += 1
            if !sortKeys.isEmpty {
                kept.append((record, value))
            } else if !count {
                if let limit, matched > limit { break }
                output.write(record.jsonText)
            }
        }
        if !sortKeys.isEmpty {
            let order: [Int]
            do {
                order = try Sorting.permutation(kept.map { $0.1 }, by: sortKeys)
            } catch {
                Terminal.printError(error.rendered(colors: false))
                throw ExitCode(2)
            }
            if !count {
                for i in order.prefix(limit ?? order.count) { output.write(kept[i].0.jsonText) }
            }
        }
        if count { output.write(String(limit.map { min($0, matched) } ?? matched)) }
        output.flush()
        if matched == 0 { throw ExitCode(1) }
    }
}

/// Reads JSON records one at a time: the elements of a top-level array, or
/// one value per line (JSON Lines), streaming the latter.
final class RecordReader {
    private var arrayItems: [JSONValue]?
    private var arrayIndex = 0
    private let handle: FileHandle
    private var buffer: [UInt8] = []
    private var atEnd = false
    private var lineNumber = 0

    init(path: String?) throws {
        if let path, path != "-" {
            guard let h = FileHandle(forReadingAtPath: path) else {
                throw ValidationError("cannot read \(path)")
            }
            handle = h
        } else {
            handle = FileHandle.standardInput
        }
        // A document that starts with '[' is one JSON array.
        try fill()
        if let first = buffer.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
            first == UInt8(ascii: "[")
        {
            while !atEnd { try fill() }
            let text = String(decoding: buffer, as: UTF8.self)
            do {
                guard case .array(let items) = try JSONValue(parsing: text) else { throw ValidationError("not an array") }
                arrayItems = items
            } catch let e as JSONError {
                let (line, column) = DiagnosticRenderer.lineAndColumn(of: e.offset, in: text)
                throw ValidationError("invalid JSON at line \(line), column \(column): \(e.message)")
            }
            buffer = []
        }
    }

    private func fill() throws {
        let chunk = handle.readData(ofLength: 1 << 16)
        if chunk.isEmpty { atEnd = true } else { buffer.append(contentsOf: chunk) }
    }

    /// The next record with its number (1-based), or nil at the end.
    func next() throws -> (Int, JSONValue)? {
        if let items = arrayItems {
            guard arrayIndex < items.count else { return nil }
            arrayIndex += 1
            return (arrayIndex, items[arrayIndex - 1])
        }
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[..<newline]
                buffer.removeSubrange(...newline)
                lineNumber += 1
                if let record = try parse(line) { return (lineNumber, record) }
                continue
            }
            if atEnd {
                guard !buffer.isEmpty else { return nil }
                let line = buffer[...]
                buffer = []
                lineNumber += 1
                if let record = try parse(line) { return (lineNumber, record) }
                return nil
            }
            try fill()
        }
    }

    private func parse(_ line: ArraySlice<UInt8>) throws -> JSONValue? {
        let text = String(decoding: line, as: UTF8.self)
        if text.allSatisfy({ $0.isWhitespace }) { return nil }
        do {
            return try JSONValue(parsing: text)
        } catch {
            let column = DiagnosticRenderer.lineAndColumn(of: error.offset, in: text).column
            throw ValidationError("invalid JSON at line \(lineNumber), column \(column): \(error.message)")
        }
    }
}

/// Buffered standard output.
struct OutputBuffer {
    private var pending = ""

    mutating func write(_ line: String) {
        pending += line
        pending += "\n"
        if pending.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        FileHandle.standardOutput.write(Data(pending.utf8))
        pending = ""
    }
}
