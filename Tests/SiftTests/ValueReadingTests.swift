import Foundation
import Testing

@testable import Sift

/// Values as people look at them and move them: `description`, subscripts
/// by key and key path, and decoding into `Decodable` types.
struct ValueReadingTests {
    // MARK: description

    @Test func testDescriptionIsTheLiteral() {
        #expect(Value.string("Ann \"A\"").description == #""Ann \"A\"""#)
        #expect(Value.int(42).description == "42")
        #expect(Value.double(2).description == "2.0")
        #expect(Value.bool(true).description == "true")
        #expect(Value.null.description == "nil")
        #expect(Value.nsNull.description == "<null>")
        #expect(Value.array([1, "a", .bool(false)]).description == #"{1, "a", false}"#)
        #expect(Value.dictionary(["b": 2, "a": [true]]).description == "{a = {true}; b = 2; }")
        #expect(Value.date(Date(timeIntervalSinceReferenceDate: 700_000_000)).description == #"CAST(700000000, "NSDate")"#)
        // Arrays of values print their elements this way, not as enum cases.
        #expect(String(describing: [Value.string("Ann"), .int(30)]) == #"["Ann", 30]"#)
    }

    /// Every literal the description prints for a scalar or a list of them
    /// parses back to an equal value of the same kind.
    @Test func testDescriptionParsesBack() throws {
        let values: [Value] = [
            "x", "", "tab\there", "é\u{301}", 0, -7, .int(Int.max), 0.5, -1e300, 2.0, true, false, .null,
            .date(Date(timeIntervalSinceReferenceDate: -12.25)), [1, [2, "b"], .bool(true)],
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .data(Data([0, 1, 255])),
        ]
        for value in values {
            let filter = try Filter("SELF == \(value.description)")
            guard case .comparison(let c) = filter.predicate.kind, case .constant(let parsed) = c.rhs.kind else {
                Issue.record("\(value.description) did not parse as a constant: \(filter.predicate)"); return
            }
            #expect(parsed == value, Comment(rawValue: value.description))
            #expect(parsed.typeName == value.typeName, Comment(rawValue: value.description))
        }
    }

    // MARK: Subscripts

    struct Author: KeyValueReadable, Hashable {
        var name: String
        var born: Int
        static let keyTable = KeyTable<Author>(["name": { .string($0.name) }, "born": { .int($0.born) }])
    }

    @Test func testSubscriptByKey() {
        let book: Value = ["title": "Dune", "year": 1965, "author": .object(Author(name: "Herbert", born: 1920))]
        #expect(book["title"] == "Dune")
        #expect(book["price"] == nil)
        #expect((book["author"]?["born"]) == 1920)
        #expect((book["author"]?["died"]) == nil)
        #expect(Value.string("Dune")["length"] == nil)
        #expect(Value.array([book])["title"] == nil)
    }

    @Test func testSubscriptByKeyPath() {
        let author: Value = [
            "name": "Le Guin",
            "books": [["title": "The Left Hand of Darkness", "year": 1969], ["title": "The Dispossessed", "year": 1974]],
            "agent": .object(Author(name: "Kidd", born: 1930)),
        ]
        #expect(author[keyPath: "books.year"] == [1969, 1974])
        #expect(author[keyPath: "books.@max.year"] == 1974)
        #expect(author[keyPath: "books.@count"] == 2)
        #expect(author[keyPath: "agent.name"] == "Kidd")
        #expect(author[keyPath: "name.length"] == 7)
        #expect(author[keyPath: "missing.deeper"] == .null)
        // Keys an object's type does not have, and malformed paths.
        #expect(author[keyPath: "agent.died"] == nil)
        #expect(author[keyPath: "books..year"] == nil)
        #expect(author[keyPath: ""] == nil)
        #expect(author[keyPath: "name.@avg"] == nil)
    }

    // MARK: Decoding

    struct Book: Decodable, Equatable {
        enum Kind: String, Decodable { case novel, essay }
        var title: String
        var year: Int
        var price: Decimal?
        var rating: Double
        var inPrint: Bool
        var kind: Kind
        var tags: [String]
        var published: Date?
        var id: UUID
        var cover: Data?
        var site: URL?
        var extra: Value?
    }

    @Test func testDecodesAStructFromADictionary() throws {
        let id = UUID()
        let value: Value = [
            "title": "Dune", "year": .double(1965), "price": .decimal(Decimal(string: "9.99")!), "rating": 4,
            "inPrint": 1, "kind": "novel", "tags": .set(["sf"]),
            "published": .date(Date(timeIntervalSinceReferenceDate: 0)), "id": .string(id.uuidString),
            "cover": .nsNull, "site": "https://example.com/dune", "extra": [1, 2],
        ]
        let book = try value.decoded(as: Book.self)
        #expect(book == Book(
                title: "Dune", year: 1965, price: Decimal(string: "9.99"), rating: 4, inPrint: true, kind: .novel,
                tags: ["sf"], published: Date(timeIntervalSinceReferenceDate: 0), id: id, cover: nil,
                site: URL(string: "https://example.com/dune"), extra: [1, 2]))
    }

    struct Named: Decodable, Equatable {
        var name: String
        var born: Int
    }

    @Test func testDecodesFromAnObjectAndFromArrays() throws {
        let authors: Value = [.object(Author(name: "Kidd", born: 1930)), ["name": "Ann", "born": 1990]]
        #expect(try authors.decoded(as: [Named].self) == [Named(name: "Kidd", born: 1930), Named(name: "Ann", born: 1990)])
        #expect(try Value.double(0.1).decoded(as: Decimal.self) == Decimal(string: "0.1"))
        #expect(try Value.decimal(Decimal(string: "18446744073709551615")!).decoded(as: UInt64.self) == .max)
        #expect(try Value.array([.null, 3]).decoded(as: [Int?].self) == [nil, 3])
    }

    @Test func testErrorsNameThePathAndTheValue() {
        func failure<T: Decodable>(_ value: Value, _ type: T.Type) -> String {
            do {
                _ = try value.decoded(as: type)
                return "decoded"
            } catch let DecodingError.typeMismatch(_, c), let DecodingError.dataCorrupted(c),
                let DecodingError.keyNotFound(_, c), let DecodingError.valueNotFound(_, c)
            {
                return c.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
                    + ": " + c.debugDescription
            } catch {
                return "\(error)"
            }
        }
        #expect(failure(["name": "Ann", "born": 1990.5], Named.self) == "born: 1990.5 is not a whole number, as Int needs")
        #expect(failure(["name": "Ann"], Named.self) == ": no value for the key 'born'")
        #expect(failure([["name": 3, "born": 1]], [Named].self) == "0.name: expected a string, found integer 3")
        #expect(failure(300, UInt8.self) == ": 300 does not fit UInt8")
        #expect(failure(2, Bool.self) == ": expected a Boolean (or the number 0 or 1), found integer 2")
        #expect(failure(.bool(true), Int.self) == ": expected a number, found boolean true")
        #expect(failure("x", Named.self) == #": expected a dictionary or an object, found string "x""#)
        #expect(failure(.null, Int.self) == ": expected a number, found nil")
    }
}
