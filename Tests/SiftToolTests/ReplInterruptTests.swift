import Foundation
import Testing

extension ReplTerminalTests {
    /// Ctrl-C during a long evaluation in memory stops the query, not the
    /// REPL: the session and its collection go on. (It ended the REPL.)
    @Test func ctrlCStopsAQueryInMemory() throws {
        guard let (tmux, binary) = try Self.tmuxAndBinary() else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-interrupt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 400 records whose MATCHES backtracks a million steps each: many
        // seconds in all, each record well under the regex limits.
        let records = folder.appendingPathComponent("slow.jsonl")
        let lines = (0..<400).map { "{\"s\": \"\(String(repeating: "a", count: 28))b\", \"i\": \($0)}" }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: records)
        let terminal = Terminal(tmux: tmux)
        defer { terminal.stop() }
        try terminal.start("env TERM=xterm LANG=C.UTF-8 \(binary.path) repl --history none \(records.path)")
        try terminal.wait(for: "slow> ")
        try terminal.type(#"s MATCHES "(a|aa)+$""#)
        try terminal.keys("Enter")
        Thread.sleep(forTimeInterval: 1)
        try terminal.keys("C-c")
        let stopped = try terminal.wait(for: "interrupted (Ctrl-C)")
        #expect(!stopped.contains("of 400 match"), "\(stopped)")
        try terminal.type("i == 5")
        try terminal.keys("Enter")
        try terminal.wait(for: "1 of 400 matches")
        try terminal.type(":quit")
        try terminal.keys("Enter")
        try terminal.waitForExit()
    }
}
