import Foundation
import GRDB
import SiftSQLite
import SiftTestSupport
import Testing

/// `--arg '{"$id": …}'`: a relationship compared with an object on the
/// command line, by primary key and by the object ID URI `--ids` prints,
/// on a real store; the expected rows come from its tables.
extension CommandLineTests {
    @Test func objectArgumentsOnARealStore() throws {
        let path = try RealStores.readable("recipes/Recipes.sqlite")
        let db = try ReadOnlyDatabase.open(path: path)
        let recipe = try db.read { try Int.fetchOne($0, sql: "SELECT ZRECIPE FROM ZINGREDIENT WHERE ZRECIPE IS NOT NULL LIMIT 1") } ?? -1
        let expected = try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ZINGREDIENT WHERE ZRECIPE = \(recipe)") } ?? -1
        let store = try db.read { try String.fetchOne($0, sql: "SELECT Z_UUID FROM Z_METADATA") } ?? ""
        #expect(expected > 0)
        for argument in [#"{"$id": \#(recipe)}"#, #"{"$id": "x-coredata://\#(store)/Recipe/p\#(recipe)"}"#] {
            let run = try sift(["query", path, "Ingredient", "recipe == %@", "--arg", argument, "--count"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(expected), "\(argument)")
        }
        // The IDs `--ids` prints are arguments again.
        let ids = try sift(["query", path, "Recipe", "name != nil", "--ids", "--limit", "1"])
        let id = ids.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let again = try sift(["query", path, "Recipe", "SELF == %@", "--arg", #"{"$id": "\#(id)"}"#, "--ids"])
        #expect(again.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == id)
        // Another store's URI, a bad one, and a number where an object is wanted.
        let other = try sift(["query", path, "Ingredient", "recipe == %@", "--arg", #"{"$id": "x-coredata://X/Recipe/p1"}"#])
        #expect(other.status != 0 && other.stderr.contains("is of the store X"), "\(other.stderr)")
        let bad = try sift(["query", path, "Ingredient", "recipe == %@", "--arg", #"{"$id": "Recipe/1"}"#])
        #expect(bad.status != 0 && bad.stderr.contains("\"$id\" needs"), "\(bad.stderr)")
        let number = try sift(["query", path, "Ingredient", "recipe == 1"])
        #expect(number.status != 0 && number.stderr.contains(#"{"$id": 3}"#), "\(number.stderr)")
    }
}

extension CommandLineTests {
    /// `sift filter` on JSON records: a reference equals a record's object
    /// by its `id`; nil is no object, so `!=` keeps the record without one.
    @Test func objectArgumentsOnJSONRecords() throws {
        let input = #"""
            {"id":1,"author":{"id":3,"name":"Ann"},"tags":[{"id":7}]}
            {"id":2,"author":{"id":4},"tags":[]}
            {"id":3,"author":null,"tags":[{"id":7},{"id":8}]}

            """#
        func ids(_ arguments: [String]) throws -> [String] {
            let run = try sift(["filter"] + arguments, input: input)
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").map { String($0.prefix(7)) }
        }
        #expect(try ids(["author == %@", "--arg", #"{"$id": 3}"#]) == [#"{"id":1"#])
        #expect(try ids(["author != %@", "--arg", #"{"$id": 3}"#]) == [#"{"id":2"#, #"{"id":3"#])
        #expect(try ids(["SELF IN %@", "--arg", #"[{"$id": 2}, {"$id": 3}]"#]) == [#"{"id":2"#, #"{"id":3"#])
        #expect(try ids(["tags CONTAINS %@", "--arg", #"{"$id": 8}"#]) == [#"{"id":3"#])
    }
}
