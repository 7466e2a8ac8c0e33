import Foundation
import Testing

/// The `sift` executable, run as a user runs it.
struct CommandLineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var binary: URL? {
        for config in ["debug", "release"] {
            let url = root.appendingPathComponent(".build/\(config)/sift")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func sift(
        _ arguments: [String], input: String = "", timeout: Double? = nil, launcher: [String] = [],
        environment: [String: String] = [:]
    ) throws -> Run {
        try sift(arguments, bytes: Data(input.utf8), timeout: timeout, launcher: launcher, environment: environment)
    }

    /// Runs `sift` with `bytes` on standard input and waits for it. The
    /// bytes are read from a file, so a command that stops reading early
    /// neither blocks the test nor ends it with SIGPIPE. After `timeout`
    /// seconds the process is killed (its status is then SIGKILL's number,
    /// 9), so a command that hangs fails its test instead of stopping the
    /// suite. With a `launcher` (a program and its arguments, such as
    /// `setpriv` dropping privileges), runs that with the path of `sift`
    /// and `arguments` appended. `environment` adds to (or overrides) the
    /// test's own environment variables.
    func sift(
        _ arguments: [String], bytes: Data, timeout: Double? = nil, launcher: [String] = [],
        environment: [String: String] = [:]
    ) throws -> Run {
        let binary = try #require(Self.binary, "build the sift product first (swift build)")
        let input = FileManager.default.temporaryDirectory.appendingPathComponent("sift-stdin-\(UUID().uuidString)")
        try bytes.write(to: input)
        defer { try? FileManager.default.removeItem(at: input) }
        let process = Process()
        if let program = launcher.first {
            process.executableURL = URL(fileURLWithPath: program)
            process.arguments = launcher.dropFirst() + [binary.path] + arguments
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: input)
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        if let timeout { DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog) }
        defer { watchdog.cancel() }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    @Test func format() throws {
        let ok = try sift(["format", "name beginswith[c] %@ AND age > %d", "--arg", #""ste""#, "--arg", "30"])
        #expect(ok.status == 0)
        #expect(ok.stdout == "name BEGINSWITH[c] \"ste\" AND age > 30\n")
        let bad = try sift(["format", "age == (1"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("^"))
        #expect(try sift(["format"]).status == 2)
        #expect(try sift(["--help"]).status == 0)
    }

    @Test func filter() throws {
        let records = """
            {"name":"Ann","age":31}
            {"name":"bob","age":20}

            {"name":"Cid","age":45}
            """
        let hits = try sift(["filter", "age > 30"], input: records)
        #expect(hits.status == 0)
        #expect(hits.stdout == "{\"name\":\"Ann\",\"age\":31}\n{\"name\":\"Cid\",\"age\":45}\n")
        let sorted = try sift(["filter", "age > 0", "--sort", "age DESC", "--limit", "2"], input: records)
        #expect(sorted.stdout == "{\"name\":\"Cid\",\"age\":45}\n{\"name\":\"Ann\",\"age\":31}\n")
        #expect(try sift(["filter", "age > 0", "--count"], input: records).stdout == "3\n")
        #expect(try sift(["filter", "age > 99"], input: records).status == 1)
        let array = try sift(["filter", "a == %@", "--arg", "2"], input: #"[{"a":1},{"a":2}]"#)
        #expect(array.stdout == "{\"a\":2}\n")
        let error = try sift(["filter", "name < 5"], input: records)
        #expect(error.status == 2)
        #expect(error.stderr.contains("line 1: error: cannot compare a string with an integer"))
        #expect(try sift(["filter", "a == 1"], input: "{not json").status == 2)
    }

    /// At a record that cannot be read or evaluated, the matches before it
    /// are printed (stop) or the record is skipped and named (skip).
    @Test func filterAtABadRecord() throws {
        let records = "{\"a\":1}\n{\"a\":2}\n{\"a\":\"x\"}\n{\"a\":3}\n{\"a\":\n{\"a\":4}\n"
        let stop = try sift(["filter", "a > 0"], input: records)
        #expect(stop.status == 2)
        #expect(stop.stdout == "{\"a\":1}\n{\"a\":2}\n")
        #expect(stop.stderr.contains("line 3: error: cannot compare a string with an integer"))
        let table = try sift(["filter", "a > 0", "--output", "table"], input: records)
        #expect(table.status == 2)
        #expect(table.stdout == "a\n-\n1\n2\n(2 rows)\n")
        let json = try sift(["filter", "a > 0", "--output", "json"], input: records)
        #expect(json.stdout == "[\n  {\"a\":1},\n  {\"a\":2}\n")  // left open: not the whole answer
        let sorted = try sift(["filter", "a > 0", "--sort", "a"], input: records)
        #expect(sorted.status == 2 && sorted.stdout.isEmpty)

        let skip = try sift(["filter", "a > 0", "--on-error", "skip"], input: records)
        #expect(skip.status == 0)
        #expect(skip.stdout == "{\"a\":1}\n{\"a\":2}\n{\"a\":3}\n{\"a\":4}\n")
        #expect(skip.stderr == """
            skipped: line 3: cannot compare a string with an integer (1:1)
            skipped: invalid JSON at line 5, column 6: unexpected end of JSON
            skipped 2 records (--on-error skip)

            """)
        #expect(try sift(["filter", "a > 0", "--on-error", "skip", "--count"], input: records).stdout == "4\n")
        let array = try sift(["filter", "a > 0", "--on-error", "skip"], input: #"[{"a":1},{"a":"x"},{"a":5}]"#)
        #expect(array.stdout == "{\"a\":1}\n{\"a\":5}\n")
        #expect(array.stderr.hasPrefix("skipped: record 2 (line 1): cannot compare"))

        // A line over --max-record-size is dropped without being kept.
        let long = "{\"a\":1}\n{\"a\":\"" + String(repeating: "x", count: 300_000) + "\"}\n{\"a\":5}\n"
        let skipLong = try sift(["filter", "a > 0", "--max-record-size", "100", "--on-error", "skip"], input: long)
        #expect(skipLong.stdout == "{\"a\":1}\n{\"a\":5}\n")
        #expect(skipLong.stderr.hasPrefix("skipped: the record at line 2 is longer than the limit of 100 bytes"))
        let stopLong = try sift(["filter", "a > 0", "--max-record-size", "100"], input: long)
        #expect(stopLong.status == 2 && stopLong.stdout == "{\"a\":1}\n")
    }

    /// The example of --on-error skip in Documentation/CLI.md, as written
    /// there.
    @Test func readmeOnErrorExample() throws {
        let run = try sift(["filter", "a > 0", "--on-error", "skip"], input: "{\"a\":1}\n{\"a\":\"x\"}\n{\"a\":2}\n")
        #expect(run.stdout == "{\"a\":1}\n{\"a\":2}\n")
        #expect(run.stderr == """
            skipped: line 2: cannot compare a string with an integer (1:1)
            skipped 1 record (--on-error skip)

            """)
    }

    /// A variable without a value is an error before any record is read
    /// (here, before the missing file is opened).
    @Test func filterChecksVariablesFirst() throws {
        let unbound = try sift(["filter", "a > $m AND b == $LIMIT", "/no/such/file.jsonl"])
        #expect(unbound.status == 2)
        #expect(unbound.stderr.contains("no value for the variable $m"))
        #expect(unbound.stderr.contains("note: give a value with --var LIMIT=JSON --var m=JSON"))
        let bound = try sift(["filter", "a > $m", "--var", "m=1"], input: "{\"a\":2}\n")
        #expect(bound.stdout == "{\"a\":2}\n")
    }

    @Test func check() throws {
        let cases = """
            {"id":"a","format":"age > 3","object":{"age":5},"expect":true}
            {"id":"b","format":"age >","object":{},"expect":"parse_error"}
            """
        let run = try sift(["check", "-"], input: cases)
        #expect(run.status == 0)
        #expect(run.stdout == """
            {"id":"a","ok":true,"result":true,"canonical":"age > 3"}
            {"id":"b","ok":false,"stage":"parse","error":"expected an expression after '>', found the end of the input (1:6)"}

            """)
        let failing = try sift(["check", "-"], input: #"{"id":"c","format":"1 == 1","object":{},"expect":false}"#)
        #expect(failing.status == 1)
    }

    @Test func filterOutputsAndInputErrors() throws {
        let records = """
            {"name":"Ann","age":31,"tags":["x","y"],"address":{"city":"Oslo"}}
            {"name":"Bob","age":20}
            {"name":"Zoë","age":47.5}
            """
        let table = try sift(["filter", "age > 30", "--output", "table"], input: records)
        #expect(table.status == 0)
        #expect(table.stdout == """
            name   age  tags  address
            ----  ----  ----  -------
            Ann     31  x, y  Oslo
            Zoë   47.5
            (2 rows)

            """)
        let json = try sift(["filter", "age > 30", "--output", "json"], input: records)
        #expect(json.stdout == "[\n  " + #"{"name":"Ann","age":31,"tags":["x","y"],"address":{"city":"Oslo"}}"#
            + ",\n  " + #"{"name":"Zoë","age":47.5}"# + "\n]\n")
        let none = try sift(["filter", "age > 99", "--output", "json"], input: records)
        #expect(none.status == 1)
        #expect(none.stdout == "[]\n")

        let broken = try sift(["filter", "age > 1"], input: "{\"age\": 1}\n{\"age\": 2,}\n")
        #expect(broken.status == 2)
        #expect(broken.stderr.contains("invalid JSON at line 2, column 11"))
        #expect(!broken.stderr.contains("Usage"))
        let array = try sift(["filter", "age > 1"], input: "[{\"age\": 1},\n {\"age\": }]")
        #expect(array.stderr.contains("invalid JSON at line 2, column 10"))
        let missing = try sift(["filter", "age > 1", "/no/such/file.jsonl"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file: /no/such/file.jsonl"))
    }
}
