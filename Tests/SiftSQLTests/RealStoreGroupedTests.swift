import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// Grouped fetches on real Core Data and SwiftData stores
/// (`../shared/coredata-stores`), each against an answer worked out from
/// the store's raw tables: plain SQL where SQL's answer is memory's
/// (counts, integer sums, extremes), and the terms added by the test where
/// it is not (a sum of doubles, added in key order from 0.0). cdp_sample1
/// and cdp_sample2 are in ``GroupedDifferentialTests`` and
/// ``DoubleSumSQLTests``.
@Suite
struct RealStoreGroupedTests {
    /// A raw row's values as the test reads them: integers, doubles and
    /// text as they are stored, NULL as nil.
    static func rows(_ db: DatabaseQueue, _ sql: String) throws -> [[Value]] {
        try db.read { db in
            try Row.fetchAll(db, sql: sql).map { row in
                (0..<row.count).map { i in
                    switch (row[i] as DatabaseValue).storage {
                    case .int64(let n): return .int(Int(n))
                    case .double(let d): return .double(d)
                    case .string(let s): return .string(s)
                    case .null, .blob: return .null
                    }
                }
            }
        }
    }

    /// A result as ``GroupedDifferentialTests/strict(_:)`` writes it, nil
    /// values left out as a grouped fetch leaves them out.
    static func result(_ pairs: [(String, Value)]) -> String {
        GroupedDifferentialTests.strict(.dictionary(Dictionary(uniqueKeysWithValues: pairs.filter { !$0.1.isNull })))
    }

    /// A grouped request of `entity` by `keys`, with expressions named and
    /// written as `(name, format)`.
    static func grouped(
        _ entity: String, by keys: [String], _ expressions: KeyValuePairs<String, String>, having: String? = nil,
        sort: [SortKey] = []
    ) throws -> FetchSpecification {
        FetchSpecification(
            entity: entity, sort: sort, groupBy: keys,
            expressions: try expressions.map { try ExpressionDescription(name: $0.key, format: $0.value) },
            having: try having.map { try Filter($0) })
    }

    static func fetched(_ request: FetchSpecification, _ db: DatabaseQueue) throws -> [String] {
        let schema = try db.read { try StoreSchema.read(from: $0) }
        return try db.read { try request.fetchValues($0, schema: schema) }.map(GroupedDifferentialTests.strict)
    }

    /// SwiftData's cocktails: ingredients grouped through a to-one without
    /// inverse, with every aggregate of a double. The sums and averages are
    /// the terms added in primary-key order from 0.0, as memory adds a
    /// store's objects.
    @Test func testCocktailIngredientsByCategory() throws {
        let db = try RealStores.open("cocktails/PreloadedCocktails.store")
        let request = try Self.grouped(
            "Ingredient", by: ["ingredientBase.umbrellaCategory"],
            [
                "n": "count:(SELF)",
                "c": "count:(value)",
                "total": "sum:(value)",
                "mean": "average:(value)",
                "most": "max:(value)",
                "least": "min:(value)",
            ])
        var groups: [Value: (n: Int, values: [Double])] = [:]
        for row in try Self.rows(db, """
            SELECT b.ZUMBRELLACATEGORY, i.ZVALUE FROM ZINGREDIENT i LEFT JOIN ZINGREDIENTBASE b ON b.Z_PK = i.ZINGREDIENTBASE
            ORDER BY i.Z_PK
            """)
        {
            var group = groups[row[0]] ?? (0, [])
            group.n += 1
            if case .double(let d) = row[1], !d.isNaN { group.values.append(d) }
            groups[row[0]] = group
        }
        let expected = groups.map { key, group in
            let sum = group.values.reduce(0.0, +)
            return Self.result([
                ("ingredientBase.umbrellaCategory", key), ("n", .int(group.n)), ("c", .int(group.values.count)),
                ("total", group.values.isEmpty ? .int(0) : .double(sum)),
                ("mean", group.values.isEmpty ? .null : .double(sum / Double(group.values.count))),
                ("most", group.values.max().map(Value.double) ?? .null), ("least", group.values.min().map(Value.double) ?? .null),
            ])
        }.sorted()
        #expect(try Self.fetched(request, db).sorted() == expected)
        #expect(expected.count > 3)
    }

