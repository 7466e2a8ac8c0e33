import EvalSupport
import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite

/// The people in SQLite (authors and tags in their own tables), counted with
/// the SQL Sift lowers each case to; with or without indexes on the
/// compared columns.
struct SQLiteContender {
    static let schema = StoreSchema([
        Entity("Person", table: "people", attributes: [
            Attribute("name", .string), Attribute("age", .integer), Attribute("score", .double),
        ], relationships: [
            .toOne("author", "Author", column: "author_id"),
            .toMany("tags", "Tag", inverseColumn: "person_id"),
        ]),
        Entity("Author", table: "authors", attributes: [Attribute("name", .string)]),
        Entity("Tag", table: "tags", attributes: [Attribute("name", .string)]),
    ])

    /// The case's format for the schema: tags are rows with a name.
    static func format(_ c: EvalCase) -> String {
        c.number == 4 ? "ANY tags.name == 'x'" : c.format
    }

    let queue: DatabaseQueue
    let statement: BoundStatement

    init(people: [Person], evalCase: EvalCase, indexed: Bool) throws {
        queue = try DatabaseQueue(configuration: .sift)
        try queue.write { db in
            for s in Self.schema.createStatements(dialect: .sqlite) where s.hasPrefix("CREATE TABLE") {
                try db.execute(sql: s)
            }
            var authors: [String: Int] = [:]
            let insertAuthor = try db.makeStatement(sql: "INSERT INTO authors (id, name) VALUES (?, ?)")
            let insertPerson = try db.makeStatement(
                sql: "INSERT INTO people (id, name, age, score, author_id) VALUES (?, ?, ?, ?, ?)")
            let insertTag = try db.makeStatement(sql: "INSERT INTO tags (name, person_id) VALUES (?, ?)")
            for (i, p) in people.enumerated() {
                let author: Int
                if let a = authors[p.author.name] {
                    author = a
                } else {
                    author = authors.count + 1
                    authors[p.author.name] = author
                    try insertAuthor.execute(arguments: [author, p.author.name])
                }
                try insertPerson.execute(arguments: [i + 1, p.name, p.age, p.score, author])
                for t in p.tags { try insertTag.execute(arguments: [t, i + 1]) }
            }
            // Foreign keys are indexed in both forms, as any schema has them.
            try db.execute(sql: #"CREATE INDEX "tags_person" ON "tags" ("person_id")"#)
            try db.execute(sql: #"CREATE INDEX "people_author" ON "people" ("author_id")"#)
            if indexed {
                for column in ["age", "name", "score"] {
                    try db.execute(sql: #"CREATE INDEX "people_\#(column)" ON "people" ("\#(column)")"#)
                }
                try db.execute(sql: #"CREATE INDEX "tags_name" ON "tags" ("name")"#)
                try db.execute(sql: #"CREATE INDEX "authors_name" ON "authors" ("name")"#)
            }
        }
        let request = FetchSpecification(entity: "Person", filter: try Filter(Self.format(evalCase)))
        statement = try request.countSQL(in: Self.schema, dialect: .sqlite)
    }

    func count() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: statement.sql, arguments: statement.arguments) ?? 0 }
    }
}
