import Foundation
import SiftMacros
import Testing

@testable import Sift

// Types annotated in a file that imports both Sift and SiftMacros: the
// attribute is the macro, the conformance the protocol.

@KeyValueReadable
struct MacroAuthor: Hashable {
    var name: String
    var level: Int
}

enum MacroGenre: String, Sendable, CaseIterable {
    case poetry, prose, drama
}

enum MacroRank: Int, Sendable, CaseIterable {
    case low = 1, high = 2
}

/// A type predicates cannot read: only a property marked `@SiftIgnored`
/// can have it.
struct MacroCover: Sendable {
    var pixels: [UInt8]
}

@KeyValueReadable
struct MacroBook {
    var title: String
    var year: Int
    var score: Double
    var inPrint: Bool
    var tags: [String]
    var editor: MacroAuthor
    var authors: [MacroAuthor]
    var pages: Int32
    var copies: UInt64
    var weight: Float
    var published: Date
    var subtitle: String?
    var genre: MacroGenre
    var rank: MacroRank?
    var moods: [MacroGenre]
    var price: Decimal
    var id: UUID
    var ratings: [Int]
    var extra: Value
    var sequel: MacroAuthor?
    @SiftKey("isbn13") var isbn: String
    @SiftIgnored var cover: MacroCover
    var decade: Int { year / 10 * 10 }
    @SiftKey var century: Int { year / 100 + 1 }
    static let shelf = "B"
}

/// The same keys, written by hand as the Getting Started article shows, reading a
/// `MacroBook` inside.
struct HandBook: KeyValueReadable {
    var book: MacroBook

    static let keyTable = KeyTable<HandBook>(typed: [
        "title": .string(\.book.title),
        "year": .int(\.book.year),
        "score": .double(\.book.score),
        "inPrint": .bool(\.book.inPrint),
        "tags": .strings(\.book.tags),
        "editor": .object(\.book.editor),
        "authors": .objects(\.book.authors),
        "pages": .int { Int($0.book.pages) },
        "copies": .value { $0.book.copies.predicateValue },
        "weight": .double { Double($0.book.weight) },
        "published": .value { .date($0.book.published) },
        "subtitle": .value { $0.book.subtitle.map { .string($0) } ?? .null },
        "genre": .value { .string($0.book.genre.rawValue) },
        "rank": .value { $0.book.rank.map { .int($0.rawValue) } ?? .null },
        "moods": .value { .array($0.book.moods.map { .string($0.rawValue) }) },
        "price": .value { .decimal($0.book.price) },
        "id": .value { .uuid($0.book.id) },
        "ratings": .value { .array($0.book.ratings.map { .int($0) }) },
        "extra": .value(\.book.extra),
        "sequel": .value { $0.book.sequel.map { .object($0) } ?? .null },
        "isbn13": .string(\.book.isbn),
        "century": .int { $0.book.century },
    ])
}

@KeyValueReadable
final class MacroShelf: Sendable {
    let label: String
    let slots: Int
    let top: MacroAuthor

    init(label: String, slots: Int, top: MacroAuthor) {
        self.label = label
        self.slots = slots
        self.top = top
    }
}

@KeyValueReadable
struct MacroBox<Content: Sendable> {
    var width: Int
    var label: String
}

/// 64-bit LCG (Knuth's MMIX constants): the same books on every run.
private struct Seeded {
    var state: UInt64

    mutating func below(_ n: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(n))
    }
}

struct KeyValueReadableMacroTests {
    static let names = ["Ann", "anna", "Bob", "Émile", "zoë", ""]
    static let tagWords = ["x", "swift", "db", "é"]
    static let start = Date(timeIntervalSince1970: 1_000_000_000)

