import Foundation
import SiftCatalog
import SiftSQL
import Testing

/// The rules by which a table standing for foreign tables gets a key
/// (`ForeignTableKeys.resolve`), on parts made here, each remote table's
/// key given by the test. The sharded profile's `ShardedSchemaTests` reads
/// them from real shards.
struct ForeignTableKeysTests {
    /// A part whose foreign table has the columns `columns` under their
    /// remote names, except those `renamed` (remote → local).
    static func part(
        _ table: String, _ foreign: String, partitionColumn: String? = "id", partitions: Int = 2,
        server: String = "s0", renamed: [String: String] = [:],
        columns: [String] = ["id", "code", "a", "b", "author_id", "tag_id", "shelf_id", "writer"]
    ) -> ForeignTableKeys.Part {
        var names = Dictionary(uniqueKeysWithValues: columns.map { ($0, $0) })
        for (remote, local) in renamed { names[remote] = local }
        return ForeignTableKeys.Part(
            table: table, partitionColumn: partitionColumn, partitions: partitions, foreignTable: foreign,
            remoteSchema: "public", remoteTable: foreign, server: .init(name: server, options: ["host": server]),
            localNames: names)
    }

    struct Unreachable: Error, CustomStringConvertible {
        var description: String { "connection refused" }
    }

