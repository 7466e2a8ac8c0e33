import Foundation
import PostgresKit
import Sift
import SiftPostgres
import SiftSQL
import SiftSQLKit
import SiftSQLite
import SiftTestSupport
import SQLKit
import Testing

/// The differential suite's generated fetches (`GeneratedFetches`) run
/// through SQLKit, on SQLite (Fluent's SQLite driver) and PostgreSQL
/// (postgres-kit): the same rows in the same order as memory, and the same
/// counts; the schema read through SQLKit equal to the one Sift's own
/// readers read.
@Suite(.serialized, .publicSchema)
struct SQLKitDifferentialTests {
    static let seed = GeneratedFetches.seed
    static let cases = GeneratedFetches.cases

    /// Whether `error` is SiftSQLKit's refusal of a sort by a string on
    /// SQLite (sqlite-nio has no custom collations).
    static func refusesStringSort(_ error: any Error) -> Bool {
        guard let error = error as? SiftSQLKitError else { return false }
        return error.kind == .lowering && error.message.contains("needs Sift's SQLite collations")
    }

    /// Whether `request` sorts by a string key.
    static func sortsByString(_ request: FetchSpecification) -> Bool {
        request.sort.contains { ["title", "author.name", "code"].contains($0.keyPath.joined(separator: ".")) }
    }

