import GRDB
import SiftSQL

/// The REPL's built-in data: books, their authors and tags, and memos about
/// them, with dates, nils, to-one, to-many and many-to-many relationships,
/// and names that need Unicode (García Márquez, Lem's Stanisław, Lagerlöf).
enum SampleData {
    static let schema = StoreSchema([
        Entity("Book", table: "books", attributes: [
            Attribute("title", .string, optional: false),
            Attribute("year", .integer),
            Attribute("pages", .integer),
            Attribute("price", .double),
            Attribute("rating", .double),
            Attribute("language", .string),
        ], relationships: [
            .manyToMany("authors", "Author", joinTable: "book_authors", sourceColumn: "book_id", destinationColumn: "author_id"),
            .manyToMany("tags", "Tag", joinTable: "book_tags", sourceColumn: "book_id", destinationColumn: "tag_id"),
            .toMany("memos", "Memo", inverseColumn: "book_id"),
        ]),
        Entity("Author", table: "authors", attributes: [
            Attribute("name", .string, optional: false),
            Attribute("born", .integer),
            Attribute("country", .string),
        ], relationships: [
            .manyToMany("books", "Book", joinTable: "book_authors", sourceColumn: "author_id", destinationColumn: "book_id"),
            .toMany("memos", "Memo", inverseColumn: "author_id"),
        ]),
        Entity("Tag", table: "tags", attributes: [
            Attribute("name", .string, optional: false),
        ], relationships: [
            .manyToMany("books", "Book", joinTable: "book_tags", sourceColumn: "tag_id", destinationColumn: "book_id"),
        ]),
        Entity("Memo", table: "memos", attributes: [
            Attribute("title", .string, optional: false),
            Attribute("body", .string),
            Attribute("created", .date(.iso8601)),
            Attribute("pinned", .boolean),
            Attribute("priority", .integer),
        ], relationships: [
            .toOne("author", "Author", column: "author_id"),
            .toOne("book", "Book", column: "book_id"),
        ]),
    ])

    // id, name, born, country
    static let authors: [(Int, String, Int?, String?)] = [
        (1, "Gabriel García Márquez", 1927, "Colombia"),
        (2, "Stanisław Lem", 1921, "Poland"),
        (3, "Fyodor Dostoevsky", 1821, "Russia"),
        (4, "Émile Zola", 1840, "France"),
        (5, "Günter Grass", 1927, "Germany"),
        (6, "Haruki Murakami", 1949, "Japan"),
        (7, "Jorge Luis Borges", 1899, "Argentina"),
        (8, "Ursula K. Le Guin", 1929, "United States"),
        (9, "Chimamanda Ngozi Adichie", 1977, "Nigeria"),
        (10, "Selma Lagerlöf", 1858, "Sweden"),
        (11, "Naguib Mahfouz", 1911, "Egypt"),
        (12, "Terry Pratchett", 1948, "United Kingdom"),
        (13, "Neil Gaiman", 1960, "United Kingdom"),
        (14, "Anonymous", nil, nil),
    ]

    // id, title, year, pages, price, rating, language
    static let books: [(Int, String, Int?, Int?, Double?, Double?, String?)] = [
        (1, "Cien años de soledad", 1967, 417, 14.5, 4.6, "es"),
        (2, "Solaris", 1961, 204, 11.0, 4.2, "pl"),
        (3, "Crime and Punishment", 1866, 671, 9.99, 4.5, "ru"),
        (4, "The Brothers Karamazov", 1880, 796, 12.5, 4.7, "ru"),
        (5, "Germinal", 1885, 592, 8.0, 4.1, "fr"),
        (6, "Die Blechtrommel", 1959, 590, 13.0, 4.0, "de"),
        (7, "Norwegian Wood", 1987, 296, 10.5, 3.9, "ja"),
        (8, "Kafka on the Shore", 2002, 505, 11.5, 4.0, "ja"),
        (9, "Ficciones", 1944, 174, 9.0, 4.5, "es"),
        (10, "El Aleph", 1949, 146, nil, 4.4, "es"),
        (11, "A Wizard of Earthsea", 1968, 183, 8.5, 4.3, "en"),
        (12, "The Left Hand of Darkness", 1969, 304, 9.5, 4.2, "en"),
        (13, "The Dispossessed", 1974, 387, 10.0, 4.3, "en"),
        (14, "Half of a Yellow Sun", 2006, 433, 12.0, 4.4, "en"),
        (15, "Americanah", 2013, 588, 13.5, nil, "en"),
        (16, "Nils Holgerssons underbara resa genom Sverige", 1906, 632, nil, 4.0, "sv"),
        (17, "Palace Walk", 1956, 498, 11.0, 4.1, "ar"),
        (18, "Good Omens", 1990, 412, 9.0, 4.3, "en"),
        (19, "Mort", 1987, 272, 7.5, 4.2, "en"),
        (20, "The Arabian Nights", nil, 1000, 15.0, nil, nil),
    ]

