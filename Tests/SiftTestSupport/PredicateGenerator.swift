import Foundation
import Sift

/// Random predicates over ``Library``'s books: every operator, option and
/// modifier, nil constants, NOT over nil, ALL/NONE over empty
/// relationships, aggregates and SUBQUERY (with keys of the book and of the
/// chapter inside), arithmetic on counts with edge numbers, nested up to
/// three levels; with ``ternaries``, also `TERNARY` operands and
/// `[FIRST]`/`[LAST]` of the ordered relationships.
package struct PredicateGenerator {
    package var rng: SeededRandom
    /// Whether leaves are also drawn from ``ternaryOrOrderedLeaf()`` (half
    /// of them). Off, the generator draws exactly what it drew before it
    /// had them, so the other suites' cases stay the same.
    package var ternaries = false
    /// Whether leaves are also drawn from ``functionLeaf()`` (half of them),
    /// off by default for the same reason.
    package var functions = false
    /// With a library, half the leaves compare its relationships and
    /// `SELF` with its objects (``objectLeaf(_:)``); without, nothing is
    /// drawn for them.
    package var objects: Library?

    package init(seed: UInt64, ternaries: Bool = false, functions: Bool = false, objects: Library? = nil) {
        rng = SeededRandom(seed: seed)
        self.ternaries = ternaries
        self.functions = functions
        self.objects = objects
    }

    package mutating func pick<T>(_ xs: [T]) -> T { xs[Int.random(in: 0..<xs.count, using: &rng)] }
    package mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }

    /// A format string and its arguments.
    package mutating func predicate(depth: Int = 0) -> (String, [any FormatArgumentConvertible]) {
        if depth < 3 && chance(0.35) {
            let (a, x) = predicate(depth: depth + 1)
            let (b, y) = predicate(depth: depth + 1)
            switch Int.random(in: 0..<3, using: &rng) {
            case 0: return ("(\(a)) AND (\(b))", x + y)
            case 1: return ("(\(a)) OR (\(b))", x + y)
            default: return ("NOT (\(a))", x)
            }
        }
        let l = leaf()
        return chance(0.1) ? ("NOT (\(l.0))", l.1) : l
    }

    package enum Kind { case string, integer, double, bool, date }

    package static let scalarKeys: [(String, Kind)] = [
        ("title", .string), ("code", .string), ("year", .integer), ("price", .double), ("published", .date),
        ("author.name", .string), ("author.age", .integer), ("author.rating", .double), ("author.active", .bool),
        ("author.born", .date),
    ]
    package static let manyKeys: [(String, Kind)] = [("chapters.name", .string), ("chapters.pages", .integer), ("tags.name", .string)]
    package static let options = ["", "[c]", "[d]", "[cd]", "[n]", "[c]", "[cd]"]
    package static let likePatterns = ["a*", "*e", "?nn", "*%*", "caf?", "*\\**", "A*", "*ss*", "x\\?y", "*", "?", "*_*", "Ann"]
    package static let regexes = ["a.*", "[A-Z].*", "(ab|cd).*", ".*e", "caf.", "A(n|m)+a?", "[a-z]{2,3}", ".*[0-9]+", "Stra.e"]

    package mutating func stringConstant() -> String? {
        // ﬁ, ẞ and ᾳ fold to more than their case pair (fi, ß, αι).
        chance(0.08) ? nil : pick(Library.strings.compactMap { $0 } + ["a", "e", "ss", "é", "S", "İ", "i", "ﬁ", "ẞ", "ᾳ", "ΑΙ"])
    }

    package mutating func constant(_ kind: Kind) -> (String, [any FormatArgumentConvertible]) {
        if chance(0.06) { return ("nil", []) }
        switch kind {
        case .string:
            guard let s = stringConstant() else { return ("nil", []) }
            return ("%@", [s])
        case .integer: return (String(Int.random(in: 0...45, using: &rng) + (chance(0.5) ? 1980 : 0)), [])
        case .double: return (String(Double(Int.random(in: 0...45, using: &rng)) / 4), [])
        case .bool: return (pick(["YES", "NO", "1", "0", "2"]), [])
        case .date: return ("%@", [Date(timeIntervalSince1970: Double(Int.random(in: -900_000_000...1_700_000_000, using: &rng)))])
        }
    }

    package mutating func comparison(_ key: String, _ kind: Kind) -> (String, [any FormatArgumentConvertible]) {
        let ordering = ["==", "!=", "<", "<=", ">", ">="]
        switch kind {
        case .string:
            let op = pick(ordering + ["BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES", "IN", "BETWEEN", "==", "CONTAINS"])
            // [s] (Swift's string semantics) follows what compares or searches strings.
            let opt = pick(["LIKE", "BETWEEN"].contains(op) ? Self.options : Self.options + ["[s]"])
            switch op {
            case "LIKE": return ("\(key) LIKE\(opt) %@", [pick(Self.likePatterns)])
            case "MATCHES": return ("\(key) MATCHES\(chance(0.7) ? "" : pick(["[c]", "[d]", "[cd]"])) %@", [pick(Self.regexes)])
            case "IN":
                let members = (0..<(chance(0.1) ? 40 : Int.random(in: 0...4, using: &rng))).map { _ in stringConstant() }
                return ("\(key) IN\(opt) %@", [members.map { $0.map(Value.string) ?? .null }])
            case "BETWEEN":
                return ("\(key) BETWEEN\(opt == "" ? "" : "") %@", [[Value.string(stringConstant() ?? "a"), .string(stringConstant() ?? "z")]])
            default:
                let (c, args) = constant(.string)
                return ("\(key) \(op)\(opt) \(c)", args)
            }
        case .integer, .double:
            let op = pick(ordering + ["BETWEEN", "IN"])
            if op == "BETWEEN" {
                let a = Int.random(in: 0...30, using: &rng)
                return ("\(key) BETWEEN {\(kind == .integer && chance(0.5) ? a + 1980 : a), \(a + Int.random(in: 0...2000, using: &rng))}", [])
            }
            if op == "IN" {
                let count = chance(0.1) ? 40 : Int.random(in: 0...5, using: &rng)
                let members = (0..<count).map { _ in constant(chance(0.2) ? (kind == .integer ? .double : .integer) : kind).0 }
                return ("\(key) IN {\(members.joined(separator: ", "))}", [])
            }
            let (c, args) = constant(kind)
            return ("\(key) \(op) \(c)", args)
        case .bool:
            let (c, args) = constant(.bool)
            return ("\(key) \(pick(["==", "!=", "==", "<", ">="])) \(c)", args)
        case .date:
            let (c, args) = constant(.date)
            return ("\(key) \(pick(ordering)) \(c)", args)
        }
    }

    /// The predicate of `SUBQUERY(chapters, $c, …)`: keys of the chapter
    /// (`$c.pages`), keys without the variable, which are the book's
    /// (`title`, `author.name`, `SELF.year`, `ANY tags.name`, a SUBQUERY over
    /// its chapters), and the two compared.
    package mutating func subqueryCondition() -> (String, [any FormatArgumentConvertible]) {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            let (inner, args) = comparison(pick(["$c.name", "$c.pages"]), .integer)
            if inner.hasPrefix("$c.name") { return ("$c.name BEGINSWITH[c] %@", [stringConstant() ?? "a"]) }
            return (inner, args)
        case 1:
            let (key, kind) = pick(Self.scalarKeys)
            return comparison(pick([key, "SELF." + key]), kind)
        case 2:
            return (pick([
                "$c.name == title", "$c.name ==[c] author.name", "$c.pages < price", "$c.pages >= author.rating",
                "SELF.title != $c.name", "$c.pages > year", "code BEGINSWITH[cd] $c.name", "$c.name IN[c] title",
            ]), [])
        case 3:
            return (pick(["ANY tags.name ==[c] $c.name", "NONE tags.name == $c.name", "chapters.@count > $c.pages"]), [])
        case 4:
            return (pick([
                "SUBQUERY(chapters, $d, $d.pages > $c.pages).@count > 0", "SUBQUERY(chapters, $d, $d.name == title).@count == 0",
            ]), [])
        default:
            let (a, x) = subqueryCondition()
            let (b, y) = subqueryCondition()
            return ("(\(a)) \(pick(["AND", "OR"])) NOT (\(b))", x + y)
        }
    }

    /// A comparison with a `TERNARY` operand (as `??` and a `? :` giving a
    /// value convert to: tests, branches and the other side drawn from the
    /// keys, nested, under ANY/ALL/NONE, inside SUBQUERY) or on a key of the
    /// first or last chapter or tag (`chapters[FIRST].pages`).
    package mutating func ternaryOrOrderedLeaf() -> (String, [any FormatArgumentConvertible]) {
        let ordered: [(String, Kind)] = [
            ("chapters[FIRST].pages", .integer), ("chapters[LAST].pages", .integer), ("chapters[FIRST].name", .string),
            ("chapters[LAST].name", .string), ("tags[FIRST].name", .string), ("tags[LAST].name", .string),
        ]
        func coalesced(_ key: String, _ kind: Kind) -> (String, [any FormatArgumentConvertible]) {
            let (c, args) = constant(kind)
            return ("TERNARY(\(key) != nil, \(key), \(c))", args)
        }
        switch Int.random(in: 0..<6, using: &rng) {
        case 0:
            let (key, kind) = pick(Self.scalarKeys + ordered)
            let (operand, args) = coalesced(key, kind)
            let (c, more) = comparison(operand, kind)
            return (c, args + more)
        case 1:
            let (test, args) = predicate(depth: 3)
            let (key, kind) = pick(Self.scalarKeys + ordered)
            let other = Self.scalarKeys.filter { $0.1 == kind }.map(\.0)
            let (otherwise, more) = chance(0.5) ? (pick(other), []) : chance(0.5) ? coalesced(pick(other), kind) : constant(kind)
            let (c, rest) = comparison("TERNARY(\(test), \(key), \(otherwise))", kind)
            return (c, args + more + rest)
        case 2:
            let (test, args) = predicate(depth: 3)
            let (a, b) = chance(0.5) ? ("chapters.name", "tags.name") : ("tags.name", "chapters.name")
            let (c, more) = comparison("TERNARY(\(test), \(a), \(b))", .string)
            return (pick(["ANY ", "ALL ", "NONE "]) + c, args + more)
        case 3:
            let (key, kind) = pick(ordered)
            return comparison(key, kind)
        case 4:
            let (inner, args) = comparison(pick(["TERNARY($c.pages != nil, $c.pages, 5)", "TERNARY(year > 2000, $c.pages, chapters[LAST].pages)"]), .integer)
            return ("SUBQUERY(chapters, $c, \(inner)).@count \(pick(["==", ">", "!="])) \(pick(["0", "1"]))", args)
        default:
            let (key, kind) = pick(Self.scalarKeys.filter { $0.1 == .integer || $0.1 == .double })
            let (k2, _) = pick(Self.scalarKeys.filter { $0.1 == .integer || $0.1 == .double })
            let (a, x) = coalesced(key, kind)
            let (b, y) = coalesced(k2, kind)
            return ("\(a) \(pick(["==", "!=", "<", "<=", ">", ">="])) \(b)", x + y)
        }
    }

    /// Numbers at the edges of arithmetic: Int.max and Int.min (overflow),
    /// 2^53 + 1 (no double equals it), ±1e308 (a double overflows to
    /// infinity), the least subnormal (one underflows to 0), 0 and 0.0
    /// (division by zero), -0.0.
    package static let arithmeticConstants = [
        "0", "1", "2", "-1", "3", "0.5", "1.5", "0.0", "-0.0", "9223372036854775807", "-9223372036854775807",
        "9007199254740993", "9007199254740992.0", "1e308", "-1e308", "5e-324", "1e300",
    ]

    /// Numbers of a book that are never nil (arithmetic on nil is an error
    /// in memory, which SQL refuses): its counts.
    package static let countOperands = [
        "chapters.@count", "tags.@count", "SUBQUERY(chapters, $c, $c.pages > 10).@count",
    ]

    /// `+ - * /` with a count on at least one side of each operation (so
    /// that no operation is of constants alone), nested once at most.
    package mutating func arithmetic(depth: Int = 0) -> String {
        let op = pick(["+", "-", "*", "/"])
        let count = depth < 1 && chance(0.3) ? "(\(arithmetic(depth: depth + 1)))" : pick(Self.countOperands)
        let other = chance(0.25) ? pick(Self.countOperands) : pick(Self.arithmeticConstants)
        return chance(0.5) ? "\(count) \(op) \(other)" : "\(other) \(op) \(count)"
    }

    /// A comparison of a built-in function (`abs:`, `sqrt:`, `ln:`, `**`,
    /// `modulus:by:`, the bitwise ones, `length:`, `lowercase:`, …) of a
    /// book's numbers that are never nil (its counts, arithmetic on them,
    /// with the edge numbers and shift amounts past 63) or of its title.
    package mutating func functionLeaf() -> (String, [any FormatArgumentConvertible]) {
        let comparison = pick(["==", "!=", "<", "<=", ">", ">="])
        if chance(0.25) {
            let f = pick(["length", "lowercase", "uppercase"])
            if f == "length" { return ("length(title) \(comparison) \(Int.random(in: 0...12, using: &rng))", []) }
            let (c, args) = constant(.string)
            return ("\(f)(title) \(comparison)\(pick(Self.options)) \(c)", args)
        }
        let count = chance(0.3) ? "(\(arithmetic(depth: 1)))" : pick(Self.countOperands)
        let other = chance(0.25) ? pick(Self.countOperands) : pick(Self.arithmeticConstants + ["-3", "63", "64", "-64", "-9223372036854775807"])
        let call: String
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            let f = pick(["abs", "floor", "ceiling", "trunc", "sqrt", "ln", "log", "exp", "onesComplement"])
            call = "\(f)(\(chance(0.3) ? "\(count) - \(other)" : count))"
        case 1:
            let op = pick(["&", "|", "^", "<<", ">>", "**"])
            call = chance(0.5) ? "\(count) \(op) \(other)" : "\(other) \(op) \(count)"
        default:
            call = chance(0.5) ? "modulus:by:(\(count), \(other))" : "modulus:by:(\(other), \(count))"
        }
        return ("\(call) \(comparison) \(pick(Self.arithmeticConstants + ["2.5", "nil"]))", [])
    }

    package mutating func leaf() -> (String, [any FormatArgumentConvertible]) {
        if ternaries && chance(0.5) { return ternaryOrOrderedLeaf() }
        if functions && chance(0.5) { return functionLeaf() }
        if let objects, chance(0.5) { return objectLeaf(objects) }
        switch Int.random(in: 0..<22, using: &rng) {
        case 20, 21:
            let comparand = chance(0.2) ? arithmetic(depth: 1) : pick(Self.arithmeticConstants + ["2.5", "nil"])
            return ("\(arithmetic()) \(pick(["==", "!=", "<", "<=", ">", ">="])) \(comparand)", [])
        case 0..<9:
            let (key, kind) = pick(Self.scalarKeys)
            return comparison(key, kind)
        case 9..<13:
            let (key, kind) = pick(Self.manyKeys)
            let (c, args) = comparison(key, kind)
            return (pick(["ANY ", "ALL ", "NONE ", "SOME "]) + c, args)
        case 13:
            let (c, args) = constant(.string)
            return chance(0.5) ? ("\(c) IN\(pick(Self.options)) tags.name", args) : ("chapters.name CONTAINS\(pick(Self.options)) \(c)", args)
        case 14, 15:
            let agg = pick(["chapters.@count", "tags.@count", "chapters.@sum.pages", "chapters.@avg.pages", "chapters.@min.pages", "chapters.@max.pages"])
            return ("\(agg) \(pick(["==", "!=", "<", "<=", ">", ">="])) \(pick(["0", "1", "2", "10", "25.5", "nil"]))", [])
        case 16:
            let (cond, a) = subqueryCondition()
            return ("SUBQUERY(chapters, $c, \(cond)).@count \(pick(["==", ">", ">=", "!="])) \(pick(["0", "1", "2"]))", a)
        case 17:
            return pick([
                ("year > author.age", []), ("title == author.name", []), ("title ==[c] author.name", []),
                ("code != title", []), ("price <= author.rating", []), ("code BEGINSWITH[cd] author.name", []),
                ("author.name IN[c] title", []), ("year >= author.age", []),
            ])
        case 18:
            return pick([("author == nil", []), ("author != nil", []), ("TRUEPREDICATE", []), ("FALSEPREDICATE", [])])
        default:
            let (key, kind) = pick(Self.scalarKeys)
            let c = comparison(key, kind)
            return ("NOT " + c.0, c.1)
        }
    }
}
