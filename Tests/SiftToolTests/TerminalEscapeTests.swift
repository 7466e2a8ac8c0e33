import Foundation
import GRDB
import Sift
import Testing

@testable import SiftTool

#if os(Linux)
    // glibc declares these only for _XOPEN_SOURCE, which its module does not set.
    @_silgen_name("posix_openpt") private func posix_openpt(_ flags: Int32) -> Int32
    @_silgen_name("grantpt") private func grantpt(_ fd: Int32) -> Int32
    @_silgen_name("unlockpt") private func unlockpt(_ fd: Int32) -> Int32
    @_silgen_name("ptsname_r") private func ptsname_r(_ fd: Int32, _ name: UnsafeMutablePointer<CChar>, _ size: Int) -> Int32
#endif

/// Characters from data that a terminal acts on (ESC, BEL, CR, backspace,
/// C1 controls, bidirectional overrides…) are shown as escapes in every
/// output meant to be read; JSON output stays exact.
extension CommandLineTests {
    /// The characters of `text` a terminal would act on or hide (a line
    /// feed aside), listed independently of the code under test.
    static func hidden(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { s in
            let v = s.value
            return (v < 0x20 && s != "\n") || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
                || (0x2066...0x2069).contains(v) || v == 0x2028 || v == 0x2029 || v == 0x200B || v == 0xFEFF
        }
    }

    /// A record that would write the clipboard (OSC 52), and others with a
    /// carriage return, a backspace, a right-to-left override, C1 controls.
    static let hostileRecords = """
        {"name":"a\\u001b]52;c;aGk=\\u0007b","note":"x\\ry\\bz\\u202eq"}
        {"name":"ok","note":"\\u0085\\u2028é\\u009b2J"}
        """

    @Test func filterTablesShowControlCharactersAsEscapes() throws {
        let table = try sift(["filter", "TRUEPREDICATE", "--output", "table"], input: Self.hostileRecords)
        #expect(table.status == 0)
        #expect(Self.hidden(table.stdout).isEmpty)
        // Columns are as wide as the escapes shown.
        #expect(table.stdout == #"""
            name                     note
            -----------------------  -----------------------
            a\u{1B}]52;c;aGk=\u{7}b  x\u{D}y\u{8}z\u{202E}q
            ok                       \u{85}\u{2028}é\u{9B}2J
            (2 rows)

