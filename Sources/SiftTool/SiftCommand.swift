import ArgumentParser
import Foundation
import Sift
import SiftCases

/// The `sift` command.
public struct SiftCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sift",
        abstract: "Parse, print and check Apple's predicate format strings, and run them in SQL.",
        version: SiftVersion.current,
        subcommands: [
            ReplCommand.self, FilterCommand.self, FormatCommand.self, ASTCommand.self, CheckCommand.self, SqlCommand.self, QueryCommand.self,
            SchemaCommand.self,
        ] + ServeCommand.commands
    )

    public init() {}

    /// Runs the command line and exits: 0 on success, 1 when there is no match
    /// or a check fails, 2 on a usage or parse error.
    public static func runMain(_ arguments: [String]? = nil) -> Never {
        if arguments == nil, let invalid = ArgumentBytes.error() {
            Terminal.printError(invalid)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            Foundation.exit(0)
        } catch let code as ExitCode {
            Foundation.exit(code.rawValue)
        } catch let failure as CommandFailure {
            Terminal.printError(failure.description)
            Foundation.exit(2)
        } catch {
            var message = fullMessage(for: error)
            if exitCode(for: error) == .success {
                print(message)
                Foundation.exit(0)
            }
            if let note = dashNote(arguments ?? Array(CommandLine.arguments.dropFirst())) {
                message += "\n" + note
            }
            // Usage errors quote the command line, which may hold anything.
            Terminal.printError(TerminalText.visible(message, keepingLayout: true))
            Foundation.exit(2)
        }
    }
}

extension SiftCommand {
    /// When `arguments` did not parse because one that begins with '-' (a
    /// format such as `-age > 1`) was read as an option, the note saying to
    /// write `--` before it; nil otherwise. The note is given only when the
    /// command line does parse with that word taken as an argument, so a
    /// mistyped option or a bad option value gets none. It shows the whole
    /// corrected command when `--` can go just before the word (no option
    /// follows it), and the order to write otherwise.
    static func dashNote(_ arguments: [String]) -> String? {
        let options = arguments.prefix { $0 != "--" }
        for (i, word) in options.enumerated() where word.hasPrefix("-") && !word.hasPrefix("--") && word != "-" {
            var asArgument = arguments
            // A leading blank keeps the parser from reading it as an option;
            // the format parser skips it.
            asArgument[i] = " " + word
            guard let command = try? parseAsRoot(asArgument) else { continue }
            var corrected = arguments
            corrected.insert("--", at: i)
            // After --, a later option would be taken as an argument.
            let optionFollows = options.dropFirst(i + 1).contains { $0.hasPrefix("-") && $0 != "-" }
            let example = !optionFollows && (try? parseAsRoot(corrected)) != nil
                ? "sift " + corrected.map(shellQuoted).joined(separator: " ")
                : "sift \(type(of: command).configuration.commandName ?? "") [options] -- \(shellQuoted(word)) …"
            return "Note: \(shellQuoted(word)) begins with '-', so it was read as an option; write the options, "
                + "then --, then the arguments: \(example)"
        }
        return nil
    }

    /// `word` as a shell reads it back: as it is when it holds nothing the
    /// shell would act on, else in single quotes.
    private static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./=:,@%+".unicodeScalars.contains($0))
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// Options shared by commands that take one format string.
struct FormatInput: ParsableArguments {
    @Argument(help: """
        The format string, e.g. 'name BEGINSWITH[c] %@ AND age > 30'. One that begins with '-' goes \
        after --, which ends the options: sift format -- '-age > 1'.
        """)
    var format: String

    @Option(name: .customLong("arg"), help: ArgumentHelp(
        "A value (JSON) for the next format specifier (%@, %K, %d…), in order. {\"$date\": S} is a date, {\"$uuid\": \"E621E1F8-…\"} a UUID, {\"$decimal\": \"19.99\"} a decimal, {\"$id\": 3} or {\"$id\": \"x-coredata://…/Author/p3\"} an object.",
        valueName: "json"))
    var arguments: [String] = []

    @Option(name: .customLong("var"), help: ArgumentHelp(
        "Substitute $NAME with a JSON value.", valueName: "NAME=json"))
    var variables: [String] = []

    func validate() throws { _ = try variableValues() }

    /// The `--var`s by name.
    private func variableValues() throws -> [String: Value] {
        var vars: [String: Value] = [:]
        for text in variables {
            guard let eq = text.firstIndex(of: "=") else {
                throw ValidationError("--var \(text): expected NAME=json")
            }
            guard let name = VariableName.parse(String(text[..<eq])) else {
                throw ValidationError("--var \(text): '\(text[..<eq])' is not a variable name; " + VariableName.rule)
            }
            do {
                vars[name] = try CaseValues.value(try JSONValue(parsing: String(text[text.index(after: eq)...])))
            } catch let e as JSONError {
                throw ValidationError("--var \(name): \(e)")
            }
        }
        return vars
    }

