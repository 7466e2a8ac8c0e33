import Testing

import SiftCatalog

/// The one rule that takes passwords out of text before it is shown
/// (`Credentials.masked`): in any message the `sift` tool prints, and in a
/// whole connection string (SiftPostgres's `PostgresConnectionString.redacted`).
struct CredentialRuleTests {
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

    /// A whole connection string: `password=` is masked without another
    /// key beside it, and the URL and query rules are the same.
    @Test(arguments: [
        ("password=S3cr3t", "password=***"),
        ("password='S3 cr\\'t' dbname=x", "password=*** dbname=x"),
        ("host=h PASSWORD=S3cr3t", "host=h PASSWORD=***"),
        ("postgresql://ann:pa?ss@w0rd@h:1/lib", "postgresql://ann:***@h:1/lib"),
        ("postgresql://ann:s%40cret@h/db?sslmode=x&password=p", "postgresql://ann:***@h/db?sslmode=x&password=***"),
        ("postgresql://ann@h/db", "postgresql://ann@h/db"),
        ("mypassword=x dbname=y", "mypassword=x dbname=y"),
    ])
    func maskedConnectionString(_ text: String, _ expected: String) {
        #expect(Credentials.masked(text, connectionString: true) == expected)
    }
}
