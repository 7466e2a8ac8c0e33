import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import Testing

/// `StoreSchema.read(from:)` on a plain database and on a Core Data store, and
/// fetches through the inferred schema compared with the evaluator over the
/// same rows as dictionaries.
struct SchemaReaderTests {
    // MARK: - Plain databases

    static let plainDDL = """
        CREATE TABLE authors (id INTEGER PRIMARY KEY, name TEXT NOT NULL, born DATE);
        CREATE TABLE books (
            id INTEGER PRIMARY KEY, title VARCHAR(200) NOT NULL, year INTEGER, price REAL, in_print BOOLEAN,
            published DATETIME, author_id INTEGER REFERENCES authors(id), editorId INTEGER REFERENCES authors);
        CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE book_tags (
            book_id INTEGER NOT NULL REFERENCES books(id), tag_id INTEGER NOT NULL REFERENCES tags(id),
            PRIMARY KEY (book_id, tag_id));
        CREATE TABLE notes (body TEXT, book INTEGER REFERENCES books);
        CREATE TABLE sessions (token TEXT, started TIMESTAMP, PRIMARY KEY (token, started)) WITHOUT ROWID;
        """

    /// Authors, books (to-one author and editor, many-to-many tags), notes
    /// on books (a rowid table), as rows and as the evaluator's dictionaries.
    struct Plain {
        var authors: [[String: Value]] = [
            ["id": .int(1), "name": .string("Ann"), "born": .date(Date(timeIntervalSince1970: -100_000))],
            ["id": .int(2), "name": .string("Bob"), "born": .null],
            ["id": .int(3), "name": .string("Cid"), "born": .date(Date(timeIntervalSince1970: 500_000_000))],
        ]
        var tags: [[String: Value]] = [
            ["id": .int(1), "name": .string("sf")], ["id": .int(2), "name": .string("classic")],
            ["id": .int(3), "name": .string("cyber")],
        ]
        var books: [[String: Value]] = [
            book(1, "Dune", 1965, 9.5, true, "1965-08-01T00:00:00.000Z", author: 1, editor: 2),
            book(2, "Emma", 1815, 4, false, nil, author: 2, editor: nil),
            book(3, "Neuromancer", 1984, nil, true, "1984-07-01T12:30:00.000Z", author: 1, editor: nil),
            book(4, "Untitled", nil, nil, nil, nil, author: nil, editor: nil),
            book(5, "Solaris", 1961, 7.25, false, "1961-01-01T00:00:00.000Z", author: 3, editor: 2),
        ]
        var bookTags: [(Int, Int)] = [(1, 1), (1, 2), (2, 2), (3, 1), (3, 3), (5, 1)]
        var notes: [(String, Int?)] = [("good", 1), ("long", 1), ("lost", nil), ("odd", 5)]

