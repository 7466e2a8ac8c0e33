import Foundation
import Sift
import Testing

/// What `sift` tells about itself: its version, its help's examples, and the
/// note on formats that begin with '-'.
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
}
