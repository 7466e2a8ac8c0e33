import Foundation
import Sift
import SiftTestSupport
import Testing

/// Grouped fetches against an oracle written in plain Swift on the typed
/// books (``SwiftLibrary``, with its edge numbers and canonically
/// equivalent strings): the groups are found by reading the properties, the
/// aggregates are computed by hand with the rules of <doc:GroupedFetches>.
/// Sift answers four ways, which must all equal the oracle: on the books'
/// values, on the typed books (`groupedResults(on:)`, its filter compiled
/// for the type), fed one at a time to a ``GroupedFetchAccumulator``, and
/// fed in runs of random lengths to parts merged in order (as the threads
/// of `sift filter --group-by` feed them).
struct GroupedFetchOracleTests {
    typealias Book = SwiftLibrary.Book

    /// A key path the books are grouped by, and how Swift reads it.
    struct Key: Sendable {
        var path: String
        var read: @Sendable (Book) -> Value
    }

    /// An aggregate, and how the oracle reads its argument (nil: SELF).
    struct Aggregate: Sendable {
        var function: String
        var path: String
        var read: (@Sendable (Book) -> Value)?
    }

    static let keys: [Key] = [
        Key(path: "year") { $0.year.map(Value.int) ?? .null },
        Key(path: "author.name") { $0.author?.name.map(Value.string) ?? .null },
        Key(path: "author.active") { $0.author?.active.map(Value.bool) ?? .null },
        Key(path: "code") { $0.code.map(Value.string) ?? .null },
        Key(path: "author.rating") { $0.author?.rating.map(Value.double) ?? .null },
    ]

    static let arguments: [(path: String, read: @Sendable (Book) -> Value)] = [
        ("price", { $0.price.map(Value.double) ?? .null }),
        ("year", { $0.year.map(Value.int) ?? .null }),
        ("author.age", { $0.author?.age.map(Value.int) ?? .null }),
        ("title", { .string($0.title) }),
        ("code", { $0.code.map(Value.string) ?? .null }),
        ("published", { $0.published.map(Value.date) ?? .null }),
    ]

    static let filters: [(format: String?, test: @Sendable (Book) -> Bool)] = [
        (nil, { _ in true }),
        ("price > 2", { ($0.price ?? -.infinity) > 2 }),
        ("year == nil", { $0.year == nil }),
        ("author != nil AND author.age >= 40", { ($0.author?.age ?? .min) >= 40 }),
    ]

    @Test func groupedFetchesEqualAnOracleInSwift() throws {
        let library = SwiftLibrary(seed: 36)
        let books = library.books
        var rng = SeededRandom(seed: 3_600)
        var checked = 0
        for _ in 0..<300 {
            let keys = (0..<Int.random(in: 0...2, using: &rng)).map { _ in Self.keys.randomElement(using: &rng)! }
            let keyPaths = keys.map(\.path).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            var aggregates: [Aggregate] = []
            for _ in 0..<Int.random(in: (keyPaths.isEmpty ? 1 : 0)...3, using: &rng) {
                if Bool.random(using: &rng), aggregates.count < 3 {
                    aggregates.append(Aggregate(function: "count", path: "SELF", read: nil))
                } else {
                    let function = ["count", "sum", "average", "min", "max"].randomElement(using: &rng)!
                    var argument = Self.arguments.randomElement(using: &rng)!
                    if ["sum", "average"].contains(function) && !["price", "year", "author.age"].contains(argument.path) {
                        argument = Self.arguments[0]
                    }
                    aggregates.append(Aggregate(function: function, path: argument.path, read: argument.read))
                }
            }
            let filter = Self.filters.randomElement(using: &rng)!
            let request = FetchSpecification(
                filter: try filter.format.map { try Filter($0) },
                groupBy: keyPaths.isEmpty ? nil : keyPaths,
                expressions: try aggregates.enumerated().map { i, a in
                    try ExpressionDescription(name: "e\(i)", format: "\(a.function):(\(a.path))")
                })
            let expected = Self.oracle(books.filter(filter.test), keys: keyPaths.map { p in keys.first { $0.path == p }! },
                                       aggregates: aggregates)
            let values = try request.execute(on: books.map(\.predicateValue))
            let typed = try request.groupedResults(on: books)
            var accumulator = try GroupedFetchAccumulator(request)
            for book in books where filter.test(book) { try accumulator.add(book.predicateValue) }
            let fed = try accumulator.results()
            var merged = try GroupedFetchAccumulator(request)
            var part = try GroupedFetchAccumulator(partOf: request)
            for book in books where filter.test(book) {
                try part.add(book.predicateValue)
                if Int.random(in: 0..<40, using: &rng) == 0 {
                    try merged.merge(part)
                    part = try GroupedFetchAccumulator(partOf: request)
                }
            }
            try merged.merge(part)
            let parts = try merged.results()
            let what = "\(keyPaths) \(aggregates.map { "\($0.function):(\($0.path))" }) \(filter.format ?? "all")"
            #expect(Self.same(values, expected), "values: \(what)")
            #expect(Self.same(typed, expected), "typed: \(what)")
            #expect(Self.same(fed, expected), "accumulator: \(what)")
            #expect(Self.same(parts, expected), "parts: \(what)")
            checked += 1
        }
        #expect(checked == 300)
    }

