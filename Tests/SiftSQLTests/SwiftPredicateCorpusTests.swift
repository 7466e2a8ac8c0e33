import Foundation
import GRDB
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// Issue 35: every `#Predicate` of the generated corpus
/// (`SwiftPredicateCorpus/`, `make swift-predicates`) answers on
/// ``SwiftLibrary``'s 500 books as `predicate.evaluate` does, through its
/// converted filter compiled for the type and on values, and through the
/// lowering on SQLite and PostgreSQL (rows stored through `Library.schema`),
/// as sets of book ids; a predicate the corpus marks refused is refused with
/// the expression type written beside it, and one marked memory-only is
/// refused by the lowering as unsupported.
@Suite(.serialized)
struct SwiftPredicateCorpusTests {
    typealias Book = SwiftLibrary.Book
    static let seed: UInt64 = 35

    @Test func corpusAnswersAsSwift() async throws {
        let entries = SwiftPredicateCorpus.all()
        let library = SwiftLibrary(seed: Self.seed)
        let books = library.books
        let sqlite = try DifferentialTests.sqliteDatabase(Library.schema, Library.inserts(library.rows, .sqlite))
        let postgres = try await PostgresServer.connect(
            schema: "sift_swift_corpus", tables: Library.schema, rows: library.rows)
        defer { PostgresServer.close(postgres) }
        var failures: [String] = []
        var refused: [String: Int] = [:]
        var counts: [SwiftPredicateCorpus.Expectation: Int] = [:]
        var disagreements = (typed: 0, values: 0, sqlite: 0, postgres: 0)
        var informative = 0
        var throwing = 0
        for entry in entries {
            counts[entry.expectation, default: 0] += 1
            let label = "corpus #\(entry.number)"
            let filter: Filter
            do {
                filter = try Filter(entry.predicate)
            } catch {
                if case .refused(let type) = entry.expectation, error.expressionType == type {
                    refused[type, default: 0] += 1
                } else {
                    failures.append("\(label): refused as \(error.expressionType), expected \(entry.expectation): \(error)")
                }
                continue
            }
            if case .refused = entry.expectation {
                failures.append("\(label): converts to \(filter.format), expected \(entry.expectation)")
                continue
            }
            // An index out of range throws, in Swift and in Sift alike: the
            // books on which an evaluation throws are compared as well.
            func outcomes(_ evaluate: (Book) throws -> Bool) -> (matched: Set<Int>, threw: Set<Int>) {
                var matched: Set<Int> = [], threw: Set<Int> = []
                for book in books {
                    do { if try evaluate(book) { matched.insert(book.id) } } catch { threw.insert(book.id) }
                }
                return (matched, threw)
            }
            let swift = outcomes { try entry.predicate.evaluate($0) }
            let expected = swift.matched
            if !swift.threw.isEmpty { throwing += 1 }
            if !expected.isEmpty && expected.count + swift.threw.count < books.count { informative += 1 }
            let label2 = "\(label) [\(filter.format)]"
            func compare(_ engine: String, _ got: Set<Int>, threw: Set<Int> = []) -> Bool {
                guard got != expected || threw != swift.threw else { return true }
                let only = { (a: Set<Int>, b: Set<Int>) in a.subtracting(b).sorted().prefix(5).map(String.init).joined(separator: ", ") }
                failures.append(
                    "\(label2): \(engine) differs; only Swift: [\(only(expected, got))], only \(engine): [\(only(got, expected))], "
                        + "thrown only by Swift: [\(only(swift.threw, threw))], only by \(engine): [\(only(threw, swift.threw))]")
                return false
            }
            // (a) typed, (b) on values.
            let typed = filter.compiled(for: Book.self)
            let dynamic = filter.compiled()
            let typedOutcomes = outcomes { try typed.evaluate(with: $0) }
            if !compare("typed", typedOutcomes.matched, threw: typedOutcomes.threw) { disagreements.typed += 1 }
            let valueOutcomes = outcomes { try dynamic.evaluate(with: $0.predicateValue) }
            if !compare("values", valueOutcomes.matched, threw: valueOutcomes.threw) { disagreements.values += 1 }
            // The printed form means the same filter.
            if try Filter(filter.format).predicate != filter.predicate { failures.append("\(label2): does not parse back") }
            // (c) SQLite, (d) PostgreSQL.
            let request = FetchSpecification(entity: "Book", filter: filter)
            for dialect in [Dialect.sqlite, .postgreSQL] {
                let query: SQLQuery
                do {
                    query = try request.sql(in: Library.schema, dialect: dialect)
                } catch {
                    let expectedRefusal = entry.expectation == .memoryOnly
                        || entry.expectation == .notOnPostgreSQL && dialect == .postgreSQL
                    if !expectedRefusal || error.code != .unsupported {
                        failures.append("\(label2): no \(dialect) form, expected \(entry.expectation): \(error)")
                    }
                    continue
                }
                // SQL has no error for a row: what throws in Swift stays in memory.
                if entry.expectation == .memoryOnly || entry.expectation == .notOnPostgreSQL && dialect == .postgreSQL
                    || !swift.threw.isEmpty
                {
                    failures.append("\(label2): lowers to \(dialect), expected \(entry.expectation)")
                    continue
                }
                do {
                    if dialect == .sqlite {
                        if !compare("SQLite", Set(try DifferentialTests.sqliteIDs(query, sqlite))) { disagreements.sqlite += 1 }
                    } else if let pg = postgres {
                        let ids = try await DifferentialTests.postgresIDs(request, Library.schema, pg)
                        if !compare("PostgreSQL", Set(ids)) { disagreements.postgres += 1 }
                    }
                } catch {
                    failures.append("\(label2): \(dialect) failed: \(error)\n  \(query.statement)")
                }
            }
        }
        print("""
            Swift predicate corpus: \(entries.count) predicates on \(books.count) books; \
            \(counts[.sql] ?? 0) compared on SQLite and \(postgres == nil ? "not on PostgreSQL (not available)" : "PostgreSQL"), \
            \(counts[.notOnPostgreSQL] ?? 0) on SQLite only ([s] searches and orderings), \
            \(counts[.memoryOnly] ?? 0) in memory only, \(refused.values.reduce(0, +)) refused \
            (\(refused.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))); \
            \(informative) match some books but not all, \(throwing) throw on some (an index out of range); disagreements: typed \(disagreements.typed), \
            values \(disagreements.values), SQLite \(disagreements.sqlite), PostgreSQL \(disagreements.postgres)
            """)
        #expect(failures.isEmpty, Comment(rawValue: failures.prefix(40).joined(separator: "\n")))
        #expect(entries.count >= 300 && books.count >= 500)
        // Most predicates tell the books apart: a corpus of predicates that
        // match every book or none would agree by accident.
        #expect(informative * 2 > entries.count, "\(informative) of \(entries.count) match some books but not all")
    }

    /// A converted predicate is held to an allow-list exactly as its format
    /// string is: the same violation (part, message, range, source) or none.
    @Test func policiesSeeTheConvertedPredicateAsItsFormat() throws {
        let policies = [
            PredicatePolicy.untrusted(keyPaths: ["title", "year"]),
            PredicatePolicy.untrusted(keyPaths: ["title", "year", "price", "author.name", "author.age", "chapters.*", "tags.*"]),
        ]
        var checked = 0, violations = 0
        for entry in SwiftPredicateCorpus.all() {
            guard let filter = try? Filter(entry.predicate) else { continue }
            let parsed = try Filter(filter.format)
            for policy in policies {
                let a = Result { () throws(PolicyViolation) -> Bool in try policy.check(filter); return true }
                let b = Result { () throws(PolicyViolation) -> Bool in try policy.check(parsed); return true }
                #expect(a == b, "corpus #\(entry.number) [\(filter.format)]")
                checked += 1
                if case .failure = a { violations += 1 }
            }
        }
        #expect(checked > 500 && violations > 100 && violations < checked)
    }
}
