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

struct TypedFilterTests {
    let books = [
        Book(title: "It", year: 1986, authors: [Author(name: "Stephen King", born: 1947)], tags: ["horror"]),
        Book(
            title: "Good Omens", year: 1990,
            authors: [Author(name: "Terry Pratchett", born: 1948), Author(name: "Neil Gaiman", born: nil)],
            tags: ["comedy", "fantasy"]),
        Book(title: "Untitled", year: 2001, authors: [], tags: []),
    ]

    static let formats = [
        "year > 1987", "title BEGINSWITH[c] 'good'", "ANY authors.name CONTAINS[cd] 'GAIMAN'", "'horror' IN tags",
        "authors.@count == 0", "SELF.year < 2000 AND NOT title LIKE '*men*'", "ALL authors.born > 1940",
        "SUBQUERY(authors, $a, $a.born == nil).@count > 0", "year / 10 == 198", "authors[FIRST].name == 'Stephen King'",
        "@count == 1",
    ]

    /// The typed path and the dynamic path give the same answers, errors included.
    @Test(arguments: formats)
    func typedMatchesDynamic(format: String) throws {
        let filter = try Filter(format)
        let typed = filter.compiled(for: Book.self)
        let dynamic = filter.compiled()
        for book in books {
            let a = Result { () throws(EvaluationError) in try typed.evaluate(with: book) }
            let b = Result { () throws(EvaluationError) in try dynamic.evaluate(with: book) }
            switch (a, b) {
            case (.success(let x), .success(let y)): #expect(x == y, "\(format) on \(book.title)")
            case (.failure(let x), .failure(let y)): #expect(x.code == y.code, "\(format) on \(book.title)")
            default: Issue.record("\(format) on \(book.title): typed \(a), dynamic \(b)")
            }
        }
    }

    /// Values are copied all through evaluation; an object case stored
    /// inline would make every one of them about 100 bytes.
    @Test func valuesStaySmall() {
        #expect(MemoryLayout<Value>.size <= 24)
    }

    @Test func typedCollectionHelpers() throws {
        let f = try Filter("year >= 1990").compiled(for: Book.self)
        #expect(try books.filter(f).map(\.title) == ["Good Omens", "Untitled"])
        #expect(try books.count(where: f) == 2)
        #expect(try books.first(where: f)?.title == "Good Omens")
        #expect(throws: EvaluationError.self) { try Filter("isbn == 1").compiled(for: Book.self).evaluate(with: books[0]) }
    }
}
