import Foundation
import SiftTestSupport

/// Issue 35's corpus: `#Predicate` literals over ``SwiftLibrary``'s books,
/// generated from a seeded grammar by `scripts/swift-predicate-corpus.py`
/// (`make swift-predicates`) into `Corpus+Part*.swift`, each with what it
/// must give (``Expectation``). `SwiftPredicateCorpusTests` runs them.
enum SwiftPredicateCorpus {
    typealias Book = SwiftLibrary.Book

    enum Expectation: Sendable, Hashable {
        /// Converts, and lowers to SQLite and PostgreSQL.
        case sql
        /// Converts, and the SQL lowering refuses it as unsupported: its
        /// arithmetic on a value that may be nil, or an index, has no SQL form.
        case memoryOnly
        /// Converts and lowers to SQLite; PostgreSQL refuses it as
        /// unsupported: a search by character or an ordering with `[s]`, which it cannot do.
        case notOnPostgreSQL
        /// Conversion refuses it, naming this `PredicateExpressions` type.
        case refused(String)
    }

    struct Entry: Sendable {
        /// Its number in the generated files.
        let number: Int
        let expectation: Expectation
        let predicate: Predicate<Book>

        init(_ number: Int, _ expectation: Expectation, _ predicate: Predicate<Book>) {
            self.number = number
            self.expectation = expectation
            self.predicate = predicate
        }
    }
}