    /// Parses the format string, binds `--arg`s and substitutes `--var`s.
    /// Errors are printed with a caret and exit with status 2.
    func filter() throws -> Filter {
        var args: [FormatArgument] = []
        for (i, text) in arguments.enumerated() {
            do {
                args.append(try CaseValues.argument(try JSONValue(parsing: text)))
            } catch let e as JSONError {
                throw ValidationError("--arg #\(i + 1): \(e) (strings need JSON quotes: '\"text\"')")
            }
        }
        let vars = try variableValues()
        do {
            let filter = try Filter(format, arguments: args)
            return vars.isEmpty ? filter : try filter.substituting(vars, allowingUnbound: true)
        } catch {
            Terminal.printError(error.rendered(colors: Terminal.stderrIsTTY))
            throw ExitCode(2)
        }
    }
}

/// The name of a `$VARIABLE` given outside a format string (`--var NAME=…`,
/// the REPL's `:set $NAME = …`).
enum VariableName {
    /// What a name may be, for error messages.
    static let rule = "a letter or '_' first, then letters, digits or '_' (ASCII), as in $NAME"

    /// The variable `text` names (`NAME`, `$NAME` or `$#NAME`), or nil when
    /// a format string could not refer to it: read by the parser itself, so
    /// a name is taken exactly when `$NAME` is a variable in a predicate.
    static func parse(_ text: String) -> String? {
        let source = text.hasPrefix("$") ? text : "$" + text
        guard let node = try? ExpressionNode(format: source), case .variable(let name) = node.kind else { return nil }
        return name
    }
}

struct FormatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "format", abstract: "Print the canonical form (Apple's predicateFormat).",
        discussion: """
            Exits with 2 and a caret under the problem when the format string does not parse.

            Examples:
              sift format 'name beginswith[c] %@ && age >= 18' --arg '"ste"'
              sift format 'date > $SINCE' --var 'SINCE={"$date": 700000000}'
              sift format 'title CONTAINS[c] "x" OR secret == 1' \\
                --allow 'title,year,tags.*'
            """)

    @OptionGroup var input: FormatInput

    @OptionGroup var policy: PolicyOptions

    func run() throws {
        let filter = try input.filter()
        try policy.check(filter)
        print(Terminal.shownOnStandardOutput(filter.format))
    }
}

struct ASTCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ast", abstract: "Print the syntax tree.",
        discussion: """
            Examples:
              sift ast 'ANY authors.name ==[c] "ann" OR year < 1900'
              sift ast 'SUBQUERY(tags, $t, $t.name BEGINSWITH "s").@count > 1'
              sift ast 'price * 1.2 < 100' --json
            """)

    @OptionGroup var input: FormatInput

    @Flag(help: "Print the tree as JSON (its Codable form).")
    var json = false

    func run() throws {
        let filter = try input.filter()
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(filter.predicate)
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(Terminal.shownOnStandardOutput(TreeDump.dump(filter.predicate)))
        }
    }
}

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run conformance cases (JSON Lines), printing one JSON result line per case.",
        discussion: """
            Each input line is {"id", "format", "args"?, "vars"?, "object", "expect"?}. Each output line is \
            {"id", "ok": true, "result", "canonical"} or {"id", "ok": false, "stage": "parse"|"bind"|"eval", "error"}. \
            Exits with 1 if any case differs from its "expect" or "canonical"; a summary goes to stderr.

            Example:
              echo '{"id":"a","format":"age > 30","object":{"age":31},"expect":true}' \\
                | sift check
            """)

    @Argument(help: "Case files (JSON Lines); '-' or none reads standard input.")
    var files: [String] = []

    @Flag(name: .shortAndLong, help: "Print each case that differs from its expectation to stderr.")
    var verbose = false

    func run() throws {
        let runner = CaseRunner()
        var total = 0
        var failed = 0
        for file in files.isEmpty ? ["-"] : files {
            let text: String
            if file == "-" {
                var lines: [String] = []
                while let line = readLine(strippingNewline: true) { lines.append(line) }
                text = lines.joined(separator: "\n")
            } else {
                try InputFile.requireRegular(file)
                do {
                    text = try String(contentsOfFile: file, encoding: .utf8)
                } catch {
                    throw ValidationError("cannot read \(file): \(error.localizedDescription)")
                }
            }
            var number = 0
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                number += 1
                if line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { continue }
                let (outcome, expectation) = runner.run(line: String(line), number: number)
                print(outcome.jsonLine)
                total += 1
                let problems = expectation.mismatches(outcome)
                if !problems.isEmpty || outcome.id.hasPrefix("line ") && !outcome.ok {
                    failed += 1
                    if verbose {
                        Terminal.printError(TerminalText.visible("\(outcome.id): " + problems.joined(separator: "; ")))
                    }
                }
            }
        }
        Terminal.printError("\(total) cases, \(total - failed) as expected, \(failed) differ")
        if failed > 0 { throw ExitCode(1) }
    }
}
