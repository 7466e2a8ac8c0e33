import Foundation
import Testing

/// `--allow`, run through the binary.
extension CommandLineTests {
    /// `--allow` holds the predicate and the sort keys to
    /// `PredicatePolicy.untrusted(keyPaths:)`.
    @Test func allowRefusesWhatThePolicyRefuses() throws {
        let allowed = try sift(["format", "title BEGINSWITH[c] 'a' AND ANY tags.name == 'x'", "--allow", "title, tags.*"])
        #expect(allowed.status == 0)
        #expect(allowed.stdout == "title BEGINSWITH[c] \"a\" AND ANY tags.name == \"x\"\n")

        let secret = try sift(["format", "title == 'a' OR secret == 1", "--allow", "title,year"])
        #expect(secret.status == 2)
        #expect(secret.stdout.isEmpty)
        #expect(secret.stderr == """
            error: the key path secret is not allowed (column 17)
             | title == 'a' OR secret == 1
             |                 ^~~~~~

            """)
        // Repeated --allow add up; %K is checked once bound.
        #expect(try sift(["format", "%K == 1 AND year > 2", "--arg", #""title""#, "--allow", "title", "--allow", "year"])
            .status == 0)
        #expect(try sift(["format", "%K == 1", "--arg", #""secret""#, "--allow", "title"]).stderr
            .hasPrefix("error: the key path secret is not allowed (column 1)"))
        // What an untrusted predicate may not use, whatever the key paths.
        for (format, message) in [
            ("title MATCHES 'a.*'", "the operator MATCHES is not allowed"),
            ("title == $T", "the variable $T is not allowed"),
            ("SUBQUERY(tags, $t, $t.name == 'a').@count > 0", "SUBQUERY is not allowed"),
        ] {
            let run = try sift(["format", format, "--allow", "title,tags.*"])
            #expect(run.status == 2, "\(format)")
            #expect(run.stderr.hasPrefix("error: " + message), "\(run.stderr)")
        }
        // A --var substituted first is a constant, not a variable.
        #expect(try sift(["format", "title == $T", "--var", #"T="x""#, "--allow", "title"]).status == 0)
        // An empty entry is a mistake; an empty list allows no key path.
        let empty = try sift(["format", "title == 1", "--allow", "title,,year"])
        #expect(empty.status == 2)
        #expect(empty.stderr.hasPrefix("Error: --allow title,,year: empty key path in the list"))
        #expect(try sift(["format", "1 == 1", "--allow", ""]).status == 0)
        #expect(try sift(["format", "title == 1", "--allow", ""]).status == 2)
    }

    @Test func allowChecksFilterAndQuerySortKeys() throws {
        let records = """
            {"title":"b","year":2,"salary":9}
            {"title":"a","year":1,"salary":7}
            """
        let sorted = try sift(["filter", "year > 0", "--sort", "title", "--allow", "title,year"], input: records)
        #expect(sorted.status == 0)
        #expect(sorted.stdout == "{\"title\":\"a\",\"year\":1,\"salary\":7}\n{\"title\":\"b\",\"year\":2,\"salary\":9}\n")
        // Sorting by a key reveals its order: refused, pointed at in --sort.
        let bySalary = try sift(["filter", "year > 0", "--sort", "year DESC,  salary", "--allow", "title,year"], input: records)
        #expect(bySalary.status == 2)
        #expect(bySalary.stdout.isEmpty)
        #expect(bySalary.stderr == """
            error: the key path salary is not allowed (column 13)
             | year DESC,  salary
             |             ^~~~~~

            """)
        let where_ = try sift(["filter", "salary > 8", "--allow", "title,year"], input: records)
        #expect(where_.status == 2)
        #expect(where_.stderr.hasPrefix("error: the key path salary is not allowed (column 1)"))

        let store = try Self.coreDataStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let ok = try sift(["query", store, "Book", "ANY tags.name == 'sf'", "--sort", "title", "--allow", "title,tags.*"])
        #expect(ok.status == 0)
        #expect(ok.stdout.contains("Dune"))
        let byYear = try sift(["query", store, "Book", "title != nil", "--sort", "year", "--allow", "title"])
        #expect(byYear.status == 2)
        #expect(byYear.stderr == "error: the key path year is not allowed (column 1)\n | year\n | ^~~~\n")
        let author = try sift(["query", store, "Book", "author.name == 'Ann'", "--allow", "title"])
        #expect(author.status == 2)
        #expect(author.stderr.hasPrefix("error: the key path author.name is not allowed (column 1)"))
        let sql = try sift(["sql", "author.name == 'Ann'", "--schema", store, "--entity", "Book", "--allow", "title"])
        #expect(sql.status == 2)
        #expect(sql.stderr.hasPrefix("error: the key path author.name is not allowed (column 1)"))
    }
}

extension CommandLineTests {
    /// With `--allow`, each record has a work budget (`--budget`, a million
    /// units by default): a record past it is an error, the others answer.
    @Test func allowBudgetsEachRecord() throws {
        let records = "{\"s\":\"" + String(repeating: "a", count: 5_000) + "\"}\n{\"s\":\"abc\"}\n"
        let within = try sift(["filter", "s CONTAINS 'b'", "--allow", "s"], input: records)
        #expect(within.status == 0)
        #expect(within.stdout == "{\"s\":\"abc\"}\n")
        let past = try sift(["filter", "s CONTAINS 'b'", "--allow", "s", "--budget", "1000"], input: records)
        #expect(past.status != 0)
        #expect(past.stderr.contains("went over its budget of 1000 units"))
        #expect(try sift(["filter", "s CONTAINS 'b'", "--budget", "1000"], input: records).status == 2)
        #expect(try sift(["filter", "s CONTAINS 'b'", "--allow", "s", "--budget", "0"], input: records).status == 2)
    }
}
