import Foundation
import GRDB
import SiftSQLite
import SiftTestSupport
import Testing

/// `--group-by`, `--select` and `--having` on `sift filter` (JSON Lines,
/// streamed) and `sift sql`, with answers worked out by hand, and their
/// mistakes shown with a caret in the option they are in.
extension CommandLineTests {
    static let sales = """
        {"title":"Dune","category":{"name":"sf"},"price":10,"year":1965}
        {"title":"Emma","category":{"name":"classic"},"price":7.5,"year":1815}
        {"title":"Neuromancer","category":{"name":"sf"},"price":null,"year":1984}
        {"title":"Zed","category":{"name":"sf"},"price":4,"year":1984}
        {"title":"Nothing","price":3}

        """

    @Test func filterGroupsRecords() throws {
        let select = "category.name, n = count:(SELF), total = sum:(price), avg = average:(price), first = min:(title)"
        let run = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "category.name", "--select", select,
                            "--sort", "total DESC", "--output", "jsonl"], input: Self.sales)
        #expect(run.status == 0, "\(run.stderr)")
        // Columns in the order selected; a nil group key prints as null.
        #expect(run.stdout == """
            {"category.name":"sf","n":3,"total":14,"avg":7.0,"first":"Dune"}
            {"category.name":"classic","n":1,"total":7.5,"avg":7.5,"first":"Emma"}
            {"category.name":null,"n":1,"total":3,"avg":3.0,"first":"Nothing"}

            """)
        // The example in Documentation/CLI.md, as written there.
        let example = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "category.name",
                                "--select", "category.name, n = count:(SELF), total = sum:(price)", "--sort", "total DESC"],
                               input: Self.sales)
        #expect(example.stdout == """
            {"category.name":"sf","n":3,"total":14}
            {"category.name":"classic","n":1,"total":7.5}
            {"category.name":null,"n":1,"total":3}

            """)
        let mistake = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "year", "--select", "year, title, n = count:(SELF)"],
                               input: Self.sales)
        #expect(mistake.stderr == """
            error: title is fetched but not grouped: a grouped fetch can only fetch the key paths it groups by and aggregates (column 7)
             | year, title, n = count:(SELF)
             |       ^~~~~

            """)
        let having = try sift(["filter", "year > 1900", "-", "--group-by", "category.name,year",
                               "--select", "category.name,year,n=count:(SELF)", "--having", "$n > 1", "--output", "json"],
                              input: Self.sales)
        #expect(having.stdout == "[\n  {\"category.name\":\"sf\",\"year\":1984,\"n\":2}\n]\n", "\(having.stderr)")
        // Aggregates alone: one result, even when nothing matches.
        let none = try sift(["filter", "year > 3000", "-", "--select", "n=count:(SELF),total=sum:(price)"], input: Self.sales)
        #expect(none.stdout == "{\"n\":0,\"total\":0}\n")
        #expect(none.status == 0)
        let count = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "category.name", "--count"], input: Self.sales)
        #expect(count.stdout == "3\n")
        let limited = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "year", "--sort", "year", "--limit", "2"],
                               input: Self.sales)
        #expect(limited.stdout == "{\"year\":null}\n{\"year\":1815}\n", "\(limited.stderr)")
        let table = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "category.name",
                              "--select", "category.name,n=count:(SELF)", "--sort", "n DESC", "--output", "table"],
                             input: Self.sales)
        #expect(table.stdout.hasPrefix("category.name  n\n-------------  -\nsf             3\n"), "\(table.stdout)")
        // No group: exit status 1, as for no match.
        let empty = try sift(["filter", "year > 3000", "-", "--group-by", "year"], input: Self.sales)
        #expect(empty.status == 1 && empty.stdout.isEmpty)
    }

    @Test func groupingMistakesPointIntoTheirOption() throws {
        func failure(_ options: [String]) throws -> String {
            let run = try sift(["filter", "TRUEPREDICATE", "-"] + options, input: Self.sales)
            #expect(run.status == 2, "\(options): \(run.stdout)")
            return run.stderr
        }
        let notGrouped = try failure(["--group-by", "category.name", "--select", "category.name, title, n=count:(SELF)"])
        #expect(notGrouped.contains("title is fetched but not grouped"))
        #expect(notGrouped.contains(" | category.name, title, n=count:(SELF)\n |                ^~~~~\n"), "\(notGrouped)")
        let twice = try failure(["--group-by", "year", "--select", "year, n=count:(SELF), n=sum:(price)"])
        #expect(twice.contains(" | year, n=count:(SELF), n=sum:(price)\n |                       ^\n"), "\(twice)")
        let notAggregate = try failure(["--group-by", "year", "--select", "year, p=price"])
        #expect(notAggregate.contains(" |         ^~~~~\n"), "\(notAggregate)")
        let syntax = try failure(["--group-by", "year", "--select", "year, t=sum:(price +)"])
        #expect(syntax.contains(" | year, t=sum:(price +)\n |                     ^\n"), "\(syntax)")
        let expressionKey = try failure(["--group-by", "year, n=count:(SELF)"])
        #expect(expressionKey.contains("a key path is needed here"))
        let having = try failure(["--group-by", "year", "--select", "year,n=count:(SELF)", "--having", "count:(SELF) > 1"])
        #expect(having.contains("having reads an aggregate by its name"))
        #expect(having.contains(" | count:(SELF) > 1\n | ^~~~~~~~~~~~\n"), "\(having)")
        let unknown = try failure(["--group-by", "year", "--select", "year,n=count:(SELF)", "--having", "totl > 1"])
        #expect(unknown.contains("totl is neither grouped nor an expression's name"))
        let collection = try failure(["--group-by", "year", "--select", "year,n=sum:(title)"])
        #expect(collection.contains("n: sum: needs numbers, got a string"), "\(collection)")
        #expect(collection.contains(" | year,n=sum:(title)\n |        ^~~~~~~~~~~\n"), "\(collection)")
        // Key paths alone are a projection (filterSelectsKeyPathsOfEachRecord).
        let bare = try sift(["filter", "TRUEPREDICATE", "-", "--select", "title,year"], input: Self.sales)
        #expect(bare.status == 0 && bare.stdout.hasPrefix(#"{"title":"Dune","year":1965}"#), "\(bare.stderr)")
    }

    /// `--allow` holds the grouped keys and the aggregates to the list, and
    /// lets `--having` and `--sort` read the aggregates by name.
    @Test func groupingUnderAnAllowList() throws {
        let allowed = try sift(["filter", "TRUEPREDICATE", "-", "--allow", "category.name,year", "--group-by", "category.name",
                                "--select", "category.name, n = count:(SELF), y = max:(year)", "--having", "$n > 0 AND n > 0",
                                "--sort", "n DESC", "--output", "jsonl"], input: Self.sales)
        #expect(allowed.status == 0, "\(allowed.stderr)")
        #expect(allowed.stdout.hasPrefix("{\"category.name\":\"sf\",\"n\":3,\"y\":1984}\n"), "\(allowed.stdout)")
        let key = try sift(["filter", "TRUEPREDICATE", "-", "--allow", "year", "--group-by", "year, title"], input: Self.sales)
        #expect(key.status == 2 && key.stderr.contains(" | year, title\n |       ^~~~~\n"), "\(key.stderr)")
        let aggregate = try sift(["filter", "TRUEPREDICATE", "-", "--allow", "year", "--group-by", "year",
                                  "--select", "year, t = sum:(price)"], input: Self.sales)
        #expect(aggregate.status == 2 && aggregate.stderr.contains(" | year, t = sum:(price)\n |                ^~~~~\n"),
                "\(aggregate.stderr)")
        // A sort key that is neither grouped nor a name would sort by nil.
        let sort = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "year", "--sort", "price"], input: Self.sales)
        #expect(sort.status == 2 && sort.stderr.contains("sort key price is neither grouped nor an expression's name"),
                "\(sort.stderr)")
    }

    @Test func sqlPrintsTheGroupedStatementOrItsRefusal() throws {
        let schema = Self.temporaryPath("schema.json")
        try Data(Self.schemaJSON.utf8).write(to: URL(fileURLWithPath: schema))
        defer { try? FileManager.default.removeItem(atPath: schema) }
        let run = try sift(["sql", "TRUEPREDICATE", "--schema", schema, "--entity", "Book", "--group-by", "year",
                            "--select", "year, n=count:(SELF)"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(" GROUP BY "), "\(run.stdout)")
        #expect(run.stdout.contains("COUNT(*)"), "\(run.stdout)")
        // A sum of strings has no SQL form: refused with its reason.
        let refused = try sift(["sql", "TRUEPREDICATE", "--schema", schema, "--entity", "Book", "--group-by", "year",
                                "--select", "year, s = sum:(title)"])
        #expect(refused.status == 2 && !refused.stderr.isEmpty)
    }

    /// `sift query --group-by` on a real Core Data store (sub-entities in
    /// one table, a to-one key path), against plain SQL on its tables.
    @Test func queryGroupsARealStore() throws {
        let path = try RealStores.readable("cdp_sample1/SampleModel_V1.sqlite")
        let db = try ReadOnlyDatabase.open(path: path)
        let expected = try db.read { db in
            try Row.fetchAll(db, sql: """
                SELECT c.ZMAKER AS maker, count(*) AS n, count(c.ZMODEL) AS models, max(c.ZMODEL) AS top
                FROM ZCAR c WHERE c.Z_ENT IN (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Car', 'SportCar', 'ExpensiveSportCar'))
                GROUP BY c.ZMAKER HAVING count(*) > 1 ORDER BY n DESC, maker
                """).map { row -> String in
                let maker: String? = row["maker"]
                let top: String? = row["top"]
                let n: Int = row["n"]
                let models: Int = row["models"]
                return "{\"maker\":\(maker.map { "\"\($0)\"" } ?? "null"),\"n\":\(n),\"models\":\(models),\"top\":\(top.map { "\"\($0)\"" } ?? "null")}"
            }
        }
        #expect(!expected.isEmpty)
        let run = try sift(["query", path, "Car", "TRUEPREDICATE", "--group-by", "maker",
                            "--select", "maker, n = count:(SELF), models = count:(model), top = max:(model)",
                            "--having", "$n > 1", "--sort", "n DESC, maker", "--output", "jsonl"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == expected)
        // An unknown key, pointed at in the option it is in.
        let unknownKey = try sift(["query", path, "Car", "TRUEPREDICATE", "--group-by", "maker,colr"])
        #expect(unknownKey.status == 2)
        #expect(unknownKey.stderr.contains(" | maker,colr\n |       ^~~~\n"), "\(unknownKey.stderr)")
        let unknownArgument = try sift(["query", path, "Car", "TRUEPREDICATE", "--group-by", "maker", "--select", "maker,n=sum:(modle)"])
        #expect(unknownArgument.stderr.contains("did you mean model?"), "\(unknownArgument.stderr)")
        #expect(unknownArgument.stderr.contains(" | maker,n=sum:(modle)\n |              ^~~~~\n"), "\(unknownArgument.stderr)")
        let count = try sift(["query", path, "Car", "TRUEPREDICATE", "--group-by", "maker", "--having", "maker != nil", "--count"])
        #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            == String(try db.read { try Int.fetchOne($0, sql: "SELECT count(DISTINCT ZMAKER) FROM ZCAR") ?? -1 }))
    }

    /// `sift filter --select KEYPATHS --distinct`: each distinct
    /// combination once, in the order first met, worked out by hand from
    /// ``sales`` (nil as a value of its own); `--distinct` with anything
    /// but key paths alone is refused.
    @Test func filterGivesDistinctCombinations() throws {
        let run = try sift(["filter", "TRUEPREDICATE", "-", "--select", "category.name, year", "--distinct"], input: Self.sales)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            #"{"category.name":"sf","year":1965}"#, #"{"category.name":"classic","year":1815}"#,
            #"{"category.name":"sf","year":1984}"#, #"{"category.name":null,"year":null}"#,
        ])
        let filtered = try sift(["filter", "price > 3", "-", "--select", "category.name", "--distinct", "--count"], input: Self.sales)
        #expect(filtered.stdout == "2\n", "\(filtered.stdout)")
        let alone = try sift(["filter", "TRUEPREDICATE", "-", "--distinct"], input: Self.sales)
        #expect(alone.status == 2 && alone.stderr.contains("--distinct takes --select KEYPATHS alone"), "\(alone.stderr)")
        let aggregate = try sift(["filter", "TRUEPREDICATE", "-", "--select", "year, n = count:(SELF)", "--distinct"], input: Self.sales)
        #expect(aggregate.status == 2 && aggregate.stderr.contains(" | year, n = count:(SELF)\n |       ^"), "\(aggregate.stderr)")
    }

    /// `sift filter --select KEYPATHS` without `--distinct`: those key
    /// paths of each matching record, in input order or `--sort`'s, cut by
    /// `--limit` (worked out by hand from ``sales``); a key path through a
    /// value that is not an object is an error with a caret in the option;
    /// a bad record ends the rows with those before it.
    @Test func filterSelectsKeyPathsOfEachRecord() throws {
        let run = try sift(["filter", "year > 1900", "-", "--select", "title, category.name"], input: Self.sales)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").map(String.init) == [
            #"{"title":"Dune","category.name":"sf"}"#, #"{"title":"Neuromancer","category.name":"sf"}"#,
            #"{"title":"Zed","category.name":"sf"}"#,
        ])
        let sorted = try sift(
            ["filter", "TRUEPREDICATE", "-", "--select", "price, title", "--sort", "price DESC, title", "--limit", "3",
             "--output", "json"], input: Self.sales)
        #expect(sorted.stdout == """
            [
              {"price":10,"title":"Dune"},
              {"price":7.5,"title":"Emma"},
              {"price":4,"title":"Zed"}
            ]

            """, "\(sorted.stderr)")
        let first = try sift(["filter", "TRUEPREDICATE", "-", "--select", "year", "--limit", "1"], input: Self.sales)
        #expect(first.stdout == "{\"year\":1965}\n")
        let counted = try sift(["filter", "price > 3", "-", "--select", "title", "--count"], input: Self.sales)
        #expect(counted.stdout == "3\n")
        let none = try sift(["filter", "year > 3000", "-", "--select", "title"], input: Self.sales)
        #expect(none.status == 1 && none.stdout.isEmpty)
        let through = try sift(["filter", "TRUEPREDICATE", "-", "--select", "title.x"], input: Self.sales)
        #expect(through.status == 2 && through.stderr.contains(" | title.x\n | ^"), "\(through.stderr)")
        // A bad record stops the run (--on-error stop): the rows before it
        // are printed first, as whole records are.
        let broken = try sift(["filter", "TRUEPREDICATE", "-", "--select", "title"],
                              input: #"{"title":"A"}"# + "\n" + #"{"title":"B"}"# + "\n{oops\n" + #"{"title":"C"}"# + "\n")
        #expect(broken.status == 2 && broken.stdout == "{\"title\":\"A\"}\n{\"title\":\"B\"}\n", "\(broken)")
        #expect(broken.stderr.contains("line 3"), "\(broken.stderr)")
    }

    /// `sift query --select` of key paths without `--group-by` fetches
    /// those properties of each object (Core Data's `propertiesToFetch`),
    /// each distinct combination once with `--distinct`, on a real Core
    /// Data store, against plain SQL on its tables.
    @Test func queryFetchesPropertiesOfARealStore() throws {
        let path = try RealStores.readable("cdp_sample1/SampleModel_V1.sqlite")
        let db = try ReadOnlyDatabase.open(path: path)
        func expected(_ distinct: Bool) throws -> [String] {
            try db.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT \(distinct ? "DISTINCT " : "")c.ZMAKER AS maker, c.ZMODEL AS model FROM ZCAR c
                    WHERE c.Z_ENT IN (SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME IN ('Car', 'SportCar', 'ExpensiveSportCar'))
                    ORDER BY maker, model
                    """).map { row -> String in
                    let maker: String? = row["maker"]
                    let model: String? = row["model"]
                    return "{\"maker\":\(maker.map { "\"\($0)\"" } ?? "null"),\"model\":\(model.map { "\"\($0)\"" } ?? "null")}"
                }
            }
        }
        let all = try expected(false), distinct = try expected(true)
        #expect(all.count > distinct.count && !distinct.isEmpty, "the store has repeated makers and models")
        for (flags, rows) in [([String](), all), (["--distinct"], distinct)] {
            let run = try sift(["query", path, "Car", "TRUEPREDICATE", "--select", "maker, model", "--sort", "maker, model",
                                "--output", "jsonl"] + flags)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.split(separator: "\n").map(String.init) == rows, "\(flags)")
            let count = try sift(["query", path, "Car", "TRUEPREDICATE", "--select", "maker, model", "--count"] + flags)
            #expect(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(rows.count), "\(flags)")
        }
        let unknownKey = try sift(["query", path, "Car", "TRUEPREDICATE", "--select", "maker,modle"])
        #expect(unknownKey.status == 2)
        #expect(unknownKey.stderr.contains(" | maker,modle\n |       ^~~~~\n"), "\(unknownKey.stderr)")
    }

    /// Grouping streams: a file ten times longer, with the same groups,
    /// takes about the same memory (the peak resident size of the process,
    /// from `wait4`).
    @Test func groupingMemoryGrowsWithGroupsNotRecords() throws {
        func file(_ records: Int) throws -> URL {
            var text = ""
            text.reserveCapacity(records * 80)
            for i in 0..<records {
                text += "{\"id\":\(i),\"kind\":\"k\(i % 3)\",\"score\":\(i % 1000),\"note\":\"some words to make it longer\"}\n"
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("sift-groups-\(records)-\(UUID().uuidString).jsonl")
            try Data(text.utf8).write(to: url)
            return url
        }
        let small = try file(5_000)
        let large = try file(50_000)
        defer {
            try? FileManager.default.removeItem(at: small)
            try? FileManager.default.removeItem(at: large)
        }
        let options = ["--group-by", "kind", "--select", "kind,n=count:(SELF),total=sum:(score)", "--jobs", "1"]
        let a = try peakMemory(["filter", "TRUEPREDICATE", small.path] + options)
        let b = try peakMemory(["filter", "TRUEPREDICATE", large.path] + options)
        #expect(a.status == 0 && b.status == 0)
        // The large file is about 4 MB; kept as values its records would
        // take some 35 MB more (as `--sort` keeps them).
        #expect(b.kilobytes - a.kilobytes < 8_000, "\(a.kilobytes) KB then \(b.kilobytes) KB")
    }

    /// Runs `sift` with `arguments` (standard input and output to
    /// /dev/null) and returns its exit status and peak resident size.
    func peakMemory(_ arguments: [String]) throws -> (status: Int32, kilobytes: Int) {
        let binary = try #require(Self.binary, "build the sift product first (swift build)")
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn: \(spawned)")
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return ((status >> 8) & 0xFF, usage.ru_maxrss)
    }
}
