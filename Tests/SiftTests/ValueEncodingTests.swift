import Foundation
import Testing

@testable import Sift

/// Values from `Encodable` types, and filters over them.
struct ValueEncodingTests {
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

    @Test func testEncodesEachKindAsItsValue() throws {
        let value = try Value(encoding: Self.ann)
        #expect(value["name"] == "Ann")
        #expect(value["age"] == .int(31))
        #expect(value["active"] == .bool(true))
        #expect(value["role"] == "admin")
        #expect(value["tags"] == ["x"])
        #expect(value["born"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(value["id"] == .uuid(Self.ann.id))
        #expect(value["balance"] == .decimal(Decimal(string: "19.99")!))
        #expect(value[keyPath: "address.zip"] == .decimal(Decimal(string: "18446744073709551615")!))
        #expect(value["site"] == "https://example.com")
        #expect(value["nicknames"] == ["A", "Annie"])
        // Skipped nil optionals are missing keys.
        #expect(try Value(encoding: Self.bob)["born"] == nil)
    }

    @Test func testRoundTripsThroughDecoding() throws {
        for person in [Self.ann, Self.bob] {
            #expect(try Value(encoding: person).decoded(as: Person.self) == person)
        }
        #expect(try Value(encoding: [1, 2]) == [1, 2])
        #expect(try Value(encoding: ["k": Optional<Int>.none]) == ["k": .null])
    }

    @Test func testFiltersEncodableObjects() throws {
        let people = [Self.ann, Self.bob]
        let adults = try Filter("age >= 18 AND address.city == 'Oslo' AND born < %@", Date()).compiled(encoding: Person.self)
        #expect(try people.filter(adults) == [Self.ann])
        #expect(try people.count(where: Filter("born == nil").compiled(encoding: Person.self)) == 1)
        #expect(try people.first(where: Filter("ANY nicknames BEGINSWITH 'Ann'").compiled(encoding: Person.self)) == Self.ann)
        // The answers are those of the same values evaluated directly.
        for format in ["score < 0.5", "role == 'member'", "tags.@count == 0", "balance > 19.98", "active == NO"] {
            let filter = try Filter(format)
            let direct = try people.map { try filter.compiled().evaluate(with: Value(encoding: $0)) }
            #expect(try people.map { try filter.compiled(encoding: Person.self).evaluate(with: $0) } == direct, Comment(rawValue: format))
        }
        if let error = #expect(throws: (any Error).self, performing: { try people.filter(Filter("name < 5").compiled(encoding: Person.self)) }) {
            #expect((error as? EvaluationError)?.code == .typeMismatch)
        }
    }
}
