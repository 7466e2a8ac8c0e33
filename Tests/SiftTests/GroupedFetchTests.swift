import Foundation
import Sift
import Testing

/// Grouped and aggregate fetches in memory, against answers worked out by
/// hand from the rows below (Core Data's rules: nil values skipped and left
/// out of the results, sum: of nothing 0, average: a double).
struct GroupedFetchTests {
    static func sale(_ title: String, _ category: String?, _ year: Int, _ price: Value, _ quantity: Value) -> Value {
        .dictionary([
            "title": .string(title), "category": category.map { .dictionary(["name": .string($0)]) } ?? .null,
            "year": .int(year), "price": price, "quantity": quantity,
        ])
    }

    let sales: [Value] = [
        sale("Dune", "sf", 1965, .int(10), .int(2)),
        sale("Emma", "classic", 1815, .double(7.5), .int(1)),
        sale("Neuromancer", "sf", 1984, .null, .int(3)),
        sale("Ulysses", nil, 1922, .int(12), .int(1)),
        sale("Zed", "sf", 1984, .int(4), .null),
        sale("\u{E9}mile", "classic", 1762, .null, .null),
    ]

    static func described(_ pairs: KeyValuePairs<String, String>) throws -> [ExpressionDescription] {
        try pairs.map { try ExpressionDescription(name: $0.key, format: $0.value) }
    }

