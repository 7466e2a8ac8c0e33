import SiftMacros

// The data set of the evaluation benchmarks: typed structs, the same objects
// as `Value` dictionaries, and the same objects as JSON for the GNUstep peer.

@KeyValueReadable
public struct Author: Sendable {
    public var name: String

    public init(name: String) {
        self.name = name
    }
}

// The key tables are derived by @KeyValueReadable: the same typed, in-place
// readers a hand-written table gives with key paths (.string(\.name), ...).
@KeyValueReadable
public struct Person: Sendable {
    public var name: String
    public var age: Int
    public var score: Double
    public var tags: [String]
    public var author: Author

    public init(name: String, age: Int, score: Double, tags: [String], author: Author) {
        self.name = name
        self.age = age
        self.score = score
        self.tags = tags
        self.author = author
    }
}

extension Person {
    /// The same object as a dynamic value (what decoded JSON gives).
    public var dynamicValue: Value {
        .dictionary([
            "name": .string(name),
            "age": .int(age),
            "score": .double(score),
            "tags": .array(tags.map { .string($0) }),
            "author": .dictionary(["name": .string(author.name)]),
        ])
    }
}

/// 64-bit linear congruential generator (Knuth's MMIX constants). Only the
/// high 32 bits of each step are used; the low bits of an LCG are weak.
public struct LCG: Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    @inline(__always)
    public mutating func next32() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 32
    }

    /// Uniform in 0..<n (n < 2^32).
    @inline(__always)
    public mutating func below(_ n: Int) -> Int {
        Int((next32() &* UInt64(n)) >> 32)
    }

    /// Uniform in [0, 1), 53 bits.
    @inline(__always)
    public mutating func unit() -> Double {
        let hi = next32() >> 5       // 27 bits
        let lo = next32() >> 6       // 26 bits
        return Double(hi << 26 | lo) * 0x1p-53
    }
}

public enum PeopleData {
    public static let defaultCount = 1_000_000
    public static let defaultSeed: UInt64 = 20_261_123

    /// Name syllables. "ab" starts 1 name in 40; "ery" (with "er" + "y" and the
    /// accented forms) makes CONTAINS[cd] 'ery' match about 1 name in 10; the
    /// accented syllables make ~8 % of names non-ASCII, so the Unicode paths run.
    static let syllables = [
        "ab", "al", "an", "ar", "be", "bo", "ca", "da", "de", "el",
        "en", "er", "ery", "fa", "ga", "ha", "in", "jo", "ka", "la",
        "li", "ma", "mo", "na", "ne", "o", "ol", "pa", "ra", "ri",
        "ro", "sa", "se", "ta", "to", "ul", "va", "ve", "y", "za",
    ]
    static let accentedSyllables = ["é", "ño", "ö", "ér", "éry", "zé", "ÉRY", "ça"]
    static let tagVocabulary = ["x", "swift", "linux", "db", "web", "ml", "ios", "api", "cli", "ui", "test", "doc"]
    static let authorNames = ["Ann", "Anna", "ann", "Bea", "Carl", "Dana", "Eli", "Finn", "Gus", "Hana", "Ivo"]

    /// `count` people, always the same for the same seed. age is uniform in
    /// 0..<100, score in [0, 1); 0–4 tags from 12 (so ~15 % have 'x'); author
    /// 'Ann' ~9 % (with 'Anna' and 'ann' as near misses).
    public static func make(count: Int = defaultCount, seed: UInt64 = defaultSeed) -> [Person] {
        var rng = LCG(seed: seed)
        var people: [Person] = []
        people.reserveCapacity(count)
        for _ in 0..<count {
            var name = ""
            for _ in 0..<(2 + rng.below(3)) {
                if rng.below(100) < 3 {
                    name += accentedSyllables[rng.below(accentedSyllables.count)]
                } else {
                    name += syllables[rng.below(syllables.count)]
                }
            }
            let style = rng.below(100)
            if style < 4 {
                name = name.uppercased()
            } else if style < 74 {
                name = name.prefix(1).uppercased() + name.dropFirst()
            }
            let age = rng.below(100)
            let score = rng.unit()
            var tags: [String] = []
            let tagCount = rng.below(5)
            tags.reserveCapacity(tagCount)
            for _ in 0..<tagCount { tags.append(tagVocabulary[rng.below(tagVocabulary.count)]) }
            let author = Author(name: authorNames[rng.below(authorNames.count)])
            people.append(Person(name: name, age: age, score: score, tags: tags, author: author))
        }
        return people
    }

    /// The people as a JSON array (UTF-8), for the Go and GNUstep peers.
    public static func json(_ people: [Person]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(people.count * 110)
        func string(_ s: String) {
            out.append(UInt8(ascii: "\""))
            for b in s.utf8 {
                switch b {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    out.append(UInt8(ascii: "\\"))
                    out.append(b)
                case 0..<0x20:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(contentsOf: Array(String(b, radix: 16).count == 1 ? "0\(String(b, radix: 16))".utf8 : String(b, radix: 16).utf8))
                default:
                    out.append(b)
                }
            }
            out.append(UInt8(ascii: "\""))
        }
        func raw(_ s: String) { out.append(contentsOf: Array(s.utf8)) }
        raw("[")
        for (i, p) in people.enumerated() {
            if i > 0 { raw(",\n") }
            raw("{\"name\":"); string(p.name)
            raw(",\"age\":\(p.age),\"score\":\(p.score),\"tags\":[")
            for (j, t) in p.tags.enumerated() {
                if j > 0 { raw(",") }
                string(t)
            }
            raw("],\"author\":{\"name\":"); string(p.author.name)
            raw("}}")
        }
        raw("]\n")
        return out
    }
}
