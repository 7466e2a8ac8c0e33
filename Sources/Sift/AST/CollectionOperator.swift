/// The collection operators of key-value coding, one case each: the one
/// table of them.
///
/// In a tree an operator is a key path component spelled as its raw value
/// (`items.@sum.price` is `["items", "@sum", "price"]`); it applies the rest
/// of the path to each element of the collection before it and combines
/// the results. The lexer accepts the names of this table after `@`, the
/// REPL completes them, ``PredicatePolicy`` reads ``result`` to know which
/// values come out of one, and SQL lowering reads ``needsKeyPath``.
/// Evaluation is `KeyValueAccess.collectionOperator(_:on:rest:)` in
/// `Semantics/KeyValueAccess.swift`; the SQL form (or the refusal) is
/// `Lowering.aggregate` in SiftSQL's `Lowering.swift`, each a switch over
/// these cases.
///
/// Related documentation: Key-Value Coding Programming Guide, "Using
/// Collection Operators".
public enum CollectionOperator: String, Sendable, Hashable, CaseIterable {
    /// `@count`: how many elements (a dictionary: how many entries). A key
    /// path after it is ignored in memory and refused in SQL.
    /// SQL: `(SELECT COUNT(*) …)`.
    case count = "@count"
    /// `@sum.p`: the sum of the numbers, nil skipped; 0 when empty.
    /// SQL: `TOTAL(p)` (SQLite), `COALESCE(SUM(p), 0)` (PostgreSQL);
    /// refused for decimal attributes (SQL adds the stored doubles).
    case sum = "@sum"
    /// `@avg.p`: the mean as a double; nil counts as 0 and stays in the
    /// denominator, as in Foundation; nil when empty.
    /// SQL: `TOTAL(p) / NULLIF(COUNT(*), 0)`; refused for decimals.
    case avg = "@avg"
    /// `@min.p`: the smallest value by `compare:`, nil skipped; nil when
    /// empty. SQL: `MIN(p)` of numbers or dates.
    case min = "@min"
    /// `@max.p`: the largest value, as ``min``. SQL: `MAX(p)`.
    case max = "@max"
    /// `@unionOfObjects.p`: the values, nil skipped, duplicates kept.
    /// No SQL form.
    case unionOfObjects = "@unionOfObjects"
    /// `@distinctUnionOfObjects.p`: the values without duplicates.
    /// No SQL form.
    case distinctUnionOfObjects = "@distinctUnionOfObjects"
    /// `@unionOfArrays.p`: the values, which are collections, flattened one
    /// level. No SQL form.
    case unionOfArrays = "@unionOfArrays"
    /// `@distinctUnionOfArrays.p`: as ``unionOfArrays``, without duplicates.
    /// No SQL form.
    case distinctUnionOfArrays = "@distinctUnionOfArrays"
    /// `@distinctUnionOfSets.p`: the values, which are collections,
    /// flattened into a set. No SQL form.
    case distinctUnionOfSets = "@distinctUnionOfSets"

    /// The name as written in a key path: `"@avg"`.
    public var name: String { rawValue }

    /// The operator a key path component names, if it names a known one.
    public init?(name: String) { self.init(rawValue: name) }

    /// Whether a key path component is a collection operator: it starts
    /// with `@`. A component from `%K` or from a decoded tree may name one
    /// that this table does not have (`@foo`); it is an operator all the
    /// same, and an error where it is applied.
    public static func isOperator(_ component: String) -> Bool {
        component.utf8.first == UInt8(ascii: "@")
    }

    /// Whether the operator needs a key path after it (`@sum.price`):
    /// every one but `@count`.
    public var needsKeyPath: Bool { self != .count }

    /// What the operator gives.
    public var result: Result {
        switch self {
        case .count: return .count
        case .sum, .avg: return .number
        case .min, .max: return .element
        case .unionOfObjects, .distinctUnionOfObjects, .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets:
            return .collection
        }
    }

    /// What the values the key path gives for the elements must be.
    public var operands: Operands {
        switch self {
        case .count, .unionOfObjects, .distinctUnionOfObjects: return .any
        case .sum, .avg: return .numbers
        case .min, .max: return .comparable
        case .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets: return .collections
        }
    }

    /// What a collection operator gives.
    public enum Result: Sendable, Hashable {
        /// The number of elements, read from none of them.
        case count
        /// A number computed from the values (`@sum`, `@avg`).
        case number
        /// One of the values (`@min`, `@max`).
        case element
        /// A collection of the values (the unions).
        case collection
    }

    /// What a collection operator needs of the values it combines.
    public enum Operands: Sendable, Hashable {
        /// Anything (nil is skipped).
        case any
        /// Numbers.
        case numbers
        /// Values that order against each other (numbers, strings, dates).
        case comparable
        /// Arrays or sets, whose elements are gathered.
        case collections
    }
}
