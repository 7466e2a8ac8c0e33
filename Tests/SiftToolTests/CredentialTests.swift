import Foundation
import Testing

@testable import SiftTool

/// No password reaches an error message: URLs and libpq strings taken as
/// file names, schemas or servers, with `?`, `@` and blanks in them (the
/// rule that masks them: SiftCatalogTests' CredentialRuleTests).
struct CredentialTests {
    @Test func noCommandPrintsAPassword() throws {
        let runner = CommandLineTests()
        let url = "postgresql://ann:S3cr3tPW!@h:1/lib"
        let libpq = "host=h user=ann password=S3cr3tPW! dbname=x"
        for arguments in [
            ["sql", "id > 1", "--schema", url, "--entity", "books"],
            ["query", "postgresql://ann:S3cr3tPW!@127.0.0.1:1/lib", "books", "id > 1", "--schema", url],
            ["query", "postgresql://ann:S3cr3tPW!@127.0.0.1:1/lib", "books", "id > 1"],
            ["filter", "a > 1", url], ["check", url], ["filter", "a > 1", libpq],
            ["sql", "id > 1", "--schema", "postgresql://ann:pa?ss@h:1/lib", "--entity", "books"],
        ] {
            let run = try runner.sift(arguments, timeout: 60)
            #expect(run.status == 2, "\(arguments)")
            #expect(!run.stderr.contains("S3cr3tPW") && !run.stderr.contains("pa?ss"), "\(run.stderr)")
            #expect(run.stderr.contains("***"), "\(run.stderr)")
        }
        let repl = try runner.sift(["repl", "--history", "none"], input: ":load \(url)\n", timeout: 60)
        #expect(!(repl.stdout + repl.stderr).contains("S3cr3tPW"), "\(repl.stdout)\(repl.stderr)")
    }
}
