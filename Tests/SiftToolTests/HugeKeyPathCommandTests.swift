import Foundation
import Testing

extension CommandLineTests {
    /// A key path of 23,000 keys (45 KB, a stack overflow in compiling
    /// before) through every command that takes one: each answers.
    @Test func hugeKeyPathsThroughEveryCommand() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let records = folder.appendingPathComponent("r.jsonl")
        try Data("{\"b\":1}\n".utf8).write(to: records)
        let path = Array(repeating: "a", count: 23_000).joined(separator: ".")
        let predicate = path + " == nil"
        let cases = folder.appendingPathComponent("cases.jsonl")
        try Data("{\"id\": \"long\", \"format\": \"\(predicate)\", \"object\": {\"b\": 1}, \"result\": true}\n".utf8)
            .write(to: cases)
        let half = Array(repeating: "a", count: 15_000).joined(separator: ".")
        for (arguments, input) in [
            (["filter", predicate, records.path, "--count"], ""),
            (["filter", predicate, records.path, "--count", "--allow", "a.*"], ""),
            (["filter", "%K.%K == nil", records.path, "--count", "--arg", "\"\(half)\"", "--arg", "\"\(half)\""], ""),
            (["repl", records.path, "--history", "none"], predicate + "\n"),
            (["check", cases.path], ""),
        ] {
            let run = try sift(arguments, input: input, timeout: 120)
            #expect(run.status == 0, "\(arguments.first ?? ""): \(run.status) \(run.stderr.prefix(300))")
            if arguments.first == "filter" { #expect(run.stdout == "1\n", "\(arguments.suffix(2))") }
            if arguments.first == "repl" { #expect(run.stdout.contains("1 of 1 matches"), "\(run.stdout.suffix(300))") }
        }
    }
}