    /// The groups, in the order of their first book, each a dictionary
    /// without its nil values.
    static func oracle(_ books: [Book], keys: [Key], aggregates: [Aggregate]) -> [Value] {
        var order: [[GroupKey]] = []
        var members: [[GroupKey]: [Book]] = [:]
        var firstValues: [[GroupKey]: [Value]] = [:]
        for book in books {
            let values = keys.map { $0.read(book) }
            let key = values.map(GroupKey.init)
            if members[key] == nil {
                order.append(key)
                firstValues[key] = values
            }
            members[key, default: []].append(book)
        }
        if keys.isEmpty && order.isEmpty {
            order = [[]]
            members[[]] = []
            firstValues[[]] = []
        }
        return order.map { key in
            var d: [String: Value] = [:]
            for (k, v) in zip(keys, firstValues[key]!) where !v.isNull { d[k.path] = v }
            for (i, a) in aggregates.enumerated() {
                let group = members[key]!
                let v = aggregate(a, group)
                if !v.isNull { d["e\(i)"] = v }
            }
            return .dictionary(d)
        }
    }

    static func aggregate(_ a: Aggregate, _ group: [Book]) -> Value {
        guard let read = a.read else { return .int(group.count) }
        let values = group.map(read).filter { !$0.isNull }
        switch a.function {
        case "count": return .int(values.count)
        case "sum", "average":
            var exact = Decimal(0)
            var doubles = 0.0
            var anyDouble = false
            for v in values {
                switch v {
                case .int(let i): exact += Decimal(i); doubles += Double(i)
                case .double(let x): anyDouble = true; doubles += x
                default: Issue.record("not a number: \(v)")
                }
            }
            if a.function == "average" { return values.isEmpty ? .null : .double(doubles / Double(values.count)) }
            if !anyDouble, exact >= Decimal(Int.min), exact <= Decimal(Int.max) {
                return .int(NSDecimalNumber(decimal: exact).intValue)
            }
            return .double(doubles)
        default:
            guard var best = values.first else { return .null }
            for v in values.dropFirst() where precedes(v, best) == (a.function == "min") && !same(v, best) { best = v }
            return best
        }
    }

    static func precedes(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.double(let x), .double(let y)): return x < y
        case (.string(let x), .string(let y)): return x.unicodeScalars.lexicographicallyPrecedes(y.unicodeScalars)
        case (.date(let x), .date(let y)): return x < y
        default: Issue.record("min/max of \(a) and \(b)"); return false
        }
    }

    /// A group key's value as SQL's GROUP BY tells them: strings by their
    /// bytes, numbers by value (-0.0 and 0.0 together).
    struct GroupKey: Hashable {
        var value: Value
        init(_ value: Value) { self.value = value }
        static func == (a: Self, b: Self) -> Bool {
            switch (a.value, b.value) {
            case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
            case (.double(let x), .double(let y)): return x == y
            case (.int(let x), .int(let y)): return x == y
            case (.bool(let x), .bool(let y)): return x == y
            case (.null, .null): return true
            default: return false
            }
        }
        func hash(into h: inout Hasher) {
            switch value {
            case .string(let s): h.combine(Array(s.utf8))
            case .double(let d): h.combine(d == 0 ? 0 : d)
            case .int(let i): h.combine(i)
            case .bool(let b): h.combine(b)
            default: h.combine(0)
            }
        }
    }

    /// Equal results, doubles bit for bit (NaN equal to NaN), strings by bytes.
    static func same(_ a: [Value], _ b: [Value]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { same($0, $1) }
    }

    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && x.allSatisfy { k, v in y[k].map { same(v, $0) } ?? false }
        case (.double(let x), .double(let y)): return x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        case (.string(let x), .string(let y)): return Array(x.utf8) == Array(y.utf8)
        case (.int(let x), .int(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        default: return false
        }
    }
}