    static let books: [MacroBook] = {
        var rng = Seeded(state: 2026)
        func author() -> MacroAuthor { MacroAuthor(name: names[rng.below(names.count)], level: rng.below(4)) }
        return (0..<300).map { i in
            MacroBook(
                title: names[rng.below(names.count)] + String(i % 7),
                year: 1900 + rng.below(130),
                score: Double(rng.below(1000)) / 1000,
                inPrint: rng.below(2) == 0,
                tags: (0..<rng.below(4)).map { _ in tagWords[rng.below(tagWords.count)] },
                editor: author(),
                authors: (0..<rng.below(3)).map { _ in author() },
                pages: Int32(rng.below(900)),
                copies: rng.below(5) == 0 ? UInt64.max - UInt64(rng.below(3)) : UInt64(rng.below(5000)),
                weight: Float(rng.below(40)) / 8,
                published: start.addingTimeInterval(Double(rng.below(10_000)) * 86_400),
                subtitle: rng.below(3) == 0 ? nil : names[rng.below(names.count)],
                genre: MacroGenre.allCases[rng.below(3)],
                rank: rng.below(3) == 0 ? nil : MacroRank.allCases[rng.below(2)],
                moods: (0..<rng.below(3)).map { _ in MacroGenre.allCases[rng.below(3)] },
                price: Decimal(rng.below(10_000)) / 100,
                id: UUID(uuid: (UInt8(rng.below(4)), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
                ratings: (0..<rng.below(4)).map { _ in rng.below(6) },
                extra: rng.below(2) == 0 ? .int(rng.below(7)) : .string(names[rng.below(names.count)]),
                sequel: rng.below(2) == 0 ? nil : author(),
                isbn: "97" + String(rng.below(100)),
                cover: MacroCover(pixels: []))
        }
    }()

    static let formats: [(String, [Value])] = [
        ("title BEGINSWITH[c] 'ann'", []), ("title == 'Bob3'", []), ("year > 1990", []),
        ("year BETWEEN {1950, 1960}", []), ("score < 0.5", []), ("score >= 0.25 AND year < 2000", []),
        ("inPrint == YES", []), ("ANY tags == 'x'", []), ("tags.@count > 1", []), ("editor.name ==[c] 'ann'", []),
        ("editor.level >= 2", []), ("ANY authors.name == 'Bob'", []), ("authors.@count == 0", []),
        ("ANY authors.level > 2", []), ("pages > 450", []), ("pages < 10 OR pages > 890", []),
        ("copies > 4000", []), ("copies > 9223372036854775807", []), ("weight < 1.5", []),
        ("weight == 2.5", []), ("published > %@", [.date(start.addingTimeInterval(5000 * 86_400))]),
        ("subtitle == nil", []), ("subtitle BEGINSWITH 'A'", []), ("genre == 'poetry'", []),
        ("genre IN {'prose', 'drama'}", []), ("rank == 2", []), ("rank == nil", []), ("ANY moods == 'drama'", []),
        ("price > 50.5", []), ("id == %@", [.uuid(UUID(uuid: (1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))]),
        ("ANY ratings > 3", []), ("extra == 3", []), ("extra ==[c] 'BOB'", []), ("sequel == nil", []),
        ("sequel.name == 'Ann'", []), ("isbn13 BEGINSWITH '975'", []), ("century == 20", []),
    ]

    /// Each key gets the reader its type calls for, read in place where the
    /// property is stored inline and its type can be compared as it is.
    @Test func readersFollowThePropertyTypes() {
        let table = MacroBook.keyTable
        func kind(_ key: String) -> String? {
            switch table.typedReader(forKey: key)?.kind {
            case .none: nil
            case .value: "value"
            case .int: "int"
            case .double: "double"
            case .string: "string"
            case .bool: "bool"
            case .strings: "strings"
            case .object: "object"
            }
        }
        let expected: [String: (kind: String, offset: PartialKeyPath<MacroBook>?)] = [
            "title": ("string", \.title), "year": ("int", \.year), "score": ("double", \.score),
            "inPrint": ("bool", \.inPrint), "tags": ("strings", \.tags), "editor": ("object", \.editor),
            "extra": ("value", \.extra), "authors": ("value", nil), "pages": ("int", nil), "copies": ("value", nil),
            "weight": ("double", nil), "published": ("value", nil), "subtitle": ("value", nil),
            "genre": ("value", nil), "rank": ("value", nil), "moods": ("value", nil), "price": ("value", nil),
            "id": ("value", nil), "ratings": ("value", nil), "sequel": ("value", nil), "isbn13": ("string", \.isbn),
            "century": ("int", nil),
        ]
        #expect(table.keys == expected.keys.sorted())
        for (key, (k, path)) in expected {
            #expect(kind(key) == k, "\(key)")
            let offset = table.typedReader(forKey: key)?.offset
            #expect(offset == path.flatMap { MemoryLayout<MacroBook>.offset(of: $0) }, "\(key)")
            if path != nil { #expect(offset != nil, "\(key)") }
        }
        // Through the nested struct, in place too.
        let level = KeyReader.path(["editor", "level"], from: table.typedReader(forKey: "editor"))
        #expect(level?.offset == MemoryLayout<MacroBook>.offset(of: \MacroBook.editor.level))
        // Left out: computed without @SiftKey, static, ignored, renamed.
        for key in ["decade", "shelf", "cover", "isbn"] {
            #expect(table.typedReader(forKey: key) == nil, "\(key)")
        }
    }

    /// The derived table, the hand-written one and the general path agree
    /// on every object, for a predicate on each key.
    @Test(arguments: formats.indices)
    func derivedTableAgreesWithHandWrittenAndGeneral(index: Int) throws {
        let (format, arguments) = Self.formats[index]
        let filter = try Filter(format, arguments: arguments.map { $0 as any FormatArgumentConvertible })
        let derived = filter.compiled(for: MacroBook.self)
        let general = filter.compiled(for: MacroBook.self, paths: .generalOnly)
        let hand = filter.compiled(for: HandBook.self)
        var matches = 0
        for book in Self.books {
            let a = try derived.evaluate(with: book)
            #expect(try general.evaluate(with: book) == a, "\(format)")
            #expect(try hand.evaluate(with: HandBook(book: book)) == a, "\(format)")
            if a { matches += 1 }
        }
        // Every predicate matches some books and not all, so that a reader
        // that reads nothing or the wrong property would be seen.
        #expect(matches > 0 && matches < Self.books.count, "\(format): \(matches)")
        #expect(try Self.books.count(where: derived) == matches)
    }

    @Test func finalClassAndGenericStruct() throws {
        let shelves = (0..<20).map { MacroShelf(label: "s\($0)", slots: $0, top: MacroAuthor(name: "Ann", level: $0 % 3)) }
        let filter = try Filter("slots > 10 AND top.level == 1 AND label ENDSWITH '3'").compiled(for: MacroShelf.self)
        #expect(try shelves.filter(filter).map(\.label) == ["s13"])
        #expect(MacroShelf.keyTable.typedReader(forKey: "slots")?.offset == nil)

        let boxes = (0..<5).map { MacroBox<Int>(width: $0, label: "b\($0)") }
        let big = try Filter("width >= 3").compiled(for: MacroBox<Int>.self)
        #expect(try boxes.filter(big).map(\.label) == ["b3", "b4"])
        #expect(MacroBox<Int>.keyTable.typedReader(forKey: "width")?.offset != nil)
    }
}
