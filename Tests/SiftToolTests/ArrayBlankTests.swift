import Foundation
import Testing

@testable import SiftTool

/// Blanks in a JSON array cost nothing: between elements they are
/// dropped as they are read, and after an element's value (before its
/// comma) they are no part of its size. (`[` + 400 MB of blanks +
/// `{"a":5}]` took 553 MB; a 7-byte record followed by 70 MB of blanks was
/// refused as too long.)
struct ArrayBlankTests {
    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-blanks-\(UUID().uuidString).json").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The largest chunk the reader hands out for `text`, and its items.
    static func read(_ text: String) throws -> (largest: Int, items: [Chunk.Item]) {
        let path = try file(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try ChunkReader(path: path, maximumRecordSize: 100, chunkSize: 64 << 10)
        var largest = 0
        var items: [Chunk.Item] = []
        while let chunk = reader.next() {
            largest = max(largest, chunk.bytes.count)
            items += chunk.items
        }
        return (largest, items)
    }

    @Test func blanksTakeNoMemory() throws {
        let run = 8 << 20
        for text in [
            "[" + String(repeating: " ", count: run) + #"{"a":5}]"#,
            #"[{"a":5}"# + String(repeating: " ", count: run) + #",{"a":5}]"#,
            #"[{"a":5},"# + String(repeating: "\n", count: run) + #"{"a":5}]"#,
            "[5" + String(repeating: "\t", count: run) + "]",
        ] {
            let (largest, items) = try Self.read(text)
            #expect(largest <= 3 * ChunkReader.blankRun, "\(largest) bytes in one chunk")
            #expect(!items.contains { if case .failure = $0 { true } else { false } }, "\(items)")
        }
    }

    /// A chunk handed out while an element is being read leaves the
    /// element's size counted from its own start (a 900-byte record was
    /// measured from the chunk's start and refused under a limit of 1,000).
    @Test func sizesAcrossChunks() throws {
        // Every alignment of the reads against the second record's end.
        for pad in 0..<130 {
            let first = #"{"a":""# + String(repeating: "x", count: 500 + pad) + #""}"#
            let second = #"{"a":""# + String(repeating: "y", count: 890) + #""}"#
            let path = try Self.file("[" + first + "," + second + "," + first + "]")
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reader = try ChunkReader(path: path, maximumRecordSize: 1000, chunkSize: 64)
            var elements = 0
            while let chunk = reader.next() {
                for item in chunk.items {
                    if case .failure(let failure) = item { Issue.record("pad \(pad): \(failure)") } else { elements += 1 }
                }
            }
            #expect(elements == 3, "pad \(pad)")
        }
    }

    /// The same through a pipe whose reads come back short: the first
    /// read ends just after the second record's closing brace, so the
    /// first record is handed out while the second is measured, and the
    /// next read brings only blanks. The second record's end must move
    /// with the buffer (it was left behind, and the 900-byte record was
    /// refused as longer than 1,000 bytes).
    @Test func sizesAcrossShortReads() throws {
        let first = #"{"a":""# + String(repeating: "x", count: 500) + #""}"#
        let second = #"{"a":""# + String(repeating: "y", count: 890) + #""}"#
        let pieces = ["[" + first + "," + second, "   ", "," + first + "]"]
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("sift-fifo-\(UUID().uuidString)").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // Each piece is written whole (under PIPE_BUF) once the pipe is
        // empty, so that each read returns exactly one piece.
        let writer = Thread {
            let fd = open(fifo, O_WRONLY)
            guard fd >= 0 else { return }
            defer { close(fd) }
            for piece in pieces {
                var waiting: Int32 = 1
                while ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting > 0 { usleep(1_000) }
                _ = Array(piece.utf8).withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            }
            var waiting: Int32 = 1
            while ioctl(fd, UInt(FIONREAD), &waiting) == 0, waiting > 0 { usleep(1_000) }
        }
        writer.start()
        let reader = try ChunkReader(path: fifo, maximumRecordSize: 1000, chunkSize: 64 << 10)
        var elements = 0
        while let chunk = reader.next() {
            for item in chunk.items {
                if case .failure(let failure) = item { Issue.record("\(failure)") } else { elements += 1 }
            }
        }
        #expect(elements == 3)
    }

    @Test func recordsAreTheirOwnSize() throws {
        let blanks = String(repeating: " ", count: 3 << 20)
        let runner = CommandLineTests()
        var written: [String] = []
        defer { for path in written { try? FileManager.default.removeItem(atPath: path) } }
        func file(_ text: String) throws -> String {
            written.append(try Self.file(text))
            return written[written.count - 1]
        }
        let counted = try runner.sift(
            ["filter", "a == 5", try file("[" + blanks + #"{"a":5}"# + blanks + #",{"a":5}"# + "\n" + blanks + #",{"a":6}]"#),
             "--count", "--max-record-size", "100"], timeout: 120)
        #expect(counted.stdout == "2\n", "\(counted.stderr.prefix(300))")
        // What follows a value handed out early is still checked, at its place.
        let wrong = try runner.sift(["filter", "a == 5", try file(#"[{"a":5}"# + blanks + #"{"b":1}]"#), "--count"], timeout: 120)
        #expect(wrong.stderr.contains("line 1, column 3145737: expected ',' or ']'"), "\(wrong.stderr.prefix(300))")
        let lines = try runner.sift(
            ["filter", "a == 5", try file(#"[{"a":5}"# + String(repeating: "\n", count: 3 << 20) + #" ,  {"a": x}]"#), "--count"],
            timeout: 120)
        #expect(lines.stderr.contains("line 3145729, column 11"), "\(lines.stderr.prefix(300))")
    }
}
