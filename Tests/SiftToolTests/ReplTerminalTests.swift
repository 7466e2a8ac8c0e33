import Foundation
import Testing

#if os(Linux)
    // glibc 2.34 and later; its module does not export this GNU extension.
    @_silgen_name("posix_spawn_file_actions_addclosefrom_np")
    private func spawnCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32) -> Int32
#endif

/// The REPL in a real terminal (tmux), typed into as a person would: tab
/// completion, a caret error fixed by recalling and editing the line, `:why`,
/// `:sql`, multi-line input, and history recalled after a restart.
/// `make test` installs tmux and sets SIFT_REQUIRE_TMUX=1, so there the test
/// cannot be skipped.
@Suite(.serialized)
struct ReplTerminalTests {
    static var tmuxPath: String? {
        ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    /// A private tmux server running one REPL at a time.
    final class Terminal {
        let tmux: String
        let socket = "sift-test-\(UUID().uuidString.prefix(8))"

        init(tmux: String) { self.tmux = tmux }

        /// Runs a tmux command that prints nothing, with posix_spawn and
        /// waitpid: the server `new-session` starts inherits descriptors
        /// Foundation's Process waits on, so Process would wait for it.
        /// The child gets no descriptor but /dev/null (otherwise the server
        /// would keep open the pipes of processes other tests are starting
        /// at that moment, and they would never see the end of their
        /// input), and a clear signal mask with default handlers (the test
        /// runner's threads block most signals, and a server started with
        /// them blocked never reaps its children or exits).
        func run(_ arguments: [String]) throws {
            let argv = ([tmux, "-L", socket] + arguments).map { strdup($0) } + [nil]
            defer { for p in argv { free(p) } }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            for fd: Int32 in [0, 1, 2] {
                posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
            }
            #if os(Linux)
                _ = spawnCloseFrom(&actions, 3)
            #endif
            var attributes = posix_spawnattr_t()
            posix_spawnattr_init(&attributes)
            defer { posix_spawnattr_destroy(&attributes) }
            var none = sigset_t()
            sigemptyset(&none)
            var all = sigset_t()
            sigfillset(&all)
            posix_spawnattr_setsigmask(&attributes, &none)
            posix_spawnattr_setsigdefault(&attributes, &all)
            posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
            var pid: pid_t = 0
            let status = posix_spawn(&pid, tmux, &actions, &attributes, argv, environ)
            guard status == 0 else { throw POSIXError(POSIXErrorCode(rawValue: status) ?? .EIO) }
            var exit: Int32 = 0
            while waitpid(pid, &exit, 0) < 0 && errno == EINTR {}
        }

        /// Runs a tmux command and returns what it prints.
        func output(_ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tmux)
            process.arguments = ["-L", socket] + arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }

        func start(_ command: String) throws {
            try run(["new-session", "-d", "-s", "repl", "-x", "160", "-y", "60", command])
            try run(["set-option", "-t", "repl", "remain-on-exit", "on"])
        }

        func keys(_ keys: String...) throws { try run(["send-keys", "-t", "repl"] + keys) }

        /// Types text literally (no key names).
        func type(_ text: String) throws { try run(["send-keys", "-t", "repl", "-l", text]) }

        func screen(escapes: Bool = false) throws -> String {
            try output(["capture-pane", "-p", "-J", "-t", "repl", "-S", "-200"] + (escapes ? ["-e"] : []))
        }

        /// Waits until the screen shows `text` (at most 10 s) and returns it.
        @discardableResult
        func wait(
            for text: String, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation
        ) throws -> String {
            let deadline = Date().addingTimeInterval(10)
            var last = ""
            while Date() < deadline {
                last = try screen()
                if last.components(separatedBy: text).count - 1 >= count { return last }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("the screen never showed \(text.debugDescription):\n\(last)", sourceLocation: sourceLocation)
            return last
        }

        /// Waits until the REPL has exited (at most 10 s).
        func waitForExit(sourceLocation: SourceLocation = #_sourceLocation) throws {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if try output(["list-panes", "-t", "repl", "-F", "#{pane_dead}"]).hasPrefix("1") { return }
                Thread.sleep(forTimeInterval: 0.05)
            }
            Issue.record("the REPL did not exit:\n\(try screen())", sourceLocation: sourceLocation)
        }

        func stop() { try? run(["kill-server"]) }
    }