    @Test func testKeysAndReasons() async {
        let remote: [String: [String]] = [
            "books_0": ["id"], "books_1": ["id"], "reviews_0": ["id"], "reviews_1": ["id"], "mixed_0": ["id"],
            "mixed_1": ["code"], "pair_0": ["a", "b"], "pair_1": ["a", "b"], "lone": ["ident"], "bare": [],
        ]
        let parts = [
            Self.part("books", "books_0"), Self.part("books", "books_1"),
            Self.part("reviews", "reviews_0", partitionColumn: "book_id"), Self.part("reviews", "reviews_1", partitionColumn: "book_id"),
            Self.part("mixed", "mixed_0"), Self.part("mixed", "mixed_1"),
            Self.part("pair", "pair_0"), Self.part("pair", "pair_1"),
            Self.part("half", "half_0", partitions: 3), Self.part("half", "half_1", partitions: 3),
            Self.part("lone", "lone", partitionColumn: nil, partitions: 1, renamed: ["ident": "id"], columns: ["writer"]),
            Self.part("bare", "bare", partitionColumn: nil, partitions: 1),
            Self.part("away", "away", partitionColumn: nil, partitions: 1, server: "down"),
        ]
        // Foreign keys: both of the books' parts point at the copy of the
        // authors (kept); one also at the tags (not on every part), one at
        // a table the coordinator does not hold as its own.
        let references: [String: [(column: String, schema: String, table: String, parentColumn: String)]] = [
            "books_0": [("author_id", "public", "authors", "id"), ("tag_id", "public", "tags", "id")],
            "books_1": [("author_id", "public", "authors", "id"), ("shelf_id", "public", "shelves", "id")],
            "lone": [("writer", "public", "authors", "id")],
            "reviews_0": [("author_id", "public", "authors", "id")], "reviews_1": [("author_id", "public", "authors", "id")],
        ]
        var asked: [String] = []
        let found = await ForeignTableKeys.resolve(parts, localTables: ["authors", "tags"]) { part in
            asked.append(part.foreignTable)
            if part.server.name == "down" { throw Unreachable() }
            return ForeignTableKeys.Remote(key: remote[part.remoteTable] ?? [], foreignKeys: references[part.remoteTable] ?? [])
        }
        #expect(found.keys == ["books": "id", "lone": "id"])
        // Only tables with a key get foreign keys.
        #expect(found.foreignKeys.map { "\($0.table).\($0.column) → \($0.parent).\($0.parentColumn)" }
            == ["books.author_id → authors.id", "lone.writer → authors.id"])
        #expect(found.reasons["reviews"]?.contains("partitioned on book_id, and keyed by id") == true)
        #expect(found.reasons["mixed"]?.contains("different columns (id, code)") == true)
        #expect(found.reasons["pair"]?.contains("primary key of 2 columns") == true)
        #expect(found.reasons["half"]?.contains("2 of its 3 partitions") == true)
        #expect(found.reasons["bare"]?.contains("has no primary key") == true)
        #expect(found.reasons["away"]?.contains("server down: connection refused") == true)
        #expect(!asked.contains("half_0"), "a table with partitions that are not foreign is not asked about")
    }

    /// Options as the catalog gives them: the server's connection options
    /// and the user mapping's user and password only, the user defaulting
    /// to the current one.
    @Test func testPartsFromCatalogRows() throws {
        func row(host: String = "10.0.0.5", mapping: String = #"["password=a=b"]"#, coordinator: String = "10.0.0.1") -> [SQLValue] {
            [
                .text("books"), .text("id"), .integer(2), .text("books_shard_0"), .text("shard"), .text("books_0"), .text("s0"),
                .text(#"["host=\#(host)","port=5433","dbname=shop","fetch_size=1000","async_capable=false","sslmode=require"]"#),
                .text(mapping), .text(#"{"ident":"id","title":"title"}"#), .text("ann"), .text(coordinator),
            ]
        }
        let parts = try ForeignTableKeys.parts([row()])
        #expect(parts.count == 1)
        #expect(parts[0].server.options == [
            "host": "10.0.0.5", "port": "5433", "dbname": "shop", "sslmode": "require", "user": "ann", "password": "a=b",
        ])
        #expect(parts[0].localNames == ["ident": "id", "title": "title"])
        #expect(parts[0].remoteSchema == "shard" && parts[0].remoteTable == "books_0" && parts[0].partitionColumn == "id")
        #expect(parts[0].unusable == nil)
        #expect(throws: StoreSchemaError.self) { try ForeignTableKeys.parts([[.text("books")]]) }
        // No mapping, or one whose options this user may not read: not
        // guessed at (postgres_fdw would use the options this reader cannot see).
        #expect(try ForeignTableKeys.parts([row(mapping: "")])[0].unusable?.contains("no user mapping for ann") == true)
        #expect(try ForeignTableKeys.parts([row(mapping: "hidden")])[0].unusable?.contains("not shown to ann") == true)
        // Loopback names the coordinator's machine: this one only when the
        // coordinator was reached on loopback (or a socket) too.
        #expect(try ForeignTableKeys.parts([row(host: "127.0.0.1")])[0].unusable?.contains("coordinator's own machine") == true)
        #expect(try ForeignTableKeys.parts([row(host: "/tmp")])[0].unusable != nil)
        #expect(try ForeignTableKeys.parts([row(host: "127.0.0.1", coordinator: "127.0.0.1")])[0].unusable == nil)
        #expect(try ForeignTableKeys.parts([row(host: "localhost", coordinator: "")])[0].unusable == nil)
    }

    /// What could make a key wrong is refused: two partitions over one
    /// remote table, a remote table with inheritance children, a key column
    /// the foreign table maps to another remote column, a foreign key to a
    /// table of another schema on the shard.
    @Test func testWhatWouldMakeAKeyWrong() async {
        var twin = Self.part("twins", "twins_1")
        twin.remoteTable = "twins_0"
        let parts = [
            Self.part("twins", "twins_0"), twin,
            Self.part("parent", "parent", partitionColumn: nil, partitions: 1),
            // Local `id` reads remote `uuid`; remote `id` is not read.
            Self.part("swapped", "swapped", partitionColumn: nil, partitions: 1, renamed: ["uuid": "id"], columns: ["title"]),
            Self.part("audited", "audited", partitionColumn: nil, partitions: 1),
        ]
        let found = await ForeignTableKeys.resolve(parts, localTables: ["authors"]) { part in
            var remote = ForeignTableKeys.Remote(key: ["id"])
            if part.remoteTable == "parent" { remote.hasChildren = true }
            if part.remoteTable == "audited" { remote.foreignKeys = [("author_id", "audit", "authors", "id")] }
            return remote
        }
        #expect(found.reasons["twins"]?.contains("twins_0 and twins_1 read the same remote table") == true, "\(found.reasons)")
        #expect(found.reasons["parent"]?.contains("inheritance children") == true)
        #expect(found.reasons["swapped"]?.contains("has no column for") == true)
        #expect(found.keys == ["audited": "id"])
        #expect(found.foreignKeys.isEmpty)
    }

    /// The rows of the remote query: the key's columns, then the foreign keys.
    @Test func testRemoteFromRows() {
        let remote = ForeignTableKeys.Remote(rows: [
            [.text("p"), .text("id"), .null, .null, .null],
            [.text("f"), .text("author_id"), .text("public"), .text("authors"), .text("id")],
        ])
        #expect(remote.key == ["id"] && !remote.hasChildren)
        #expect(ForeignTableKeys.Remote(rows: [[.text("i"), .text("t"), .null, .null, .null]]).hasChildren)
        #expect(remote.foreignKeys.map { "\($0.column) \($0.schema).\($0.table).\($0.parentColumn)" } == ["author_id public.authors.id"])
    }
}
