import Foundation
import Testing

@testable import SiftTool

/// `--var` names, run through the binary, and the REPL's `:set`.
extension CommandLineTests {
    /// A `--var` name is a `$VARIABLE` as the parser reads one; anything
    /// else is refused, naming the option and the value.
    @Test func variableNamesAreCheckedAsTheParserReadsThem() throws {
        for (arguments, output) in [
            (["$N > 1", "--var", "N=2"], "2 > 1\n"),
            (["$N > 1", "--var", "$N=2"], "2 > 1\n"),
            (["$IN > 1", "--var", "$#IN=2"], "2 > 1\n"),
            (["$_a9 > 1", "--var", "_a9=2"], "2 > 1\n"),
        ] {
            let run = try sift(["format"] + arguments)
            #expect(run.status == 0, "\(arguments)")
            #expect(run.stdout == output, "\(arguments)")
        }
        // The lexer takes ASCII names only: `$é` is not a variable, so
        // `--var é=1` could never be used.
        for (value, shown) in [
            ("=1", "=1"), ("$=1", "$=1"), ("é=1", "é=1"), ("9a=1", "9a=1"), ("a b=1", "a b=1"), ("a.b=1", "a.b=1"),
            ("$$a=1", "$$a=1"), ("a\u{1B}=1", "a\\u{1B}=1"),
        ] {
            let run = try sift(["format", "$a == 1", "--var", value])
            #expect(run.status == 2, "\(value)")
            let name = shown.prefix { $0 != "=" }
            #expect(run.stderr.hasPrefix("Error: --var \(shown): '\(name)' is not a variable name"), "\(run.stderr)")
        }
        #expect(try sift(["sql", "$a == 1", "--var", "é=1", "--schema", "/no/such/file"]).stderr.contains("--var é=1"))
    }

    @Test func replSetTakesTheNamesPredicatesCanUse() throws {
        let s = try ReplSessionTests.session()
        let reply = s.handle(":set $é = 1")
        #expect(reply.isError)
        #expect(reply.output == "error: '$é' is not a variable name: a letter or '_' first, then letters, digits or '_' (ASCII), as in $NAME")
        #expect(s.handle(":set $#IN = 3").output == "$IN = 3")
        #expect(s.handle(":set").output == "$IN = 3")
    }
}
