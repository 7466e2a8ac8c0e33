import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// The SQL shapes of SQL.md, the errors for what cannot be lowered, and the
/// planner's use of indexes.
struct LoweringTests {
    let schema = Library.schema

    func sql(_ format: String, _ args: any FormatArgumentConvertible..., dialect: Dialect = .sqlite) throws -> BoundStatement {
        try Filter(format, arguments: args).sqlStatement(schema, dialect)
    }

    func where_(_ format: String, _ args: any FormatArgumentConvertible..., dialect: Dialect = .sqlite) throws -> String {
        let s = try Filter(format, arguments: args).sqlStatement(schema, dialect).sql
        guard let w = s.range(of: " WHERE "), let o = s.range(of: " ORDER BY ") else { return s }
        return String(s[w.upperBound..<o.lowerBound])
    }

    @Test func testComparisonShapesKeepNilRows() throws {
        #expect(try where_("year > 2000") == #"t0."year" > ?1"#)
        #expect(try where_("NOT year > 2000") == #"NOT COALESCE(t0."year" > ?1, 0)"#)
        #expect(try where_("year != 2000") == #"t0."year" IS NOT ?1"#)
        #expect(try where_("year != 2000", dialect: .postgreSQL) == #"(t0."year" <> $1 OR t0."year" IS NULL)"#)
        #expect(try where_("title != 'x'") == #"t0."title" <> ?1"#, "title is not optional")
        #expect(try where_("year == nil") == #"t0."year" IS NULL"#)
        #expect(try where_("year IN {1, 2, nil}", dialect: .postgreSQL) == #"t0."year" = ANY($1)"#)
        #expect(try where_("year IN {}") == "0")
        #expect(try where_("year < nil") == "0")
        #expect(try where_("year BETWEEN {1990, 2000}") == #"t0."year" BETWEEN ?1 AND ?2"#)
        #expect(try where_("year == 'x'") == "0", "a string never equals a number")
        #expect(try where_("title == author.name", dialect: .postgreSQL) == #"t0."title" IS NOT DISTINCT FROM t1."name""#)
    }

    /// A key names the attribute or relationship spelled exactly so before
    /// one that differs only in case.
    @Test func testExactNamesBeforeCaseInsensitiveOnes() throws {
        let schema = StoreSchema([
            Entity("Post", table: "posts", attributes: [Attribute("Author", .string, column: "author_text")],
                   relationships: [.toOne("author", "Person", column: "person_id")]),
            Entity("Person", table: "people", attributes: [Attribute("name", .string)]),
        ])
        func condition(_ format: String) throws -> String {
            try Filter(format).sqlCondition(in: schema, entity: "Post", dialect: .sqlite).condition
        }
        #expect(try condition("author.name == 'x'") == #"(t0."person_id" IS NOT NULL AND +t0."person_id" IN (SELECT t1."id" FROM "people" t1 WHERE t1."name" = ?1))"#)
        #expect(try condition("Author == 'x'") == #"t0."author_text" = ?1"#)
        #expect(try condition("AUTHOR == 'x'") == #"t0."author_text" = ?1"#, "ignoring case: the attribute first")
    }

    @Test func testConditionAlone() throws {
        let c = try Filter("author.name != %@ AND year > 2000", "Ann").sqlCondition(in: schema, entity: "Book", dialect: .postgreSQL)
        #expect(c.joins == #" LEFT JOIN "authors" t1 ON t1."id" = t0."author_id""#)
        #expect(c.condition == #"((t1."name" <> $1 OR t1."name" IS NULL) AND t0."year" > $2)"#)
        #expect(c.bindings == [.text("Ann"), .integer(2000)])
    }

