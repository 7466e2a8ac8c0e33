import Testing

@testable import Sift

/// The examples of README.md and the DocC articles (Getting Started,
/// Predicates from untrusted sources), as written there.
struct ReadmeExamplesTests {
    @Test func parseAndPrint() throws {
        let filter = try Filter("author.name beginswith[c] %@ AND year > %d", "ste", 1980)
        #expect(filter.format == #"author.name BEGINSWITH[c] "ste" AND year > 1980"#)
        #expect(try Filter("%K IN %@", "tags", ["swift", "linux"]).format == #"tags IN {"swift", "linux"}"#)
        #expect(try Filter("ANY %K.%K == %@", "recipientsRaw", "teamRaw.keyRaw", "frc7332").format
            == #"ANY recipientsRaw.teamRaw.keyRaw == "frc7332""#)
        #expect(try Filter("tag IN mine UNION theirs").evaluate(with: ["tag": "b", "mine": ["a"], "theirs": ["b"]] as Value))
        let price = try ExpressionNode(format: "price * (1 + %@)", 0.2)
        #expect(FormatPrinter.format(price) == "price * (1 + 0.2)")
    }

    @Test func substitute() throws {
        let template = try Filter("lastName LIKE[c] $LAST_NAME AND age >= $MIN")
        #expect(template.variableNames == ["LAST_NAME", "MIN"])
        let bound = try template.substituting(["LAST_NAME": "Turner", "MIN": 18])
        #expect(bound.format == #"lastName LIKE[c] "Turner" AND age >= 18"#)
        #expect {
            try template.substituting(["MIN": 18])
        } throws: { error in
            (error as? ParseError)?.message == "no value for the variable $LAST_NAME"
        }
        #expect(try template.substituting(["MIN": 18], allowingUnbound: true).format == "lastName LIKE[c] $LAST_NAME AND age >= 18")
        #expect(try Filter("author.$FIELD == 'Ann'").substituting(["FIELD": "name"]).format == #"author.name == "Ann""#)
        #expect(try Filter("$a.$b == 'ABC'").evaluate(with: Value.null, variables: ["a": ["a": "ABC"], "b": "a"]))
    }

    @Test func errors() throws {
        do {
            _ = try Filter("name == 'ste' AND year >")
        } catch {
            print(error.rendered())
        }
        #expect {
            try Filter("name == 'ste' AND year >")
        } throws: { error in
            (error as? ParseError)?.rendered() == """
                error: expected an expression after '>', found the end of the input (column 25)
                 | name == 'ste' AND year >
                 |                         ^
                """
        }
        #expect {
            try Filter("a BEGINSWTH 'x'")
        } throws: { error in
            (error as? ParseError)?.message == "unknown operator 'BEGINSWTH'; did you mean BEGINSWITH?"
        }
    }

    @Test func evaluate() throws {
        let book: Value = [
            "title": "The Stand", "year": 1978, "tags": ["horror", "epic"],
            "author": ["name": "Stephen King"],
            "reviews": [["stars": 5], ["stars": 3]],
        ]
        let filter = try Filter("author.name BEGINSWITH[c] 'steph' AND ANY tags == 'epic'").compiled()
        #expect(try filter.evaluate(with: book))
        #expect(try Filter("reviews.@avg.stars >= 4 AND year / 4 == 494").evaluate(with: book))
        #expect(throws: EvaluationError.self) { try Filter("title < 5").evaluate(with: book) }
        let books: [Value] = [book, ["title": "Carrie", "year": 1974, "tags": []]]
        let matches = try books.filter(filter)
        #expect(matches == [book])
    }

    @Test func readingValues() throws {
        let book: Value = [
            "title": "The Stand", "year": 1978, "tags": ["horror", "epic"],
            "author": ["name": "Stephen King"],
            "reviews": [["stars": 5], ["stars": 3]],
        ]
        print(book["title"]!)
        print(book[keyPath: "reviews.@avg.stars"]!)
        print([book["year"]!, book["tags"]!])
        #expect(book["title"]!.description == #""The Stand""#)
        #expect(book[keyPath: "reviews.@avg.stars"]!.description == "4.0")
        #expect(String(describing: [book["year"]!, book["tags"]!]) == #"[1978, {"horror", "epic"}]"#)
        struct Book: Decodable { var title: String; var year: Int; var tags: [String] }
        let decoded = try book.decoded(as: Book.self)
        #expect(decoded.title == "The Stand" && decoded.year == 1978 && decoded.tags == ["horror", "epic"])
    }

    @Test func encodableTypes() throws {
        struct Person: Codable { var name: String; var age: Int; var city: String? }
        let people = [Person(name: "Ann", age: 31, city: "Oslo"), Person(name: "Bob", age: 17, city: nil)]
        let adults = try people.filter(Filter("age >= 18 AND city != nil").compiled(encoding: Person.self))
        #expect(adults.map(\.name) == ["Ann"])
    }

    @Test func table() throws {
        let rows: [Value] = [
            ["name": "abe", "age": 40, "tags": ["x"], "author": ["name": "Ann"]],
            ["name": "Abby", "age": 20, "tags": [], "author": ["name": "Bob"]],
            ["name": "cy", "age": 50, "tags": ["y", "x"], "author": ["name": "Ann"]],
        ]
        let table = ValueTable(rows)
        let hits = try table.filter(Filter("age > 30 AND author.name == 'Ann'"))
        _ = try table.count(where: Filter("ANY tags == 'x'"))
        _ = try table.indices(where: Filter("name BEGINSWITH[c] $p"), variables: ["p": "ab"])
        #expect(hits == [rows[0], rows[2]])
        #expect(try table.count(where: Filter("ANY tags == 'x'")) == 2)
        #expect(try table.indices(where: Filter("name BEGINSWITH[c] $p"), variables: ["p": "ab"]) == [0, 1])
    }

    @Test func ownTypes() throws {
        struct Author: KeyValueReadable {
            var name: String
            static let keyTable = KeyTable<Author>(typed: ["name": .string(\.name)])
        }
        struct Book: KeyValueReadable {
            var title: String
            var year: Int
            var tags: [String]
            var editor: Author
            var authors: [Author]
            static let keyTable = KeyTable<Book>(typed: [
                "title": .string(\.title),
                "year": .int(\.year),
                "tags": .strings(\.tags),
                "editor": .object(\.editor),
                "authors": .objects(\.authors),
            ])
        }
        let books = [
            Book(title: "Good Omens", year: 1990, tags: ["comedy"], editor: Author(name: "Ed"),
                 authors: [Author(name: "Terry Pratchett"), Author(name: "Neil Gaiman")]),
            Book(title: "It", year: 1986, tags: [], editor: Author(name: "Al"), authors: [Author(name: "Stephen King")]),
        ]
        let gaiman = try Filter("ANY authors.name CONTAINS[c] 'gaiman' AND year < 2000").compiled(for: Book.self)
        let hits = try books.filter(gaiman)
        #expect(hits.map(\.title) == ["Good Omens"])
        _ = try books.first(where: gaiman)
        #expect(try books.first(where: gaiman)?.year == 1990)
        #expect(try books.count(where: gaiman) == 1)
        #expect(try books.count(where: Filter("editor.name == 'Al' AND NOT 'comedy' IN tags").compiled(for: Book.self)) == 1)
    }

    @Test func sortAndFetch() throws {
        let books: [Value] = [
            ["title": "It", "year": 1986, "author": ["name": "Stephen King"]],
            ["title": "Beloved", "year": 1987, "author": ["name": "Toni Morrison"]],
            ["title": "Carrie", "year": 1974, "author": ["name": "Stephen King"]],
            ["title": "Misery", "year": 1987, "author": ["name": "Stephen King"]],
        ]
        let order = try SortKey.parse("author.name ASC caseInsensitive, year DESC")
        #expect(order == [.ascending("author.name", .caseInsensitive), .descending("year")])
        let sorted = try books.sorted(by: order)
        #expect(sorted.map { $0["title"] } == ["Misery", "It", "Carrie", "Beloved"])

        let request = FetchSpecification(
            entity: "Book", filter: try Filter("year > %d", 1980), sort: order, offset: 1, limit: 10)
        let page = try request.execute(on: books)
        #expect(page.map { $0["title"] } == ["It", "Beloved"])
        let years = try FetchSpecification(sort: [.ascending("year")], distinct: true, properties: ["year"])
            .execute(on: books)
        #expect(years == [["year": 1974], ["year": 1986], ["year": 1987]])
    }

    @Test func untrustedPredicates() throws {
        let policy = PredicatePolicy.untrusted(keyPaths: ["title", "year", "author.name", "tags.*"])
        let queryParameter = "title BEGINSWITH[c] 'a' AND ANY tags.name == 'x'"
        let sortParameter = "year DESC, author.name"
        let filter = try Filter(queryParameter).checked(by: policy)
        #expect(filter.format == queryParameter.replacingOccurrences(of: "'", with: "\""))
        try policy.check(try SortKey.parse(sortParameter))
        let cost = try Filter("ANY tags IN %@ OR SUBQUERY(authors, $a, $a.name IN tags).@count > 0", ["x"]).costEstimate
        #expect(cost.degree == 3)
        #expect(cost.units(forInputSize: 1_000) > 1_000_000)
        #expect {
            try Filter("year > 1 AND secret == 'x'").checked(by: policy)
        } throws: { error in
            (error as? PolicyViolation)?.rendered() == """
                error: the key path secret is not allowed (column 14)
                 | year > 1 AND secret == 'x'
                 |              ^~~~~~
                """
        }
    }

    @Test func evaluationBudget() throws {
        var filter = try Filter("body CONTAINS[cd] %@", "needle").checked(by: .untrusted(keyPaths: ["body"]))
        #expect(filter.evaluationBudget == 1_000_000)
        filter.evaluationBudget = 50_000
        #expect {
            try filter.evaluate(with: ["body": .string(String(repeating: "a", count: 100_000))])
        } throws: { error in
            (error as? EvaluationError)?.code == .limit
                && (error as? EvaluationError)?.message.hasPrefix("the evaluation of one object went over its budget of 50000 units") == true
        }
    }
}
