import Foundation
import Sift
import SiftTestSupport
import Testing

@testable import SiftSQL

/// The fragment tree, the generation context and the dialect hooks.
struct SQLFragmentTests {
    /// The numbers of the placeholders of `sql`, in the order they appear.
    func placeholders(_ sql: String) -> [Int] {
        var numbers: [Int] = []
        var digits = ""
        var inPlaceholder = false
        for ch in sql + " " {
            if inPlaceholder, ch.isNumber {
                digits.append(ch)
                continue
            }
            if inPlaceholder, let n = Int(digits) { numbers.append(n) }
            inPlaceholder = ch == "?" || ch == "$"
            digits = ""
        }
        return numbers
    }

    /// Placeholders are numbered where they first appear, so that a
    /// statement reads ?1, ?2, ?3 … from left to right; a value that
    /// appears twice (the exact check that every other spelling of a
    /// BEGINSWITH prefix shares, in each count of the sum) keeps its number.
    @Test func testPlaceholdersNumberedInReadingOrder() throws {
        for dialect in Dialect.allCases {
            // DuckDB refuses the other spellings' exact check (no NFD): [n] there.
            let begins = dialect == .duckDB ? "BEGINSWITH[n]" : "BEGINSWITH"
            for format in ["code \(begins) 'ANN'", "title \(begins) 'Ka' AND year > 3", "author.name \(begins) 'ab'"] {
                let request = FetchSpecification(entity: "Book", filter: try Filter(format))
                for statement in [try request.sql(in: Library.schema, dialect: dialect).statement,
                                  try request.countSQL(in: Library.schema, dialect: dialect)] {
                    let numbers = placeholders(statement.sql)
                    var firsts: [Int] = []
                    for n in numbers where !firsts.contains(n) { firsts.append(n) }
                    #expect(firsts == Array(1...statement.bindings.count), "\(format) (\(dialect)): \(statement)")
                }
            }
        }
    }

    /// One parameter at two places is one bound value under one number.
    @Test func testSharedParameterIsBoundOnce() {
        let p = SQLFragment.parameter(SQLParameter(id: 7, value: .text("x")))
        let q = SQLFragment.parameter(SQLParameter(id: 3, value: .integer(2)))
        let fragment = SQLFragment.or([.binary(.column("t0", "a"), "=", p), .binary(.column("t0", "b"), "=", q),
                                       .binary(.column("t0", "c"), "=", p)])
        let sqlite = SQLGenerationContext.statement(fragment, dialect: .sqlite)
        #expect(sqlite.sql == #"(t0."a" = ?1 OR t0."b" = ?2 OR t0."c" = ?1)"#)
        #expect(sqlite.bindings == [.text("x"), .integer(2)])
        let postgres = SQLGenerationContext.statement(fragment, dialect: .postgreSQL)
        #expect(postgres.sql == #"(t0."a" = $1 OR t0."b" = $2 OR t0."c" = $1)"#)
    }

    /// A count adds the counts of BEGINSWITH's disjoint ranges only where the
    /// condition is that OR itself, as the fragment says, not under NOT or
    /// inside another condition.
    @Test func testCountSplitsOnlyTheRangesThemselves() throws {
        func count(_ format: String) throws -> String {
            try FetchSpecification(entity: "Book", filter: try Filter(format)).countSQL(in: Library.schema, dialect: .sqlite).sql
        }
        #expect(try count("code BEGINSWITH 'ANN'").hasPrefix("SELECT (SELECT COUNT(*)"))
        #expect(try count("NOT NOT code BEGINSWITH 'ANN' AND TRUEPREDICATE").hasPrefix("SELECT (SELECT COUNT(*)"))
        #expect(try count("NOT code BEGINSWITH 'ANN'").hasPrefix("SELECT COUNT(*) FROM"))
        #expect(try count("code BEGINSWITH 'ANN' OR year > 3").hasPrefix("SELECT COUNT(*) FROM"))
        #expect(try count("TRUEPREDICATE") == #"SELECT COUNT(*) FROM "books" t0"#)
        #expect(try count("FALSEPREDICATE") == #"SELECT COUNT(*) FROM "books" t0 WHERE 0"#)
    }

