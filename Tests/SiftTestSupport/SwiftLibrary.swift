import Foundation
import Sift
import SiftSQL

/// ``Library``'s entities as Swift structs, for `#Predicate`: the same
/// books, authors, chapters and tags, written as SQL rows (stored through
/// `Library.schema`) and as these objects from one seeded generator, so that
/// a Swift predicate's answer on the objects can be compared with the rows
/// SQLite and PostgreSQL return. The key tables are hand-written, with key
/// paths as readers, and their keys are the schema's attributes and
/// relationships (`id`, the primary key, is not a key: SQL cannot read it);
/// an optional property is a nullable column. The arrays `chapters` and
/// `tags` are stored in order (their relationships are ordered, with the
/// order column `position`), so `.first` and `.last` compare exactly.
///
/// ``Library`` makes 60 books with no negative or extreme numbers; this
/// makes `books` of them (500 by default) with the same kinds of strings and
/// more: negative and very large integers, ±0, subnormal, huge and infinite
/// doubles, strings canonically equivalent to others (K and KELVIN SIGN, `;`
/// and GREEK QUESTION MARK, marks in either order). No NaN: SQLite stores
/// NaN as NULL, so a row could not equal its object.
package struct SwiftLibrary {
    package struct Author: KeyValueReadable, Hashable, Sendable {
        package var id: Int
        package var name: String?
        package var age: Int?
        package var rating: Double?
        package var active: Bool?
        package var born: Date?

        package static let keyTable = KeyTable<Author>(typed: [
            "name": .value { $0.name.predicateValue }.reads(\.name),
            "age": .value { $0.age.predicateValue }.reads(\.age),
            "rating": .value { $0.rating.predicateValue }.reads(\.rating),
            "active": .value { $0.active.predicateValue }.reads(\.active),
            "born": .value { $0.born.predicateValue }.reads(\.born),
        ])
    }

    package struct Chapter: KeyValueReadable, Hashable, Sendable {
        package var id: Int
        package var name: String?
        package var pages: Int?

        package static let keyTable = KeyTable<Chapter>(typed: [
            "name": .value { $0.name.predicateValue }.reads(\.name),
            "pages": .value { $0.pages.predicateValue }.reads(\.pages),
        ])
    }

    package struct Tag: KeyValueReadable, Hashable, Sendable {
        package var id: Int
        package var name: String?

        package static let keyTable = KeyTable<Tag>(typed: [
            "name": .value { $0.name.predicateValue }.reads(\.name),
        ])
    }

    package struct Book: KeyValueReadable, Hashable, Sendable {
        package var id: Int
        package var title: String
        package var year: Int?
        package var price: Double?
        package var published: Date?
        package var code: String?
        package var author: Author?
        package var chapters: [Chapter]
        package var tags: [Tag]

        package static let keyTable = KeyTable<Book>(typed: [
            "title": .string(\.title),
            "year": .value { $0.year.predicateValue }.reads(\.year),
            "price": .value { $0.price.predicateValue }.reads(\.price),
            "published": .value { $0.published.predicateValue }.reads(\.published),
            "code": .value { $0.code.predicateValue }.reads(\.code),
            "author": .value { $0.author.predicateValue }.reads(\.author),
            "chapters": .objects(\.chapters),
            "tags": .objects(\.tags),
        ])
    }

    /// ``Library/strings`` and strings that are canonically equivalent to
    /// others without being equal to them, or that decompose to ASCII.
    package static let strings: [String?] = Library.strings + [
        "Kelvin", "\u{212A}elvin", "x;y", "x\u{37E}y", "a`b", "a\u{1FEF}b", "\u{1EC7}", "e\u{323}\u{302}",
        "e\u{302}\u{323}", "ß", "ss", "İ", "i\u{307}", "Å", "A\u{30A}", "\u{212B}",
    ]

    package static let edgeIntegers = [0, -1, 1, -44, 2_147_483_648, -3_000_000_000, 9_007_199_254_740_993, Int.max, Int.min]
    package static let edgeDoubles: [Double] = [
        0, -0.0, -2.25, 0.1 + 0.2, .leastNonzeroMagnitude, -1e300, 1e300, .greatestFiniteMagnitude, .infinity, -.infinity,
    ]

    package var rows: [Library.Row] = []
    /// The books, in primary-key order.
    package var books: [Book] = []

    package init(seed: UInt64, books count: Int = 500) {
        var rng = SeededRandom(seed: seed)
        func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
        func maybe(_ p: Double = 0.2) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
        func sql(_ s: String?) -> SQLValue { s.map(SQLValue.text) ?? .null }
        func sql(_ i: Int?) -> SQLValue { i.map { .integer(Int64($0)) } ?? .null }
        func sql(_ d: Double?) -> SQLValue { d.map(SQLValue.real) ?? .null }

        var authors: [Author] = []
        for id in 1...30 {
            let author = Author(
                id: id, name: pick(Self.strings),
                age: maybe() ? nil : maybe(0.1) ? pick([0, -1, Int.max]) : Int.random(in: 20...90, using: &rng),
                rating: maybe() ? nil : maybe(0.1) ? pick(Self.edgeDoubles) : Double(Int.random(in: 0...50, using: &rng)) / 10,
                active: maybe() ? nil : Bool.random(using: &rng),
                born: maybe() ? nil : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -2_000_000_000...700_000_000, using: &rng))))
            authors.append(author)
            rows.append(Library.Row(table: "authors", values: [
                "id": sql(id), "name": sql(author.name), "age": sql(author.age), "rating": sql(author.rating),
                "active": author.active.map(SQLValue.boolean) ?? .null,
                "born": sql(author.born?.timeIntervalSinceReferenceDate),
            ]))
        }
        var tags: [Tag] = []
        for id in 1...12 {
            let tag = Tag(id: id, name: pick(Self.strings))
            tags.append(tag)
            rows.append(Library.Row(table: "tags", values: ["id": sql(id), "name": sql(tag.name)]))
        }
        var chapterID = 0
        for id in 1...count {
            var book = Book(
                id: id, title: pick(Self.strings.compactMap { $0 }),
                year: maybe(0.15) ? nil : maybe(0.1) ? pick(Self.edgeIntegers) : Int.random(in: 1990...2010, using: &rng),
                price: maybe(0.15) ? nil : maybe(0.15) ? pick(Self.edgeDoubles) : Double(Int.random(in: -8...40, using: &rng)) / 4,
                published: maybe(0.15) ? nil : Date(timeIntervalSince1970: Double(Int.random(in: -900_000_000...1_700_000_000, using: &rng))),
                code: pick(Self.strings), author: maybe(0.15) ? nil : pick(authors), chapters: [], tags: [])
            rows.append(Library.Row(table: "books", values: [
                "id": sql(id), "title": .text(book.title), "year": sql(book.year), "price": sql(book.price),
                "published": sql(book.published?.timeIntervalSince1970), "isbn code": sql(book.code),
                "author_id": sql(book.author?.id),
            ]))
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                chapterID += 1
                let chapter = Chapter(
                    id: chapterID, name: pick(Self.strings),
                    pages: maybe(0.15) ? nil : maybe(0.1) ? pick(Self.edgeIntegers) : Int.random(in: 1...40, using: &rng))
                // Each chapter goes first, so that the order column, not the
                // primary key, gives the array's order.
                book.chapters.insert(chapter, at: 0)
                rows.append(Library.Row(table: "chapters", values: [
                    "id": sql(chapterID), "name": sql(chapter.name), "pages": sql(chapter.pages), "book_id": sql(id),
                    "position": sql(-chapterID),
                ]))
            }
            var used: Set<Int> = []
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                let tag = pick(tags)
                guard used.insert(tag.id).inserted else { continue }
                rows.append(Library.Row(table: "book_tags", values: [
                    "book_id": sql(id), "tag_id": sql(tag.id), "position": sql(book.tags.count),
                ]))
                book.tags.append(tag)
            }
            books.append(book)
        }
    }
}
