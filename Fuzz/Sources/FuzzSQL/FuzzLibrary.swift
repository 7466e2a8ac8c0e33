import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// The schema the SQL target lowers against, and a few rows of it, both as
/// SQLite rows and as the values the evaluator sees. Its attribute names are
/// those of the conformance cases' object, so that the seeds lower.
enum FuzzLibrary {
    static let schema = StoreSchema([
        Entity("Record", table: "records", attributes: [
            Attribute("name", .string),
            Attribute("age", .integer),
            Attribute("score", .double),
            Attribute("flag", .boolean),
            Attribute("title", .string, optional: false),
            Attribute("word", .string, column: "the word"),
            Attribute("born", .date(.referenceSeconds)),
            Attribute("stamp", .date(.unixSeconds)),
            Attribute("published", .date(.iso8601)),
            Attribute("uid", .uuid(.text)),
            Attribute("bytes", .blob),
        ], relationships: [
            .toOne("author", "Person", column: "author_id"),
            .toMany("authors", "Person", inverseColumn: "record_id"),
            .manyToMany("tags", "Tag", joinTable: "record_tags", sourceColumn: "record_id", destinationColumn: "tag_id"),
        ]),
        Entity("Person", table: "people", attributes: [
            Attribute("name", .string),
            Attribute("age", .integer),
            Attribute("rating", .double),
            Attribute("active", .boolean),
        ], relationships: [
            .toMany("books", "Book", inverseColumn: "person_id"),
        ]),
        Entity("Book", table: "books", attributes: [
            Attribute("title", .string),
            Attribute("pages", .integer),
        ]),
        Entity("Tag", table: "tags", attributes: [
            Attribute("name", .string),
        ]),
    ])

    /// Every key path of `entity` spelled as in the schema: attributes,
    /// relationships, and the key paths through them.
    static func keyPaths(of entity: String, depth: Int = 3) -> Set<String> {
        guard depth > 0, let e = schema.entity(named: entity) else { return [] }
        var paths = Set(e.attributes.map(\.name))
        for r in e.relationships {
            paths.insert(r.name)
            for p in keyPaths(of: r.destination, depth: depth - 1) { paths.insert(r.name + "." + p) }
        }
        return paths
    }

    /// A row of an entity: its primary key and attribute values (by name).
    struct Row {
        var id: Int
        var values: [String: Value]
    }

    static let books: [Row] = [
        Row(id: 1, values: ["title": "A", "pages": 10]),
        Row(id: 2, values: ["title": "B", "pages": nil]),
        Row(id: 3, values: ["title": "Ç", "pages": 300]),
    ]
    /// Person id → book ids.
    static let booksOf: [Int: [Int]] = [1: [1], 2: [2, 3]]

    static let people: [Row] = [
        Row(id: 1, values: ["name": "Bob", "age": 40, "rating": 4.5, "active": true]),
        Row(id: 2, values: ["name": "Carol", "age": 25, "rating": nil, "active": false]),
        Row(id: 3, values: ["name": "straße", "age": nil, "rating": -0.5, "active": nil]),
        Row(id: 4, values: ["name": nil, "age": 35, "rating": 0, "active": true]),
    ]

    static let tags: [Row] = [
        Row(id: 1, values: ["name": "swift"]),
        Row(id: 2, values: ["name": "objc"]),
        Row(id: 3, values: ["name": "LINUX"]),
    ]

