import Foundation
import GRDB
import Sift
import Testing

@testable import SiftTool

/// The REPL's answers, input by input, on the sample data and on files.
struct ReplSessionTests {
    static func session() throws -> ReplSession { ReplSession(dataset: try Dataset.sample(), width: 200) }

    /// The `#` numbers of the rows in a result table.
    static func rowNumbers(_ output: String) -> [Int] {
        output.split(separator: "\n").dropFirst(2).filter { !$0.contains(" match") }.compactMap { line in
            Int(line.trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        }
    }

    @Test func predicatesListMatchesWithCountAndTime() throws {
        let s = try Self.session()
        let reply = s.handle("title BEGINSWITH[c] 'the' AND (year > 1950 OR ANY authors.born < 1850)")
        #expect(!reply.isError)
        #expect(Self.rowNumbers(reply.output) == [4, 12, 13])
        #expect(reply.output.contains("The Brothers Karamazov"))
        #expect(reply.output.contains("Fyodor Dostoevsky"))
        #expect(reply.output.contains("3 of 20 match ("))
        #expect(reply.output.split(separator: "\n").first?.hasPrefix(" #  title") == true)
        // Non-ASCII folding: [cd] finds García with 'garcia'.
        s.handle(":use Author").expectOK()
        let garcia = s.handle("name CONTAINS[cd] 'garcia'")
        #expect(Self.rowNumbers(garcia.output) == [1])
        #expect(s.handle("name == 'nobody'").output.hasPrefix("0 of 14 match"))
    }

    @Test func parseErrorsShowACaretAndKeepTheLastPredicate() throws {
        let s = try Self.session()
        s.handle("year > 2000").expectOK()
        let reply = s.handle("title BEGINSWITH[c 'so'")
        #expect(reply.isError)
        #expect(reply.output.contains("^"))
        #expect(reply.output.contains(" | title BEGINSWITH[c 'so'"))
        // The failed input did not replace the last predicate.
        #expect(s.handle(":format").output == "year > 2000")
        #expect(s.handle(":format title BEGINSWITH[c] 'so'").output == #"title BEGINSWITH[c] "so""#)
        #expect(s.handle(":ast year > 2000").output.contains("2000"))
    }

    @Test func whyShowsEachPartAndItsValues() throws {
        let s = try Self.session()
        s.handle("title BEGINSWITH[c] 'the' AND (year > 1950 OR ANY authors.born < 1850)").expectOK()
        let reply = s.handle(":why 3")
        #expect(!reply.isError)
        let lines = reply.output.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"✗ title BEGINSWITH[c] "the" AND (year > 1950 OR ANY authors.born < 1850)"#))
        #expect(lines.contains(#"    ✗ title BEGINSWITH[c] "the""#))
        #expect(lines.contains(#"        title = "Crime and Punishment""#))
        #expect(lines.contains("    ✓ year > 1950 OR ANY authors.born < 1850"))
        #expect(lines.contains("        ✗ year > 1950"))
        #expect(lines.contains("            year = 1866"))
        #expect(lines.contains("        ✓ ANY authors.born < 1850"))
        #expect(s.handle(":why 99").output.contains("no row 99"))
        #expect(s.handle(":why x").isError)
        // Evaluation errors are shown on the part that raised them.
        let bad = s.handle(":why 1 title BEGINSWITH 3")
        #expect(bad.output.contains("! title BEGINSWITH 3"))
    }

    @Test func sqlIsShownAndComparedWithMemory() throws {
        let s = try Self.session()
        s.handle(":sort year DESC").expectOK()
        s.handle(":limit 2").expectOK()
        let reply = s.handle(":sql ANY tags.name == 'classic' AND title CONTAINS[c] 'a'")
        #expect(!reply.isError)
        #expect(reply.output.hasPrefix("SELECT t0.\"id\", t0.\"title\""))
        #expect(reply.output.contains("ORDER BY t0.\"year\" DESC"))
        #expect(reply.output.contains("-- ?1 = 'classic'"))
        #expect(reply.output.contains("SQLite: 2 rows, the same as in memory."))
        let postgres = s.handle(":sql postgres")
        #expect(postgres.output.contains("$1"))
        #expect(!postgres.output.contains("SQLite:"))
        // A construct SQL cannot express is refused with a caret.
        s.handle(":use Author").expectOK()
        let refused = s.handle(":sql ANY books.tags.name == 'nobel'")
        #expect(refused.isError)
        #expect(refused.output.contains("^"))
    }

    /// Rows from a database are keyed by the schema's names; a key path is
    /// found in memory as SQL finds it (ignoring case), or refused as SQL
    /// refuses it, never read as nil.
    @Test func keyPathsResolveInMemoryAsInSQL() throws {
        let s = try Self.session()
        for (written, spelled) in [
            ("TITLE BEGINSWITH[c] 'the'", "title BEGINSWITH[c] 'the'"),
            ("ANY Authors.Name BEGINSWITH 'F'", "ANY authors.name BEGINSWITH 'F'"),
            ("SUBQUERY(authors, $a, $a.BORN < 1850).@count > 0", "SUBQUERY(authors, $a, $a.born < 1850).@count > 0"),
        ] {
            let expected = Self.rowNumbers(s.handle(spelled).output)
            #expect(!expected.isEmpty)
            #expect(Self.rowNumbers(s.handle(written).output) == expected, "\(written)")
            #expect(s.handle(":sql " + written).output.contains("rows, the same as in memory."), "\(written)")
        }
        // An unknown key: the same message as SQL's, with the nearest name.
        let unknown = s.handle("titel == 'Dune'")
        #expect(unknown.isError)
        #expect(unknown.output.contains("keypath titel not found in entity Book: it has no key titel (did you mean title?)"))
        #expect(unknown.output.contains("^~~~~"))
        #expect(s.handle(":sql titel == 'Dune'").output.contains("(did you mean title?)"))
        #expect(s.handle("ANY authors.nme == 'x'").output.contains("keypath nme not found in entity Author: it has no key nme (did you mean name?)"))
        #expect(s.handle(":why 1 yeer > 1").output.contains("(did you mean year?)"))
        // A to-one compared with nil: the rows whose relationship is NULL.
        s.handle(":use Memo").expectOK()
        let unlinked = Self.rowNumbers(s.handle("Book == nil").output)
        #expect(!unlinked.isEmpty && unlinked.count < 10)
        #expect(Self.rowNumbers(s.handle("book == nil").output) == unlinked)
        #expect(s.handle(":sql BOOK == nil").output.contains("the same as in memory"))
    }

    /// Inside SUBQUERY a key path without the variable is the evaluated
    /// object's, in memory and in SQL alike: `title` is the book's,
    /// `$m.title` the memo's.
    @Test func keysWithoutTheVariableInsideSubqueryAreTheEvaluatedObjects() throws {
        let s = try Self.session()
        let outer = "SUBQUERY(memos, $m, title CONTAINS[c] 'the').@count > 0"
        let element = "SUBQUERY(memos, $m, $m.title CONTAINS[c] 'the').@count > 0"
        let mixed = "SUBQUERY(memos, $m, SELF.title BEGINSWITH 'The' AND $m.pinned == YES).@count > 0"
        #expect(Self.rowNumbers(s.handle(outer).output) == [4])
        #expect(Self.rowNumbers(s.handle(element).output) == [1])
        #expect(Self.rowNumbers(s.handle(mixed).output) == [4])
        for format in [outer, element, mixed] {
            #expect(s.handle(":sql " + format).output.contains("SQLite: 1 row, the same as in memory."), "\(format)")
        }
        s.handle(":use Author").expectOK()
        let named = "SUBQUERY(books, $b, name BEGINSWITH 'F').@count > 0"
        #expect(Self.rowNumbers(s.handle(named).output) == [3])
        #expect(s.handle(":sql " + named).output.contains("SQLite: 1 row, the same as in memory."))
        // A key only the elements have is refused in memory as in SQL,
        // saying how to name the element's.
        let onlyBooks = "SUBQUERY(books, $b, year > 1900).@count > 0"
        for input in [onlyBooks, ":sql " + onlyBooks] {
            let refused = s.handle(input)
            #expect(refused.isError)
            #expect(refused.output.contains(
                "keypath year not found in entity Author: it has no key year; inside SUBQUERY, a key path without a "
                    + "variable is the evaluated Author's: write $b.year for the Book's"), "\(input)")
        }
    }

    @Test func sortKeysResolveAndUnknownOnesAreRefused() throws {
        let s = try Self.session()
        #expect(s.handle(":sort YEAR DESC").output == "sorted by year DESC")
        #expect(Self.rowNumbers(s.handle("year < 1900").output) == [5, 4, 3])
        #expect(s.handle(":sql year < 1900").output.contains("the same as in memory"))
        let unknown = s.handle(":sort yeer DESC")
        #expect(unknown.isError)
        #expect(unknown.output.contains("keypath yeer not found in entity Book: it has no key yeer (did you mean year?)"))
        #expect(s.handle(":sort authors.name").output.contains("sort key authors.name must be an attribute"))
        // The refused keys leave the order as it was.
        #expect(Self.rowNumbers(s.handle("year < 1900").output) == [5, 4, 3])
    }

    @Test func settingsSortLimitVariablesArguments() throws {
        let s = try Self.session()
        #expect(s.handle(":sort year DESC").output == "sorted by year DESC")
        #expect(Self.rowNumbers(s.handle("year < 1900").output) == [5, 4, 3])
        #expect(s.handle(":limit 1").output == "limit 1")
        let limited = s.handle("year < 1900")
        #expect(Self.rowNumbers(limited.output) == [5])
        #expect(limited.output.contains("3 of 20 match"))
        s.handle(":limit none").expectOK()
        s.handle(":sort none").expectOK()
        #expect(s.handle(":set $FROM = 1960").output == "$FROM = 1960")
        #expect(Self.rowNumbers(s.handle("year BETWEEN {$FROM, 1969}").output) == [1, 2, 11, 12])
        #expect(s.handle(":set").output == "$FROM = 1960")
        #expect(s.handle(":set $FROM").output == "$FROM removed")
        let unbound = s.handle("year > $FROM")
        #expect(unbound.isError)
        #expect(unbound.output.contains("$FROM"))
        #expect(s.handle(":args 'es', 1950").output == "#1 = \"es\"\n#2 = 1950")
        #expect(Self.rowNumbers(s.handle("language == %@ AND year < %d").output) == [9, 10])
        #expect(s.handle(":args none").output == "no arguments")
        #expect(s.handle(":limit -1").isError)
        #expect(s.handle(":sort year SIDEWAYS").isError)
    }

    @Test func entitiesSchemaHelpAndUnknownCommands() throws {
        let s = try Self.session()
        #expect(s.prompt == "Book> ")
        #expect(s.handle(":use memo").output == "Memo: 10 rows")
        #expect(s.prompt == "Memo> ")
        #expect(s.handle(":use Nothing").isError)
        let schema = s.handle(":schema").output
        #expect(schema.contains("author → Author (to-one)"))
        #expect(schema.contains("created: date"))
        #expect(s.handle(":help").output.contains(":why N [predicate]"))
        let unknown = s.handle(":wh 1")
        #expect(unknown.isError)
        #expect(unknown.output.contains("did you mean :why"))
        #expect(s.handle(":quit").quit)
        #expect(s.completionWords.contains("author.name"))
        #expect(s.completionWords.contains("BEGINSWITH"))
        #expect(s.completionWords.contains(":sql"))
    }

    /// Completion offers every word operator, modifier, collection operator
    /// and built-in function of the language, as the operator tables list
    /// them.
    @Test func completionOffersEveryOperator() throws {
        let s = try Self.session()
        for word in [
            "MATCHES", "LIKE", "BEGINSWITH", "ENDSWITH", "IN", "CONTAINS", "BETWEEN", "UTI-CONFORMS-TO", "UTI-EQUALS",
            "ANY", "SOME", "ALL", "NONE",
            "@count", "@sum", "@avg", "@min", "@max", "@unionOfObjects", "@distinctUnionOfObjects", "@unionOfArrays",
            "@distinctUnionOfArrays", "@distinctUnionOfSets",
        ] + BuiltinFunction.allCases.map(\.selector) {
            #expect(s.completionWords.contains(word), "\(word)")
        }
    }

    @Test func incompleteInput() {
        #expect(ReplSession.isIncomplete("(year > 1"))
        #expect(ReplSession.isIncomplete("title == 'a"))
        #expect(ReplSession.isIncomplete("ANY tags IN {1, 2"))
        #expect(!ReplSession.isIncomplete("title BEGINSWITH[c 'so'"))
        #expect(ReplSession.isIncomplete("year > 1 and"))
        #expect(ReplSession.isIncomplete("year > 1 ||"))
        #expect(!ReplSession.isIncomplete("brand == 'OR'"))
        #expect(!ReplSession.isIncomplete("title == ')('"))
        #expect(!ReplSession.isIncomplete("(year > 1) AND x == \"a\\\"b\""))
    }

    @Test func loadingFiles() throws {
        let s = try Self.session()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sift-repl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let jsonl = dir.appendingPathComponent("people.jsonl")
        try Data(#"""
            {"name": "Ann", "age": 31, "address": {"city": "Oslo"}}
            {"name": "Bob", "age": 20, "tags": ["x"]}
            """#.utf8).write(to: jsonl)
        let loaded = s.handle(":load " + jsonl.path)
        #expect(loaded.output.contains("people (2)"))
        #expect(s.prompt == "people> ")
        let ann = s.handle("address.city == 'Oslo'")
        #expect(Self.rowNumbers(ann.output) == [1])
        #expect(ann.output.split(separator: "\n")[0].contains("name  age  address"))
        #expect(s.handle(":schema").output.contains("age: int"))
        #expect(s.handle(":sql age > 1").output.contains("SQL needs a schema"))
        #expect(s.completionWords.contains("address.city"))

        let broken = dir.appendingPathComponent("broken.json")
        try Data("[{\"a\": 1},\n {\"a\": }]".utf8).write(to: broken)
        let error = s.handle(":load " + broken.path)
        #expect(error.isError)
        #expect(error.output.contains("line 2, column"))
        #expect(s.prompt == "people> ", "a failed load keeps the data")
        #expect(s.handle(":load /no/such/file.json").output.contains("no such file"))

        // A SQLite file: its schema is read, relationships become key paths.
        let db = dir.appendingPathComponent("shop.sqlite")
        let queue = try DatabaseQueue(path: db.path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE "order" (id INTEGER PRIMARY KEY, total REAL, customer_id INTEGER REFERENCES customer(id));
                INSERT INTO customer VALUES (1, 'Zoë'), (2, 'Ann');
                INSERT INTO "order" VALUES (1, 10.5, 1), (2, 99, 2), (3, 5, 1);
                """)
        }
        try queue.close()
        #expect(!s.handle(":load " + db.path).isError)
        s.handle(":use order").expectOK()
        let orders = s.handle("customer.name ==[cd] 'zoe'")
        #expect(Self.rowNumbers(orders.output) == [1, 3])
        #expect(s.handle(":sql").output.contains("SQLite: 2 rows, the same as in memory."))
        s.handle(":use customer").expectOK()
        let customers = s.handle("order.@sum.total > 50")
        #expect(Self.rowNumbers(customers.output) == [2], "\(customers.output)")
        #expect(customers.output.contains("Ann   #2"))
        #expect(s.handle(":sql").output.contains("SQLite: 1 row, the same as in memory."))
        #expect(!s.handle(":load sample").isError)
        #expect(s.prompt == "Book> ")
    }
}

