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

    static func fetched(_ request: FetchSpecification, _ db: DatabaseQueue, schema known: StoreSchema? = nil) throws -> [String] {
        let schema = try known ?? db.read { try StoreSchema.read(from: $0) }
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

    /// Every store, every entity, each integer, string and Boolean
    /// attribute: the objects counted by that attribute's values (a grouped
    /// fetch with `count:(SELF)`) as `GROUP BY` counts them on the entity's
    /// table, its rows of the entity and its sub-entities (`Z_ENT`). This
    /// checks what the grouped lowering reads on each store as it really
    /// is: tables, columns, entity numbers, types.
    @Test func testEveryStoreCountsByEachAttribute() throws {
        let stores = [
            "bear/database.sqlite", "cartkit/CartKitSwiftData_v1.sqlite", "cartkit/CartStorage_v1.sqlite",
            "cdp_sample1/SampleModel_V1.sqlite", "cdp_sample2/SampleModel2_V1.sqlite", "cocktails/PreloadedCocktails.store",
            "coredatabooks/CoreDataBooks.sqlite", "ddg_bookmarks/Bookmarks_V1.sqlite", "ddg_bookmarks/Bookmarks_V5.sqlite",
            "migration_example/CoreDataMigration_Example_1.sqlite", "migration_example/CoreDataMigration_Example_3.sqlite",
            "recipes/Recipes.sqlite", "rktwitter/RKSeedDatabase.sqlite", "swiftdata/default.store", "tavant/Model.sqlite",
            "wire/store2-101-0.wiredatabase",
        ]
        var compared = 0
        var groups = 0
        var failures: [String] = []
        for store in stores {
            let db = try RealStores.open(store)
            let schema = try db.read { try StoreSchema.read(from: $0) }
            for entity in schema.entities where !entity.isAbstract || entity.discriminator != nil {
                for attribute in entity.attributes {
                    let read: (Value) -> Value
                    switch attribute.type {
                    case .integer, .string: read = { $0 }
                    case .boolean: read = { if case .int(let i) = $0 { return .bool(i != 0) } else { return $0 } }
                    default: continue
                    }
                    let request = try Self.grouped(entity.name, by: [attribute.name], ["n": "count:(SELF)"])
                    let quote = Dialect.sqlite.quote
                    var sql = "SELECT \(quote(attribute.column)), COUNT(*) FROM \(quote(entity.table))"
                    if let d = entity.discriminator {
                        sql += " WHERE \(quote(d.column)) IN (\(d.values.map(String.init).joined(separator: ", ")))"
                    }
                    sql += " GROUP BY 1"
                    let label = "\(store) \(entity.name).\(attribute.name)"
                    // And of all the entity's objects: the values counted,
                    // their extremes, and the sum of numbers.
                    let number = attribute.type != .string
                    var all = try Self.grouped(
                        entity.name, by: [], ["c": "count:(\(attribute.name))", "lo": "min:(\(attribute.name))", "hi": "max:(\(attribute.name))"])
                    if number { all.expressions.append(try ExpressionDescription(name: "s", format: "sum:(\(attribute.name))")) }
                    all.groupBy = nil
                    let c = quote(attribute.column)
                    var whole = "SELECT COUNT(\(c)), MIN(\(c)), MAX(\(c))\(number ? ", COALESCE(SUM(\(c)), 0)" : "") FROM \(quote(entity.table))"
                    if let d = entity.discriminator {
                        whole += " WHERE \(quote(d.column)) IN (\(d.values.map(String.init).joined(separator: ", ")))"
                    }
                    do {
                        let expected = try Self.rows(db, sql).map { r in Self.result([(attribute.name, read(r[0])), ("n", r[1])]) }.sorted()
                        let got = try Self.fetched(request, db, schema: schema).sorted()
                        if got != expected { failures.append("\(label)\n  raw  \(expected.prefix(8))\n  sift \(got.prefix(8))") }
                        let r = try Self.rows(db, whole)[0]
                        var pairs = [("c", r[0]), ("lo", read(r[1])), ("hi", read(r[2]))]
                        if number { pairs.append(("s", r[3])) }
                        let wholeExpected = [Self.result(pairs)]
                        let wholeGot = try Self.fetched(all, db, schema: schema)
                        if wholeGot != wholeExpected { failures.append("\(label), all objects\n  raw  \(wholeExpected)\n  sift \(wholeGot)") }
                        compared += 2
                        groups += expected.count
                    } catch {
                        failures.append("\(label): \(error)")
                    }
                }
            }
        }
        print("real stores: \(compared) grouped fetches over \(stores.count) stores (\(groups) groups), against plain SQL")
        #expect(failures.isEmpty, Comment(rawValue: failures.prefix(10).joined(separator: "\n")))
        #expect(compared > 100)
    }
}
