#if SIFT_POSTGRES
import Foundation
import PostgresNIO
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// `sift query`, `sift schema` and `sift repl` on a PostgreSQL URL, run as a
/// user runs them against the server of `scripts/postgres.sh run`, in a
/// database of their own (`sift_cli`, made anew). Without `SIFT_POSTGRES`
/// they are skipped, unless `SIFT_REQUIRE_POSTGRES=1` (as `make test` sets).
@Suite(.serialized)
struct PostgresCommandLineTests {
    static let database = "sift_cli"
    /// A password the trust-authenticated server ignores, and which no
    /// output may show.
    static let password = "s3cr3t-pw"

    /// The URL of the suite's database (or of `database`, for another
    /// suite), made anew with its rows, or nil to skip.
    static func library(database: String = database) async throws -> (url: String, connection: PostgresConnection)? {
        guard let server = try await PostgresServer.connect() else { return nil }
        try await PostgresServer.setUp(server, [
            "DROP DATABASE IF EXISTS \(database) WITH (FORCE)", "CREATE DATABASE \(database)",
        ])
        try await server.close()
        let conninfo = try #require(ProcessInfo.processInfo.environment["SIFT_POSTGRES"])
        var configuration = try PostgresConnection.Configuration(connectionString: conninfo)
        configuration.database = database
        let connection = try await PostgresServer.connect(configuration)
        try await PostgresServer.setUp(connection, [
            "CREATE TABLE authors (id bigint PRIMARY KEY, name text NOT NULL, born integer)",
            "CREATE TABLE books (id bigint PRIMARY KEY, title text NOT NULL, year integer, price double precision, "
                + "author_id bigint REFERENCES authors)",
            "CREATE TABLE tags (id bigint PRIMARY KEY, name text NOT NULL)",
            "CREATE TABLE book_tags (book_id bigint REFERENCES books, tag_id bigint REFERENCES tags, "
                + "PRIMARY KEY (book_id, tag_id))",
            "INSERT INTO authors VALUES (1, 'Ursula K. Le Guin', 1929), (2, 'Stanisław Lem', 1921), "
                + "(3, 'Jane Austen', 1775)",
            "INSERT INTO books VALUES (1, 'Solaris', 1961, 8.5, 2), (2, 'The Dispossessed', 1974, 10, 1), "
                + "(3, 'Emma', 1815, 7.25, 3), (4, 'The Left Hand of Darkness', 1969, 9.5, 1), "
                + "(5, 'Anonymous', NULL, NULL, NULL)",
            "INSERT INTO tags VALUES (1, 'sf'), (2, 'classic')",
            "INSERT INTO book_tags VALUES (1, 1), (2, 1), (4, 1), (3, 2), (1, 2)",
        ])
        let host = configuration.host ?? "127.0.0.1"
        let port = configuration.port ?? 5432
        return ("postgresql://postgres:\(password)@\(host):\(port)/\(database)", connection)
    }

    let command = CommandLineTests()

