import Foundation
import GRDB
import Testing

/// `sift sql`, `sift query` and `sift schema`, run as a user runs them.
extension CommandLineTests {
    /// A fresh path in the temporary directory, removed by `cleanup`.
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("sift-\(UUID().uuidString)-\(name)").path
    }

    static let schemaJSON = """
        {"entities": [
          {"name": "Author", "table": "authors", "attributes": [{"name": "name", "type": "string"}],
           "relationships": [{"name": "books", "destination": "Book", "toMany": "author_id"}]},
          {"name": "Book", "table": "books",
           "attributes": [{"name": "title", "type": "string", "optional": false}, {"name": "year", "type": "integer"}],
           "relationships": [{"name": "author", "destination": "Author", "toOne": "author_id"}]}]}
        """

    /// A store laid out as Core Data lays out Author, Book (to-one author,
    /// many-to-many tags) and Tag, with its bookkeeping tables.
    static func coreDataStore() throws -> String {
        let path = temporaryPath("Library.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
                CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER, ZAUTHOR INTEGER, ZPUBLISHED TIMESTAMP, ZTITLE VARCHAR, ZCOVER BLOB );
                CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
                CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_3TAGS) );
                CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2BOOKS);
                CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 2), (2, 'Book', 0, 3), (3, 'Tag', 0, 2);
                INSERT INTO Z_METADATA VALUES (1, 'C0FFEE00-0000-4000-8000-000000000001', NULL);
                INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'Ann'), (2, 1, 1, 'Bob');
                INSERT INTO ZTAG VALUES (1, 3, 1, 'sf'), (2, 3, 1, 'classic');
                INSERT INTO ZBOOK VALUES
                    (1, 2, 1, 1965, 1, 0.5, 'Dune', X'CAFE'),
                    (2, 2, 1, 1815, 2, NULL, 'Emma', NULL),
                    (3, 2, 1, 1984, 1, 86400, 'Neuromancer', NULL);
                INSERT INTO Z_2TAGS VALUES (1, 1), (1, 2), (2, 2), (3, 1);
                """)
        }
        try queue.close()
        return path
    }

    @Test func sqlCommand() throws {
        let schema = Self.temporaryPath("schema.json")
        try Data(Self.schemaJSON.utf8).write(to: URL(fileURLWithPath: schema))
        defer { try? FileManager.default.removeItem(atPath: schema) }

        let sqlite = try sift(["sql", "year > %d", "--arg", "2000", "--schema", schema, "--entity", "Book"])
        #expect(sqlite.status == 0)
        #expect(sqlite.stdout == """
            SELECT t0."id", t0."title", t0."year" FROM "books" t0 WHERE t0."year" > ?1 ORDER BY t0."id"
            -- ?1 = 2000

            """)
        let postgres = try sift([
            "sql", "year > 2000 AND title != %@", "--arg", #""it's""#, "--schema", schema, "--entity", "Book",
            "--dialect", "postgres", "--sort", "year DESC", "--limit", "10", "--offset", "20",
        ])
        #expect(postgres.status == 0)
        let lines = postgres.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 5)
        #expect(lines.first?.hasPrefix(#"SELECT t0."id", t0."title", t0."year" FROM "books" t0 WHERE "#) == true)
        #expect(lines.first?.hasSuffix(#"ORDER BY t0."year" DESC NULLS LAST, t0."id" LIMIT $3 OFFSET $4"#) == true)
        #expect(Array(lines.dropFirst()) == ["-- $1 = 2000", "-- $2 = 'it''s'", "-- $3 = 10", "-- $4 = 20"])

        let joined = try sift(["sql", "author.name == 'Ann'", "--schema", schema, "--entity", "book", "--count"])
        #expect(joined.stdout.hasPrefix(#"SELECT COUNT(*) FROM "books" t0 WHERE (t0."author_id" IS NOT NULL AND +t0."author_id" IN (SELECT t1."id" FROM "authors" t1 WHERE t1."name" = ?1))"#))
        #expect(joined.stdout.hasSuffix("-- ?1 = 'Ann'\n"))

        let unknown = try sift(["sql", "year > 1 AND author.nmae == 'x'", "--schema", schema, "--entity", "Book"])
        #expect(unknown.status == 2)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr == """
            error: keypath author.nmae not found in entity Author: it has no key nmae (column 14)
             | year > 1 AND author.nmae == 'x'
             |              ^~~~~~~~~~~

            """)
        let noEntity = try sift(["sql", "year > 1", "--schema", schema])
        #expect(noEntity.status == 2)
        #expect(noEntity.stderr == "error: --entity is needed: the schema has Author, Book\n")
        let badSort = try sift(["sql", "year > 1", "--schema", schema, "--entity", "Book", "--sort", "year UP"])
        #expect(badSort.status == 2)
        #expect(badSort.stderr.contains("^~"))
        #expect(try sift(["sql", "year >", "--schema", schema, "--entity", "Book"]).status == 2)
        #expect(try sift(["sql", "year > 1", "--schema", schema, "--dialect", "mysql"]).status == 2)
        let missing = try sift(["sql", "year > 1", "--schema", "/nonexistent/schema.json"])
        #expect(missing.status == 2)
        #expect(missing.stderr == "error: no such file: /nonexistent/schema.json\n")

        // A database stands for its inferred schema.
        let store = try Self.coreDataStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let fromStore = try sift(["sql", "ANY tags.name == 'sf'", "--schema", store, "--entity", "Book"])
        #expect(fromStore.status == 0)
        #expect(fromStore.stdout.contains(#"FROM "Z_2TAGS" t"#))
    }

    /// The acceptance test: `sift query` answers a Core Data-layout SQLite
    /// file built by the tests.
    @Test func queryCoreDataStore() throws {
        let store = try Self.coreDataStore()
        defer { try? FileManager.default.removeItem(atPath: store) }

        let byAuthor = try sift(["query", store, "Book", "author.name == %@", "--arg", #""Ann""#])
        #expect(byAuthor.status == 0)
        #expect(byAuthor.stdout == """
            {"Z_PK":1,"year":1965,"published":"2001-01-01T00:00:00.500Z","title":"Dune","cover":"yv4="}
            {"Z_PK":3,"year":1984,"published":"2001-01-02T00:00:00.000Z","title":"Neuromancer","cover":null}

            """)
        let tagged = try sift(["query", store, "Book", "ANY tags.name == 'classic'", "--sort", "title DESC", "--output", "json"])
        #expect(tagged.stdout == """
            [
              {"Z_PK":2,"year":1815,"published":null,"title":"Emma","cover":null},
              {"Z_PK":1,"year":1965,"published":"2001-01-01T00:00:00.500Z","title":"Dune","cover":"yv4="}
            ]

            """)
        let counted = try sift(["query", store, "Book", "tags.@count >= 1 AND Title BEGINSWITH[c] 'e'", "--count"])
        #expect(counted.status == 0)
        #expect(counted.stdout == "1\n")
        let authors = try sift(["query", store, "Author", "books.@count > 1 OR ANY books.year < 1900", "--output", "table"])
        #expect(authors.stdout == """
            Z_PK  name
            ----  ----
               1  Ann
               2  Bob
            (2 rows)

            """)
        let paged = try sift(["query", store, "Tag", "TRUEPREDICATE", "--sort", "name", "--limit", "1", "--offset", "1"])
        #expect(paged.stdout == "{\"Z_PK\":1,\"name\":\"sf\"}\n")

        let none = try sift(["query", store, "Book", "year > 3000"])
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
        #expect(try sift(["query", store, "Book", "year > 3000", "--count"]).stdout == "0\n")

        let unknown = try sift(["query", store, "Book", "titel == 'x'"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("keypath titel not found in entity Book"))
        #expect(unknown.stderr.contains(" | ^~~~~"))
        let entity = try sift(["query", store, "Nope", "TRUEPREDICATE"])
        #expect(entity.status == 2)
        #expect(entity.stderr == "error: unknown entity Nope; the schema has Author, Book, Tag\n")
        #expect(try sift(["query", "/nonexistent/db.sqlite", "Book", "TRUEPREDICATE"]).status == 2)

        // The inferred schema, edited, overrides inference.
        let inferred = try sift(["schema", store])
        #expect(inferred.status == 0)
        #expect(inferred.stdout.contains(#""column" : "ZPUBLISHED""#))
        let edited = Self.temporaryPath("schema.json")
        try Data(inferred.stdout.replacingOccurrences(of: #""name" : "title""#, with: #""name" : "heading""#).utf8)
            .write(to: URL(fileURLWithPath: edited))
        defer { try? FileManager.default.removeItem(atPath: edited) }
        let overridden = try sift(["query", store, "Book", "heading == 'Emma'", "--schema", edited])
        #expect(overridden.stdout == "{\"Z_PK\":2,\"year\":1815,\"published\":null,\"heading\":\"Emma\",\"cover\":null}\n")
    }

    @Test func queryPlainDatabase() throws {
        let path = Self.temporaryPath("plain.sqlite")
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT NOT NULL, author_id INTEGER REFERENCES authors(id),
                    published DATETIME, in_print BOOLEAN);
                INSERT INTO authors VALUES (1, 'Ann'), (2, 'Bob');
                INSERT INTO books VALUES (1, 'Dune', 1, '1965-08-01T00:00:00.000Z', 1), (2, 'Emma', 2, NULL, 0);
                """)
        }
        try queue.close()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let run = try sift(["query", path, "books", "author.name == 'Ann' AND in_print == YES AND published > %@",
                            "--arg", #"{"$date": -1200000000}"#])
        #expect(run.status == 0)
        #expect(run.stdout == """
            {"id":1,"title":"Dune","author_id":1,"published":"1965-08-01T00:00:00.000Z","in_print":true}

            """)
        let inverse = try sift(["query", path, "authors", "ANY books.title == 'Emma'"])
        #expect(inverse.stdout == "{\"id\":2,\"name\":\"Bob\"}\n")
    }
}