    static let bookAuthors: [(book: Int, author: Int)] = [
        (1, 1), (2, 2), (3, 3), (4, 3), (5, 4), (6, 5), (7, 6), (8, 6), (9, 7), (10, 7), (11, 8), (12, 8), (13, 8),
        (14, 9), (15, 9), (16, 10), (17, 11), (18, 12), (18, 13), (19, 12), (20, 14),
    ]

    static let tags: [(Int, String)] = [
        (1, "classic"), (2, "science fiction"), (3, "fantasy"), (4, "magical realism"), (5, "short stories"),
        (6, "nobel"), (7, "humour"), (8, "draft"),
    ]

    static let bookTags: [(book: Int, tag: Int)] = [
        (1, 1), (1, 4), (1, 6), (2, 2), (2, 1), (3, 1), (4, 1), (5, 1), (6, 6), (6, 4), (7, 8), (8, 4), (9, 5),
        (9, 3), (10, 5), (11, 3), (12, 2), (13, 2), (16, 6), (16, 3), (17, 6), (18, 7), (18, 3), (19, 7), (19, 3),
        (20, 1), (20, 5),
    ]

    // id, title, body, created (ISO 8601), pinned, priority, author, book
    static let memos: [(Int, String, String?, String?, Bool?, Int?, Int?, Int?)] = [
        (1, "Reread the opening", "Macondo's first chapter, aloud.", "2024-01-14T09:30:00.000Z", true, 1, 1, 1),
        (2, "Translation notes", "Compare the 1970 and 2014 translations.", "2024-02-02T18:05:00.000Z", false, 2, 2, 2),
        (3, "Book club", "Karamazov in March; bring questions.", "2024-02-20T19:00:00.000Z", true, 1, 3, 4),
        (4, "Gift idea", nil, "2024-03-08T12:00:00.000Z", false, nil, 9, 15),
        (5, "Café reading list", "Borges, then Zola — café au lait.", "2024-04-01T08:15:00.000Z", false, 3, nil, nil),
        (6, "Straße names in Danzig", "Check the Blechtrommel map.", "2024-05-12T16:45:00.000Z", false, 3, 5, 6),
        (7, "Earthsea order", "Read in publication order.", "2024-06-30T21:10:00.000Z", true, 2, 8, 11),
        (8, "DRAFT: review", "Unfinished review of Mort.", nil, nil, 5, 12, 19),
        (9, "Quotes", "“It is a truth…” — not this one.", "2024-09-09T09:09:09.000Z", false, nil, nil, 9),
        (10, "İstanbul trip", "Find a Mahfouz first edition.", "2024-10-31T23:59:59.000Z", false, 4, 11, 17),
    ]

    /// A new in-memory database holding the sample.
    static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: .sift)
        try queue.write { db in
            for statement in schema.createStatements(dialect: .sqlite) { try db.execute(sql: statement) }
            for a in authors {
                try db.execute(
                    sql: "INSERT INTO authors (id, name, born, country) VALUES (?, ?, ?, ?)",
                    arguments: [a.0, a.1, a.2, a.3])
            }
            for b in books {
                try db.execute(
                    sql: "INSERT INTO books (id, title, year, pages, price, rating, language) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    arguments: [b.0, b.1, b.2, b.3, b.4, b.5, b.6])
            }
            for t in tags { try db.execute(sql: "INSERT INTO tags (id, name) VALUES (?, ?)", arguments: [t.0, t.1]) }
            for link in bookAuthors {
                try db.execute(
                    sql: "INSERT INTO book_authors (book_id, author_id) VALUES (?, ?)", arguments: [link.book, link.author])
            }
            for link in bookTags {
                try db.execute(sql: "INSERT INTO book_tags (book_id, tag_id) VALUES (?, ?)", arguments: [link.book, link.tag])
            }
            for m in memos {
                try db.execute(
                    sql: """
                        INSERT INTO memos (id, title, body, created, pinned, priority, author_id, book_id)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                        """,
                    arguments: [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7])
            }
        }
        return queue
    }
}
