import Foundation
import PostgresNIO
import Sift
import SiftPostgres
import SiftSQL
import SiftTestSupport
import Testing

/// The lowered statements of the main shapes, planned by PostgreSQL on
/// tables large enough (and analysed) for its planner to choose between a
/// scan and an index: each must read the index its condition or order
/// names.
@Suite(.serialized)
struct ExplainTests {
    /// Books, authors and tags with the indexes the lowered statements can
    /// use: books by year, author and title, authors and tags by name, the
    /// join table by tag. 20,000 books: enough that reading one year
    /// (about 90 of them) through an index is cheaper than reading them
    /// all. Three of the indexes must be made as the statements read them:
    ///
    /// - sorting by a string is `ORDER BY normalize(title, NFD) COLLATE
    ///   "C"` (code-point order of the canonical decomposition, as in
    ///   memory), and `BEGINSWITH` without options is one range of that
    ///   expression (a string begins with a prefix when its decomposition
    ///   does), so one index on `((normalize(title, NFD) COLLATE "C"))`
    ///   serves both;
    /// - `BEGINSWITH[n]` (literal) is a range of `title COLLATE "C"`, so its
    ///   index is on `(title COLLATE "C")`; a plain index on `title` in the
    ///   database's collation is used by neither (unless that collation is
    ///   `C`);
    /// - nil sorts first ascending and last descending, as in memory
    ///   (`ORDER BY year DESC NULLS LAST`), the opposite of PostgreSQL's
    ///   default, so the index is on `(year NULLS FIRST)`, which serves
    ///   both directions; a plain index on `year` is not used for the order.
    private func makeLibrary() async throws -> PostgresConnection {
        guard let db = try await PostgresServer.connect(schema: "sift_explain") else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        try await PostgresServer.setUp(db, [
            "CREATE TABLE authors (id bigint PRIMARY KEY, name text NOT NULL, born integer)",
            "CREATE TABLE books (id bigint PRIMARY KEY, title text NOT NULL, year integer, "
                + "author_id bigint REFERENCES authors)",
            "CREATE TABLE tags (id bigint PRIMARY KEY, name text NOT NULL)",
            "CREATE TABLE book_tags (book_id bigint REFERENCES books, tag_id bigint REFERENCES tags, "
                + "PRIMARY KEY (book_id, tag_id))",
            "INSERT INTO authors SELECT g, 'author ' || g, 1700 + g % 300 FROM generate_series(1, 2000) g",
            "INSERT INTO books SELECT g, md5(g::text), 1800 + g % 220, 1 + g % 2000 FROM generate_series(1, 20000) g",
            "INSERT INTO tags SELECT g, 'tag ' || g FROM generate_series(1, 2000) g",
            "INSERT INTO book_tags SELECT g, 1 + g % 2000 FROM generate_series(1, 20000) g",
            "INSERT INTO book_tags SELECT g, 1 + (g * 7 + 3) % 2000 FROM generate_series(1, 20000) g ON CONFLICT DO NOTHING",
            "CREATE INDEX books_year ON books (year NULLS FIRST)",
            "CREATE INDEX books_author ON books (author_id)",
            #"CREATE INDEX books_title ON books (title COLLATE "C")"#,
            #"CREATE INDEX books_title_order ON books ((normalize(title, NFD) COLLATE "C"))"#,
            "CREATE INDEX authors_name ON authors (name)",
            "CREATE INDEX tags_name ON tags (name)",
            "CREATE INDEX book_tags_tag ON book_tags (tag_id, book_id)",
            "ANALYZE",
        ])
        return db
    }

    /// The index each shape must use, by name.
    static let shapes: [(name: String, format: String, sort: [SortKey], limit: Int?, index: String)] = [
        ("a comparison", "year == 1850", [], nil, "books_year"),
        ("a to-one path", "author.name == 'author 17'", [], nil, "authors_name"),
        ("a to-one path, then the books of the author", "author.name == 'author 17'", [], nil, "books_author"),
        ("ANY over a to-many", "ANY tags.name == 'tag 5'", [], nil, "tags_name"),
        ("ANY over a to-many, then its join rows", "ANY tags.name == 'tag 5'", [], nil, "book_tags_tag"),
        ("ANY over a to-many, then the books", "ANY tags.name == 'tag 5'", [], nil, "books_pkey"),
        ("BEGINSWITH", "title BEGINSWITH 'abc'", [], nil, "books_title_order"),
        ("BEGINSWITH[n]", "title BEGINSWITH[n] 'abc'", [], nil, "books_title"),
        ("sort with limit", "year > 1900", [.descending("year")], 10, "books_year"),
        ("sort ascending with limit", "year > 1900", [.ascending("year")], 10, "books_year"),
        ("sort by a string with limit", "TRUEPREDICATE", [.ascending("title")], 10, "books_title_order"),
    ]

    @Test func testMainShapesUseTheirIndexes() async throws {
        let db = try await makeLibrary()
        defer { PostgresServer.close(db) }
        let schema = try await StoreSchema.read(from: db)
        for shape in Self.shapes {
            let request = FetchSpecification(
                entity: "books", filter: try Filter(shape.format), sort: shape.sort, limit: shape.limit)
            let statement = try request.sql(in: schema, dialect: .postgreSQL).statement
            let plan = try await PostgresServer.explain(statement, on: db)
            let used = Self.indexes(in: plan)
            #expect(used.contains(shape.index), "\(shape.name): \(shape.index) is not used by \(statement.sql)\n\(plan)")
        }
    }

    /// The names of the indexes that the plan's nodes read (index, index
    /// only and bitmap index scans), at any depth.
    static func indexes(in plan: [String: Any]) -> Set<String> {
        Set(PostgresServer.nodes(of: plan).compactMap { node in
            guard let type = node["Node Type"] as? String,
                ["Index Scan", "Index Only Scan", "Bitmap Index Scan"].contains(type)
            else { return nil }
            return node["Index Name"] as? String
        })
    }
}