    @Test func testToOneIsALeftJoinAndToManyIsASubquery() throws {
        let s = try sql("author.name != 'Ann' AND author.age != 30 AND ANY tags.name == 'x' AND chapters.@count > 2")
        #expect(s.sql.components(separatedBy: "LEFT JOIN").count == 2, "one join per distinct path: \(s.sql)")
        #expect(s.sql.contains(#"t0."id" IN (SELECT t3."book_id" FROM "book_tags" t3 JOIN "tags" t2 ON t2."id" = t3."tag_id" WHERE t2."name" = ?3)"#), Comment(rawValue: s.sql))
        #expect(s.sql.contains(#"(SELECT COUNT(*) FROM "book_tags""#) == false)
        #expect(s.sql.contains(#"(SELECT COUNT(*) FROM "chapters" t4 WHERE t4."book_id" = t0."id") > ?4"#), Comment(rawValue: s.sql))
        #expect(s.bindings == [.text("Ann"), .integer(30), .text("x"), .integer(2)])
        // A comparison that is false when the object is nil: its matching
        // objects found once, the rows tested by membership.
        #expect(try where_("author.name == 'Ann' AND author.age > 30") == (#"(t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE t1."name" = ?1))"#
                + #" AND (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t2."id" FROM "authors" t2 WHERE t2."age" > ?2))"#))
        #expect(try where_("author.name BEGINSWITH[c] 'a'", dialect: .postgreSQL).hasPrefix(
                #"(t0."author_id" IS NOT NULL AND t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE "#))
        // Negated, nil, or compared with another key: the join.
        for format in ["NOT author.name == 'Ann'", "author.name == nil", "author.name == title", "author.name != 'Ann'"] {
            #expect(try sql(format).sql.contains("LEFT JOIN"), Comment(rawValue: format))
        }
        #expect(try where_("ALL chapters.pages > 10") == #"NOT EXISTS (SELECT 1 FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND NOT COALESCE(t1."pages" > ?1, 0))"#)
        #expect(try where_("NONE chapters.pages > 10") == #"NOT EXISTS (SELECT 1 FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND t1."pages" > ?1)"#)
        // A sum of integers is SQL's exact integer SUM, checked so that no
        // order of adding overflows; of doubles, added in the collection's
        // order.
        #expect(try where_("chapters.@sum.pages > 3").contains("THEN COALESCE(SUM(t1.\"pages\"), 0) ELSE ABS("))
        #expect(try where_("chapters.@sum.pages > 3", dialect: .postgreSQL).contains("CAST(COALESCE(SUM(t1.\"pages\"), 0) AS BIGINT)"))
    }

    /// Inside SUBQUERY a key path without the variable is the book's, as in
    /// memory: a reference to the outer row, its to-one relationships joined
    /// in the outer query; `$c.…` is the chapter's.
    @Test func testKeysWithoutTheVariableInsideSubqueryAreTheOuterRows() throws {
        #expect(try where_("SUBQUERY(chapters, $c, $c.pages > year AND SELF.title == $c.name).@count > 0") == #"(SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND (t1."pages" > t0."year" AND t0."title" IS t1."name")) > ?1"#)
        #expect(try sql("SUBQUERY(chapters, $c, $c.name == author.name).@count == 0").sql == (#"SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 LEFT JOIN "authors" t2 ON t2."id" = t0."author_id" "#
                + #"WHERE (SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND t1."name" IS t2."name") = ?1 ORDER BY t0."id""#))
        #expect(try where_("SUBQUERY(chapters, $c, author.name == 'Ann' AND SUBQUERY(chapters, $d, $d.pages < $c.pages).@count > 0).@count > 0") == (#"(SELECT COUNT(*) FROM "chapters" t1 WHERE t1."book_id" = t0."id" AND ((t0."author_id" IS NOT NULL AND +t0."author_id" IN "#
                + #"(SELECT t2."id" FROM "authors" t2 WHERE t2."name" = ?1)) AND (SELECT COUNT(*) FROM "chapters" t3 WHERE t3."book_id" = t0."id" "#
                + #"AND t3."pages" < t1."pages") > ?2)) > ?3"#))
    }