extension ReplSession.Reply {
    func expectOK(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!isError, "\(output)", sourceLocation: sourceLocation)
    }
}

/// `sift repl` reading from a pipe: no prompts or colours, errors on
/// standard error, and it keeps going after one.
extension CommandLineTests {
    @Test func replFromAPipe() throws {
        let run = try sift(["repl", "--history", "none"], input: """
            year >
            year > 2000 AND
            (language == 'en' AND
              year > 2000)
            :nonsense
            :use Tag
            name == 'nobel'
            """)
        #expect(run.status == 0)
        #expect(!run.stdout.contains("Book>"))
        #expect(!run.stdout.contains("\u{1B}["))
        // Three lines: a trailing AND and an open parenthesis continue.
        #expect(run.stdout.contains("2 of 20 match"))
        #expect(!run.stderr.contains("expected a predicate"))
        #expect(run.stdout.contains("Tag: 8 rows"))
        #expect(run.stdout.contains("1 of 8 matches"))
        #expect(run.stderr.contains("expected an expression after '>'"))
        #expect(run.stderr.contains("unknown command :nonsense"))
        let missing = try sift(["repl", "/no/such.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file: /no/such.json"))
        #expect(try sift(["repl", "--use", "Nothing"], input: "").status == 2)
    }
}

extension ReplSessionTests {
    /// A key path reading a to-many's many values is refused where SQL
    /// refuses it, in memory, by `:why` and by `:sql` alike, with one
    /// message; CONTAINS and IN take them, as in SQL.
    @Test func oneRuleForToManyKeysInMemoryAndSQL() throws {
        let s = try Self.session()
        let message = "to-many key authors.name not allowed here: use ANY, ALL, NONE, @count or SUBQUERY"
        for input in ["authors.name == 'x'", ":why 1 authors.name == 'x'", ":sql authors.name == 'x'", ":sql", "'x' == authors.name"] {
            let reply = s.handle(input)
            #expect(reply.isError, "\(input)")
            #expect(reply.output.contains(message), "\(input): \(reply.output)")
        }
        #expect(!s.handle("authors.name CONTAINS 'Gabriel García Márquez'").isError)
        #expect(!s.handle("'x' IN authors.name").isError)
        let sql = s.handle(":sql authors.name CONTAINS 'Gabriel García Márquez'")
        #expect(sql.output.contains("SQLite: 1 row, the same as in memory."), "\(sql.output)")
        #expect(s.handle(":use Tag").output.hasSuffix("Tag: 8 rows"))
    }
}
