import Foundation
import Sift
import Testing

/// What `sift` tells about itself: its version and its help's examples.
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
}
