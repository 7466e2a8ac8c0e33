import Foundation
import Testing

@testable import Sift

struct InPlaceReaderTests {
    static let members = TypedReaderTests.members.map(StoredMember.init)

    static func dynamicValue(_ m: StoredMember) -> Value {
        [
            "name": .string(m.name), "age": .int(m.age), "score": .double(m.score), "flag": .bool(m.flag),
            "tags": .array(m.tags.map { .string($0) }),
            "mentor": ["name": .string(m.mentor.name), "level": .int(m.mentor.level)],
            "extra": m.extra, "shout": .string(m.shout),
        ]
    }

    static let formats = TypedReaderTests.formats + [
        "flag == YES", "flag != NO", "extra == 3", "extra > 2", "shout BEGINSWITH 'AB'", "shout == 'ERY'",
        "age < 10 OR age > 90", "NOT (age BETWEEN {10, 90})", "age IN {1, 2, 3}", "age > 30 AND mentor.level < 2",
        "ALL tags != 'x'", "NONE tags == 'x'", "mentor.level == 2 OR mentor.name ==[c] 'ann'",
        "age > 2.5", "score < 0.75", "score * 2 <= %d", "age > 10 AND age < 90 AND score >= 0.25",
        "age < 5 OR score > 0.95 OR mentor.level == 4",
    ]

    /// The offsets are known where the data are stored inline, and only
    /// there (otherwise the tests below would not test reading in place).
    @Test func offsetsAreKnownForStoredProperties() {
        let table = StoredMember.keyTable
        for key in ["name", "age", "score", "flag", "tags", "mentor", "extra"] {
            #expect(table.typedReader(forKey: key)?.offset != nil, "\(key)")
        }
        #expect(table.typedReader(forKey: "shout")?.offset == nil)
        let level = KeyReader.path(["mentor", "level"], from: table.typedReader(forKey: "mentor"))
        #expect(level?.offset == MemoryLayout<StoredMember>.offset(of: \StoredMember.mentor.level))
        #expect(MemberObject.keyTable.typedReader(forKey: "age")?.offset == nil)
        let member = Member.keyTable.typedReader(forKey: "age")
        #expect(member != nil && member?.offset == nil)
    }

    @Test(arguments: formats)
    func inPlaceReadersAgreeWithValues(format: String) throws {
        let filter = try format.contains("%d") ? Filter(format, 1) : Filter(format)
        let typed = filter.compiled(for: StoredMember.self)
        let dynamic = filter.compiled()
        var expected: [Int] = []
        for (i, m) in Self.members.enumerated() {
            let a = try typed.evaluate(with: m)
            let b = try dynamic.evaluate(with: Self.dynamicValue(m))
            #expect(a == b, "\(format) on \(m.name.unicodeScalars.map { String($0.value, radix: 16) })")
            if b { expected.append(i) }
        }
        #expect(expected.count < Self.members.count || format.contains("!=") || format.contains("ALL")
            || format.contains("NONE") || format.contains("NOT") || format.contains("OR"))

