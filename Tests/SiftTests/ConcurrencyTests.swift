import Foundation
import Testing

@testable import Sift

/// Compiled filters, typed filters and sort orders are values shared by
/// many tasks at once: every task must get the answers one task gets.
/// `make tsan` runs these under ThreadSanitizer.
struct ConcurrencyTests {
    static let books: [Book] = (0..<2_000).map { i in
        Book(
            title: ["Straße", "Café", "ab\(i)", "İstanbul", "naïve"][i % 5] + " \(i % 17)", year: 1900 + i % 120,
            authors: [Author(name: i % 3 == 0 ? "Ann" : "Zoë", born: i % 7 == 0 ? nil : 1900 + i % 50)],
            tags: i % 4 == 0 ? ["x", "y"] : ["z"])
    }

    static let formats = [
        "title BEGINSWITH[c] 'ab' OR title CONTAINS[cd] 'strasse'",
        "year > 1950 AND ANY authors.born < 1920",
        "title MATCHES '(?i)caf.*[0-9]+' OR title LIKE[c] '*istanbul*'",
        "SUBQUERY(authors, $a, $a.name ==[cd] 'zoe').@count > 0 AND tags CONTAINS 'z'",
        "authors.@count == 1 AND year BETWEEN {1990, 2000} AND NOT title ENDSWITH[d] 'naive 3'",
    ]

    @Test func compiledFiltersFromManyTasks() async throws {
        let values = Self.books.map(\.predicateValue)
        let dynamic = try Self.formats.map { try Filter($0).compiled() }
        let typed = try Self.formats.map { try Filter($0).compiled(for: Book.self) }
        let sort = try SortKey.parse("title ASC localizedStandard, year DESC")
        // One task's answers.
        let expected = try dynamic.map { f in try values.indices.filter { try f.evaluate(with: values[$0]) } }
        let expectedOrder = try Sorting.permutation(values, by: sort)
        #expect(expected.allSatisfy { !$0.isEmpty && $0.count < values.count })

        try await withThrowingTaskGroup(of: Bool.self) { group in
            for task in 0..<16 {
                group.addTask {
                    for round in 0..<3 {
                        let i = (task + round) % Self.formats.count
                        let d = try values.indices.filter { try dynamic[i].evaluate(with: values[$0]) }
                        let t = try Self.books.indices.filter { try typed[i].evaluate(with: Self.books[$0]) }
                        guard d == expected[i], t == expected[i] else { return false }
                    }
                    return try Sorting.permutation(values, by: sort) == expectedOrder
                }
            }
            for try await same in group { #expect(same) }
        }
    }
}