        static func book(
            _ id: Int, _ title: String, _ year: Int?, _ price: Double?, _ inPrint: Bool?, _ published: String?,
            author: Int?, editor: Int?
        ) -> [String: Value] {
            let date = published.flatMap { try? Date($0, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
            return [
                "id": .int(id), "title": .string(title), "year": year.map(Value.int) ?? .null,
                "price": price.map(Value.double) ?? .null, "in_print": inPrint.map(Value.bool) ?? .null,
                "published": date.map(Value.date) ?? .null, "author_id": author.map(Value.int) ?? .null,
                "editorId": editor.map(Value.int) ?? .null,
            ]
        }

        func insert(_ db: Database) throws {
            try db.execute(sql: SchemaReaderTests.plainDDL)
            for a in authors {
                let born: Double? = if case .date(let d) = a["born"] { d.timeIntervalSince1970 } else { nil }
                try db.execute(sql: "INSERT INTO authors VALUES (?, ?, ?)", arguments: [a["id"]?.int, a["name"]?.string, born])
            }
            for t in tags {
                try db.execute(sql: "INSERT INTO tags VALUES (?, ?)", arguments: [t["id"]?.int, t["name"]?.string])
            }
            for b in books {
                let published: String? = if case .date(let d) = b["published"] {
                    d.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
                } else { nil }
                let inPrint: Bool? = if case .bool(let v) = b["in_print"] { v } else { nil }
                let price: Double? = if case .double(let v) = b["price"] { v } else { nil }
                try db.execute(
                    sql: "INSERT INTO books VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    arguments: [b["id"]?.int, b["title"]?.string, b["year"]?.int, price, inPrint, published,
                                b["author_id"]?.int, b["editorId"]?.int])
            }
            for (b, t) in bookTags { try db.execute(sql: "INSERT INTO book_tags VALUES (?, ?)", arguments: [b, t]) }
            for (body, book) in notes { try db.execute(sql: "INSERT INTO notes VALUES (?, ?)", arguments: [body, book]) }
        }

        /// Books with their author, editor, tags and notes; authors with
        /// their books. One level deep, which the predicates need.
        var bookObjects: [Value] {
            books.map { b in
                var d = b
                d["author"] = author(b["author_id"])
                d["editor"] = author(b["editorId"])
                d["tags"] = .array(bookTags.filter { .int($0.0) == b["id"] }.map { pair in
                    .dictionary(tags.first { $0["id"] == .int(pair.1) } ?? [:])
                })
                d["notes"] = .array(notes.filter { $0.1.map(Value.int) == b["id"] }.map { .dictionary(["body": .string($0.0)]) })
                return .dictionary(d)
            }
        }

        var authorObjects: [Value] {
            authors.map { a in
                var d = a
                d["books"] = .array(books.filter { $0["author_id"] == a["id"] }.map(Value.dictionary))
                d["books_editor"] = .array(books.filter { $0["editorId"] == a["id"] }.map(Value.dictionary))
                return .dictionary(d)
            }
        }

        func author(_ id: Value?) -> Value {
            guard let id, let a = authors.first(where: { $0["id"] == id }) else { return .null }
            var d = a
            d["books"] = .array(books.filter { $0["author_id"] == id }.map(Value.dictionary))
            return .dictionary(d)
        }
    }