    func sift(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws
        -> CommandLineTests.Run
    {
        let run = try command.sift(arguments, input: input, timeout: 60, environment: environment)
        #expect(!run.stdout.contains(Self.password) && !run.stderr.contains(Self.password), "\(run)")
        return run
    }

    @Test func query() async throws {
        guard let (url, connection) = try await Self.library() else { return }
        defer { PostgresServer.close(connection) }

        let rows = try sift(["query", url, "books", "year > 1900", "--sort", "year DESC"])
        #expect(rows.status == 0, "\(rows.stderr)")
        #expect(rows.stdout == """
            {"id":2,"title":"The Dispossessed","year":1974,"price":10.0,"author_id":1}
            {"id":4,"title":"The Left Hand of Darkness","year":1969,"price":9.5,"author_id":1}
            {"id":1,"title":"Solaris","year":1961,"price":8.5,"author_id":2}

            """)
        // A to-one path, ANY over a many-to-many, BEGINSWITH; limit and offset.
        let paged = try sift([
            "query", url, "Book", "author.name BEGINSWITH[c] %@ OR ANY tags.name == 'classic'", "--arg", #""ursula""#,
            "--sort", "title", "--limit", "2", "--offset", "1", "--output", "json",
        ])
        #expect(paged.status == 0, "\(paged.stderr)")
        #expect(paged.stdout == """
            [
              {"id":1,"title":"Solaris","year":1961,"price":8.5,"author_id":2},
              {"id":2,"title":"The Dispossessed","year":1974,"price":10.0,"author_id":1}
            ]

            """)
        // Off a Core Data store, a row's identifier is its primary key.
        let ids = try sift(["query", url, "books", "year > 1900", "--sort", "year DESC", "--ids"])
        #expect(ids.status == 0 && ids.stdout == "2\n4\n1\n", "\(ids)")
        let count = try sift(["query", url, "authors", "books.@count >= 1 AND name CONTAINS[cd] 'LEM'", "--count"])
        #expect(count.status == 0 && count.stdout == "1\n", "\(count)")
        let table = try sift(["query", url, "books", "year == nil", "--output", "table"])
        #expect(table.stdout == """
            id  title      year  price  author_id
            --  ---------  ----  -----  ---------
             5  Anonymous
            (1 row)

            """, "\(table.stdout)")
        // Grouped through a to-one, a sum and an average of doubles (in
        // key order), CSV; nil is a group of its own (an empty field).
        let grouped = try sift([
            "query", url, "books", "TRUEPREDICATE", "--group-by", "author.name",
            "--select", "author.name, n = count:(SELF), total = sum:(price), mean = average:(price)",
            "--sort", "total DESC", "--output", "csv",
        ])
        #expect(grouped.status == 0, "\(grouped.stderr)")
        #expect(grouped.stdout == """
            author.name,n,total,mean
            Ursula K. Le Guin,2,19.5,9.75
            Stanisław Lem,1,8.5,8.5
            Jane Austen,1,7.25,7.25
            ,1,0,

            """, "\(grouped.stdout)")
        let none = try sift(["query", url, "books", "year > 3000", "--count"])
        #expect(none.status == 1 && none.stdout == "0\n")
        #expect(try sift(["query", url, "books", "year > 3000"]).status == 1)

        // postgres:// too, and what the URL leaves out from libpq's variables.
        let components = try #require(URLComponents(string: url))
        let environment = [
            "PGHOST": components.host ?? "", "PGPORT": "\(components.port ?? 5432)", "PGUSER": "postgres",
            "PGPASSWORD": Self.password, "PGDATABASE": Self.database,
        ]
        let short = try sift(["query", "postgres://", "books", "price < 9", "--count"], environment: environment)
        #expect(short.status == 0 && short.stdout == "2\n", "\(short)")
    }

    @Test func schema() async throws {
        guard let (url, connection) = try await Self.library() else { return }
        defer { PostgresServer.close(connection) }
        let run = try sift(["schema", url])
        #expect(run.status == 0, "\(run.stderr)")
        let printed = try StoreSchema(json: Data(run.stdout.utf8))
        #expect(printed == (try await StoreSchema.read(from: connection)))
        #expect(printed.entities.map(\.name).sorted() == ["authors", "books", "tags"])
        let books = try #require(printed.entity(named: "books"))
        #expect(books.relationships.map(\.name).sorted() == ["author", "tags"])
    }

    /// Each failure is one line on standard error, exit status 2, and
    /// never shows the password.
    @Test func errors() async throws {
        guard let (url, connection) = try await Self.library() else { return }
        defer { PostgresServer.close(connection) }
        let components = try #require(URLComponents(string: url))
        let host = try #require(components.host)
        func failure(_ arguments: [String], _ expected: String, sourceLocation: SourceLocation = #_sourceLocation)
            throws
        {
            let run = try sift(arguments)
            #expect(run.status == 2, "\(run)", sourceLocation: sourceLocation)
            #expect(run.stdout.isEmpty, sourceLocation: sourceLocation)
            #expect(run.stderr.hasPrefix(expected), "\(run.stderr)", sourceLocation: sourceLocation)
            #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
        }
        // Nothing listens on port 1.
        let refused = "postgresql://postgres:\(Self.password)@\(host):1/\(Self.database)"
        try failure(["query", refused, "books", "year > 1"],
                    "error: postgresql://postgres:***@\(host):1/\(Self.database): cannot reach the server: \(host):1: Connection refused\n")
        try failure(["schema", refused], "error: postgresql://postgres:***@\(host):1/\(Self.database): cannot reach")
        let port = components.port ?? 5432
        try failure(["query", "postgresql://nobody:\(Self.password)@\(host):\(port)/\(Self.database)", "books", "TRUEPREDICATE"],
                    #"error: postgresql://nobody:***@\#(host):\#(port)/\#(Self.database): role "nobody" does not exist [28000]"#)
        try failure(["schema", "postgresql://postgres:\(Self.password)@\(host):\(port)/nothing_here"],
                    #"error: postgresql://postgres:***@\#(host):\#(port)/nothing_here: database "nothing_here" does not exist [3D000]"#)
        try failure(["query", url, "Novel", "year > 1"], "error: unknown entity Novel; the schema has authors, books, tags")
        try failure(["query", "postgresql://postgres:\(Self.password)@[oops/db", "books", "TRUEPREDICATE"],
                    "error: postgresql://postgres:***@[oops/db: not a PostgreSQL URL: postgresql://postgres:***@[oops/db")
        try failure(["query", url + "?sslmode=require", "books", "TRUEPREDICATE"],
                    "error: postgresql://postgres:***@\(host):\(port)/\(Self.database)?sslmode=require: sslmode in the connection string is not supported")
        // A key that is not the entity's is caught before anything runs.
        let unknownKey = try sift(["query", url, "books", "yeer > 1"])
        #expect(unknownKey.status == 2 && unknownKey.stderr.contains("yeer"), "\(unknownKey)")
    }

    /// The REPL on the server, its input piped: predicates, `:sql` with the
    /// bound values, `:use`, `:schema`, and `:why` refused.
    @Test func replPiped() async throws {
        guard let (url, connection) = try await Self.library() else { return }
        defer { PostgresServer.close(connection) }
        let session = """
            year > 1960 AND author.name BEGINSWITH 'Ursula'
            :sql
            :why 1
            :use authors
            :sort born DESC
            :limit 1
            books.@count > 0
            :schema
            title ==
            """
        let run = try sift(["repl", url, "--use", "books", "--history", "none"], input: session)
        #expect(run.status == 0, "\(run)")
        let out = run.stdout
        #expect(out.contains("The Dispossessed") && out.contains("The Left Hand of Darkness") && !out.contains("Solaris"))
        #expect(out.contains("2 matches ("))
        #expect(out.contains(#"FROM "books" t0 WHERE t0."year" > $1 AND "#))
        #expect(out.contains("-- $1 = 1960\n"))
        #expect(out.contains("-- $2 = 'Ursula'") || out.contains("'Ursula"), "\(out)")
        #expect(out.contains("Ursula K. Le Guin") && !out.contains("Jane Austen"))
        #expect(out.contains("3 matches (") && out.contains("limit 1"))
        #expect(out.contains("books (table books)") && out.contains("author → authors (to-one"))
        #expect(run.stderr.contains(":why evaluates rows in memory"))
        #expect(run.stderr.contains("^"))
    }

    /// In a terminal: a predicate waiting on a lock is cancelled on the
    /// server by Ctrl-C, and the session goes on.
    @Test func replCancelsAStatementOnCtrlC() async throws {
        guard let tmux = ReplTerminalTests.tmuxPath else {
            if ProcessInfo.processInfo.environment["SIFT_REQUIRE_TMUX"] == "1" {
                Issue.record("tmux is required (SIFT_REQUIRE_TMUX=1) but not installed")
            }
            return
        }
        guard let (url, connection) = try await Self.library() else { return }
        defer { PostgresServer.close(connection) }
        let binary = try #require(CommandLineTests.binary, "build the sift product first (swift build)")
        let terminal = ReplTerminalTests.Terminal(tmux: tmux)
        defer { terminal.stop() }
        try terminal.start("env NO_COLOR=1 TERM=xterm LANG=C.UTF-8 \(binary.path) repl --history none --use books '\(url)'")
        let banner = try terminal.wait(for: "books> ")
        #expect(!banner.contains(Self.password))
        #expect(banner.contains("postgresql://postgres:***@"))

        // Another session holds the table: the fetch waits for it.
        _ = try await connection.rows(BoundStatement(sql: "BEGIN", bindings: []))
        _ = try await connection.rows(BoundStatement(sql: "LOCK TABLE books IN ACCESS EXCLUSIVE MODE", bindings: []))
        try terminal.type("title BEGINSWITH 'S'")
        try terminal.keys("Enter")
        // Ctrl-C once the statement waits for the lock (seen from another
        // session: a transaction sees pg_stat_activity as it first read it).
        let observer = try #require(try await PostgresServer.connect())
        defer { PostgresServer.close(observer) }
        let waiting = BoundStatement(
            sql: "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = $1",
            bindings: [.text(Self.database)])
        let deadline = Date().addingTimeInterval(10)
        while try await observer.rows(waiting).first?.first != .integer(1), Date() < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        try terminal.keys("C-c")
        try terminal.wait(for: "canceling statement due to user request [57014]")
        _ = try await connection.rows(BoundStatement(sql: "ROLLBACK", bindings: []))
        try terminal.wait(for: "books> ", count: 2)
        try terminal.type("title BEGINSWITH 'S'")
        try terminal.keys("Enter")
        let after = try terminal.wait(for: "1 match (")
        #expect(after.contains("Solaris"))
        try terminal.keys("C-d")
        try terminal.waitForExit()
    }
}
#endif