            """#)
        // JSON Lines keep the data exactly: the records as they were read.
        let jsonl = try sift(["filter", "TRUEPREDICATE"], input: Self.hostileRecords)
        #expect(jsonl.stdout == Self.hostileRecords + "\n")
    }

    @Test func queryTablesAndSQLCommentsShowControlCharactersAsEscapes() throws {
        let path = Self.temporaryPath("escapes.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            try db.execute(sql: "INSERT INTO notes VALUES (1, ?)", arguments: ["\u{1B}]0;owned\u{07}hi\u{202E}"])
        }
        try queue.close()
        let table = try sift(["query", path, "notes", "id > 0", "--output", "table"])
        #expect(table.status == 0)
        #expect(table.stdout == #"""
            id  body
            --  -----------------------------
             1  \u{1B}]0;owned\u{7}hi\u{202E}
            (1 row)

            """#)

        let sql = try sift(["sql", "body == %@", "--arg", #""\u001b[2J\u0007a\nb\u202e""#, "--schema", path])
        #expect(sql.status == 0)
        #expect(Self.hidden(sql.stdout).isEmpty)
        // One comment line, whatever the value holds.
        #expect(sql.stdout.hasSuffix(#"-- ?1 = '\u{1B}[2J\u{7}a\u{A}b\u{202E}'"# + "\n"))
    }

    @Test func errorMessagesShowControlCharactersAsEscapes() throws {
        let missing = try sift(["filter", "a == 1", "/no/such/\u{1B}[2Jfile"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: no such file: /no/such/\\u{1B}[2Jfile\n")
        let parse = try sift(["format", "a == \"\u{1B}]52;c;eA==\u{07}"])
        #expect(parse.status == 2)
        #expect(parse.stderr == #"""
            error: unterminated string: no closing " (column 6)
             | a == "\u{1B}]52;c;eA==\u{7}
             |      ^~~~~~~~~~~~~~~~~~~~~~

            """#)
        let usage = try sift(["format", "a == 1", "--x\u{1B}[2J"])
        #expect(usage.status == 2)
        #expect(usage.stderr.hasPrefix(#"Error: Unknown option '--x\u{1B}[2J'"#))
        let record = try sift(["filter", "name > 1"], input: Self.hostileRecords)
        #expect(record.status == 2)
        #expect(Self.hidden(record.stderr).isEmpty)
        let check = try sift(
            ["check", "-v", "-"], input: #"{"id":"\u001b[2J","format":"1 == 1","object":{},"expect":false}"#)
        #expect(check.status == 1)
        #expect(check.stderr.hasPrefix(#"\u{1B}[2J: "#))
        // Its JSON result line keeps the id exactly.
        #expect(check.stdout.hasPrefix(#"{"id":"\u001b[2J","#))
    }

    /// `format` and `ast` print text that is used again: exact into a pipe,
    /// escaped on a terminal.
    @Test func formatAndASTEscapeOnATerminalOnly() throws {
        let arguments = ["%K == %@", "--arg", #""k\u001b[2J""#, "--arg", #""v\u202e\u009b""#]
        let piped = try sift(["format"] + arguments)
        #expect(piped.stdout == "k\u{1B}[2J == \"v\u{202E}\u{9B}\"\n")
        let format = try siftOnTerminal(["format"] + arguments)
        #expect(format == #"k\u{1B}[2J == "v\u{202E}\u{9B}""# + "\n")
        let ast = try siftOnTerminal(["ast"] + arguments)
        #expect(Self.hidden(ast).isEmpty)
        #expect(ast.contains(#"keyPath k\u{1B}[2J"#))
        #expect(ast.contains(#"constant "v\u{202E}\u{9B}""#))
        // A tab in a string prints raw, as Apple prints it, and a line feed
        // as \n: into a pipe exactly that; on a terminal the tab shows as
        // an escape, in the one-line format and in the tree alike.
        let tab = ["a == %@", "--arg", #""x\ty\nz""#]
        #expect(try sift(["format"] + tab).stdout == "a == \"x\ty\\nz\"\n")
        #expect(try siftOnTerminal(["format"] + tab) == #"a == "x\u{9}y\nz""# + "\n")
        let tabTree = try siftOnTerminal(["ast"] + tab)
        #expect(Self.hidden(tabTree).isEmpty)
        #expect(tabTree.contains(#"constant "x\u{9}y\nz""#))
    }

    /// Runs `sift` with its standard output on a pseudo-terminal and returns
    /// what it printed there (line ends as `\n`).
    func siftOnTerminal(_ arguments: [String]) throws -> String {
        let binary = try #require(Self.binary, "build the sift product first (swift build)")
        let master = posix_openpt(O_RDWR | O_NOCTTY)
        #expect(master >= 0)
        defer { close(master) }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        var name = [CChar](repeating: 0, count: 128)
        #expect(grantpt(master) == 0 && unlockpt(master) == 0 && ptsname_r(master, &name, name.count) == 0)
        let path = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let terminal = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC)
        try #require(terminal >= 0)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle(fileDescriptor: terminal, closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        close(terminal)
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }
            output += buffer[..<n]
        }
        return String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
    }
}

/// The REPL shows data and input with escapes for what a terminal acts on.
extension ReplSessionTests {
    @Test func replShowsControlCharactersAsEscapes() throws {
        let records = try CommandLineTests.hostileRecords.split(separator: "\n").map { try JSONValue(parsing: String($0)) }
        let dataset = Dataset(
            origin: "x\u{1B}[2J.json", collections: [Dataset.collection(name: "n\u{202E}otes", records: records)],
            schema: nil, database: nil)
        let s = ReplSession(dataset: dataset, width: 200)
        var outputs = [s.banner, s.prompt]
        for input in [
            "TRUEPREDICATE", ":why 1 name == 'a\\u001b]52;c;aGk=\\u0007b' AND note != 'x\\u009b'", ":schema",
            ":set $X = 'a\\u202eb'", ":set", ":args 'k\\u2066', 2", ":format note == 'x\\u0085'",
            ":ast note == 'x\\u0085'", ":format note == 'a\\tb'", ":ast note == 'a\\tb'", ":use a\u{1B}[2J",
            ":load /no/such/\u{1B}[2J", "name == 'x\\u001b' AND", ":unknown\u{7}",
        ] {
            let reply = s.handle(input)
            outputs.append(reply.output)
        }
        for output in outputs { #expect(CommandLineTests.hidden(output).isEmpty, "\(output)") }
        let table = s.handle("TRUEPREDICATE").output
        #expect(table.contains(#"a\u{1B}]52;c;aGk=\u{7}b  x\u{D}y\u{8}z\u{202E}q"#))
        // The value prints as Apple prints it, ESC and BEL raw, which the
        // REPL then shows as escapes.
        #expect(s.handle(":why 1 name != nil").output.contains(#"name = "a\u{1B}]52;c;aGk=\u{7}b""#))
        #expect(s.prompt == #"n\u{202E}otes> "#)

        // :sql on the sample: the bound value is shown, escaped, on its line.
        let sample = try Self.session()
        sample.handle(":args '\\u001b[2J\\u0085'").expectOK()
        let sql = sample.handle(":sql title == %@").output
        #expect(CommandLineTests.hidden(sql).isEmpty)
        #expect(sql.contains(#"-- ?1 = '\u{1B}[2J\u{85}'"#))
    }
}
