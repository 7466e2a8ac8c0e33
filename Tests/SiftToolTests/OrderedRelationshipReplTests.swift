import Foundation
import GRDB
import SiftSQLite
import Testing

@testable import SiftTool

/// Ordered to-manys in the REPL's objects: in the order the store keeps
/// (`Z_FOK_…`), not by key, so that `[FIRST]`, `[LAST]` and `[n]` name the
/// objects the app put there. Expected answers come from the raw tables.
@Suite(.serialized)
struct OrderedRelationshipReplTests {
    /// The keys of the rows `format` lists on `entity`, and those `sql` selects.
    func check(_ store: String, _ entity: String, _ cases: [(format: String, sql: String)],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (session, db) = try CoreDataReplTests.open(store)
        #expect(!session.handle(":use " + entity).isError, sourceLocation: sourceLocation)
        for c in cases {
            let reply = session.handle(c.format)
            #expect(!reply.isError, "\(c.format): \(reply.output)", sourceLocation: sourceLocation)
            let keys = session.collection.primaryKeys ?? []
            let memory = ReplSessionTests.rowNumbers(reply.output).compactMap { Int.fromDatabaseValue(keys[$0 - 1]) }
            let expected = try db.read { try Int.fetchAll($0, sql: c.sql) }
            #expect(!expected.isEmpty, "\(c.format): the check selects no rows", sourceLocation: sourceLocation)
            #expect(memory.sorted() == expected.sorted(), Comment(rawValue: c.format), sourceLocation: sourceLocation)
        }
    }

    @Test func testOrderedToManyThroughItsInverse() throws {
        // children ↔ parent: the children's order is ZBOOKMARKENTITY.Z_FOK_PARENT.
        func child(_ order: String, _ offset: Int = 0) -> String {
            "(SELECT c.ZTITLE FROM ZBOOKMARKENTITY c WHERE c.ZPARENT = p.Z_PK ORDER BY c.Z_FOK_PARENT \(order) LIMIT 1 OFFSET \(offset))"
        }
        try check("ddg_bookmarks/Bookmarks_V5.sqlite", "BookmarkEntity", [
            ("children[FIRST].title == \"1\"", "SELECT p.Z_PK FROM ZBOOKMARKENTITY p WHERE \(child("ASC")) = '1'"),
            ("children[LAST].title == \"5\"", "SELECT p.Z_PK FROM ZBOOKMARKENTITY p WHERE \(child("DESC")) = '5'"),
            ("children.@count > 1 AND children[1].title == \"2\"",
             "SELECT p.Z_PK FROM ZBOOKMARKENTITY p WHERE \(child("ASC", 1)) = '2'"),
        ])
    }

    @Test func testOrderedManyToMany() throws {
        // favorites ↔ favoriteFolders through Z_1FAVORITES, ordered by Z_FOK_1FAVORITES.
        let first = "(SELECT b.ZTITLE FROM Z_1FAVORITES j JOIN ZBOOKMARKENTITY b ON b.Z_PK = j.Z_1FAVORITES "
            + "WHERE j.Z_1FAVORITEFOLDERS = p.Z_PK ORDER BY j.Z_FOK_1FAVORITES LIMIT 1)"
        try check("ddg_bookmarks/Bookmarks_V5.sqlite", "BookmarkEntity", [
            ("favorites[FIRST].title == \"5\"", "SELECT p.Z_PK FROM ZBOOKMARKENTITY p WHERE \(first) = '5'"),
        ])
        let participant = "(SELECT u.ZNAME FROM Z_5LASTSERVERSYNCEDACTIVEPARTICIPANTS j JOIN ZUSER u "
            + "ON u.Z_PK = j.Z_23LASTSERVERSYNCEDACTIVEPARTICIPANTS WHERE j.Z_5LASTSERVERSYNCEDACTIVECONVERSATIONS = c.Z_PK "
            + "ORDER BY j.Z_FOK_23LASTSERVERSYNCEDACTIVEPARTICIPANTS LIMIT 1)"
        try check("wire/store2-101-0.wiredatabase", "Conversation", [
            ("lastServerSyncedActiveParticipants[FIRST].name == \"Jacob\"",
             "SELECT c.Z_PK FROM ZCONVERSATION c WHERE \(participant) = 'Jacob'"),
        ])
    }
}
