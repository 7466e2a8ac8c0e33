import Foundation
import Sift
import SiftMacros
import Testing

/// `#Predicate` on `@KeyValueReadable` types: the tables the macro writes
/// record each key path, so every kind of property converts, renamed keys
/// (`@SiftKey("isbn13")`) and computed ones marked `@SiftKey` included.
struct SwiftPredicateMacroTests {
    @Test func macroTablesConvert() throws {
        let prose = MacroGenre.prose
        let high = MacroRank.high
        let cases: [(Predicate<MacroBook>, String)] = [
            (#Predicate<MacroBook> { $0.year > 1990 && $0.inPrint }, "year > 1990 AND inPrint == 1"),
            (#Predicate<MacroBook> { $0.sequel?.name == "Ann" }, "sequel.name == \"Ann\""),
            (#Predicate<MacroBook> { $0.editor.level >= 2 }, "editor.level >= 2"),
            (#Predicate<MacroBook> { $0.genre == prose }, "genre == \"prose\""),
            (#Predicate<MacroBook> { $0.rank == high }, "rank == 2"),
            (#Predicate<MacroBook> { $0.rank == nil }, "rank == nil"),
            (#Predicate<MacroBook> { $0.century > 20 }, "century > 20"),
            (#Predicate<MacroBook> { $0.isbn != "x" }, "isbn13 != \"x\""),
            (#Predicate<MacroBook> { $0.pages > 100 && $0.weight < 2 }, "pages > 100 AND weight < 2.0"),
            (#Predicate<MacroBook> { $0.authors.contains { $0.level > 2 } },
             "SUBQUERY(authors, $x, $x.level > 2).@count > 0"),
            (#Predicate<MacroBook> { $0.subtitle != nil && $0.ratings.count > 1 },
             "subtitle != nil AND ratings.@count > 1"),
        ]
        let books = KeyValueReadableMacroTests.books
        for (predicate, format) in cases {
            let filter = try Filter(predicate)
            #expect(filter.format == format)
            let typed = filter.compiled(for: MacroBook.self)
            for book in books {
                #expect(try typed.evaluate(with: book) == predicate.evaluate(book), "\(format)")
            }
        }
    }

    /// A computed property the macro leaves out is no key: refused, naming the type.
    @Test func unmarkedComputedPropertyIsRefused() {
        #expect {
            _ = try Filter(#Predicate<MacroBook> { $0.decade == 1990 })
        } throws: { error in
            (error as? PredicateConversionError)?.description.contains("MacroBook") == true
        }
    }
}

// `#Predicate` needs Codable constants; raw-value enums get it from their raw value.
extension MacroGenre: Codable {}
extension MacroRank: Codable {}