    @Test func testPlainDatabase() throws {
        let data = Plain()
        let queue = try DatabaseQueue(configuration: .sift)
        try queue.write { try data.insert($0) }
        let schema = try queue.read { try StoreSchema.read(from: $0) }

        #expect(schema.entities.map(\.name) == ["authors", "books", "tags", "notes"], "no join table, no WITHOUT ROWID table without a key")
        let books = try #require(schema.entity(named: "books"))
        #expect(books.primaryKey == "id")
        #expect(books.attributes.map(\.name) == ["id", "title", "year", "price", "in_print", "published", "author_id", "editorId"])
        #expect(books.attributes.map(\.type) == [.integer, .string, .integer, .double, .boolean, .date(.iso8601), .integer, .integer])
        #expect(books.attributes.map(\.isOptional) == [false, false, true, true, true, true, true, true])
        #expect(books.relationships == [
            .toOne("author", "authors", column: "author_id"),
            .toOne("editor", "authors", column: "editorId"),
            .toMany("notes", "notes", inverseColumn: "book"),
            .manyToMany("tags", "tags", joinTable: "book_tags", sourceColumn: "book_id", destinationColumn: "tag_id"),
        ])
        let authors = try #require(schema.entity(named: "authors"))
        #expect(authors.attribute(named: "born")?.type == .date(.unixSeconds))
        #expect(authors.relationships == [
            .toMany("books", "books", inverseColumn: "author_id"),
            .toMany("books_editor", "books", inverseColumn: "editorId"),
        ])
        #expect(schema.entity(named: "tags")?.relationships == [
            .manyToMany("books", "books", joinTable: "book_tags", sourceColumn: "tag_id", destinationColumn: "book_id")
        ])
        let notes = try #require(schema.entity(named: "notes"))
        #expect(notes.primaryKey == "rowid")
        #expect(notes.attributes.map(\.name) == ["body"], "the key column without _id is the relationship")
        #expect(notes.relationships == [.toOne("book", "books", column: "book")])
        #expect(try StoreSchema(json: schema.jsonData()) == schema)

        let published = Date(timeIntervalSince1970: -200_000_000)
        let bookCases: [(String, [any FormatArgumentConvertible], [Int])] = [
            ("author.name == 'Ann'", [], [1, 3]),
            ("ANY tags.name == 'sf'", [], [1, 3, 5]),
            ("tags.@count >= 2", [], [1, 3]),
            ("tags.@count == 0 OR editor.name BEGINSWITH[c] 'b'", [], [1, 4, 5]),
            ("editor == nil AND in_print == NO", [], [2]),
            ("published > %@", [published], [1, 3]),
            ("NOT published > %@", [published], [2, 4, 5]),
            ("author.books.@count > 1 AND price > 5", [], [1]),
            ("ANY notes.body CONTAINS 'o'", [], [1, 5]),
            ("SUBQUERY(tags, $t, $t.name != 'sf').@count == 1", [], [1, 2, 3]),
            ("id IN {2, 4}", [], [2, 4]),
        ]
        for (format, args, ids) in bookCases {
            try compare(queue, schema, entity: "books", format, args, data.bookObjects, ids)
        }
        let authorCases: [(String, [any FormatArgumentConvertible], [Int])] = [
            ("ANY books.year < 1900", [], [2]),
            ("books.@count == 0", [], []),
            ("books_editor.@count > 0", [], [2]),
            ("born < %@", [Date(timeIntervalSince1970: 0)], [1]),
            ("ALL books.year > 1900", [], [1, 3]),
        ]
        for (format, args, ids) in authorCases {
            try compare(queue, schema, entity: "authors", format, args, data.authorObjects, ids)
        }
        let notesFetched = try queue.read {
            try FetchSpecification(entity: "notes", filter: try Filter("book.title == 'Dune'")).fetchValues($0, schema: schema)
        }
        #expect(notesFetched == [
            .dictionary(["rowid": .int(1), "body": .string("good")]), .dictionary(["rowid": .int(2), "body": .string("long")]),
        ])
    }

    // MARK: - Core Data stores

    /// The tables Core Data creates for Author, Book and Tag, with Book.author
    /// (to-one, inverse Author.books) and Book.tags (many-to-many, inverse
    /// Tag.books).
    static let coreDataDDL = """
        CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZYEAR INTEGER, ZAUTHOR INTEGER, ZPUBLISHED TIMESTAMP, ZTITLE VARCHAR );
        CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_3TAGS) );
        CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2BOOKS);
        CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 3), (2, 'Book', 0, 5), (3, 'Tag', 0, 3);
        INSERT INTO Z_METADATA VALUES (1, 'C0FFEE00-0000-4000-8000-000000000001', NULL);
        INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'Ann'), (2, 1, 1, 'Bob'), (3, 1, 1, 'Cid');
        INSERT INTO ZTAG VALUES (1, 3, 1, 'sf'), (2, 3, 1, 'classic'), (3, 3, 1, 'cyber');
        INSERT INTO ZBOOK VALUES
            (1, 2, 1, 1965, 1, -1117670400.0, 'Dune'),
            (2, 2, 1, 1815, 2, NULL, 'Emma'),
            (3, 2, 1, 1984, 1, -520214400.5, 'Neuromancer'),
            (4, 2, 1, NULL, NULL, NULL, 'Untitled'),
            (5, 2, 1, 1961, 3, -1262304000.0, 'Solaris');
        INSERT INTO Z_2TAGS VALUES (1, 1), (1, 2), (2, 2), (3, 1), (3, 3), (5, 1);
        """

    /// Writes a store to a temporary file and returns its path.
    static func store(_ ddl: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-\(UUID().uuidString).sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: ddl) }
        try queue.close()
        return path
    }

    @Test func testCoreDataStore() throws {
        let path = try Self.store(Self.coreDataDDL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let schema = try StoreSchema.read(sqliteFile: path)

        #expect(schema.entities.map(\.name) == ["Author", "Book", "Tag"])
        let book = try #require(schema.entity(named: "Book"))
        #expect(book.table == "ZBOOK")
        #expect(book.primaryKey == "Z_PK")
        #expect(book.discriminator == nil)
        #expect(book.attributes == [
            Attribute("year", .integer, column: "ZYEAR"), Attribute("published", .date(.referenceSeconds), column: "ZPUBLISHED"),
            Attribute("title", .string, column: "ZTITLE"),
        ])
        #expect(book.relationships == [
            .toOne("author", "Author", column: "ZAUTHOR"),
            .manyToMany("tags", "Tag", joinTable: "Z_2TAGS", sourceColumn: "Z_2BOOKS", destinationColumn: "Z_3TAGS"),
        ])
        #expect(schema.entity(named: "Author")?.relationships == [.toMany("books", "Book", inverseColumn: "ZAUTHOR")])
        #expect(schema.entity(named: "Tag")?.relationships == [
            .manyToMany("books", "Book", joinTable: "Z_2TAGS", sourceColumn: "Z_3TAGS", destinationColumn: "Z_2BOOKS")
        ])

        // The same rows as dictionaries, keyed by the inferred names.
        func date(_ s: Double?) -> Value { s.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null }
        let authors: [[String: Value]] = [("Ann", 1), ("Bob", 2), ("Cid", 3)].map { ["Z_PK": .int($0.1), "name": .string($0.0)] }
        let tags: [[String: Value]] = [("sf", 1), ("classic", 2), ("cyber", 3)].map { ["Z_PK": .int($0.1), "name": .string($0.0)] }
        let bookRows: [(Int, Int?, Int?, Double?, String)] = [
            (1, 1965, 1, -1117670400, "Dune"), (2, 1815, 2, nil, "Emma"), (3, 1984, 1, -520214400.5, "Neuromancer"),
            (4, nil, nil, nil, "Untitled"), (5, 1961, 3, -1262304000, "Solaris"),
        ]
        let bookTags = [(1, 1), (1, 2), (2, 2), (3, 1), (3, 3), (5, 1)]
        let books: [[String: Value]] = bookRows.map {
            ["Z_PK": .int($0.0), "year": $0.1.map(Value.int) ?? .null, "published": date($0.3), "title": .string($0.4)]
        }
        let bookObjects: [Value] = bookRows.enumerated().map { i, row in
            var d = books[i]
            d["author"] = row.2.map { id in
                var a = authors[id - 1]
                a["books"] = .array(bookRows.indices.filter { bookRows[$0].2 == id }.map { .dictionary(books[$0]) })
                return .dictionary(a)
            } ?? .null
            d["tags"] = .array(bookTags.filter { $0.0 == row.0 }.map { .dictionary(tags[$0.1 - 1]) })
            return .dictionary(d)
        }
        let authorObjects: [Value] = authors.map { a in
            var d = a
            d["books"] = .array(bookRows.indices.filter { .int(bookRows[$0].2 ?? 0) == a["Z_PK"] }.map { .dictionary(books[$0]) })
            return .dictionary(d)
        }
        let tagObjects: [Value] = tags.map { t in
            var d = t
            d["books"] = .array(bookTags.filter { .int($0.1) == t["Z_PK"] }.map { bookObjects[$0.0 - 1] })
            return .dictionary(d)
        }

        let queue = try DatabaseQueue(path: path, configuration: .sift)
        let cutoff = Date(timeIntervalSinceReferenceDate: -1_000_000_000)
        let cases: [(String, String, [any FormatArgumentConvertible], [Value], [Int])] = [
            ("Book", "author.name == 'Ann'", [], bookObjects, [1, 3]),
            ("Book", "ANY tags.name == 'sf'", [], bookObjects, [1, 3, 5]),
            ("Book", "tags.@count >= 2", [], bookObjects, [1, 3]),
            ("Book", "tags.@count == 0 OR author.name ENDSWITH[c] 'D'", [], bookObjects, [4, 5]),
            ("Book", "published > %@", [cutoff], bookObjects, [3]),
            ("Book", "NOT published > %@ AND year > 1900", [cutoff], bookObjects, [1, 5]),
            ("Book", "author.books.@count == 2", [], bookObjects, [1, 3]),
            ("Book", "NONE tags.name IN {'classic', 'cyber'}", [], bookObjects, [4, 5]),
            ("Author", "ANY books.year < 1900", [], authorObjects, [2]),
            ("Author", "books.@count == 0 OR books.@max.year > 1980", [], authorObjects, [1]),
            ("Tag", "books.@count >= 2", [], tagObjects, [1, 2]),
            ("Tag", "ANY books.author.name == 'Cid'", [], tagObjects, [1]),
        ]
        for (entity, format, args, objects, ids) in cases {
            try compare(queue, schema, entity: entity, format, args, objects, ids, key: "Z_PK")
        }

        // Key paths ignore case: the columns lost the camel case.
        let camel = try queue.read {
            try FetchSpecification(entity: "book", filter: try Filter("Title BEGINSWITH 'N' AND Author.Name == 'Ann'"))
                .fetchValues($0, schema: schema)
        }
        #expect(camel == [.dictionary(books[2])])
        try queue.close()
    }

    @Test func testCoreDataSubEntitiesShareATable() throws {
        let path = try Self.store("""
            CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZDONE INTEGER, ZFOLDER INTEGER,
                Z1_FOLDER INTEGER, ZDUE TIMESTAMP, ZTITLE VARCHAR, ZTITLE1 VARCHAR, ZSIZE FLOAT, ZDATA BLOB );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (1, 'Folder', 0, 1), (2, 'Item', 0, 4), (3, 'Note', 2, 0), (4, 'Task', 2, 0),
                (5, 'UrgentTask', 4, 0);
            INSERT INTO Z_METADATA VALUES (1, 'x', NULL);
            INSERT INTO ZFOLDER VALUES (1, 1, 1, 'Home');
            INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZDONE, ZFOLDER) VALUES
                (1, 3, 1, 'a', NULL, 1), (2, 4, 1, 'b', 1, NULL), (3, 4, 1, 'c', 0, 1), (4, 3, 1, 'd', NULL, NULL),
                (5, 5, 1, 'e', 0, 1);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let schema = try StoreSchema.read(sqliteFile: path)
        #expect(schema.entities.map(\.name) == ["Folder", "Item", "Note", "Task", "UrgentTask"])
        #expect(schema.entity(named: "Item")?.discriminator == Discriminator(column: "Z_ENT", values: [2, 3, 4, 5]))
        #expect(schema.entity(named: "Task")?.discriminator == Discriminator(column: "Z_ENT", values: [4, 5]))
        #expect(schema.entity(named: "Note")?.discriminator == Discriminator(column: "Z_ENT", values: [3]))
        #expect(schema.entity(named: "Folder")?.discriminator == nil)
        #expect(schema.entities.map(\.entityNumber) == [1, 2, 3, 4, 5])
        #expect(schema.storeIdentifier == "x")
        let objectIDs = try DatabaseQueue(path: path).read { db in
            try FetchSpecification(entity: "Item", filter: Filter("title != 'c'")).fetchObjectIDs(db, schema: schema)
        }
        #expect(objectIDs == ["x-coredata://x/Note/p1", "x-coredata://x/Task/p2", "x-coredata://x/Note/p4",
                              "x-coredata://x/UrgentTask/p5"])
        let folders = try DatabaseQueue(path: path).read { try FetchSpecification(entity: "Folder").fetchObjectIDs($0, schema: schema) }
        #expect(folders == ["x-coredata://x/Folder/p1"])
        var plainStore = schema
        plainStore.storeIdentifier = nil
        let keys = try DatabaseQueue(path: path).read { try FetchSpecification(entity: "Task").fetchObjectIDs($0, schema: plainStore) }
        #expect(keys == ["2", "3", "5"])
        // Without sub-entities, each entity reads only the rows of its own number.
        let own = try FetchSpecification(entity: "Task", includesSubentities: false).sql(in: schema, dialect: .sqlite)
        #expect(own.statement.sql.contains("\"Z_ENT\" = 4"), "\(own.statement.sql)")
        let family = try FetchSpecification(entity: "Task").sql(in: schema, dialect: .sqlite)
        #expect(family.statement.sql.contains("\"Z_ENT\" IN (4, 5)"), "\(family.statement.sql)")
        var unnumbered = schema
        unnumbered.entities = unnumbered.entities.map { var e = $0; e.entityNumber = nil; return e }
        #expect(throws: SQLLoweringError.self) {
            try FetchSpecification(entity: "Task", includesSubentities: false).sql(in: unnumbered, dialect: .sqlite)
        }
        // A schema written before entity numbers were recorded still decodes.
        let plain = try JSONDecoder().decode(StoreSchema.self, from: JSONEncoder().encode(unnumbered))
        #expect(plain == unnumbered)
        #expect(try JSONDecoder().decode(StoreSchema.self, from: JSONEncoder().encode(schema)) == schema)
        let task = try #require(schema.entity(named: "Task"))
        #expect(task.table == "ZITEM")
        #expect(task.attributes.map(\.name) == ["done", "due", "title", "title1", "size", "data"])
        #expect(task.attributes.map(\.type) == [.integer, .date(.referenceSeconds), .string, .string, .double, .blob])
        #expect(task.relationships == [.toOne("folder", "Folder", column: "ZFOLDER")])
        #expect(schema.entity(named: "Folder")?.relationships == [.toMany("items", "Item", inverseColumn: "ZFOLDER")])

        let queue = try DatabaseQueue(path: path, configuration: .sift)
        defer { try? queue.close() }
        func ids(_ entity: String, _ format: String) throws -> [Int] {
            try queue.read { db in
                try FetchSpecification(entity: entity, filter: try Filter(format)).fetchValues(db, schema: schema).map {
                    if case .int(let i) = $0["Z_PK"] { return i }
                    return 0
                }
            }
        }
        #expect(try ids("Note", "TRUEPREDICATE") == [1, 4])
        #expect(try ids("Task", "done == NO") == [3, 5])
        #expect(try ids("UrgentTask", "folder.name == 'Home'") == [5])
        #expect(try ids("Item", "folder != nil") == [1, 3, 5])
        #expect(try ids("Folder", "items.@count == 3 AND ANY items.title == 'e'") == [1])
        #expect(try queue.read { try FetchSpecification(entity: "Task").fetchCount($0, schema: schema) } == 3)
    }

    /// A chain of 2,000 sub-entities in one table, each below the one
    /// before: finding each entity's family by walking up from every entity
    /// took minutes; each family is the entity and all those after it.
    @Test func testCoreDataLongSubEntityChain() throws {
        let depth = 2_000
        let last = depth + 2
        // Item is 2; Item1 … Item2000 are 3 … 2002; Folder comes last, so
        // that looking destinations up one by one is slow too.
        let chain = (1...depth).map { "(\($0 + 2), 'Item\($0)', \($0 + 1), 0)" }.joined(separator: ", ")
        let path = try Self.store("""
            CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
            CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR, ZFOLDER INTEGER );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (2, 'Item', 0, 3), \(chain), (\(last + 1), 'Folder', 0, 1);
            INSERT INTO Z_METADATA VALUES (1, 'x', NULL);
            INSERT INTO ZFOLDER VALUES (1, \(last + 1), 1, 'Home');
            INSERT INTO ZITEM VALUES (1, 2, 1, 'top', 1), (2, \(last), 1, 'bottom', 1), (3, 1002, 1, 'middle', NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let schema = try StoreSchema.read(sqliteFile: path)
        #expect(schema.entities.map(\.name) == (["Item"] + (1...depth).map { "Item\($0)" } + ["Folder"]))
        let items = schema.entities.dropLast()
        #expect(items.map(\.discriminator) == (2...last).map { Discriminator(column: "Z_ENT", values: Array($0...last)) })
        #expect(items.allSatisfy { $0.table == "ZITEM" && $0.attributes == [Attribute("title", .string, column: "ZTITLE")] })
        #expect(items.allSatisfy { $0.relationships == [.toOne("folder", "Folder", column: "ZFOLDER")] })
        let folder = try #require(schema.entities.last)
        #expect(folder.discriminator == nil)
        #expect(folder.relationships == [.toMany("items", "Item", inverseColumn: "ZFOLDER")])

        let queue = try DatabaseQueue(path: path, configuration: .sift)
        defer { try? queue.close() }
        func titles(_ entity: String, _ format: String) throws -> [Value?] {
            try queue.read { db in
                try FetchSpecification(entity: entity, filter: try Filter(format)).fetchValues(db, schema: schema).map { $0["title"] }
            }
        }
        #expect(try titles("Item", "TRUEPREDICATE") == [.string("top"), .string("bottom"), .string("middle")])
        #expect(try titles("Item1000", "TRUEPREDICATE") == [.string("bottom"), .string("middle")])
        #expect(try titles("Item2000", "folder.name == 'Home'") == [.string("bottom")])
        #expect(try titles("Folder", "items.@count == 2").count == 1)
    }

    /// `Z_SUPER` links that loop (a damaged store): the link closing the
    /// loop, met walking up from the lowest entity number, is left out.
    @Test func testCoreDataSubEntityLoop() throws {
        let path = try Self.store("""
            CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR );
            CREATE TABLE ZLOOSE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSIZE INTEGER );
            CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
            CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
            INSERT INTO Z_PRIMARYKEY VALUES (2, 'Item', 4, 0), (3, 'Note', 2, 0), (4, 'Task', 3, 0), (5, 'Loose', 5, 0);
            INSERT INTO Z_METADATA VALUES (1, 'x', NULL);
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // From Item (2): Task (4), Note (3), whose link back to Item closes
        // the loop: Note is the root, Task below it, Item below Task.
        let schema = try StoreSchema.read(sqliteFile: path)
        #expect(schema.entities.map(\.name) == ["Item", "Note", "Task", "Loose"])
        #expect(schema.entities.map(\.table) == ["ZNOTE", "ZNOTE", "ZNOTE", "ZLOOSE"])
        #expect(schema.entities.map(\.discriminator?.values) == [[2], [2, 3, 4], [2, 4], nil])
    }

    /// The SQLite example of the DocC articles (SiftSQLite), as written
    /// there.
    @Test func testReadmeExample() throws {
        let path = try Self.store(Self.coreDataDDL)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try DatabaseQueue(path: path, configuration: .sift)
        let schema = try db.read { try StoreSchema.read(from: $0) }
        let rows = try db.read { db in
            try FetchSpecification(entity: "Book", filter: try Filter("ANY tags.name == 'sf' AND author.books.@count > 1"))
                .fetchValues(db, schema: schema)
        }
        #expect(rows.map { $0["title"] } == [.string("Dune"), .string("Neuromancer")])
        try db.close()
    }

    @Test func testErrors() throws {
        if let error = #expect(throws: (any Error).self, performing: { try StoreSchema.read(sqliteFile: "/nonexistent/library.sqlite") }) {
            #expect((error as? StoreSchemaError)?.message == "no such file: /nonexistent/library.sqlite")
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("sift-\(UUID().uuidString).sqlite").path
        try Data("not a database, but long enough to look like one to nobody".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: (any Error).self, performing: { try StoreSchema.read(sqliteFile: path) })
        #expect(try DatabaseQueue().read { try StoreSchema.read(from: $0) } == StoreSchema([]))
    }

    // MARK: - Helpers

    /// Runs `format` through SQL on `queue` and through the evaluator on
    /// `objects`: both give the rows with the keys `ids`, in key order, and
    /// the same attribute values.
    func compare(
        _ queue: DatabaseQueue, _ schema: StoreSchema, entity: String, _ format: String, _ args: [any FormatArgumentConvertible],
        _ objects: [Value], _ ids: [Int], key: String = "id", sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let request = FetchSpecification(entity: entity, filter: try Filter(format, arguments: args))
        let fetched = try queue.read { try request.fetchValues($0, schema: schema) }
        let count = try queue.read { try request.fetchCount($0, schema: schema) }
        let expected = try request.execute(on: objects)
        let columns = Set(try request.sql(in: schema, dialect: .sqlite).columns.map(\.name))
        let projected = expected.map { v -> Value in
            guard case .dictionary(let d) = v else { return v }
            return .dictionary(d.filter { columns.contains($0.key) })
        }
        #expect(fetched == projected, "\(entity): \(format)", sourceLocation: sourceLocation)
        #expect(fetched.map { $0[key] } == ids.map { Value.int($0) }, "\(entity): \(format)", sourceLocation: sourceLocation)
        #expect(count == ids.count, "\(entity): \(format)", sourceLocation: sourceLocation)
    }
}

extension Value {
    fileprivate var int: Int? {
        if case .int(let i) = self { return i }
        return nil
    }

    fileprivate var string: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    fileprivate subscript(key: String) -> Value? {
        if case .dictionary(let d) = self { return d[key] }
        return nil
    }
}
