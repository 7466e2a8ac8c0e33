import Foundation
import Sift
import Testing

/// What `sift` tells about itself: its version, its help's examples, the
/// note on formats that begin with '-', and its shell completion scripts.
extension CommandLineTests {
    static let commands = ["repl", "filter", "format", "ast", "check", "sql", "query", "schema"]

    @Test func versionFlag() throws {
        let run = try sift(["--version"])
        #expect(run.status == 0)
        #expect(run.stdout == SiftVersion.current + "\n")
        #expect(run.stderr.isEmpty)
    }

    /// The lines of the "Examples:" block of `help`, up to the blank line
    /// that ends it.
    static func exampleLines(_ help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0 == "Examples:" || $0 == "Example:" }) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    /// At 80 columns, each example in each command's help is whole: a line
    /// starts a command (indented by two) or, after a line ending in `\`,
    /// continues it (indented by four). A line the help wrapped would start
    /// at the margin, in the middle of a command.
    @Test(arguments: commands) func helpExamplesDoNotWrap(command: String) throws {
        let run = try sift([command, "--help"], environment: ["COLUMNS": "80"])
        #expect(run.status == 0)
        var examples: [String] = []
        var continued = false
        for line in Self.exampleLines(run.stdout) {
            if continued {
                #expect(line.hasPrefix("    ") && line.dropFirst(4).first != " ", "continuation: \(line)")
                examples[examples.count - 1] += " " + line.drop { $0 == " " }
            } else {
                #expect(line.hasPrefix("  ") && line.dropFirst(2).first != " ", "command: \(line)")
                examples.append(String(line.dropFirst(2)))
            }
            #expect(line.count <= 78, "\(line.count) columns: \(line)")
            continued = line.hasSuffix(" \\")
            if continued { examples[examples.count - 1].removeLast(2) }
        }
        #expect(!continued, "the last example ends")
        #expect(!examples.isEmpty, "\(command) --help has examples")
        for example in examples { #expect(example.contains("sift \(command)"), "\(example)") }
    }

    @Test func formatThatBeginsWithDash() throws {
        let run = try sift(["format", "--", "-age > 1"])
        #expect(run.status == 0)
        #expect(run.stdout == "-age > 1\n")
        let records = "{\"age\": -3}\n{\"age\": 2}\n"
        #expect(try sift(["filter", "--count", "--", "-age > 1"], input: records).stdout == "1\n")

        // Without --, the format is read as an option; the error says what to write.
        let misread = try sift(["format", "-age > 1"])
        #expect(misread.status == 2)
        #expect(misread.stderr.contains("'-age > 1' begins with '-'"))
        #expect(misread.stderr.contains(": sift format -- '-age > 1'\n"))
        let filter = try sift(["filter", "--count", "-age > 1", "data.json"], input: records)
        #expect(filter.status == 2)
        #expect(filter.stderr.contains(": sift filter --count -- '-age > 1' data.json\n"))
        // An option after the format cannot follow --: the note gives the order.
        let optionAfter = try sift(["filter", "-age > 1", "--count"], input: records)
        #expect(optionAfter.stderr.contains(": sift filter [options] -- '-age > 1' …\n"))
        let quoted = try sift(["format", "-name == 'x'"])
        #expect(quoted.stderr.contains(#"sift format -- '-name == '\''x'\'''"#))
        // A value that is wrong for its option gets no such note.
        let limit = try sift(["filter", "a > 1", "--limit", "-1"], input: records)
        #expect(limit.status == 2)
        #expect(!limit.stderr.contains("begins with '-'"))
        #expect(!(try sift(["format", "a > 1", "-x"])).stderr.contains("begins with '-'"))

        for command in ["format", "ast", "filter", "sql", "query"] {
            let help = try sift([command, "--help"], environment: ["COLUMNS": "200"])
            #expect(help.stdout.contains("sift format -- '-age > 1'"), "\(command) --help")
        }
    }

    @Test func bashCompletionScript() throws {
        let run = try sift(["--generate-completion-script", "bash"])
        #expect(run.status == 0)
        for command in Self.commands { #expect(run.stdout.contains(command)) }
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("sift-completion-\(UUID().uuidString)")
        try Data(run.stdout.utf8).write(to: script)
        defer { try? FileManager.default.removeItem(at: script) }

        // Complete `sift fi` and `sift filter --so` as bash would.
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = [
            "-c",
            """
            source "$1"
            complete_line() {
                COMPREPLY=(); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
                _sift sift "${@: -1}" "${@: -2:1}"; echo "${COMPREPLY[*]}"
            }
            complete_line sift fi
            complete_line sift filter --so
            """,
            "bash", script.path,
        ]
        let output = Pipe()
        bash.standardOutput = output
        try bash.run()
        let completions = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0)
        #expect(completions == "filter\n--sort\n")

        for shell in ["zsh", "fish"] {
            let other = try sift(["--generate-completion-script", shell])
            #expect(other.status == 0)
            #expect(other.stdout.contains("filter"))
        }
    }
}