    @Test func groupsWithCoreDataRules() throws {
        let request = FetchSpecification(
            groupBy: ["category.name"],
            expressions: try Self.described([
                "n": "count:(price)", "total": "sum:(price)", "avg": "average:(price)", "first": "min:(title)",
                "top": "max:(price)", "rows": "count:(SELF)",
            ]))
        let groups = try request.execute(on: sales)
        #expect(groups == [
            .dictionary([
                "category.name": "sf", "n": 2, "total": 14, "avg": .double(7), "first": "Dune", "top": 10, "rows": 3,
            ]),
            .dictionary([
                "category.name": "classic", "n": 1, "total": .double(7.5), "avg": .double(7.5), "first": "Emma",
                "top": .double(7.5), "rows": 2,
            ]),
            // nil is a group of its own, and a nil value is left out.
            .dictionary(["n": 1, "total": 12, "avg": .double(12), "first": "Ulysses", "top": 12, "rows": 1]),
        ])
        // Equal numbers of both kinds are equal values: the kinds are checked apart.
        guard case .dictionary(let sf) = groups.first else { Issue.record("no groups"); return }
        if case .double = sf["avg"] {} else { Issue.record("average: of integers is a double, not \(String(describing: sf["avg"]))") }
        if case .int = sf["total"] {} else { Issue.record("sum: of integers is an integer, not \(String(describing: sf["total"]))") }
        if case .int = sf["n"] {} else { Issue.record("count: is an integer") }
    }

    /// The example of the GroupedFetches article, as written there.
    @Test func theArticlesExample() throws {
        let sales: [Value] = [
            ["title": "Dune", "category": ["name": "sf"], "price": 10],
            ["title": "Emma", "category": ["name": "classic"], "price": 7.5],
            ["title": "Neuromancer", "category": ["name": "sf"], "price": nil],
            ["title": "Zed", "category": ["name": "sf"], "price": 4],
        ]
        let perCategory = FetchSpecification(
            sort: [.descending("total")],
            groupBy: ["category.name"],
            expressions: [
                try ExpressionDescription(name: "n", format: "count:(SELF)"),
                try ExpressionDescription(name: "total", format: "sum:(price)"),
            ],
            having: try Filter("$n > 1"))
        #expect(try perCategory.execute(on: sales) == [["category.name": "sf", "n": 3, "total": 14]])
    }

    /// The accumulator's caches for one key (small integers, other
    /// values) find the groups the general lookup finds, whichever type of
    /// number comes first: each key as often as it is added, in order.
    @Test func oneKeyGroupsAsTheGeneralLookup() throws {
        let keys: [Value] = [30, 30.0, -1, 70_000, "30", 0, -0.0, 30, 65_536, 65_537, nil, 30.0, 0.0, "30", nil, 70_000]
        let expressions = try Self.described(["n": "count:(SELF)"])
        for order in [keys, keys.reversed()] {
            let objects = order.map { Value.dictionary(["k": $0, "j": 1]) }
            let one = try FetchSpecification(groupBy: ["k"], expressions: expressions).execute(on: objects)
            // Two keys take the general lookup only.
            let two = try FetchSpecification(groupBy: ["k", "j"], expressions: expressions).execute(on: objects)
            #expect(one.count == two.count)
            for (a, b) in zip(one, two) {
                guard case .dictionary(let x) = a, case .dictionary(let y) = b else {
                    Issue.record("\(a) \(b)")
                    continue
                }
                #expect(x["k"] == y["k"] && x["n"] == y["n"], "\(a) against \(b)")
            }
        }
    }

    @Test func aGroupOfOnlyNilsSumsToZero() throws {
        let request = FetchSpecification(
            filter: try Filter("year == 1762"), groupBy: ["year"],
            expressions: try Self.described(["n": "count:(price)", "total": "sum:(price)", "avg": "average:(price)",
                                             "top": "max:(price)"]))
        #expect(try request.execute(on: sales) == [.dictionary(["year": 1762, "n": 0, "total": 0])])
    }

    @Test func anAggregateOnlyFetchGivesOneResult() throws {
        let expressions = try Self.described(["n": "count:(price)", "total": "sum:(price)", "avg": "average:(price)"])
        let all = FetchSpecification(expressions: expressions)
        #expect(try all.execute(on: sales) == [.dictionary(["n": 4, "total": .double(33.5), "avg": .double(8.375)])])
        let none = FetchSpecification(filter: try Filter("year > 3000"), expressions: expressions)
        #expect(try none.execute(on: sales) == [.dictionary(["n": 0, "total": 0])])
        // Sift takes any expression of one object inside an aggregate.
        let revenue = FetchSpecification(
            filter: try Filter("price != nil AND quantity != nil"),
            expressions: [try ExpressionDescription(name: "revenue", format: "sum:(price * quantity)")])
        #expect(try revenue.execute(on: sales) == [.dictionary(["revenue": .double(39.5)])])
    }

    @Test func havingSortAndPaging() throws {
        let rows = try Self.described(["rows": "count:(SELF)", "total": "sum:(price)"])
        func names(_ request: FetchSpecification) throws -> [Value?] {
            try request.execute(on: sales).map { v -> Value? in
                guard case .dictionary(let d) = v else { return .string("not a dictionary") }
                return d["category.name"]
            }
        }
        #expect(try names(FetchSpecification(groupBy: ["category.name"], expressions: rows, having: Filter("$rows > 1")))
            == ["sf", "classic"])
        #expect(try names(FetchSpecification(groupBy: ["category.name"], expressions: rows, having: Filter("rows > 1")))
            == ["sf", "classic"])
        #expect(try names(FetchSpecification(
            groupBy: ["category.name"], expressions: rows, having: Filter("category.name BEGINSWITH 's'"))) == ["sf"])
        // By an expression's name: 14, 12, 7.5.
        #expect(try names(FetchSpecification(sort: [.descending("total")], groupBy: ["category.name"], expressions: rows))
            == ["sf", nil, "classic"])
        #expect(try names(FetchSpecification(
            sort: [.descending("total")], offset: 1, limit: 1, groupBy: ["category.name"], expressions: rows)) == [nil])
        // Grouped key paths alone, distinct by construction.
        #expect(try FetchSpecification(sort: [.ascending("year")], groupBy: ["year"]).execute(on: sales).count == 5)
    }

    @Test func nilNSNullAndNaNAreOneGroup() throws {
        let rows: [Value] = [
            ["k": .null, "v": 1], ["k": .nsNull, "v": 2], ["k": .double(.nan), "v": 4], ["v": 8],
            ["k": 1, "v": .double(.nan)], ["k": .double(1), "v": 16],
        ]
        let request = FetchSpecification(
            groupBy: ["k"], expressions: try Self.described(["n": "count:(SELF)", "s": "sum:(v)", "c": "count:(v)"]))
        #expect(try request.execute(on: rows) == [.dictionary(["n": 4, "s": 15, "c": 4]), .dictionary(["k": 1, "n": 2, "s": 16, "c": 1])])
    }

    @Test func havingAndSortReadGroupedKeysNotFetched() throws {
        let request = FetchSpecification(
            sort: [.descending("year")], properties: ["category.name"], groupBy: ["category.name", "year"],
            expressions: try Self.described(["n": "count:(SELF)"]), having: try Filter("year > 1900"))
        #expect(try request.execute(on: sales) == [
            ["category.name": "sf", "n": 2], ["category.name": "sf", "n": 1], ["n": 1],
        ])
        #expect(try request.count(on: sales) == 3)
    }

    @Test func collectionsAreRefused() throws {
        let tagged: [Value] = [["tags": ["a", "b"], "n": 1]]
        #expect(throws: EvaluationError.self) { try FetchSpecification(groupBy: ["tags"]).execute(on: tagged) }
        #expect(throws: EvaluationError.self) {
            try FetchSpecification(expressions: try Self.described(["c": "count:(tags)"])).execute(on: tagged)
        }
        #expect(try FetchSpecification(expressions: try Self.described(["c": "sum:(tags.@count)"])).execute(on: tagged)
            == [["c": 2]])
    }

    @Test func stringsOrderByTheirScalars() throws {
        let words: [Value] = ["f", "e\u{301}", "Z", "\u{E9}"].map { .dictionary(["w": .string($0)]) }
        let request = FetchSpecification(expressions: try Self.described(["lo": "min:(w)", "hi": "max:(w)"]))
        #expect(try request.execute(on: words) == [.dictionary(["lo": "Z", "hi": "\u{E9}"])])
    }

    @Test func mistakesAreErrorsNamingThePart() throws {
        func message(_ request: FetchSpecification) -> String? {
            do {
                _ = try request.execute(on: sales)
                return nil
            } catch {
                return error.message
            }
        }
        let count = try Self.described(["n": "count:(SELF)"])
        #expect(message(FetchSpecification(properties: ["title"], groupBy: ["category.name"], expressions: count))?
            .contains("title is fetched but not grouped") == true)
        #expect(message(FetchSpecification(properties: ["title"], expressions: count))?.contains("without groupBy") == true)
        #expect(message(FetchSpecification(groupBy: ["year"], expressions: try Self.described(["year": "count:(SELF)"])))?
            .contains("names two fetched values") == true)
        #expect(message(FetchSpecification(groupBy: ["year"], expressions: try Self.described(["p": "price"])))?
            .contains("count:, sum:, average:, min: or max:") == true)
        #expect(message(FetchSpecification(having: try Filter("TRUEPREDICATE")))?.contains("give the request a groupBy") == true)
        #expect(message(FetchSpecification(sort: [.ascending("price")], groupBy: ["year"]))?
            .contains("sort key price is neither grouped nor an expression's name") == true)
        #expect(message(FetchSpecification(expressions: try Self.described(["lo": "min:(category)"])))?
            .contains("lo: min: and max: compare") == true)
        // Typed arrays give elements, not groups.
        #expect(throws: EvaluationError.self) {
            try FetchSpecification(groupBy: ["wheels"]).execute(on: [Cart(wheels: 1)])
        }
    }

    @Test func sumsAreExactPastOverflowAndWithDecimals() throws {
        func sum(_ values: [Value]) throws -> Value? {
            let request = FetchSpecification(expressions: try Self.described(["s": "sum:(v)"]))
            guard case .dictionary(let d) = try request.execute(on: values.map { .dictionary(["v": $0]) }).first else {
                return nil
            }
            return d["s"]
        }
        // Integers whose running sum leaves 64 bits and comes back: exact.
        #expect(try sum([.int(.max), 1, -1]) == .int(.max))
        #expect(try sum([.int(.min), -1, 2]) == .int(.min + 1))
        // Past 64 bits at the end: the double sum, as with a double term.
        if case .double(let d) = try sum([.int(.max), .int(.max)]) { #expect(d == 2 * Double(Int.max)) } else {
            Issue.record("not a double")
        }
        // A decimal makes the sum a decimal: the integers exactly (even
        // past 64 bits), the doubles as the decimal their sum stands for.
        #expect(try sum([.int(.max), .int(.max), .decimal(Decimal(string: "0.5")!)])
            == .decimal(Decimal(string: "18446744073709551614.5")!))
        #expect(try sum([.double(0.1), .decimal(1), .double(0.2)]) == .decimal(Decimal(string: "1.3")! + Decimal(string: "0.00000000000000004")!))
    }

    @Test func havingReadsOnlyGroupedKeysAndNames() throws {
        func problem(_ having: String) -> (String, String)? {
            do throws(EvaluationError) {
                let request = FetchSpecification(
                    groupBy: ["category.name", "year"], expressions: (try? Self.described(["n": "count:(SELF)"])) ?? [],
                    having: try? Filter(having))
                _ = try request.execute(on: sales)
                return nil
            } catch {
                let bytes = Array(error.source.utf8)
                return (error.message, String(decoding: bytes[error.range.lowerBound..<error.range.upperBound], as: UTF8.self))
            }
        }
        #expect(problem("$n > 1 AND year > 1900 AND n < 5 AND category.name != nil AND category != nil") == nil)
        #expect(problem("year > 1 AND count:(SELF) > 1")?.1 == "count:(SELF)")
        #expect(problem("year > 1 AND count:(SELF) > 1")?.0.contains("by its name") == true)
        #expect(problem("$m > 1")?.1 == "$m")
        #expect(problem("$m > 1")?.0.contains("names no expression of the request (n)") == true)
        #expect(problem("titel == 'x'")?.1 == "titel")
        #expect(problem("titel == 'x'")?.0.contains("neither grouped nor an expression's name") == true)
        #expect(problem("category.label == 'x'")?.1 == "category.label")
    }

    @Test func aSelectionIsParsedWithItsPlaces() throws {
        let s = try FetchSelection("category.name, n = count:(SELF),total=sum:(price * quantity)")
        #expect(s.names == ["category.name", "n", "total"])
        #expect(s.properties == ["category.name"])
        #expect(s.expressions.map(\.source) == ["count:(SELF)", "sum:(price * quantity)"])
        func caret(_ text: String) -> String? {
            do {
                _ = try FetchSelection(text)
                return nil
            } catch {
                return String(decoding: Array(text.utf8)[error.range.lowerBound..<error.range.upperBound], as: UTF8.self)
            }
        }
        #expect(caret("a, , b") == " ")
        #expect(caret("a, n = sum:(x +)") == ")")
        #expect(caret("a, price * 2") == "price * 2")
        #expect(caret("a, n == 2") == "==")
        #expect(throws: ParseError.self) { try FetchSelection("a, n = count:(SELF)").requireKeyPaths() }
        // Errors a request raises about an item point at it in the list.
        var request = FetchSpecification(groupBy: ["year"])
        let listed = try FetchSelection("year, title, n = count:(SELF), n = max:(title)")
        listed.apply(to: &request)
        do {
            _ = try GroupedFetchAccumulator(request)
            Issue.record("no error")
        } catch {
            let located = listed.locate(error)
            #expect(located.source == listed.source)
            #expect(String(decoding: Array(listed.source.utf8)[located.range.lowerBound..<located.range.upperBound], as: UTF8.self) == "title")
        }
        request.properties = ["year"]
        do {
            _ = try GroupedFetchAccumulator(request)
            Issue.record("no error")
        } catch {
            let located = listed.locate(error)
            // The second n, which the message is about.
            #expect(located.range.lowerBound == Array(listed.source.utf8).count - "n = max:(title)".utf8.count)
        }
    }

    @Test func typedElementsGroupAsTheirValues() throws {
        let carts = [Cart(wheels: 1), Cart(wheels: 2), Cart(wheels: 1)]
        let request = FetchSpecification(groupBy: ["wheels"], expressions: try Self.described(["n": "count:(SELF)"]))
        #expect(try request.groupedResults(on: carts) == [["wheels": 1, "n": 2], ["wheels": 2, "n": 1]])
        #expect(throws: EvaluationError.self) { try FetchSpecification().groupedResults(on: carts) }
    }

    /// The accumulator's example in the GroupedFetches article, as written there.
    @Test func theAccumulatorExample() throws {
        let request = FetchSpecification(
            groupBy: ["category.name"], expressions: [try ExpressionDescription(name: "n", format: "count:(SELF)")])
        var groups = try GroupedFetchAccumulator(request)
        try groups.add(["category": ["name": "sf"]])
        try groups.add(["category": ["name": "sf"]])
        #expect(try groups.results() == [["category.name": "sf", "n": 2]])
        #expect(groups.groupCount == 1)
    }

    /// Parts merged in order give the one accumulator's answer, double sums
    /// bit for bit: 1e16 + 1 + 1 is 1e16 added in order, 1e16 + 2 if the
    /// part's terms were summed apart first.
    @Test func partsMergeAsTheObjectsCame() throws {
        let request = FetchSpecification(
            groupBy: ["g"],
            expressions: try Self.described(["s": "sum:(v)", "a": "average:(v)", "lo": "min:(v)", "n": "count:(v)"]))
        let objects: [Value] = [["g": 1, "v": 1e16], ["g": 2, "v": 5], ["g": 1, "v": 1.0], ["g": 1, "v": 1.0], ["g": 2]]
        var whole = try GroupedFetchAccumulator(request)
        for o in objects { try whole.add(o) }
        var merged = try GroupedFetchAccumulator(request)
        var part = try GroupedFetchAccumulator(partOf: request)
        try part.add(objects[0])
        try merged.merge(part)
        part = try GroupedFetchAccumulator(partOf: request)
        for o in objects.dropFirst() { try part.add(o) }
        // A part answers alone as the whole would for its objects.
        var rest = try GroupedFetchAccumulator(request)
        for o in objects.dropFirst() { try rest.add(o) }
        #expect(try part.results() == rest.results())
        try merged.merge(part)
        #expect(try merged.results() == whole.results())
        #expect(try merged.results().first == ["g": 1, "s": 1e16, "a": .double(1e16 / 3), "lo": 1.0, "n": 3])
        // A whole accumulator, or a part of another request, is no part.
        #expect(throws: EvaluationError.self) { try merged.merge(whole) }
        let other = try GroupedFetchAccumulator(partOf: FetchSpecification(groupBy: ["v"]))
        #expect(throws: EvaluationError.self) { try merged.merge(other) }
        // min: and max: of values that compare with nothing fail as when
        // the values come one by one.
        let extremes = FetchSpecification(groupBy: ["g"], expressions: try Self.described(["lo": "min:(v)"]))
        var a = try GroupedFetchAccumulator(partOf: extremes)
        try a.add(["g": 1, "v": 3])
        var b = try GroupedFetchAccumulator(partOf: extremes)
        try b.add(["g": 1, "v": "x"])
        var all = try GroupedFetchAccumulator(extremes)
        try all.merge(a)
        #expect(throws: EvaluationError.self) { try all.merge(b) }
    }
}