    /// A dialect is one type: this one writes `:N` placeholders (or
    /// positional `?` ones) and keeps SQLite's string functions, and the
    /// statement follows it.
    struct TestDialect: DialectHooks {
        let strings = SQLiteDialect()
        var placeholdersAreNumbered = true
        var name: String { placeholdersAreNumbered ? "colon" : "positional" }
        func placeholder(_ n: Int) -> String { placeholdersAreNumbered ? ":\(n)" : "?" }
        func fold(_ column: SQLFragment, _ options: ComparisonOptions) -> SQLFragment { strings.fold(column, options) }
        func stringOrdering(
            _ lhs: SQLFragment, _ op: String, _ rhs: TextSide, _ options: ComparisonOptions, _ ctx: LoweringContext
        ) -> SQLFragment { strings.stringOrdering(lhs, op, rhs, options, ctx) }
        func search(
            _ haystack: TextSide, _ needle: TextSide, _ kind: StringOperations.SearchKind, _ options: ComparisonOptions,
            negated: Bool, _ ctx: LoweringContext
        ) -> SQLFragment { strings.search(haystack, needle, kind, options, negated: negated, ctx) }
        func pattern(
            _ column: SQLFragment, _ pattern: String, _ kind: OperatorFamily.PatternKind, _ options: ComparisonOptions,
            negated: Bool, _ ctx: LoweringContext
        ) throws(Problem) -> SQLFragment { try strings.pattern(column, pattern, kind, options, negated: negated, ctx) }
        func sortTerm(_ column: SQLFragment, _ comparison: SortKey.Comparison) throws(Problem) -> SQLFragment {
            try strings.sortTerm(column, comparison)
        }
    }

    @Test func testThirdDialect() throws {
        let dialect = Dialect(TestDialect())
        let request = FetchSpecification(
            entity: "Book", filter: try Filter("year != 3 AND author.active == YES AND NOT title ==[c] 'a'"),
            sort: [SortKey("price", ascending: false)], offset: 2)
        #expect(try request.sql(in: Library.schema, dialect: dialect).statement.sql == (#"SELECT t0."id", t0."title", t0."year", t0."price", t0."published", t0."isbn code" FROM "books" t0 "#
                + #"WHERE (t0."year" <> :1 OR t0."year" IS NULL) AND (t0."author_id" IS NOT NULL AND t0."author_id" IN "#
                + #"(SELECT t1."id" FROM "authors" t1 WHERE t1."active" = :2)) AND sift_fold(t0."title", 1) <> :3 "#
                + #"ORDER BY t0."price" DESC NULLS LAST, t0."id" OFFSET :4"#))
        #expect(StoreSchema([Library.schema.entity(named: "Author")!]).createStatements(dialect: dialect) == [#"CREATE TABLE "authors" ("id" BIGINT PRIMARY KEY, "name" TEXT, "age" BIGINT, "rating" DOUBLE PRECISION, "active" BOOLEAN, "born" DOUBLE PRECISION)"#])
    }

    /// With positional placeholders, a value that appears at two places is
    /// bound at each: the count over BEGINSWITH's ranges repeats the exact
    /// check's value and the other conditions' values in every count.
    @Test func testPositionalPlaceholders() throws {
        let dialect = Dialect(TestDialect(placeholdersAreNumbered: false))
        let request = FetchSpecification(entity: "Book", filter: try Filter("title BEGINSWITH 'Ka' AND year > 3"))
        let count = try request.countSQL(in: Library.schema, dialect: dialect)
        #expect(count.sql.filter { $0 == "?" }.count == count.bindings.count)
        // The exact check of an ASCII prefix binds it for `substr`'s
        // length, the comparison and `sift_search`.
        #expect(count.bindings == [
            .text("Ka"), .text("Kb"), .integer(3),
            .text("K\u{E0}"), .text("K\u{1EB8}"), .text("Ka"), .text("Ka"), .text("Ka"), .integer(3),
            .text("\u{212A}"), .text("\u{212B}"), .text("Ka"), .text("Ka"), .text("Ka"), .integer(3),
        ])
        let numbered = try request.countSQL(in: Library.schema, dialect: Dialect(TestDialect()))
        #expect(numbered.bindings.count == 9)
    }

    /// `Dialect` keeps the behaviour of the enum it was: its raw value,
    /// Codable as that string, equality, hashing and its list of cases.
    @Test func testDialectValue() throws {
        #expect(Dialect.allCases.map(\.rawValue) == ["sqlite", "postgres", "duckdb"])
        #expect(Dialect(rawValue: "postgres") == .postgreSQL)
        #expect(Dialect(rawValue: "duckdb") == .duckDB)
        #expect(Dialect(rawValue: "mysql") == nil)
        #expect(Set(Dialect.allCases + [.sqlite]).count == 3)
        let json = try JSONEncoder().encode([Dialect.sqlite, .postgreSQL])
        #expect(String(decoding: json, as: UTF8.self) == #"["sqlite","postgres"]"#)
        #expect(try JSONDecoder().decode([Dialect].self, from: json) == [.sqlite, .postgreSQL])
        #expect(throws: (any Error).self, performing: { try JSONDecoder().decode([Dialect].self, from: Data(#"["mysql"]"#.utf8)) })
    }
}
