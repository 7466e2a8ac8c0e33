import Foundation
import Sift

/// The fixed inputs besides the format string: format arguments, the object
/// evaluated, and the values of `$VARIABLES`. They use the keys and values of
/// the conformance cases' object, so that the seed corpus reaches deep.
public enum FuzzFixtures {
    /// Consumed in order by `%@ %K %d %f %c …`, or by position (`%3$@`).
    /// Only values whose printed form reads back: no dictionaries, sets or
    /// NSNull, and `%K` strings that are identifiers.
    public static let arguments: [FormatArgument] = [
        .value("name"),
        .value(30),
        .value("Alice"),
        .value(87.5),
        .value(["Alice", "Zed"]),
        .value(.null),
        .value(.date(Date(timeIntervalSinceReferenceDate: 50))),
        .value("é"),
        .expression(.keyPath("author.name")),
        .value([1, 2.5, "x"]),
    ]

    /// Values for `$VARIABLES` (others stay unbound: an evaluation error).
    public static let variables: [String: Value] = [
        "MIN": 18,
        "N": "Alice",
        "LOWER": 1,
        "UPPER": 10,
        "INPUT": 5,
        "X": 2.5,
        "NAME_LIST": ["Alice", "Bob"],
        "DATE": .date(Date(timeIntervalSinceReferenceDate: 0)),
        "NOTHING": .null,
        "AUTHOR": ["name": "Bob", "age": 40],
        "INF": .double(.infinity),
        "NAN": .double(.nan),
        // Key paths, for a variable after a dot (`author.$KEY`, `SELF.$PATH`).
        "KEY": "name",
        "PATH": "author.name",
    ]

    /// The object every predicate is evaluated against: strings with
    /// non-ASCII text (precomposed and decomposed), integers, doubles,
    /// booleans, nil and NSNull, arrays, sets, nested dictionaries (to-one and
    /// to-many), dates and data; doubles that no decimal or integer holds
    /// (infinities, NaN, 1e300) and the largest decimal, whose conversions
    /// and arithmetic must be errors rather than traps.
    public static let object: Value = [
        "name": "Alice",
        "age": 30,
        "score": 87.5,
        "flag": true,
        "zero": 0,
        "neg": -5,
        "big": .int(Int.max),
        "small": .int(Int.min),
        "ratio": .double(0.1),
        "price": .decimal(Decimal(string: "12.50")!),
        "title": "Mystery",
        "word": "café",
        "decomposed": "cafe\u{301}",
        "german": "Straße",
        "turkish": "İstanbul",
        "emoji": "👩‍💻 ok",
        "file": "atxt",
        "path": "a.txt",
        "starred": "a*b",
        "quote": "it's",
        "tabbed": "tab\there",
        "empty string": "",
        "tags": ["swift", "objc", "linux"],
        "set": .set(["a", "b", 1]),
        "nums": [1, 2, 3, 4],
        "mixed": [1, "two", 3.5, nil, .nsNull],
        "empty": [],
        "author": ["name": "Bob", "age": 40],
        "authors": [
            ["name": "Bob", "age": 40, "books": [["title": "A"]]],
            ["name": "Carol", "age": 25, "books": [["title": "B"], ["title": "C"]]],
            ["name": "Dave", "age": 35, "books": []],
        ],
        "nested": ["a": ["b": ["c": 7]]],
        "IN": 1,
        "AND": 2,
        "nullval": .nsNull,
        "nothing": nil,
        "flags": 7,
        "dict": ["x": "Bob", "y": "Eve"],
        "born": .date(Date(timeIntervalSinceReferenceDate: 50)),
        "bytes": .data(Data([0, 1, 0xFF])),
        "id": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
        "inf": .double(.infinity),
        "ninf": .double(-.infinity),
        "nan": .double(.nan),
        "huge": .double(1e300),
        "tiny": .double(5e-324),
        "maxdec": .decimal(.greatestFiniteMagnitude),
        "doubles": [.double(.infinity), .double(.nan), .double(1e300), .double(-0.0)],
        "decimals": [.decimal(.greatestFiniteMagnitude), .decimal(Decimal(string: "0.1")!)],
        // A run of 40 combining marks of two classes in reverse canonical
        // order (sorted, not exchanged, past 32), a path, and a key path
        // deeper than the raw JSON scan reads (64 keys).
        "marks": .string("a" + String(repeating: "\u{301}", count: 20) + String(repeating: "\u{316}", count: 20)),
        "file path": "/tmp/scratch.tiff",
        "deep": (0..<70).reduce(Value.string("bottom")) { inner, _ in ["a": inner] },
    ]
}

extension FuzzFixtures {
    /// Refuses the functions whose answer changes from one call to the next
    /// (`random`, `randomn:`, `now`): predicates using them are not compared
    /// between two ways of evaluating.
    public static let deterministic = PredicatePolicy(
        functions: Set(BuiltinFunction.allCases).subtracting([.random, .randomn, .now]))
}