    static let records: [Row] = [
        Row(id: 1, values: [
            "name": "Alice", "age": 30, "score": 87.5, "flag": true, "title": "Mystery", "word": "café",
            "born": .date(Date(timeIntervalSinceReferenceDate: 50)), "stamp": .date(Date(timeIntervalSince1970: 0)),
            "published": .date(Date(timeIntervalSinceReferenceDate: 0.25)),
            "uid": .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!), "bytes": .data(Data([0, 1])),
        ]),
        Row(id: 2, values: [
            "name": "cafe\u{301}", "age": -5, "score": 0.1, "flag": false, "title": "İstanbul 100%", "word": "a_b*c?",
            "born": .date(Date(timeIntervalSinceReferenceDate: -1e9)), "stamp": nil, "published": nil, "uid": nil,
            "bytes": nil,
        ]),
        Row(id: 3, values: [
            "name": nil, "age": nil, "score": nil, "flag": nil, "title": "", "word": "👩‍💻 Zoë", "born": nil,
            "stamp": .date(Date(timeIntervalSince1970: 1.7e9)),
            "published": .date(Date(timeIntervalSinceReferenceDate: 7e8)), "uid": nil, "bytes": .data(Data()),
        ]),
        Row(id: 4, values: [
            "name": "ALICE", "age": 9_007_199_254_740_993, "score": -1e300, "flag": true, "title": "it's \"q\"",
            "word": "tab\there", "born": nil, "stamp": nil, "published": nil, "uid": nil, "bytes": nil,
        ]),
    ]
    /// Record id → (author, authors, tags).
    static let links: [Int: (author: Int?, authors: [Int], tags: [Int])] = [
        1: (1, [1, 2], [1, 2, 3]),
        2: (3, [3], [3]),
        3: (nil, [], []),
        4: (4, [4], [1]),
    ]

    /// The records as the evaluator sees them: relationships as nested
    /// dictionaries and arrays of dictionaries.
    static let values: [Value] = records.map { record in
        let link = links[record.id] ?? (nil, [], [])
        var d = record.values
        d["id"] = .int(record.id)
        d["author"] = link.author.map(person) ?? .null
        d["authors"] = .array(link.authors.map(person))
        d["tags"] = .array(link.tags.map { id in value(of: tags.first { $0.id == id }) })
        return .dictionary(d)
    }

    private static func person(_ id: Int) -> Value {
        guard case .dictionary(var d) = value(of: people.first { $0.id == id }) else { return .null }
        d["books"] = .array((booksOf[id] ?? []).map { b in value(of: books.first { $0.id == b }) })
        return .dictionary(d)
    }

    private static func value(of row: Row?) -> Value {
        guard let row else { return .null }
        var d = row.values
        d["id"] = .int(row.id)
        return .dictionary(d)
    }

    /// An in-memory SQLite database with the schema's tables, these rows,
    /// and the Sift functions registered.
    static func database() throws -> DatabaseQueue {
        let queue = try DatabaseQueue(configuration: .sift)
        try queue.write { db in
            for statement in schema.createStatements(dialect: .sqlite) { try db.execute(sql: statement) }
            func insert(_ entity: String, _ row: Row, _ extra: [String: SQLValue]) throws {
                guard let e = schema.entity(named: entity) else { return }
                var columns: [String: SQLValue] = extra
                columns[e.primaryKey] = .integer(Int64(row.id))
                for a in e.attributes { columns[a.column] = stored(row.values[a.name] ?? .null, a.type) }
                try execute(db, table: e.table, columns)
            }
            for b in books {
                let owner = booksOf.first { $0.value.contains(b.id) }?.key
                try insert("Book", b, ["person_id": owner.map { .integer(Int64($0)) } ?? .null])
            }
            for p in people {
                let owner = links.first { $0.value.authors.contains(p.id) }?.key
                try insert("Person", p, ["record_id": owner.map { .integer(Int64($0)) } ?? .null])
            }
            for t in tags { try insert("Tag", t, [:]) }
            for r in records {
                let link = links[r.id] ?? (nil, [], [])
                try insert("Record", r, ["author_id": link.author.map { .integer(Int64($0)) } ?? .null])
                for t in link.tags {
                    try execute(db, table: "record_tags", ["record_id": .integer(Int64(r.id)), "tag_id": .integer(Int64(t))])
                }
            }
        }
        return queue
    }

    private static func execute(_ db: Database, table: String, _ columns: [String: SQLValue]) throws {
        let names = columns.keys.sorted()
        let q = Dialect.sqlite.quote
        try db.execute(
            sql: "INSERT INTO \(q(table)) (\(names.map(q).joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
            arguments: StatementArguments(names.map { (columns[$0] ?? .null).databaseValue }))
    }

    /// A value as a column of `type` stores it.
    private static func stored(_ value: Value, _ type: AttributeType) -> SQLValue {
        switch (value, type) {
        case (.string(let s), _): return .text(s)
        case (.int(let i), _): return .integer(Int64(i))
        case (.double(let d), _): return .real(d)
        case (.bool(let b), _): return .boolean(b)
        case (.data(let d), _): return .blob(d)
        case (.uuid(let u), _): return .text(u.uuidString)
        case (.date(let d), .date(.referenceSeconds)): return .real(d.timeIntervalSinceReferenceDate)
        case (.date(let d), .date(.unixSeconds)): return .real(d.timeIntervalSince1970)
        case (.date(let d), .date(.iso8601)):
            return .text(d.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)))
        default: return .null
        }
    }
}
