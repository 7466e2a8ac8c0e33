import Foundation
import Sift
import SiftSQL

/// A small generator with a fixed seed (SplitMix64), so that a failing case
/// reproduces from the seed printed with it: the one every generated test
/// of every target draws from. Its sequence is part of those tests (their
/// corpora and counts); changing the algorithm changes what they check.
package struct SeededRandom: RandomNumberGenerator {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Books, their authors (to-one), chapters (ordered to-many) and tags
/// (ordered many-to-many), with nils, empty relationships, non-ASCII text (ß, é in
/// NFC and NFD, İ), `%`, `_`, `*` in strings and repeated sort keys.
package struct Library {
    package static let schema = StoreSchema([
        Entity("Author", table: "authors", attributes: [
            Attribute("name", .string),
            Attribute("age", .integer),
            Attribute("rating", .double),
            Attribute("active", .boolean),
            Attribute("born", .date(.referenceSeconds)),
        ]),
        Entity("Book", table: "books", attributes: [
            Attribute("title", .string, optional: false),
            Attribute("year", .integer),
            Attribute("price", .double),
            Attribute("published", .date(.unixSeconds)),
            Attribute("code", .string, column: "isbn code"),
        ], relationships: [
            .toOne("author", "Author", column: "author_id"),
            // Ordered, as the books' arrays are: `position` is each
            // chapter's (and tag's) index in its book's array.
            Relationship("chapters", "Chapter", .toMany(inverseColumn: "book_id"), ordered: true, orderColumn: "position"),
            Relationship(
                "tags", "Tag", .manyToMany(table: "book_tags", sourceColumn: "book_id", destinationColumn: "tag_id"),
                ordered: true, orderColumn: "position"),
        ]),
        Entity("Chapter", table: "chapters", attributes: [
            Attribute("name", .string),
            Attribute("pages", .integer),
        ], relationships: [
            .toOne("book", "Book", column: "book_id"),
        ]),
        Entity("Tag", table: "tags", attributes: [
            Attribute("name", .string),
        ]),
    ])

    /// A Core Data store identifier for the object ID URIs of the
    /// generated object predicates.
    package static let storeIdentifier = "5A1F7E0B-3C2D-4E6F-8A9B-0C1D2E3F4A5B"

    /// ``schema`` as the schema of a store with ``storeIdentifier``, which
    /// object ID URIs of that store may name.
    package static var schemaOfAStore: StoreSchema {
        var s = schema
        s.storeIdentifier = storeIdentifier
        return s
    }

    package static let strings: [String?] = [
        "Ann", "ann", "ANN", "Anna", "Straße", "STRASSE", "strasse", "café", "cafe\u{301}", "CAFÉ", "Émile", "emile",
        "İstanbul", "istanbul", "100%", "a_b", "a*b", "x?y", "back\\slash", "", "Zoë", "zoe", "file2", "file10",
        "ab", "abc", "Ab", "b", "ñandú", "naïve", "Ω", nil, nil,
    ]

    package struct Row {
        package var table: String
        package var values: [String: SQLValue]

        package init(table: String, values: [String: SQLValue]) {
            self.table = table
            self.values = values
        }
    }

    package var rows: [Row] = []
    /// The books as the evaluator sees them, in primary-key order.
    package var books: [Value] = []
    /// Every object as the evaluator sees it, by entity and primary key.
    package var objects: [String: [Int: Value]] = [:]

    package init(seed: UInt64) {
        var rng = SeededRandom(seed: seed)
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
        func maybe(_ p: Double = 0.2) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        func text(_ s: String?) -> (SQLValue, Value) { s.map { (.text($0), .string($0)) } ?? (.null, .null) }

        var authors: [Int: Value] = [:]
        for id in 1...10 {
            let name = text(pick(Self.strings))
            let age: Int? = maybe() ? nil : Int.random(in: 20...90, using: &rng)
            let rating: Double? = maybe() ? nil : Double(Int.random(in: 0...50, using: &rng)) / 10
            let active: Bool? = maybe() ? nil : Bool.random(using: &rng)
            let born: Double? = maybe() ? nil : Double(Int.random(in: -2_000_000_000...700_000_000, using: &rng))
            rows.append(Row(table: "authors", values: [
                "id": .integer(Int64(id)), "name": name.0, "age": age.map { .integer(Int64($0)) } ?? .null,
                "rating": rating.map(SQLValue.real) ?? .null, "active": active.map(SQLValue.boolean) ?? .null,
                "born": born.map(SQLValue.real) ?? .null,
            ]))
            authors[id] = .dictionary([
                "id": .int(id), "name": name.1, "age": age.map(Value.int) ?? .null,
                "rating": rating.map(Value.double) ?? .null, "active": active.map(Value.bool) ?? .null,
                "born": born.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null,
            ])
        }
        var tags: [Int: Value] = [:]
        for id in 1...8 {
            let name = text(pick(Self.strings))
            rows.append(Row(table: "tags", values: ["id": .integer(Int64(id)), "name": name.0]))
            tags[id] = .dictionary(["id": .int(id), "name": name.1])
        }
        var chapterID = 0
        for id in 1...60 {
            let title = pick(Self.strings.compactMap { $0 })
            let year: Int? = maybe() ? nil : Int.random(in: 1990...2010, using: &rng)
            let price: Double? = maybe() ? nil : Double(Int.random(in: 0...40, using: &rng)) / 4
            let published: Double? = maybe() ? nil : Double(Int.random(in: 0...1_700_000_000, using: &rng))
            let code = text(pick(Self.strings))
            let authorID: Int? = maybe(0.15) ? nil : Int.random(in: 1...10, using: &rng)
            rows.append(Row(table: "books", values: [
                "id": .integer(Int64(id)), "title": .text(title), "year": year.map { .integer(Int64($0)) } ?? .null,
                "price": price.map(SQLValue.real) ?? .null, "published": published.map(SQLValue.real) ?? .null,
                "isbn code": code.0, "author_id": authorID.map { .integer(Int64($0)) } ?? .null,
            ]))
            var chapters: [Value] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                chapterID += 1
                let name = text(pick(Self.strings))
                let pages: Int? = maybe(0.15) ? nil : Int.random(in: 1...40, using: &rng)
                rows.append(Row(table: "chapters", values: [
                    "id": .integer(Int64(chapterID)), "name": name.0, "pages": pages.map { .integer(Int64($0)) } ?? .null,
                    "book_id": .integer(Int64(id)), "position": .integer(Int64(chapters.count)),
                ]))
                chapters.append(.dictionary(["id": .int(chapterID), "name": name.1, "pages": pages.map(Value.int) ?? .null]))
                objects["Chapter", default: [:]][chapterID] = chapters.last
            }
            var bookTags: [Value] = []
            var used: Set<Int> = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let t = Int.random(in: 1...8, using: &rng)
                guard used.insert(t).inserted else { continue }
                rows.append(Row(table: "book_tags", values: [
                    "book_id": .integer(Int64(id)), "tag_id": .integer(Int64(t)), "position": .integer(Int64(bookTags.count)),
                ]))
                bookTags.append(tags[t] ?? .null)
            }
            books.append(.dictionary([
                "id": .int(id), "title": .string(title), "year": year.map(Value.int) ?? .null,
                "price": price.map(Value.double) ?? .null,
                "published": published.map { .date(Date(timeIntervalSince1970: $0)) } ?? .null,
                "code": code.1, "author": authorID.flatMap { authors[$0] } ?? .null,
                "chapters": .array(chapters), "tags": .array(bookTags),
            ]))
            objects["Book", default: [:]][id] = books.last
        }
        objects["Author"] = authors
        objects["Tag"] = tags
    }

    /// `INSERT` statements for every row.
    package func inserts(_ dialect: Dialect) -> [BoundStatement] { Self.inserts(rows, dialect) }

    /// `INSERT` statements for `rows`.
    package static func inserts(_ rows: [Row], _ dialect: Dialect) -> [BoundStatement] {
        rows.map { row in
            let columns = row.values.keys.sorted()
            let placeholders = columns.indices.map { dialect == .sqlite ? "?" : "$\($0 + 1)" }
            return BoundStatement(
                sql: "INSERT INTO \(dialect.quote(row.table)) (" + columns.map(dialect.quote).joined(separator: ", ")
                    + ") VALUES (" + placeholders.joined(separator: ", ") + ")",
                bindings: columns.map { row.values[$0] ?? .null })
        }
    }
}