    /// Cocktails by collection: a many-to-many's count (the `Z_1GARNISH`
    /// join table), a to-many without inverse (`Z1SPEC`), a Boolean summed,
    /// `having` and a sort, against plain SQL.
    @Test func testCocktailsByCollection() throws {
        let db = try RealStores.open("cocktails/PreloadedCocktails.store")
        let request = try Self.grouped(
            "Cocktail", by: ["collectionName"],
            [
                "n": "count:(SELF)",
                "garnishes": "sum:(garnish.@count)",
                "longest": "max:(spec.@count)",
                "favorites": "sum:(favorite)",
            ], having: "$n > 3", sort: [.ascending("collectionName")])
        let expected = try Self.rows(db, """
            SELECT c.ZCOLLECTIONNAME, COUNT(*), SUM((SELECT COUNT(*) FROM Z_1GARNISH g WHERE g.Z_1COCKTAILS = c.Z_PK)),
            MAX((SELECT COUNT(*) FROM ZINGREDIENT i WHERE i.Z1SPEC = c.Z_PK)), SUM(c.ZFAVORITE)
            FROM ZCOCKTAIL c GROUP BY 1 HAVING COUNT(*) > 3 ORDER BY 1
            """).map { r in
            Self.result([("collectionName", r[0]), ("n", r[1]), ("garnishes", r[2]), ("longest", r[3]), ("favorites", r[4])])
        }
        #expect(try Self.fetched(request, db) == expected)
        #expect(expected.count > 1)
    }

    /// Core Data's books by author: dates' extremes (stored as seconds
    /// since 2001, some before 1970).
    @Test func testBooksByAuthor() throws {
        let db = try RealStores.open("coredatabooks/CoreDataBooks.sqlite")
        let request = try Self.grouped(
            "Book", by: ["author"],
            [
                "n": "count:(SELF)",
                "first": "min:(copyright)",
                "last": "max:(copyright)",
            ])
        func date(_ v: Value) -> Value {
            switch v {
            case .int(let i): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            case .double(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
            default: return v
            }
        }
        let expected = try Self.rows(db, "SELECT ZAUTHOR, COUNT(*), MIN(ZCOPYRIGHT), MAX(ZCOPYRIGHT) FROM ZBOOK GROUP BY 1").map { r in
            Self.result([("author", r[0]), ("n", r[1]), ("first", date(r[2])), ("last", date(r[3]))])
        }.sorted()
        #expect(try Self.fetched(request, db).sorted() == expected)
        #expect(expected.count == 8)
    }

    /// Core Data's recipes by type: a to-many's count summed and its
    /// extremes, grouped through a to-one (nil for a recipe without type).
    @Test func testRecipesByType() throws {
        let db = try RealStores.open("recipes/Recipes.sqlite")
        let request = try Self.grouped(
            "Recipe", by: ["type.name"],
            [
                "n": "count:(SELF)",
                "ingredients": "sum:(ingredients.@count)",
                "most": "max:(ingredients.@count)",
                "fewest": "min:(ingredients.@count)",
            ])
        let expected = try Self.rows(db, """
            SELECT t.ZNAME, COUNT(*), SUM(k), MAX(k), MIN(k) FROM
            (SELECT r.ZTYPE AS type, (SELECT COUNT(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK) AS k FROM ZRECIPE r) r
            LEFT JOIN ZRECIPETYPE t ON t.Z_PK = r.type GROUP BY 1
            """).map { r in
            Self.result([("type.name", r[0]), ("n", r[1]), ("ingredients", r[2]), ("most", r[3]), ("fewest", r[4])])
        }.sorted()
        #expect(try Self.fetched(request, db).sorted() == expected)
        #expect(!expected.isEmpty)
    }
}