    /// tmux and the built `sift`; nil (a recorded issue where tmux is
    /// required) when tmux is not installed.
    static func tmuxAndBinary() throws -> (tmux: String, binary: URL)? {
        guard let tmux = tmuxPath else {
            if ProcessInfo.processInfo.environment["SIFT_REQUIRE_TMUX"] == "1" {
                Issue.record("tmux is required (SIFT_REQUIRE_TMUX=1) but not installed")
            }
            return nil
        }
        return (tmux, try #require(CommandLineTests.binary, "build the sift product first (swift build)"))
    }

    @Test func aSessionAsAPersonTypesIt() throws {
        guard let (tmux, binary) = try Self.tmuxAndBinary() else { return }
        let history = FileManager.default.temporaryDirectory.appendingPathComponent("sift-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: history) }
        // Colours are expected: the test runner's NO_COLOR, if any, is dropped.
        let command = "env -u NO_COLOR SIFT_HISTORY=\(history.path) TERM=xterm LANG=C.UTF-8 \(binary.path) repl"

        let terminal = Terminal(tmux: tmux)
        defer { terminal.stop() }
        try terminal.start(command)
        try terminal.wait(for: "Book> ")
        // Colours on a terminal.
        let colored = try terminal.screen(escapes: true)
        #expect(colored.contains("\u{1B}["), "\(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "-") \(colored)")

        // Tab completes a key path; a typo gives a caret error.
        try terminal.type("tit")
        try terminal.keys("Tab")
        try terminal.wait(for: "Book> title")
        try terminal.type("BEGINSWITH[c 'so'")
        try terminal.keys("Enter")
        let error = try terminal.wait(for: "^")
        #expect(error.contains("error:"))
        #expect(error.contains(" | title BEGINSWITH[c 'so'"))

        // Recall the line, move left over " 'so'", insert the missing ']'.
        try terminal.keys("Up")
        try terminal.wait(for: "Book> title BEGINSWITH[c 'so'", count: 2)
        for _ in 0..<5 { try terminal.keys("Left") }
        try terminal.type("]")
        try terminal.keys("Enter")
        let fixed = try terminal.wait(for: "1 of 20 matches")
        #expect(fixed.contains("Solaris"))

        // Why row 3 did not match, and the SQL, run on the sample database.
        try terminal.type(":why 3")
        try terminal.keys("Enter")
        let why = try terminal.wait(for: #"title = "Crime and Punishment""#)
        #expect(why.contains(#"✗ title BEGINSWITH[c] "so""#))
        try terminal.type(":sql")
        try terminal.keys("Enter")
        try terminal.wait(for: "SQLite: 1 row, the same as in memory.")

        // An open parenthesis continues on the next line.
        try terminal.type("(year > 1960 AND")
        try terminal.keys("Enter")
        try terminal.wait(for: "...> ")
        try terminal.type("year < 1970)")
        try terminal.keys("Enter")
        try terminal.wait(for: "4 of 20 match")

        // Ctrl-D leaves; the history was saved line by line.
        try terminal.keys("C-d")
        try terminal.waitForExit()
        let saved = try String(contentsOf: history, encoding: .utf8)
        #expect(saved.contains(":why"))
        terminal.stop()

        // A new session recalls the last lines with the arrow keys.
        let again = Terminal(tmux: tmux)
        defer { again.stop() }
        try again.start(command)
        try again.wait(for: "Book> ")
        try again.keys("Up")
        try again.wait(for: "Book> (year > 1960 AND year < 1970)")
        try again.keys("Up")
        try again.wait(for: "Book> :sql")
        try again.keys("Down")
        try again.wait(for: "Book> (year > 1960 AND year < 1970)")
        try again.keys("Enter")
        try again.wait(for: "4 of 20 match")
        try again.type(":sql")
        try again.keys("Enter")
        try again.wait(for: "SQLite: 4 rows, the same as in memory.")
        try again.type(":quit")
        try again.keys("Enter")
        try again.waitForExit()
    }
}
