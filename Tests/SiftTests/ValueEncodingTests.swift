import Foundation
import XCTest

@testable import Sift

/// Values from `Encodable` types, and filters over them.
final class ValueEncodingTests: XCTestCase {
    struct Address: Codable, Equatable {
        var city: String
        var zip: UInt64
    }

    struct Person: Codable, Equatable {
        enum Role: String, Codable { case admin, member }
        var name: String
        var age: Int
        var score: Double
        var active: Bool
        var role: Role
        var tags: Set<String>
        var born: Date?
        var id: UUID
        var balance: Decimal
        var address: Address?
        var site: URL?
        var nicknames: [String]
    }

    static let ann = Person(
        name: "Ann", age: 31, score: 0.25, active: true, role: .admin, tags: ["x"],
        born: Date(timeIntervalSinceReferenceDate: 0), id: UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
        balance: Decimal(string: "19.99")!, address: Address(city: "Oslo", zip: UInt64.max),
        site: URL(string: "https://example.com"), nicknames: ["A", "Annie"])
    static let bob = Person(
        name: "Bob", age: 17, score: 0.75, active: false, role: .member, tags: [], born: nil, id: UUID(),
        balance: 0, address: nil, site: nil, nicknames: [])

    func testEncodesEachKindAsItsValue() throws {
        let value = try Value(encoding: Self.ann)
        XCTAssertEqual(value["name"], "Ann")
        XCTAssertEqual(value["age"], .int(31))
        XCTAssertEqual(value["active"], .bool(true))
        XCTAssertEqual(value["role"], "admin")
        XCTAssertEqual(value["tags"], ["x"])
        XCTAssertEqual(value["born"], .date(Date(timeIntervalSinceReferenceDate: 0)))
        XCTAssertEqual(value["id"], .uuid(Self.ann.id))
        XCTAssertEqual(value["balance"], .decimal(Decimal(string: "19.99")!))
        XCTAssertEqual(value[keyPath: "address.zip"], .decimal(Decimal(string: "18446744073709551615")!))
        XCTAssertEqual(value["site"], "https://example.com")
        XCTAssertEqual(value["nicknames"], ["A", "Annie"])
        // Skipped nil optionals are missing keys.
        XCTAssertNil(try Value(encoding: Self.bob)["born"])
    }

    func testRoundTripsThroughDecoding() throws {
        for person in [Self.ann, Self.bob] {
            XCTAssertEqual(try Value(encoding: person).decoded(as: Person.self), person)
        }
        XCTAssertEqual(try Value(encoding: [1, 2]), [1, 2])
        XCTAssertEqual(try Value(encoding: ["k": Optional<Int>.none]), ["k": .null])
    }

    func testFiltersEncodableObjects() throws {
        let people = [Self.ann, Self.bob]
        let adults = try Filter("age >= 18 AND address.city == 'Oslo' AND born < %@", Date()).compiled(encoding: Person.self)
        XCTAssertEqual(try people.filter(adults), [Self.ann])
        XCTAssertEqual(try people.count(where: Filter("born == nil").compiled(encoding: Person.self)), 1)
        XCTAssertEqual(try people.first(where: Filter("ANY nicknames BEGINSWITH 'Ann'").compiled(encoding: Person.self)), Self.ann)
        // The answers are those of the same values evaluated directly.
        for format in ["score < 0.5", "role == 'member'", "tags.@count == 0", "balance > 19.98", "active == NO"] {
            let filter = try Filter(format)
            let direct = try people.map { try filter.compiled().evaluate(with: Value(encoding: $0)) }
            XCTAssertEqual(try people.map { try filter.compiled(encoding: Person.self).evaluate(with: $0) }, direct, format)
        }
        XCTAssertThrowsError(try people.filter(Filter("name < 5").compiled(encoding: Person.self))) { error in
            XCTAssertEqual((error as? EvaluationError)?.code, .typeMismatch)
        }
    }
}
