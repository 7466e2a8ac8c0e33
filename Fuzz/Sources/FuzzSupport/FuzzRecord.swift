import Sift

/// A user type read through typed readers, for comparing a filter compiled
/// for the type (`compiled(for:)`) with the same filter evaluated
/// dynamically on the boxed object (`compiled()`).
public struct FuzzRecord: KeyValueReadable, Hashable {
    public struct Person: KeyValueReadable, Hashable {
        var name: String
        var age: Int
        var rating: Double
        public static let keyTable = KeyTable<Person>(typed: [
            "name": .string { $0.name },
            "age": .int { $0.age },
            "rating": .double { $0.rating },
        ])
    }

    var name: String
    var age: Int
    var score: Double
    var flag: Bool
    var word: String
    var tags: [String]
    var nickname: String?
    var author: Person
    var authors: [Person]
    var inf: Double
    var nan: Double

    public static let keyTable = KeyTable<FuzzRecord>(typed: [
        "name": .string { $0.name },
        "age": .int { $0.age },
        "score": .double { $0.score },
        "flag": .bool { $0.flag },
        "word": .string { $0.word },
        "tags": .strings { $0.tags },
        "nickname": .value { $0.nickname.predicateValue },
        "author": .object { $0.author },
        "authors": .objects { $0.authors },
        "inf": .double { $0.inf },
        "nan": .double { $0.nan },
    ])

    /// The record the evaluate target uses.
    public static let sample = FuzzRecord(
        name: "Alice", age: 30, score: 87.5, flag: true, word: "café", tags: ["swift", "objc", "linux"],
        nickname: nil, author: Person(name: "Bob", age: 40, rating: 4.5),
        authors: [Person(name: "Bob", age: 40, rating: 4.5), Person(name: "Çelik", age: 25, rating: -0.0)],
        inf: .infinity, nan: .nan)
}
