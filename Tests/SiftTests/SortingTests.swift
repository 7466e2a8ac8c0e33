import Foundation
import Testing

@testable import Sift

private let people: [Value] = [
    ["name": "bob", "age": 30, "city": ["name": "Oslo"]],
    ["name": "Alice", "age": 25],
    ["name": "carol", "age": 30, "city": ["name": "Bergen"]],
    ["name": "Dave", "age": .nsNull],
    ["name": "file10", "age": 1],
    ["name": "file2", "age": 1],
]

private func names(_ values: [Value]) -> [String] {
    values.map { v in
        if case .dictionary(let d) = v, case .string(let s)? = d["name"] { return s }
        return "?"
    }
}

struct SortingTests {
    @Test func parsesSortOrders() throws {
        let keys = try SortKey.parse("author.name ASC caseInsensitive, year DESC, title localizedStandardCompare:, x [c]")
        #expect(keys == [
            .ascending("author.name", .caseInsensitive), .descending("year"), .ascending("title", .localizedStandard),
            .ascending("x", .caseInsensitive),
        ])
        #expect(keys.map(\.description).joined(separator: ", ")
            == "author.name ASC caseInsensitiveCompare:, year DESC, title ASC localizedStandardCompare:, x ASC caseInsensitiveCompare:")
        #expect(throws: ParseError.self) { try SortKey.parse("name UP") }
        #expect(throws: ParseError.self) { try SortKey.parse("name ASC, ") }
        #expect(throws: ParseError.self) { try SortKey.parse("first name") }
        do {
            _ = try SortKey.parse("name ASC, year SIDEWAYS")
        } catch {
            #expect(error.range == SourceRange(15, 23))
        }
    }

    @Test func comparisons() throws {
        // compare: puts upper case first; caseInsensitive does not.
        #expect(names(try Sorting.sorted(people, by: [.ascending("name")]))
            == ["Alice", "Dave", "bob", "carol", "file10", "file2"])
        #expect(names(try Sorting.sorted(people, by: [.ascending("name", .caseInsensitive)]))
            == ["Alice", "bob", "carol", "Dave", "file10", "file2"])
        #expect(names(try Sorting.sorted(people, by: [.ascending("name", .localizedStandard)]))
            == ["Alice", "bob", "carol", "Dave", "file2", "file10"])
        #expect(names(try Sorting.sorted(people, by: [.ascending("name", .localized)]))
            == ["Alice", "bob", "carol", "Dave", "file10", "file2"])
    }

    @Test func nilFirstAscendingAndStable() throws {
        #expect(names(try Sorting.sorted(people, by: [.ascending("age")]))
            == ["Dave", "file10", "file2", "Alice", "bob", "carol"])
        #expect(names(try Sorting.sorted(people, by: [.descending("age")]))
            == ["bob", "carol", "Alice", "file10", "file2", "Dave"])
        #expect(names(try Sorting.sorted(people, by: [.descending("age"), .ascending("city.name")]))
            == ["carol", "bob", "Alice", "file10", "file2", "Dave"])
    }

    @Test func mixedTypesAreAnError() throws {
        let mixed: [Value] = [["k": 1], ["k": "a"]]
        #expect(throws: EvaluationError.self) { try Sorting.sorted(mixed, by: [.ascending("k")]) }
    }

    @Test func fetchRequests() throws {
        var request = FetchSpecification(filter: try Filter("age >= 25"), sort: [.descending("name", .caseInsensitive)])
        #expect(names(try request.execute(on: people)) == ["carol", "bob", "Alice"])
        request.offset = 1
        request.limit = 1
        #expect(names(try request.execute(on: people)) == ["bob"])
        #expect(try request.count(on: people) == 1)
        let ages = FetchSpecification(sort: [.ascending("age")], distinct: true, properties: ["age"])
        #expect(try ages.execute(on: people) == [["age": .nsNull], ["age": 1], ["age": 25], ["age": 30]])
    }

    @Test func typedElements() throws {
        let books = [
            Book(title: "B", year: 2000, authors: [], tags: []),
            Book(title: "A", year: 1990, authors: [], tags: []),
            Book(title: "C", year: 2010, authors: [], tags: []),
        ]
        #expect(try books.sorted(by: [.ascending("title")]).map(\.title) == ["A", "B", "C"])
        let request = FetchSpecification(entity: "Book", filter: try Filter("year > 1995"), sort: [.descending("year")])
        #expect(try request.execute(on: books).map(\.title) == ["C", "B"])
        #expect(try FetchSpecification(entity: "Magazine").execute(on: books).isEmpty)
    }

    @Test func aSortKeyTakesOneDirection() {
        #expect(throws: ParseError.self) { try SortKey.parse("year ASC DESC") }
        #expect(throws: ParseError.self) { try SortKey.parse("year ascending desc") }
        #expect(throws: ParseError.self) { try SortKey.parse("year descending asc") }
    }
}
