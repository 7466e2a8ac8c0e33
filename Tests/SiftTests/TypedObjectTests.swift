import Foundation
import Testing

@testable import Sift

struct Author: KeyValueReadable, Hashable {
    var name: String
    var born: Int?

    static let keyTable = KeyTable<Author>([
        "name": { .string($0.name) },
        "born": { $0.born.predicateValue },
    ])
}

struct Book: KeyValueReadable, Hashable {
    var title: String
    var year: Int
    var authors: [Author]
    var tags: Set<String>

    static let keyTable = KeyTable<Book>([
        "title": { .string($0.title) },
        "year": { .int($0.year) },
        "authors": { $0.authors.predicateValue },
        "tags": { $0.tags.predicateValue },
    ])
}

final class Shelf: KeyValueReadable, @unchecked Sendable {
    let books: [Book]
    init(_ books: [Book]) { self.books = books }
    static let keyTable = KeyTable<Shelf>(["books": { $0.books.predicateValue }])
}

struct TypedObjectTests {
    let books = [
        Book(title: "It", year: 1986, authors: [Author(name: "Stephen King", born: 1947)], tags: ["horror"]),
        Book(
            title: "Good Omens", year: 1990,
            authors: [Author(name: "Terry Pratchett", born: 1948), Author(name: "Neil Gaiman", born: nil)],
            tags: ["comedy", "fantasy"]),
    ]

    @Test func keysThroughRelationships() throws {
        let f = try Filter("ANY authors.name BEGINSWITH[c] 'neil' AND 'fantasy' IN tags").compiled()
        #expect(try books.filter(f).map(\.title) == ["Good Omens"])
        #expect(try books.count(where: Filter("authors.@count == 1").compiled()) == 1)
        #expect(try books.first(where: Filter("year < 1990").compiled())?.title == "It")
        #expect(try books.filter(Filter("SUBQUERY(authors, $a, $a.born == nil).@count > 0")).count == 1)
        #expect(try books.filter(Filter("authors.@max.born == 1948")).count == 1)
    }

    @Test func unknownKeysAreErrors() throws {
        #expect {
            try Filter("isbn == '1'").compiled().evaluate(with: books[0])
        } throws: { e in
            (e as? EvaluationError)?.code == .unknownKey && (e as? EvaluationError)?.message.contains("Book") == true
        }
    }

    @Test func objectsCompareByValueOrIdentity() throws {
        let king = Author(name: "Stephen King", born: 1947)
        #expect(try Filter("ANY authors == %@", Value.object(king)).compiled().evaluate(with: books[0]))
        let shelf = Shelf(books)
        #expect(try Filter("books.@count == 2 AND ANY books.year > 1989").compiled().evaluate(with: shelf))
        #expect(Value.object(shelf) == Value.object(shelf))
        #expect(Value.object(shelf) != Value.object(Shelf(books)))
        #expect(try Filter("SELF == %@", Value.object(shelf)).compiled().evaluate(with: shelf))
    }
}