    /// Every collection operator of the table lowers to its aggregate, or
    /// is refused with a message that names the ones that have a SQL form.
    @Test func testEveryCollectionOperatorLowersOrIsRefused() throws {
        let forms = ["@count": "COUNT(*)", "@sum": "COALESCE(SUM(", "@avg": "COALESCE(SUM(", "@min": "MIN(", "@max": "MAX("]
        for op in CollectionOperator.allCases {
            let format = op.needsKeyPath ? "chapters.\(op.name).pages > 3" : "chapters.\(op.name) > 3"
            if let form = forms[op.name] {
                #expect(try where_(format).contains(form), Comment(rawValue: format))
                continue
            }
            if let error = #expect(throws: (any Error).self, Comment(rawValue: format), performing: { try sql(format) }) {
                #expect((error as? SQLLoweringError)?.message == "\(op.name) has no SQL form (@count, @sum, @avg, @min, @max do)")
            }
        }
    }

    @Test func testStringsAndPatternsAreBoundNeverWritten() throws {
        let hostile = "x' OR 1=1 --"
        for dialect in Dialect.allCases {
            // DuckDB compares strings as stored only ([n]; it has no NFD).
            let n = dialect == .duckDB ? "[n]" : ""
            for format in ["title == %@", "title CONTAINS\(n.isEmpty ? "[cd]" : n) %@", "title LIKE\(n) %@", "title BEGINSWITH\(n) %@", "title MATCHES %@"] {
                let s = try sql(format, hostile, dialect: dialect)
                #expect(!s.sql.contains("1=1"), "\(dialect) \(format): \(s.sql)")
            }
        }
        #expect(try where_("title LIKE %@", "a%_*", dialect: .postgreSQL) == #"(normalize(t0."title", NFD) COLLATE "C") LIKE $1 ESCAPE '\'"#)
        #expect(try sql("title LIKE %@", "a%_*", dialect: .postgreSQL).bindings == [.text(#"a\%\_%"#)])
        let quoted = StoreSchema([Entity("Odd", table: #"we"ird"#, attributes: [Attribute("n", .integer, column: #"c"ol"#)])])
        let q = try FetchSpecification(entity: "Odd", filter: try Filter("n > 1")).sql(in: quoted, dialect: .sqlite)
        #expect(q.statement.sql.contains(#"FROM "we""ird" t0 WHERE t0."c""ol" > ?1"#), Comment(rawValue: q.statement.sql))
    }

    @Test func testWhatCannotBeLoweredIsAnErrorWithItsKeyAndRange() throws {
        func failure(_ format: String, dialect: Dialect = .sqlite) -> SQLLoweringError? {
            do {
                _ = try Filter(format).sqlStatement(schema, dialect)
                return nil
            } catch let e as SQLLoweringError {
                return e
            } catch {
                Issue.record("\(format): \(error)")
                return nil
            }
        }
        let unknown = failure("year > 1 AND author.nmae == 'x'")
        #expect(unknown?.code == .unknownKey)
        #expect(unknown?.entity == "Author")
        #expect(unknown?.key == "nmae")
        #expect(unknown?.rendered() == """
            error: keypath author.nmae not found in entity Author: it has no key nmae (column 14)
             | year > 1 AND author.nmae == 'x'
             |              ^~~~~~~~~~~
            """)
        #expect(failure("tags.name == 'x'")?.code == .toManyKey)
        #expect(failure("title < 5")?.code == .typeMismatch)
        #expect(failure("title BEGINSWITH 5")?.code == .typeMismatch)
        #expect(failure("title MATCHES '('")?.code == .typeMismatch)
        #expect(failure(#"title MATCHES '\\d+'"#, dialect: .postgreSQL)?.code == .unsupported)
        #expect(failure(#"title MATCHES '\\d+'"#, dialect: .sqlite) == nil)
        #expect(failure("year + 1 > 2")?.code == .unsupported)
        #expect(failure("ANY year > 2")?.code == .unsupported)
        #expect(failure("ANY chapters.book.chapters.name == 'x'")?.code == .unsupported)
        #expect(throws: (any Error).self, performing: { try FetchSpecification(entity: "Nope").sql(in: schema, dialect: .sqlite) })
    }

    @Test func testSortLimitOffsetAndCount() throws {
        let request = FetchSpecification(
            entity: "Book", filter: try Filter("year > 2000"),
            sort: [.ascending("author.name", .caseInsensitive), .descending("year")], offset: 5, limit: 10)
        let q = try request.sql(in: schema, dialect: .sqlite)
        #expect(q.statement.sql.hasSuffix(
            #"ORDER BY t1."name" COLLATE sift_case_insensitive ASC, t0."year" DESC, t0."id" LIMIT ?2 OFFSET ?3"#), Comment(rawValue: q.statement.sql))
        let p = try request.sql(in: schema, dialect: .postgreSQL)
        #expect(p.statement.sql.contains(#"t0."year" DESC NULLS LAST, t0."id" LIMIT $2 OFFSET $3"#), Comment(rawValue: p.statement.sql))
        #expect(q.columns.map(\.name) == ["id", "title", "year", "price", "published", "code"])
        let c = try request.countSQL(in: schema, dialect: .sqlite)
        #expect(c.sql.hasPrefix("SELECT COUNT(*) FROM (SELECT"), Comment(rawValue: c.sql))
    }

    /// Nil sorts first ascending and last descending, as in memory; a
    /// required attribute holds no nil, and its terms say nothing of NULLs,
    /// so that PostgreSQL can read a sort by it from an index in the
    /// default order (ExplainTests checks the plan).
    @Test func testSortByARequiredAttributeSaysNothingOfNulls() throws {
        let request = FetchSpecification(
            entity: "Book", sort: [.descending("title"), .ascending("year"), .ascending("author.name")], limit: 10)
        let p = try request.sql(in: schema, dialect: .postgreSQL)
        #expect(p.statement.sql.contains(
                #"ORDER BY (normalize(t0."title", NFD) COLLATE "C") DESC, t0."year" ASC NULLS FIRST, "#
                    + #"(normalize(t1."name", NFD) COLLATE "C") ASC NULLS FIRST, t0."id" LIMIT $1"#), Comment(rawValue: p.statement.sql))
    }

    @Test func testPlannerUsesIndexes() throws {
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for s in schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            try db.execute(sql: #"CREATE INDEX books_year ON books(year)"#)
            try db.execute(sql: #"CREATE INDEX books_title ON books(title)"#)
            try db.execute(sql: #"CREATE INDEX tags_name ON tags(name)"#)
        }
        func plan(_ format: String) throws -> String {
            // The count: without ORDER BY, whose primary-key tiebreak lets
            // the planner prefer a scan in key order on an empty table.
            let q = try FetchSpecification(entity: "Book", filter: try Filter(format)).countSQL(in: schema, dialect: .sqlite)
            return try db.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + q.sql, arguments: q.arguments)
                    .map { $0["detail"] as String? ?? "" }.joined(separator: "\n")
            }
        }
        let expectations = [
            ("year > 2000", "INDEX books_year ("),
            ("title BEGINSWITH 'ab'", "INDEX books_title (title>? AND title<?)"),
            ("title BEGINSWITH[n] 'ab'", "INDEX books_title (title>? AND title<?)"),
            ("title == 'ab'", "INDEX books_title (title=?)"),
            ("ANY chapters.pages > 3", "SEARCH t0 USING INTEGER PRIMARY KEY (rowid=?)"),
            ("ANY tags.name == 'x'", "INDEX tags_name (name=?)"),
            ("NONE chapters.pages > 3", "INDEX chapters_book_id (book_id=?)"),
            ("chapters.@count > 1", "INDEX chapters_book_id (book_id=?)"),
        ]
        for (format, expected) in expectations {
            let p = try plan(format)
            #expect(p.contains(expected), "\(format):\n\(p)")
        }
    }

    /// BEGINSWITH's index ranges: one literal range where no other
    /// spelling of the prefix exists, otherwise one range per spelling, each
    /// on the index: a MULTI-INDEX OR in a select, and in a count one count
    /// per range, added (the ranges are disjoint), unless a coarse range
    /// covers others.
    @Test func testBeginsWithPlans() throws {
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for s in schema.createStatements(dialect: .sqlite) { try db.execute(sql: s) }
            try db.execute(sql: #"CREATE INDEX books_title ON books(title)"#)
        }
        func plan(_ q: BoundStatement) throws -> [String] {
            try db.read { db in
                try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + q.sql, arguments: q.arguments)
                    .map { $0["detail"] as String? ?? "" }
            }
        }
        let covering = "SEARCH t0 USING COVERING INDEX books_title (title>? AND title<?)"
        let range = "SEARCH t0 USING INDEX books_title (title>? AND title<?)"
        // (format, ranges, split): ab has aḃ…, Ka has Kà… and \u{212A}a…, aq and a1 have no other spelling;
        // past two Ks, one range for the strings that begin with KK (which holds the others: no split).
        let expectations = [
            ("title BEGINSWITH 'ab'", 2, true), ("title BEGINSWITH 'Ka'", 3, true), ("title BEGINSWITH 'KKa'", 4, true),
            ("title BEGINSWITH 'KKKKa'", 5, false),
            ("title BEGINSWITH 'aq'", 1, false), ("title BEGINSWITH 'a1'", 1, false), ("title BEGINSWITH 'Q'", 1, false),
            ("title BEGINSWITH[n] 'ab'", 1, false),
        ]
        for (format, ranges, split) in expectations {
            let request = FetchSpecification(entity: "Book", filter: try Filter(format))
            let c = try request.countSQL(in: schema, dialect: .sqlite)
            let count = try plan(c)
            let text = "\(format):\n\(count.joined(separator: "\n"))"
            #expect(count.filter { $0 == covering }.count == ranges, Comment(rawValue: text))
            #expect(count.contains("MULTI-INDEX OR") == (ranges > 1 && !split), Comment(rawValue: text))
            #expect(c.sql.hasPrefix("SELECT (SELECT COUNT(*) FROM") == split, Comment(rawValue: c.sql))
            if split {
                #expect(count.filter { $0.hasPrefix("SCALAR SUBQUERY") }.count == ranges, Comment(rawValue: text))
            } else {
                #expect(count.count == (ranges > 1 ? 1 + 2 * ranges : 1), Comment(rawValue: text))
            }
            if ranges == 1 {
                #expect(c.bindings.count == 2, "\(format): \(c.sql)")
            }
            // The rows: one search per range, as one MULTI-INDEX OR (without
            // ORDER BY, whose primary-key order makes a scan look cheaper on
            // an empty table).
            let condition = try Filter(format).sqlCondition(in: schema, entity: "Book", dialect: .sqlite)
            let select = try plan(BoundStatement(
                sql: #"SELECT t0."id", t0."year" FROM "books" t0 WHERE "# + condition.condition, bindings: condition.bindings))
            #expect(select.filter { $0 == range }.count == ranges, "\(format):\n\(select.joined(separator: "\n"))")
            #expect(select.contains("MULTI-INDEX OR") == (ranges > 1), "\(format):\n\(select.joined(separator: "\n"))")
        }
        // Only a range that every row must satisfy splits a count.
        for (format, split) in [
            ("title BEGINSWITH 'ab' AND year > 1", true), ("NOT (year > 1 OR NOT title BEGINSWITH 'ab')", true),
            ("title BEGINSWITH 'ab' OR year > 1", false), ("NOT title BEGINSWITH 'ab'", false),
            ("ANY tags.name BEGINSWITH 'ab'", false),
        ] {
            let c = try FetchSpecification(entity: "Book", filter: try Filter(format)).countSQL(in: schema, dialect: .sqlite)
            #expect(c.sql.hasPrefix("SELECT (SELECT COUNT(*) FROM") == split, "\(format): \(c.sql)")
        }
    }

    /// BEGINSWITH without options matches what the evaluator matches, in
    /// SQLite and (when `SIFT_POSTGRES` is set) PostgreSQL: the strings whose
    /// canonical decomposition begins with the prefix, spelled with a
    /// precomposed last character (`aḃ`) or a singleton (`\u{212A}` for
    /// `K`, U+037E for `;`, U+1FEF for `` ` ``) anywhere in it.
    @Test func testBeginsWithMatchesDecomposedPrefixes() throws {
        let s = StoreSchema([Entity("W", table: "w", attributes: [Attribute("s", .string)])])
        let words: [String?] = [
            "cafe", "café", "cafe\u{301}", "cafd", "caff", "cag", "ca", "ḃ", "b", nil,
            "\u{212A}a", "Ka", "K\u{1E01}", "\u{212A}\u{1E01}", "\u{212A}", "K", "Ḱa", "K\u{301}a", "Kb",
            "KKa", "K\u{212A}a", "\u{212A}Ka", "\u{212A}\u{212A}à", "\u{212A}\u{212A}",
            "KK\u{212A}a", "\u{212A}\u{212A}\u{212A}a", "KK\u{212A}", "KKKa", "K\u{212A}Ka", "KKx", "KK\u{212A}\u{212A}a",
            "KKK\u{212A}a", "KK\u{212A}K\u{1E01}",
            "a\u{037E}b", "a;b", "a;\u{1E03}", "a\u{037E}\u{1E07}x", "\u{037E}", ";", "a\u{1FEF}b", "a`b", "a`",
            "aḃc", "aḅ", "aḇ", "aḄ", "aḆ", "aÿ", "ab\u{307}", "a\u{1E08}", "a\u{80}", "aq", "aq\u{301}", "a1",
            "a1\u{301}", "Qa", "é", "",
        ]
        let db = try DatabaseQueue(configuration: .sift)
        try db.write { db in
            for stmt in s.createStatements(dialect: .sqlite) { try db.execute(sql: stmt) }
            for (i, w) in words.enumerated() { try db.execute(sql: "INSERT INTO w VALUES (?, ?)", arguments: [i, w]) }
        }
        let pg = try PostgresClient.fromEnvironment(schema: "sift_beginswith")
        if let pg {
            for stmt in s.createStatements(dialect: .postgreSQL) { try pg.execute(stmt) }
            for (i, w) in words.enumerated() {
                _ = try pg.query("INSERT INTO w VALUES ($1, $2)", [.integer(Int64(i)), w.map(SQLValue.text) ?? .null])
            }
        }
        let values: [Value] = words.enumerated().map { .dictionary(["id": .int($0.offset), "s": $0.element.map(Value.string) ?? .null]) }
        let formats = [
            "s BEGINSWITH 'cafe'", "s BEGINSWITH 'b'", "s BEGINSWITH[n] 'cafe'", "NOT s BEGINSWITH 'caf'", "s BEGINSWITH 'ca'",
            "s BEGINSWITH 'ab'", "NOT s BEGINSWITH 'ab'", "s BEGINSWITH 'Ka'", "NOT s BEGINSWITH 'Ka'", "s BEGINSWITH 'KKa'",
            "s BEGINSWITH 'K'", "s BEGINSWITH 'KK'", "s BEGINSWITH 'a;b'", "s BEGINSWITH ';'", "s BEGINSWITH 'a`b'",
            "s BEGINSWITH 'a`'", "s BEGINSWITH 'aq'", "s BEGINSWITH 'a1'", "s BEGINSWITH 'Q'", "s BEGINSWITH[n] 'Ka'",
            "s BEGINSWITH 'KKKa'", "s BEGINSWITH 'KKKKa'", "NOT s BEGINSWITH 'KKKKa'", "s BEGINSWITH ';;;;'",
            // Counted as sums of ranges (and not, for the OR and the NOT).
            "s BEGINSWITH 'ab' AND s != 'ab\u{307}'", "NOT (NOT s BEGINSWITH 'Ka' OR s ENDSWITH 'a')",
            "s BEGINSWITH 'Ka' OR s BEGINSWITH 'ab'",
        ]
        for format in formats {
            let request = FetchSpecification(entity: "W", filter: try Filter(format))
            let expected = try request.execute(on: values).map { row -> Int in
                if case .dictionary(let d) = row, case .int(let i)? = d["id"] { return i }
                return -1
            }
            let got = try db.read { try request.fetchPrimaryKeys($0, schema: s).compactMap { Int.fromDatabaseValue($0) } }
            #expect(got == expected, "SQLite: \(format)")
            let count = try request.countSQL(in: s, dialect: .sqlite)
            #expect(try db.read { try Int.fetchOne($0, sql: count.sql, arguments: count.arguments) } == expected.count, "SQLite count: \(format)")
            if let pg {
                let ids = try pg.query(try request.sql(in: s, dialect: .postgreSQL).statement).map { row -> Int in
                    if case .integer(let i)? = row.first { return Int(i) }
                    return -1
                }
                #expect(ids == expected, "PostgreSQL: \(format)")
                let count = try pg.query(try request.countSQL(in: s, dialect: .postgreSQL)).first?.first
                #expect(count == .integer(Int64(expected.count)), "PostgreSQL count: \(format)")
            }
        }
    }
}

extension Filter {
    func sqlStatement(_ schema: StoreSchema, _ dialect: Dialect) throws -> BoundStatement {
        try FetchSpecification(entity: "Book", filter: self).sql(in: schema, dialect: dialect).statement
    }
}
