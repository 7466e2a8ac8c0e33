import Foundation
import GRDB
import GRDBSQLite
import Sift
import SiftSQL
import SiftSQLite

// The schema, the generated rows and the SQLite database of SQLBenchmarks
// and SQLPlans.

/// Person {name, age, score, author → Author (to-one, `author_id`), tags → Tag
/// (to-many, `tags.person_id`)}, Author {name}, Tag {name}.
public let sqlSchema = StoreSchema([
    Entity("Person", table: "people", attributes: [
        Attribute("name", .string),
        Attribute("age", .integer),
        Attribute("score", .double),
    ], relationships: [
        .toOne("author", "Author", column: "author_id"),
        .toMany("tags", "Tag", inverseColumn: "person_id"),
    ]),
    Entity("Author", table: "authors", attributes: [
        Attribute("name", .string),
    ]),
    Entity("Tag", table: "tags", attributes: [
        Attribute("name", .string),
    ]),
])

/// The indexes created besides `createStatements` (which indexes only the key
/// columns `people.author_id` and `tags.person_id`).
public let extraIndexes = [
    #"CREATE INDEX "people_age" ON "people" ("age")"#,
    #"CREATE INDEX "people_name" ON "people" ("name")"#,
    #"CREATE INDEX "tags_name" ON "tags" ("name")"#,
]

/// 64-bit linear congruential generator (Knuth's MMIX constants), high 32
/// bits of each step.
struct Generator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next32() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 32
    }

    /// Uniform in 0..<n (n < 2^32).
    mutating func below(_ n: Int) -> Int { Int((next32() &* UInt64(n)) >> 32) }

    /// Uniform in [0, 1), 53 bits.
    mutating func unit() -> Double {
        let hi = next32() >> 5
        let lo = next32() >> 6
        return Double(hi << 26 | lo) * 0x1p-53
    }
}

public enum SQLData {
    public static let defaultCount = 1_000_000
    public static let seed: UInt64 = 20_261_201

    /// 40 syllables; a name is 2–4 of them (3 % accented). "ab" is one of
    /// the 40, and 1 name in 15 stays lower case (the others are
    /// capitalised), so about 1 name in 600 begins with "ab".
    static let syllables = [
        "ab", "al", "an", "ar", "be", "bo", "ca", "da", "de", "el",
        "en", "er", "ery", "fa", "ga", "ha", "in", "jo", "ka", "la",
        "li", "ma", "mo", "na", "ne", "o", "ol", "pa", "ra", "ri",
        "ro", "sa", "se", "ta", "to", "ul", "va", "ve", "y", "za",
    ]
    static let accentedSyllables = ["é", "ño", "ö", "ér", "éry", "zé", "ÉRY", "ça"]
    /// Authors 1–10: `Ann` is author 1.
    public static let authorNames = ["Ann", "Anna", "ann", "Bea", "Carl", "Dana", "Eli", "Finn", "Gus", "Hana"]
    static let tagVocabulary = ["x", "swift", "linux", "db", "web", "ml", "ios", "api", "cli", "ui", "test", "doc"]

    public struct Row: Sendable {
        public var name: String
        public var age: Int
        public var score: Double
        public var authorID: Int
        public var tags: [Int]
    }

    /// `count` people (ids 1…count), always the same: age uniform in 0..<100,
    /// score in [0, 1), author uniform among the 10, 0–3 distinct tags
    /// (1.5 on average; `x` on 1 person in 8).
    public static func rows(count: Int = defaultCount) -> [Row] {
        var g = Generator(seed: seed)
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for _ in 0..<count {
            var name = ""
            for _ in 0..<(2 + g.below(3)) {
                if g.below(100) < 3 {
                    name += accentedSyllables[g.below(accentedSyllables.count)]
                } else {
                    name += syllables[g.below(syllables.count)]
                }
            }
            if g.below(15) != 0 { name = name.prefix(1).uppercased() + name.dropFirst() }
            let age = g.below(100)
            let score = g.unit()
            let author = 1 + g.below(authorNames.count)
            var tags: [Int] = []
            for _ in 0..<g.below(4) {
                var t = g.below(tagVocabulary.count)
                while tags.contains(t) { t = g.below(tagVocabulary.count) }
                tags.append(t)
            }
            rows.append(Row(name: name, age: age, score: score, authorID: author, tags: tags))
        }
        return rows
    }
}

/// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A SQLite database file holding the generated rows, with the Sift
/// functions registered on its connection.
public final class BenchmarkDatabase: Sendable {
    public let queue: DatabaseQueue
    public let path: String
    public let people: Int
    public let tags: Int
    /// Seconds to generate the rows, to insert them, and to build the indexes.
    public let generateSeconds: Double
    public let insertSeconds: Double
    public let indexSeconds: Double

    /// Generates the rows and writes them to a new file in the temporary
    /// directory: one transaction, one prepared statement per table, and
    /// the indexes built after the rows are in.
    public init(count: Int = SQLData.defaultCount) throws {
        let start = Date()
        let rows = SQLData.rows(count: count)
        let generated = Date()
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("sift-sql-bench-\(getpid())-\(UUID().uuidString).sqlite").path
        var configuration = Configuration.sift
        // 256 MB page cache: the whole database (~100 MB) stays in memory, so
        // the queries are timed without file reads.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -262144") }
        queue = try DatabaseQueue(path: path, configuration: configuration)
        var tagCount = 0
        var inserted = generated
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF")
            try db.execute(sql: "PRAGMA synchronous = OFF")
            try db.inTransaction {
                let create = sqlSchema.createStatements(dialect: .sqlite)
                for s in create where s.hasPrefix("CREATE TABLE") { try db.execute(sql: s) }
                let author = try db.makeStatement(sql: #"INSERT INTO "authors" ("id", "name") VALUES (?, ?)"#)
                for (i, name) in SQLData.authorNames.enumerated() {
                    try author.execute(arguments: [i + 1, name])
                }
                // Bound and stepped through the C API: GRDB's StatementArguments
                // would double the insert time.
                let person = try db.makeStatement(
                    sql: #"INSERT INTO "people" ("id", "name", "age", "score", "author_id") VALUES (?, ?, ?, ?, ?)"#)
                let tag = try db.makeStatement(sql: #"INSERT INTO "tags" ("id", "person_id", "name") VALUES (?, ?, ?)"#)
                let p = person.sqliteStatement
                let t = tag.sqliteStatement
                for (i, row) in rows.enumerated() {
                    let id = Int64(i + 1)
                    sqlite3_bind_int64(p, 1, id)
                    Self.bindText(p, 2, row.name)
                    sqlite3_bind_int64(p, 3, Int64(row.age))
                    sqlite3_bind_double(p, 4, row.score)
                    sqlite3_bind_int64(p, 5, Int64(row.authorID))
                    try Self.step(p, db)
                    for tagIndex in row.tags {
                        tagCount += 1
                        sqlite3_bind_int64(t, 1, Int64(tagCount))
                        sqlite3_bind_int64(t, 2, id)
                        Self.bindText(t, 3, SQLData.tagVocabulary[tagIndex])
                        try Self.step(t, db)
                    }
                }
                inserted = Date()
                for s in create where !s.hasPrefix("CREATE TABLE") { try db.execute(sql: s) }
                for s in extraIndexes { try db.execute(sql: s) }
                return .commit
            }
        }
        people = count
        tags = tagCount
        generateSeconds = generated.timeIntervalSince(start)
        insertSeconds = inserted.timeIntervalSince(generated)
        indexSeconds = Date().timeIntervalSince(inserted)
    }

    private static func bindText(_ statement: SQLiteStatement, _ index: Int32, _ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            _ = utf8.withMemoryRebound(to: CChar.self) {
                sqlite3_bind_text(statement, index, $0.baseAddress, Int32($0.count), transient)
            }
        }
    }

    private static func step(_ statement: SQLiteStatement, _ db: Database) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    /// Deletes the database file.
    public func remove() {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}
