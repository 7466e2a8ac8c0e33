@testable import Sift
import struct SiftTestSupport.SeededRandom

/// Random predicates over the keys of ``PolicyRuleTests/object``, using
/// every way of reaching a value: key paths, indexes, aggregates, TERNARY,
/// SUBQUERY variables, collection operators, functions and casts.
struct PredicateMaker {
    var rng: SeededRandom
    var variables: [String] = []

    init(rng: inout SeededRandom) { self.rng = SeededRandom(seed: rng.next()) }

    mutating func pick<T>(_ items: [T]) -> T { items[Int(rng.next() % UInt64(items.count))] }

    static let paths = [
        "title", "year", "secret", "author", "author.name", "author.email", "authors", "authors.name",
        "authors.email", "tags", "meta", "meta.a", "meta.secret", "SELF", "@count", "author.@count",
        "authors.@count", "authors.@max.email", "authors.@distinctUnionOfObjects.name", "author.@max.self",
    ]
    static let constants = ["'f'", "'frank@x'", "'Ann'", "1", "1965", "nil", "{'f', 'Ann'}", "''"]

    mutating func expression(depth: Int) -> String {
        let roll = depth <= 0 ? rng.next() % 2 : rng.next() % 13
        switch roll {
        case 0: return variables.isEmpty || rng.next() % 3 != 0 ? pick(Self.paths) : "$" + pick(variables)
        case 1: return pick(Self.constants)
        case 2: return "{" + expression(depth: depth - 1) + ", " + expression(depth: depth - 1) + "}"
        case 3: return "TERNARY(" + predicate(depth: depth - 1) + ", " + expression(depth: depth - 1) + ", "
            + expression(depth: depth - 1) + ")"
        case 4: return expression(depth: depth - 1) + "[" + pick(["0", "1", "FIRST", "LAST", "SIZE", "'email'", "'name'", "title"]) + "]"
        case 5:
            // Method keys that read their receiver whole and may grow it.
            return expression(depth: depth - 1) + "." + pick([
                "name", "email", "a", "secret", "length", "@count", "uppercaseString", "stringValue", "description",
                "boolValue", "doubleValue", "pathComponents", "lastPathComponent",
            ])
        case 6:
            let v = "v\(variables.count)"
            let collection = expression(depth: depth - 1)
            variables.append(v)
            defer { variables.removeLast() }
            return "SUBQUERY(" + collection + ", $" + v + ", " + predicate(depth: depth - 1) + ")"
        case 7: return pick(["lowercase:", "length:", "count:", "max:", "abs:"]) + "(" + expression(depth: depth - 1) + ")"
        case 8: return "CAST(" + expression(depth: depth - 1) + ", 'NSString')"
        case 9: return "FUNCTION(" + expression(depth: depth - 1) + ", 'uppercaseString')"
        case 10: return expression(depth: depth - 1) + ".@" + pick(["max", "min", "sum", "distinctUnionOfObjects"]) + "." + pick(["self", "name", "email"])
        default: return pick(Self.paths)
        }
    }

    mutating func predicate(depth: Int) -> String {
        switch depth <= 0 ? 0 : rng.next() % 6 {
        case 0, 1, 2:
            let op = pick(["==", "!=", "<", "BEGINSWITH", "CONTAINS", "IN", "LIKE", "==[c]", "ENDSWITH"])
            let modifier = pick(["", "", "", "ANY ", "ALL "])
            return modifier + expression(depth: depth) + " " + op + " " + expression(depth: depth)
        case 3: return "NOT (" + predicate(depth: depth - 1) + ")"
        case 4: return "(" + predicate(depth: depth - 1) + " AND " + predicate(depth: depth - 1) + ")"
        default: return "(" + predicate(depth: depth - 1) + " OR " + predicate(depth: depth - 1) + ")"
        }
    }
}
