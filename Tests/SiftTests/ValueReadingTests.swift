import Foundation
import XCTest

@testable import Sift

/// Values as people look at them and move them: `description`, subscripts
/// by key and key path, and decoding into `Decodable` types.
final class ValueReadingTests: XCTestCase {
    // MARK: description

    func testDescriptionIsTheLiteral() {
        XCTAssertEqual(Value.string("Ann \"A\"").description, #""Ann \"A\"""#)
        XCTAssertEqual(Value.int(42).description, "42")
        XCTAssertEqual(Value.double(2).description, "2.0")
        XCTAssertEqual(Value.bool(true).description, "true")
        XCTAssertEqual(Value.null.description, "nil")
        XCTAssertEqual(Value.nsNull.description, "<null>")
        XCTAssertEqual(Value.array([1, "a", .bool(false)]).description, #"{1, "a", false}"#)
        XCTAssertEqual(Value.dictionary(["b": 2, "a": [true]]).description, "{a = {true}; b = 2; }")
        XCTAssertEqual(
            Value.date(Date(timeIntervalSinceReferenceDate: 700_000_000)).description, #"CAST(700000000, "NSDate")"#)
        // Arrays of values print their elements this way, not as enum cases.
        XCTAssertEqual(String(describing: [Value.string("Ann"), .int(30)]), #"["Ann", 30]"#)
    }

    /// Every literal the description prints for a scalar or a list of them
    /// parses back to an equal value of the same kind.
    func testDescriptionParsesBack() throws {
        let values: [Value] = [
            "x", "", "tab\there", "é\u{301}", 0, -7, .int(Int.max), 0.5, -1e300, 2.0, true, false, .null,
            .date(Date(timeIntervalSinceReferenceDate: -12.25)), [1, [2, "b"], .bool(true)],
            .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), .data(Data([0, 1, 255])),
        ]
        for value in values {
            let filter = try Filter("SELF == \(value.description)")
            guard case .comparison(let c) = filter.predicate.kind, case .constant(let parsed) = c.rhs.kind else {
                return XCTFail("\(value.description) did not parse as a constant: \(filter.predicate)")
            }
            XCTAssertEqual(parsed, value, value.description)
            XCTAssertEqual(parsed.typeName, value.typeName, value.description)
        }
    }

    // MARK: Subscripts

    struct Author: KeyValueReadable, Hashable {
        var name: String
        var born: Int
        static let keyTable = KeyTable<Author>(["name": { .string($0.name) }, "born": { .int($0.born) }])
    }

    func testSubscriptByKey() {
        let book: Value = ["title": "Dune", "year": 1965, "author": .object(Author(name: "Herbert", born: 1920))]
        XCTAssertEqual(book["title"], "Dune")
        XCTAssertNil(book["price"])
        XCTAssertEqual(book["author"]?["born"], 1920)
        XCTAssertNil(book["author"]?["died"])
        XCTAssertNil(Value.string("Dune")["length"])
        XCTAssertNil(Value.array([book])["title"])
    }

    func testSubscriptByKeyPath() {
        let author: Value = [
            "name": "Le Guin",
            "books": [["title": "The Left Hand of Darkness", "year": 1969], ["title": "The Dispossessed", "year": 1974]],
            "agent": .object(Author(name: "Kidd", born: 1930)),
        ]
        XCTAssertEqual(author[keyPath: "books.year"], [1969, 1974])
        XCTAssertEqual(author[keyPath: "books.@max.year"], 1974)
        XCTAssertEqual(author[keyPath: "books.@count"], 2)
        XCTAssertEqual(author[keyPath: "agent.name"], "Kidd")
        XCTAssertEqual(author[keyPath: "name.length"], 7)
        XCTAssertEqual(author[keyPath: "missing.deeper"], .null)
        // Keys an object's type does not have, and malformed paths.
        XCTAssertNil(author[keyPath: "agent.died"])
        XCTAssertNil(author[keyPath: "books..year"])
        XCTAssertNil(author[keyPath: ""])
        XCTAssertNil(author[keyPath: "name.@avg"])
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

    func testDecodesAStructFromADictionary() throws {
        let id = UUID()
        let value: Value = [
            "title": "Dune", "year": .double(1965), "price": .decimal(Decimal(string: "9.99")!), "rating": 4,
            "inPrint": 1, "kind": "novel", "tags": .set(["sf"]),
            "published": .date(Date(timeIntervalSinceReferenceDate: 0)), "id": .string(id.uuidString),
            "cover": .nsNull, "site": "https://example.com/dune", "extra": [1, 2],
        ]
        let book = try value.decoded(as: Book.self)
        XCTAssertEqual(
            book,
            Book(
                title: "Dune", year: 1965, price: Decimal(string: "9.99"), rating: 4, inPrint: true, kind: .novel,
                tags: ["sf"], published: Date(timeIntervalSinceReferenceDate: 0), id: id, cover: nil,
                site: URL(string: "https://example.com/dune"), extra: [1, 2]))
    }

    struct Named: Decodable, Equatable {
        var name: String
        var born: Int
    }

    func testDecodesFromAnObjectAndFromArrays() throws {
        let authors: Value = [.object(Author(name: "Kidd", born: 1930)), ["name": "Ann", "born": 1990]]
        XCTAssertEqual(
            try authors.decoded(as: [Named].self), [Named(name: "Kidd", born: 1930), Named(name: "Ann", born: 1990)])
        XCTAssertEqual(try Value.double(0.1).decoded(as: Decimal.self), Decimal(string: "0.1"))
        XCTAssertEqual(try Value.decimal(Decimal(string: "18446744073709551615")!).decoded(as: UInt64.self), .max)
        XCTAssertEqual(try Value.array([.null, 3]).decoded(as: [Int?].self), [nil, 3])
    }

    func testErrorsNameThePathAndTheValue() {
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
        XCTAssertEqual(failure(["name": "Ann", "born": 1990.5], Named.self), "born: 1990.5 is not a whole number, as Int needs")
        XCTAssertEqual(failure(["name": "Ann"], Named.self), ": no value for the key 'born'")
        XCTAssertEqual(
            failure([["name": 3, "born": 1]], [Named].self), "0.name: expected a string, found integer 3")
        XCTAssertEqual(failure(300, UInt8.self), ": 300 does not fit UInt8")
        XCTAssertEqual(failure(2, Bool.self), ": expected a Boolean (or the number 0 or 1), found integer 2")
        XCTAssertEqual(failure(.bool(true), Int.self), ": expected a number, found boolean true")
        XCTAssertEqual(failure("x", Named.self), #": expected a dictionary or an object, found string "x""#)
        XCTAssertEqual(failure(.null, Int.self), ": expected a number, found nil")
    }
}
