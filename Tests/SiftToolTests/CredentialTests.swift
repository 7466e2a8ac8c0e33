import Foundation
import Testing

@testable import SiftTool

/// No password reaches an error message: URLs and libpq strings taken as
/// file names, schemas or servers, with `?`, `@` and blanks in them.
struct CredentialTests {
    @Test(arguments: [
        ("no such file: postgresql://ann:S3cr3tPW!@h:1/lib", "no such file: postgresql://ann:***@h:1/lib"),
        ("postgres://ann:pa?ss@w0rd@h/db: refused", "postgres://ann:***@h/db: refused"),
        ("no such file: host=h user=ann password=S3cr3tPW! dbname=x", "no such file: host=h user=ann password=*** dbname=x"),
        ("x: host=h password='S3 cr\\'t' dbname=x", "x: host=h password=*** dbname=x"),
        ("host=h PASSWORD = hunter2", "host=h PASSWORD = ***"),
        ("no such file: postgresql://u@h/db?sslmode=x&password=s3cret&x=1", "no such file: postgresql://u@h/db?sslmode=x&password=***&x=1"),
        ("postgres://u@h/db?password=s3cret", "postgres://u@h/db?password=***"),
        (" | password = 'abc' AND", " | password = 'abc' AND"),
        (" | password == 'abc'", " | password == 'abc'"),
        ("no password here: postgresql://ann@h/db, mypassword=", "no password here: postgresql://ann@h/db, mypassword="),
    ])
    func masked(_ text: String, _ expected: String) {
        #expect(Credentials.masked(text) == expected)
    }

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
