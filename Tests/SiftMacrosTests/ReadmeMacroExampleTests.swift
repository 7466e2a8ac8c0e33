import Foundation
import SiftMacros
import Testing

// The example of @KeyValueReadable in README.md and SiftMacros' DocC, as it
// is printed there.

enum Genre: String { case fiction, poetry }

@KeyValueReadable
struct Author {
    var name: String
}

@KeyValueReadable
struct Book {
    var title: String
    var year: Int
    var tags: [String]
    var genre: Genre                      // read as its raw value
    var published: Date?                  // nil when absent
    var editor: Author                    // to-one
    var authors: [Author]                 // to-many
    @SiftKey("isbn_13") var isbn: String  // another key
    @SiftIgnored var cover: Data          // not a key
    var decade: Int { year / 10 * 10 }    // computed: not a key unless @SiftKey
}

struct ReadmeMacroExampleTests {
    @Test func readmeExample() throws {
        let gaiman = Author(name: "Neil Gaiman")
        let books = [
            Book(title: "Stardust", year: 1999, tags: ["fairy"], genre: .fiction, published: nil,
                 editor: gaiman, authors: [gaiman], isbn: "9780061142024", cover: Data()),
            Book(title: "Coraline", year: 2002, tags: [], genre: .fiction, published: Date(timeIntervalSince1970: 0),
                 editor: gaiman, authors: [gaiman], isbn: "9780380977789", cover: Data()),
        ]

        let early = try Filter("ANY authors.name CONTAINS[c] 'gaiman' AND year < 2000 AND genre == 'fiction'")
            .compiled(for: Book.self)
        let hits = try books.filter(early)
        #expect(hits.map(\.title) == ["Stardust"])
        #expect(try books.count(where: Filter("isbn_13 BEGINSWITH '978038'").compiled(for: Book.self)) == 1)
        #expect(try books.count(where: Filter("published == nil").compiled(for: Book.self)) == 1)
        #expect(throws: EvaluationError.self) { try books.count(where: Filter("decade == 1990").compiled(for: Book.self)) }

        let recent = try Filter(#Predicate<Book> { $0.year > 1990 && $0.editor.name == "Neil Gaiman" })
        #expect(recent.format == "year > 1990 AND editor.name == \"Neil Gaiman\"")
        let newest = try books.filter(recent.compiled(for: Book.self))
            .sorted(by: [SortKey]([SortDescriptor(\Book.year, order: .reverse)]))
        #expect(newest.map(\.title) == ["Coraline", "Stardust"])
    }
}