        // The collection methods: an array read in place, another sequence
        // element by element.
        let names = expected.map { Self.members[$0].name }
        #expect(try Self.members.filter(typed).map(\.name) == names)
        #expect(try Self.members.count(where: typed) == expected.count)
        #expect(try Self.members.first(where: typed)?.name == names.first)
        let sequence = AnySequence(Self.members)
        #expect(try sequence.filter(typed).map(\.name) == names)
        #expect(try sequence.count(where: typed) == expected.count)
        #expect(try sequence.first(where: typed)?.name == names.first)
        #expect(try ArraySlice(Self.members).filter(typed).map(\.name) == names)
    }

    /// A fetch request on an array of a KeyValueReadable type filters it in
    /// place and sorts by the key table's readers; it answers as the same
    /// request on the objects' values and on dictionaries of the same data.
    @Test(arguments: formats)
    func fetchRequestsAgreeWithValues(format: String) throws {
        let filter = try format.contains("%d") ? Filter(format, 1) : Filter(format)
        let sorts: [[SortKey]] = [
            [], [.ascending("name", .caseInsensitive)], [.descending("mentor.level"), .ascending("age")],
            [.ascending("extra"), .descending("shout", .localizedStandard)], [.descending("score")],
        ]
        let dictionaries = Self.members.map(Self.dynamicValue)
        var request = FetchSpecification(entity: "StoredMember", filter: filter)
        for (n, sort) in sorts.enumerated() {
            request.sort = sort
            (request.offset, request.limit) = [(0, nil), (3, 5), (1, 0), (0, 1), (500, nil)][n]
            let typed = try request.execute(on: Self.members).map(\.name)
            #expect(typed == (try request.execute(valuesOf: Self.members)).map(\.name), "\(sort)")
            var plain = request
            plain.entity = nil
            #expect(typed == (try plain.execute(on: dictionaries)).map { $0["name"]?.stringValue }, "\(sort)")
        }
        let typed = filter.compiled(for: StoredMember.self)
        #expect(try Self.members.indices(where: typed).map { Self.members[$0].name } == Self.members.filter(typed).map(\.name))
    }

    /// Sorting by a key the type lacks, or by SELF, answers as the values
    /// do; another entity gives nothing, and a class's objects are checked
    /// one by one.
    @Test func fetchRequestsOnTypedArraysEdgeCases() throws {
        let missing = FetchSpecification(filter: try Filter("age > 30"), sort: [.ascending("nickname")])
        #expect(throws: EvaluationError.self) { try missing.execute(on: Self.members) }
        #expect(try FetchSpecification(entity: "Other").execute(on: Self.members).isEmpty)
        let objects = Self.members.map(MemberObject.init)
        let request = FetchSpecification(entity: "MemberObject", filter: try Filter("age > 30"), sort: [.descending("age")], limit: 3)
        #expect(try request.execute(on: objects).map(\.age) == Array(Self.members.map(\.age).filter { $0 > 30 }.sorted(by: >).prefix(3)))
        #expect(throws: EvaluationError.self) {
            try FetchSpecification(filter: try Filter("name < 5")).execute(on: Self.members)
        }
    }

    @Test(arguments: ["age > 30", "name BEGINSWITH[c] 'ab'", "ANY tags == 'x'", "mentor.name == 'Ann'", "score < 0.5"])
    func classReadersAgree(format: String) throws {
        let filter = try Filter(format)
        let objects = Self.members.map(MemberObject.init)
        let typed = filter.compiled(for: MemberObject.self)
        let dynamic = filter.compiled()
        let expected = Self.members.filter { (try? dynamic.evaluate(with: Self.dynamicValue($0))) == true }.map(\.name)
        #expect(!expected.isEmpty)
        #expect(try objects.filter(typed).map(\.name) == expected)
        #expect(try AnySequence(objects).count(where: typed) == expected.count)
    }

    /// Keys that are not typed, SELF and errors still work on a value read
    /// by address.
    @Test func wholeObjectAndErrors() throws {
        let m = Self.members[3]
        #expect(try Filter("SELF.age == %d", m.age).compiled(for: StoredMember.self).evaluate(with: m))
        #expect(try Filter("mentor.level + 1 == %d", m.mentor.level + 1).compiled(for: StoredMember.self).evaluate(with: m))
        #expect(throws: EvaluationError.self) { try Filter("name > 3").compiled(for: StoredMember.self).evaluate(with: m) }
        #expect(throws: EvaluationError.self) {
            try Self.members.filter(Filter("nothing == 1").compiled(for: StoredMember.self))
        }
        // Short-circuiting, and so which comparisons can throw, is unchanged.
        let typed = { (f: String) in try Filter(f).compiled(for: StoredMember.self).evaluate(with: m) }
        #expect(try !typed("age > 200 AND name > 3"))
        #expect(try typed("age >= 0 OR name > 3"))
        #expect(throws: EvaluationError.self) { try typed("age >= 0 AND score >= 0 AND name > 3") }
        #expect(throws: EvaluationError.self) { try typed("name > 3 OR age >= 0") }
        let sub = try Filter("SUBQUERY(tags, $t, $t == 'x').@count == %d", m.tags.filter { $0 == "x" }.count)
        #expect(try sub.compiled(for: StoredMember.self).evaluate(with: m))
    }
}