    @Test func testGeneratedFetches() async throws {
        let seed = Self.seed &+ 1
        let sqlite = try FluentSQLiteLibrary(seed: seed)
        let books = sqlite.library.books
        let postgres = try await PostgresLibrary.connect(sqlite.library)
        var generator = PredicateGenerator(seed: seed)
        var failures: [String] = []
        var compared = 0, sqliteCompared = 0, sqliteUnsorted = 0, sqliteRefused = 0, postgresCompared = 0, postgresRefused = 0
        for n in 0..<(Self.cases / 3) {
            let request = try GeneratedFetches.fetch(&generator)
            guard let expected = GeneratedFetches.memoryIDs(request, books) else { continue }
            compared += 1
            let expectedCount = try request.count(on: books)
            let label = GeneratedFetches.label(n, request)
            let pastShortCircuit = { (error: any Error) in
                request.filter.map { GeneratedFetches.raisesPastShortCircuit(error, $0, books) } == true
            }
            do {
                let got = GeneratedFetches.ids(try await request.fetchValues(sqlite.sql, schema: Library.schema))
                if got != expected { failures.append("\(label)\n  memory \(expected)\n  sqlite \(got)") }
                let count = try await request.fetchCount(sqlite.sql, schema: Library.schema)
                if count != expectedCount { failures.append("\(label): count memory \(expectedCount) sqlite \(count)") }
                sqliteCompared += 1
            } catch where Self.refusesStringSort(error) {
                // Refused only when a key is a string; the same fetch in
                // the primary key's order must then agree.
                if !Self.sortsByString(request) { failures.append("\(label): SQLite refused a sort by no string: \(error)") }
                sqliteRefused += 1
                var unsorted = request
                unsorted.sort = []
                if let expected = GeneratedFetches.memoryIDs(unsorted, books) {
                    do {
                        let got = GeneratedFetches.ids(try await unsorted.fetchValues(sqlite.sql, schema: Library.schema))
                        if got != expected { failures.append("\(label) unsorted\n  memory \(expected)\n  sqlite \(got)") }
                        sqliteUnsorted += 1
                    } catch where pastShortCircuit(error) {
                    } catch {
                        failures.append("\(label) unsorted: SQLite: \(error)")
                    }
                }
            } catch where pastShortCircuit(error) {
            } catch {
                failures.append("\(label): SQLite: \(error)")
            }
            if let postgres, GeneratedFetches.postgresSorts(request) {
                do {
                    let got = GeneratedFetches.ids(try await request.fetchValues(postgres.sql, schema: Library.schema))
                    if got != expected { failures.append("\(label)\n  memory   \(expected)\n  postgres \(got)") }
                    let count = try await request.fetchCount(postgres.sql, schema: Library.schema)
                    if count != expectedCount { failures.append("\(label): count memory \(expectedCount) postgres \(count)") }
                    postgresCompared += 1
                } catch where GeneratedFetches.refusesSwiftSearch(error) || GeneratedFetches.refusesDoubleArithmetic(error) {
                    postgresRefused += 1
                } catch where pastShortCircuit(error) {
                } catch {
                    failures.append("\(label): PostgreSQL: \(error)")
                }
            }
            if failures.count >= 10 { break }
        }
        print(
            "SiftSQLKit differential fetch seed \(seed): \(compared) requests; SQLite \(sqliteCompared) compared, "
                + "\(sqliteRefused) sorts by a string refused (\(sqliteUnsorted) of them compared unsorted); PostgreSQL "
                + (postgres == nil ? "not available" : "\(postgresCompared) compared, \(postgresRefused) refused"))
        PostgresServer.close(postgres?.connection)
        await sqlite.close()
        #expect(failures.isEmpty, Comment(rawValue: "seed \(seed):\n" + failures.prefix(10).joined(separator: "\n")))
        #expect(sqliteCompared > Self.cases / 30)
        #expect(sqliteCompared + sqliteRefused > Self.cases / 6)
        if postgres != nil { #expect(postgresCompared > Self.cases / 12) }
    }

    /// Sums and averages of doubles through sqlite-nio (`sift_sum`, the
    /// aggregate SiftSQLKit installs) and postgres-kit: added in key order,
    /// as memory adds the books in their (key) order, on books whose sum
    /// depends on the order of its terms.
    @Test func testSumsOfDoublesInKeyOrder() async throws {
        var library = Library(seed: Self.seed)
        for (id, price) in [(61, 1e16), (62, 0.1), (63, -1e16), (64, 0.7)] {
            library.rows.append(Library.Row(table: "books", values: [
                "id": .integer(Int64(id)), "title": .text("t"), "year": .integer(1789), "price": .real(price),
            ]))
            library.books.append(.dictionary([
                "id": .int(id), "title": "t", "year": 1789, "price": .double(price), "author": .null,
                "chapters": .array([]), "tags": .array([]),
            ]))
        }
        let sum = (((0.0 + 1e16) + 0.1) + -1e16) + 0.7
        #expect(sum == 0.7 && ((0.1 + 0.7) + 1e16) + -1e16 != sum)
        let request = FetchSpecification(
            entity: "Book", filter: try Filter("year == 1789"), groupBy: ["year"],
            expressions: [try ExpressionDescription(name: "s", format: "sum:(price)"),
                          try ExpressionDescription(name: "a", format: "average:(price)")])
        let expected: [Value] = [["year": 1789, "s": .double(sum), "a": .double(sum / 4)]]
        #expect(try request.execute(on: library.books) == expected)
        let sqlite = try FluentSQLiteLibrary(library)
        #expect(try await request.fetchValues(sqlite.sql, schema: Library.schema) == expected)
        await sqlite.close()
        if let postgres = try await PostgresLibrary.connect(library) {
            #expect(try await request.fetchValues(postgres.sql, schema: Library.schema) == expected)
            PostgresServer.close(postgres.connection)
        }
    }

    /// The schema read through SQLKit is the one SiftSQLite (GRDB) and
    /// SiftPostgres (PostgresNIO) read from the same tables.
    @Test func testSchemaThroughSQLKit() async throws {
        let sqlite = try FluentSQLiteLibrary(seed: Self.seed)
        let postgres = try await PostgresLibrary.connect(sqlite.library)
        let viaSQLKit = try await StoreSchema.read(from: sqlite.sql)
        let viaGRDB = try StoreSchema.read(sqliteFile: sqlite.path)
        #expect(viaSQLKit == viaGRDB)
        #expect(viaSQLKit.entity(named: "books") != nil)
        if let postgres {
            // A failure must still close the connection, whose deinit
            // traps when it is open.
            do {
                let viaPostgresKit = try await StoreSchema.read(from: postgres.sql)
                let viaPostgresNIO = try await StoreSchema.read(from: postgres.connection)
                #expect(viaPostgresKit == viaPostgresNIO)
                #expect(viaPostgresKit.entity(named: "books") != nil)
            } catch {
                Issue.record(error)
            }
        }
        PostgresServer.close(postgres?.connection)
        await sqlite.close()
    }

    /// Rows as `Decodable`, and a fetch on the schema read through SQLKit.
    @Test func testDecodableRows() async throws {
        struct Book: Decodable, Equatable {
            var id: Int
            var title: String
        }
        let sqlite = try FluentSQLiteLibrary(seed: Self.seed)
        let schema = try await StoreSchema.read(from: sqlite.sql)
        let request = FetchSpecification(entity: "books", filter: try Filter("year > 1950"), sort: [.descending("year")], limit: 5)
        let books = try await request.fetch(sqlite.sql, schema: schema, as: Book.self)
        let memory = try FetchSpecification(entity: "Book", filter: try Filter("year > 1950"), sort: [.descending("year")], limit: 5)
            .execute(on: sqlite.library.books)
        #expect(books.map(\.id) == GeneratedFetches.ids(memory))
        #expect(books.map(\.title) == memory.map { $0["title"]?.stringValue ?? "" })
        #expect(!books.isEmpty)
        await sqlite.close()
    }
}
