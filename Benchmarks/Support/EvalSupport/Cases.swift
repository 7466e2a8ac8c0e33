import Foundation
import Sift

/// One of the five predicates, in every form the benchmarks time.
public struct EvalCase: Sendable {
    /// 1...5.
    public let number: Int
    /// The format string Sift parses.
    public let format: String
    /// The format string given to GNUstep. Its parser binds OR tighter than
    /// AND, so (5) needs explicit parentheses there to mean the same thing.
    public let gnustepFormat: String
    /// The hand-written condition, as a careful Swift programmer writes it.
    public let handWritten: @Sendable (Person) -> Bool
    /// What `handWritten` is, for the tables.
    public let handWrittenSource: String
    /// The closest Foundation `#Predicate`.
    public let predicate: Predicate<Person>
    /// What `predicate` is, for the tables.
    public let predicateSource: String
}

// The hand-written conditions are @inlinable so that a call site in another
// module that passes them to `count(where:)` / `filter` gets them inlined,
// exactly as if the closure had been written there.
public enum HandWritten {
    @inlinable public static func age(_ p: Person) -> Bool { p.age > 30 }

    /// BEGINSWITH[c]: lowercase, then a prefix test.
    @inlinable public static func beginsWith(_ p: Person) -> Bool { p.name.lowercased().hasPrefix("ab") }

    /// CONTAINS[cd]: Foundation's case- and diacritic-insensitive search.
    @inlinable public static func containsCD(_ p: Person) -> Bool {
        p.name.range(of: "ery", options: [.caseInsensitive, .diacriticInsensitive]) != nil
    }

    @inlinable public static func anyTag(_ p: Person) -> Bool { p.tags.contains("x") }

    @inlinable public static func compound(_ p: Person) -> Bool {
        (p.age > 30 && p.score < 0.5) || p.author.name == "Ann"
    }
}

public let evalCases: [EvalCase] = [
    EvalCase(
        number: 1,
        format: "age > 30",
        gnustepFormat: "age > 30",
        handWritten: HandWritten.age,
        handWrittenSource: "$0.age > 30",
        predicate: #Predicate<Person> { $0.age > 30 },
        predicateSource: "$0.age > 30"),
    EvalCase(
        number: 2,
        format: "name BEGINSWITH[c] 'ab'",
        gnustepFormat: "name BEGINSWITH[c] 'ab'",
        handWritten: HandWritten.beginsWith,
        handWrittenSource: "$0.name.lowercased().hasPrefix(\"ab\")",
        // lowercased() and hasPrefix are refused by the macro on Linux.
        predicate: #Predicate<Person> { $0.name.localizedLowercase.starts(with: "ab") },
        predicateSource: "$0.name.localizedLowercase.starts(with: \"ab\")"),
    EvalCase(
        number: 3,
        format: "name CONTAINS[cd] 'ery'",
        gnustepFormat: "name CONTAINS[cd] 'ery'",
        handWritten: HandWritten.containsCD,
        handWrittenSource: "$0.name.range(of: \"ery\", options: [.caseInsensitive, .diacriticInsensitive]) != nil",
        // Nothing diacritic-insensitive compiles on Linux (localizedStandardContains
        // is not in PredicateExpressions there): case-insensitive only.
        predicate: #Predicate<Person> { $0.name.localizedLowercase.contains("ery") },
        predicateSource: "$0.name.localizedLowercase.contains(\"ery\") (case only)"),
    EvalCase(
        number: 4,
        format: "ANY tags == 'x'",
        gnustepFormat: "ANY tags == 'x'",
        handWritten: HandWritten.anyTag,
        handWrittenSource: "$0.tags.contains(\"x\")",
        predicate: #Predicate<Person> { $0.tags.contains("x") },
        predicateSource: "$0.tags.contains(\"x\")"),
    EvalCase(
        number: 5,
        format: "age > 30 AND score < 0.5 OR author.name == 'Ann'",
        gnustepFormat: "(age > 30 AND score < 0.5) OR author.name == 'Ann'",
        handWritten: HandWritten.compound,
        handWrittenSource: "($0.age > 30 && $0.score < 0.5) || $0.author.name == \"Ann\"",
        predicate: #Predicate<Person> { ($0.age > 30 && $0.score < 0.5) || $0.author.name == "Ann" },
        predicateSource: "($0.age > 30 && $0.score < 0.5) || $0.author.name == \"Ann\""),
]

/// Counts with a closure the optimiser cannot see through (a by-value
/// `(Person) -> Bool` passed to a function that is not inlined).
@inline(never)
public func opaqueCount(_ people: [Person], _ test: (Person) -> Bool) -> Int {
    var n = 0
    for p in people where test(p) { n += 1 }
    return n
}

/// `#Predicate` over the array, counting matches.
@inline(never)
public func predicateCount(_ people: [Person], _ predicate: Predicate<Person>) throws -> Int {
    var n = 0
    for p in people where try predicate.evaluate(p) { n += 1 }
    return n
}
