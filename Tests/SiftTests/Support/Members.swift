import Foundation

@testable import Sift

// The members that the typed, in-place, plan and path suites evaluate
// (TypedReaderTests.members and the forms made from them).

struct Member: KeyValueReadable {
    var name: String
    var age: Int
    var score: Double
    var tags: [String]
    var mentor: Mentor

    static let keyTable = KeyTable<Member>(typed: [
        "name": .string { $0.name },
        "age": .int { $0.age },
        "score": .double { $0.score },
        "tags": .strings { $0.tags },
        "mentor": .object { $0.mentor },
    ])
}

struct Mentor: KeyValueReadable {
    var name: String
    var level: Int
    static let keyTable = KeyTable<Mentor>(typed: ["name": .string { $0.name }, "level": .int { $0.level }])
}

/// ``Member`` with its keys given by key path: stored properties are read in
/// place, at their offsets.
struct StoredMember: KeyValueReadable {
    var name: String
    var age: Int
    var score: Double
    var flag: Bool
    var tags: [String]
    var mentor: StoredMentor
    var extra: Value
    var shout: String { name.uppercased() }

    init(_ m: Member) {
        name = m.name
        age = m.age
        score = m.score
        flag = m.age % 2 == 0
        tags = m.tags
        mentor = StoredMentor(name: m.mentor.name, level: m.mentor.level)
        extra = .int(m.age % 7)
    }

    static let keyTable = KeyTable<StoredMember>(typed: [
        "name": .string(\.name),
        "age": .int(\.age),
        "score": .double(\.score),
        "flag": .bool(\.flag),
        "tags": .strings(\.tags),
        "mentor": .object(\.mentor),
        "extra": .value(\.extra),
        "shout": .string(\.shout),
    ])
}

struct StoredMentor: KeyValueReadable {
    var level: Int
    var name: String

    init(name: String, level: Int) {
        self.name = name
        self.level = level
    }

    static let keyTable = KeyTable<StoredMentor>(typed: ["name": .string(\.name), "level": .int(\.level)])
}

/// The same keys on a class: key paths into a class have no offset in the
/// root's memory, so its readers are called with the object.
final class MemberObject: KeyValueReadable, @unchecked Sendable {
    let member: StoredMember
    var name: String { member.name }
    let age: Int
    let tags: [String]
    let mentor: StoredMentor

    init(_ m: StoredMember) {
        member = m
        age = m.age
        tags = m.tags
        mentor = m.mentor
    }

    static let keyTable = KeyTable<MemberObject>(typed: [
        "name": .string(\.name),
        "age": .int(\.age),
        "score": .double(\.member.score),
        "tags": .strings(\.tags),
        "mentor": .object(\.mentor),
    ])
}
