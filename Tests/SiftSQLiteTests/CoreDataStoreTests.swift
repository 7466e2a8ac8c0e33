import Foundation
import GRDB
import Sift
import SiftSQL
import SiftSQLite
import SiftTestSupport
import Testing

/// The eight real stores in `../shared/coredata-stores/`, read through their
/// models: entities, attributes and relationships as each model says them,
/// and predicates with the model's names against hand-written SQL.
struct CoreDataStoreTests {
    static func stores() throws -> URL { try RealStores.folder() }

    static func open(_ path: String) throws -> DatabaseQueue { try RealStores.open(path) }

    static func schema(_ store: String, model: String? = nil) throws -> StoreSchema {
        let db = try open(store)
        let url = try model.map { try stores().appendingPathComponent($0) }
        return try db.read { db in try url.map { try StoreSchema.read(from: db, model: $0) } ?? StoreSchema.read(from: db) }
    }

    /// `Entity.name → Destination (kind, inverse X, ordered)`, kind one of
    /// to-one, one-to-one, to-many, many-to-many.
    static func relationships(_ schema: StoreSchema) -> [String] {
        schema.entities.flatMap { e in
            e.relationships.map { r in
                let inverse = r.inverse.flatMap { schema.entity(named: r.destination)?.relationship(named: $0) }
                let kind: String
                switch r.kind {
                case .toOne: kind = inverse.map { $0.isToMany ? "to-one" : "one-to-one" } ?? "to-one"
                case .toMany: kind = "to-many"
                case .manyToMany: kind = "many-to-many"
                }
                return "\(e.name).\(r.name) → \(r.destination) (\(kind)" + (r.inverse.map { ", inverse \($0)" } ?? "")
                    + (r.isOrdered ? ", ordered" : "") + ")"
            }
        }
    }

    /// `Entity: name type[?], …` with `?` for optional.
    static func attributes(_ schema: StoreSchema) -> [String] {
        schema.entities.map { e in
            "\(e.name): " + e.attributes.map { "\($0.name) \($0.type.name)" + ($0.isOptional ? "?" : "") }.joined(separator: ", ")
        }
    }

    /// The keys `format` selects from `entity`, and those `sql` selects.
    func compare(_ db: DatabaseQueue, _ schema: StoreSchema, _ entity: String, _ format: String, _ sql: String,
                 includesSubentities: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try Self.compare(db, schema, entity, format, sql, includesSubentities: includesSubentities, sourceLocation: sourceLocation)
    }

    static func compare(_ db: DatabaseQueue, _ schema: StoreSchema, _ entity: String, _ format: String, _ sql: String,
                        includesSubentities: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let request = FetchSpecification(entity: entity, filter: try Filter(format), includesSubentities: includesSubentities)
        let keys = try db.read { try request.fetchPrimaryKeys($0, schema: schema) }.compactMap { Int.fromDatabaseValue($0) }
        let expected = try db.read { try Int.fetchAll($0, sql: sql) }
        #expect(keys.sorted() == expected.sorted(), "\(entity) \(format)", sourceLocation: sourceLocation)
        #expect(!(expected.isEmpty && !sql.contains("-- none")), "\(format): the check selects no rows", sourceLocation: sourceLocation)
    }

    func lowered(_ schema: StoreSchema, _ entity: String, _ format: String) throws -> SQLLoweringError? {
        try Self.lowered(schema, entity, format)
    }

    static func lowered(_ schema: StoreSchema, _ entity: String, _ format: String) throws -> SQLLoweringError? {
        do {
            _ = try FetchSpecification(entity: entity, filter: try Filter(format)).sql(in: schema, dialect: .sqlite)
            return nil
        } catch let e as SQLLoweringError {
            return e
        }
    }

    // MARK: - The stores

    @Test func testCDPSample1() throws {
        let schema = try Self.schema("cdp_sample1/SampleModel_V1.sqlite")
        // The model cache and the XML model give the same schema.
        #expect(try schema == Self.schema("cdp_sample1/SampleModel_V1.sqlite", model: "cdp_sample1/SampleModel.xcdatamodel.contents"))
        #expect(Self.relationships(schema) == [
            "Car.owner → Person (to-one, inverse cars)",
            "SportCar.owner → Person (to-one, inverse cars)",
            "ExpensiveSportCar.owner → Person (to-one, inverse cars)",
            "Person.cars → Car (to-many, inverse owner)",
        ])
        #expect(Self.attributes(schema) == [
            "Car: color transformable?, maker string?, markedForDeletionAsOf date?, model string?, numberPlate string",
            "SportCar: color transformable?, maker string?, markedForDeletionAsOf date?, model string?, numberPlate string",
            "ExpensiveSportCar: color transformable?, maker string?, markedForDeletionAsOf date?, model string?, numberPlate string, isLimitedEdition boolean?",
            "Person: firstName string?, id uuid, lastName string?, updatedAt date",
        ])
        #expect(schema.entity(named: "SportCar")?.discriminator == Discriminator(column: "Z_ENT", values: [2, 3]))
        #expect(schema.entity(named: "ExpensiveSportCar")?.parent == "SportCar")
        #expect(schema.entities.map(\.entityNumber) == [1, 2, 3, 4])
        let db = try Self.open("cdp_sample1/SampleModel_V1.sqlite")
        try compare(db, schema, "Person", "cars.@count > 1",
                    "SELECT Z_PK FROM ZPERSON p WHERE (SELECT count(*) FROM ZCAR c WHERE c.ZOWNER = p.Z_PK) > 1")
        try compare(db, schema, "SportCar", "owner.firstName != nil",
                    "SELECT c.Z_PK FROM ZCAR c JOIN ZPERSON p ON p.Z_PK = c.ZOWNER WHERE c.Z_ENT IN (2, 3) AND p.ZFIRSTNAME IS NOT NULL")
        try compare(db, schema, "Car", "TRUEPREDICATE", "SELECT Z_PK FROM ZCAR")
        // Without sub-entities: only the rows of the entity's own number.
        try compare(db, schema, "Car", "TRUEPREDICATE", "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 1", includesSubentities: false)
        try compare(db, schema, "SportCar", "TRUEPREDICATE", "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 2", includesSubentities: false)
        try compare(db, schema, "SportCar", "TRUEPREDICATE", "SELECT Z_PK FROM ZCAR WHERE Z_ENT IN (2, 3)")
        let ownCount = try FetchSpecification(entity: "Car", includesSubentities: false).countSQL(in: schema, dialect: .sqlite)
        #expect(try db.read { try Int.fetchOne($0, sql: ownCount.sql, arguments: ownCount.arguments) } == 115)
        #expect(try lowered(schema, "Car", "isLimitedEdition == YES")?.code == .unknownKey)
        #expect(try lowered(schema, "Car", "color == nil")?.code == .unsupported)
        #expect(try lowered(schema, "Person", "isDriving == YES")?.message.contains("transient") == true)
    }

    @Test func testCDPSample2() throws {
        let schema = try Self.schema("cdp_sample2/SampleModel2_V1.sqlite")
        #expect(Self.relationships(schema) == [
            "Book.author → Author (to-one, inverse books)",
            "Book.pages → Page (to-many, inverse book)",
            "GraphicNovel.author → Author (to-one, inverse books)",
            "GraphicNovel.pages → Page (to-many, inverse book)",
            "Page.book → Book (to-one, inverse pages)",
            "Author.books → Book (to-many, inverse author)",
        ])
        #expect(Self.attributes(schema) == [
            "Book: cover transformable, pagesCount integer?, price decimal, publishedAt date, title string, uniqueID uuid",
            "GraphicNovel: cover transformable, pagesCount integer?, price decimal, publishedAt date, title string, uniqueID uuid, isBlackAndWhite boolean",
            "Feedback: authorAlias string, bookID uuid, comment string?, rating double",
            "Page: content transformable, isBookmarked boolean, number integer",
            "Writer: age integer",
            "Author: age integer, alias string, siteURL string?",
        ])
        #expect(schema.entity(named: "Writer")?.isAbstract == true)
        #expect(schema.entity(named: "TRANSACTION") == nil, "persistent history is not an entity")
        let db = try Self.open("cdp_sample2/SampleModel2_V1.sqlite")
        // A parent's fetch returns its sub-entities' rows.
        try compare(db, schema, "Book", "price > 10", "SELECT Z_PK FROM ZBOOK WHERE Z_ENT IN (1, 2) AND ZPRICE > 10")
        try compare(db, schema, "GraphicNovel", "isBlackAndWhite == YES", "SELECT Z_PK FROM ZBOOK WHERE Z_ENT = 2 AND ZISBLACKANDWHITE = 1")
        try compare(db, schema, "Book", "TRUEPREDICATE", "SELECT Z_PK FROM ZBOOK WHERE Z_ENT = 1", includesSubentities: false)
        // An abstract entity has no objects of its own.
        try compare(db, schema, "Writer", "TRUEPREDICATE", "SELECT Z_PK FROM ZWRITER WHERE Z_ENT = 5 -- none",
                    includesSubentities: false)
        try compare(db, schema, "Writer", "TRUEPREDICATE", "SELECT Z_PK FROM ZWRITER")
        try compare(db, schema, "Author", "books.@count >= 1 AND alias != nil",
                    "SELECT w.Z_PK FROM ZWRITER w WHERE w.Z_ENT = 6 AND w.ZALIAS IS NOT NULL AND EXISTS (SELECT 1 FROM ZBOOK b WHERE b.ZAUTHOR = w.Z_PK)")
        try compare(db, schema, "Page", "book.title ENDSWITH 'author 1' AND isBookmarked == NO",
                    "SELECT p.Z_PK FROM ZPAGE p JOIN ZBOOK b ON b.Z_PK = p.ZBOOK WHERE b.ZTITLE LIKE '%author 1' AND p.ZISBOOKMARKED = 0")
        #expect(try lowered(schema, "Book", "isBlackAndWhite == YES")?.code == .unknownKey)
        let fetched = try lowered(schema, "Author", "feedbacks.@count > 0")
        #expect(fetched?.code == .unsupported)
        #expect(fetched?.message.contains("fetched property") == true)
    }

    @Test func testRecipes() throws {
        let schema = try Self.schema("recipes/Recipes.sqlite", model: "recipes/ios-5-recipes.xcdatamodel.elements")
        #expect(Self.relationships(schema) == [
            "Image.recipe → Recipe (one-to-one, inverse image)",
            "Ingredient.recipe → Recipe (to-one, inverse ingredients)",
            "Recipe.type → RecipeType (to-one, inverse recipes)",
            "Recipe.ingredients → Ingredient (to-many, inverse recipe)",
            "Recipe.image → Image (one-to-one, inverse recipe)",
            "RecipeType.recipes → Recipe (to-many, inverse type)",
        ])
        #expect(Self.attributes(schema) == [
            "Image: image transformable?",
            "Ingredient: name string, displayOrder integer, amount string?",
            "Recipe: prepTime string?, instructions string?, name string?, thumbnailImage transformable?, overview string?",
            "RecipeType: name string?",
        ])
        let db = try Self.open("recipes/Recipes.sqlite")
        try compare(db, schema, "Recipe", "type.name == 'Dessert'",
                    "SELECT r.Z_PK FROM ZRECIPE r JOIN ZRECIPETYPE t ON t.Z_PK = r.ZTYPE WHERE t.ZNAME = 'Dessert'")
        try compare(db, schema, "Recipe", "ingredients.@count > 5",
                    "SELECT r.Z_PK FROM ZRECIPE r WHERE (SELECT count(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK) > 5")
        try compare(db, schema, "Image", "recipe.name != nil",
                    "SELECT i.Z_PK FROM ZIMAGE i JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE WHERE r.ZNAME IS NOT NULL")
    }

    @Test func testRecipesByInference() throws {
        // Without its model, the one-to-one between Recipe and Image (a key
        // on both sides) is two to-ones, as the model says.
        let schema = try Self.schema("recipes/Recipes.sqlite")
        #expect(Self.relationships(schema) == [
            "Image.recipe → Recipe (one-to-one, inverse image)",
            "Ingredient.recipe → Recipe (to-one)",
            "Recipe.image → Image (one-to-one, inverse recipe)",
            "Recipe.type → RecipeType (to-one)",
            "Recipe.ingredients → Ingredient (to-many)",
            "RecipeType.recipes → Recipe (to-many)",
        ])
    }

    @Test func testRKTwitter() throws {
        let schema = try Self.schema("rktwitter/RKSeedDatabase.sqlite", model: "rktwitter/RKTwitterCoreData.xcdatamodel.elements")
        #expect(Self.relationships(schema) == [
            "Tweet.user → User (to-one, inverse status)",
            "User.status → Tweet (to-many, inverse user)",
        ])
        #expect(Self.attributes(schema) == [
            "Tweet: statusID integer?, isFavorited boolean?, inReplyToScreenName string?, text string?, createdAt date?, urlString string?",
            "User: screenName string?, userID integer?, name string?",
        ])
        let db = try Self.open("rktwitter/RKSeedDatabase.sqlite")
        try compare(db, schema, "User", "status.@count > 5",
                    "SELECT u.Z_PK FROM ZUSER u WHERE (SELECT count(*) FROM ZTWEET t WHERE t.ZUSER = u.Z_PK) > 5")
        try compare(db, schema, "Tweet", "user.screenName BEGINSWITH 'R' AND statusID > 0",
                    "SELECT t.Z_PK FROM ZTWEET t JOIN ZUSER u ON u.Z_PK = t.ZUSER WHERE substr(u.ZSCREENNAME, 1, 1) = 'R' AND t.ZSTATUSID > 0")
    }

    @Test func testCoreDataBooks() throws {
        let schema = try Self.schema("coredatabooks/CoreDataBooks.sqlite", model: "coredatabooks/CoreDataBooks.xcdatamodel.elements")
        #expect(Self.relationships(schema) == [])
        #expect(Self.attributes(schema) == ["Book: author string, title string, copyright date?, contents string?"])
        let db = try Self.open("coredatabooks/CoreDataBooks.sqlite")
        try compare(db, schema, "Book", "copyright < CAST(0, 'NSDate')", "SELECT Z_PK FROM ZBOOK WHERE ZCOPYRIGHT < 0")
    }

    @Test func testTavant() throws {
        let schema = try Self.schema("tavant/Model.sqlite", model: "tavant/Model.xcdatamodel.contents")
        #expect(Self.relationships(schema) == [
            "FeedbackCategory.subcategory → FeedbackSubCategory (to-many, inverse category)",
            "FeedbackSubCategory.category → FeedbackCategory (to-one, inverse subcategory)",
        ])
        #expect(Self.attributes(schema) == ["FeedbackCategory: name string?", "FeedbackSubCategory: name string?"])
        let db = try Self.open("tavant/Model.sqlite")
        try compare(db, schema, "FeedbackCategory", "subcategory.@count > 3",
                    "SELECT c.Z_PK FROM ZFEEDBACKCATEGORY c WHERE (SELECT count(*) FROM ZFEEDBACKSUBCATEGORY s WHERE s.ZCATEGORY = c.Z_PK) > 3")
    }

    @Test func testSwiftData() throws {
        let schema = try Self.schema("swiftdata/default.store")
        #expect(Self.relationships(schema) == [
            "Component.craftingRecipe → CraftingRecipe (to-one, inverse requiredComponents)",
            "Component.item → Item (to-one)",
            "CraftingRecipe.producedItem → Item (one-to-one, inverse craftingRecipe)",
            "CraftingRecipe.requiredComponents → Component (to-many, inverse craftingRecipe)",
            "Item.craftingRecipe → CraftingRecipe (one-to-one, inverse producedItem)",
        ])
        #expect(Self.attributes(schema) == [
            "Component: count integer, id uuid", "CraftingRecipe: producedItemCount string", "Item: name string",
        ])
        let db = try Self.open("swiftdata/default.store")
        try compare(db, schema, "Item", "craftingRecipe.requiredComponents.@count >= 2",
                    "SELECT i.Z_PK FROM ZITEM i JOIN ZCRAFTINGRECIPE r ON r.Z_PK = i.ZCRAFTINGRECIPE WHERE (SELECT count(*) FROM ZCOMPONENT c WHERE c.ZCRAFTINGRECIPE = r.Z_PK) >= 2")
        try compare(db, schema, "Component", "item.name != nil AND count > 1",
                    "SELECT c.Z_PK FROM ZCOMPONENT c JOIN ZITEM i ON i.Z_PK = c.ZITEM WHERE i.ZNAME IS NOT NULL AND c.ZCOUNT > 1")
    }

    @Test func testBearByInference() throws {
        // No model: the schema is inferred from the tables.
        let schema = try Self.schema("bear/database.sqlite")
        let relationships = Self.relationships(schema)
        #expect(relationships.contains("SFNote.tags → SFNoteTag (many-to-many)"), "\(relationships)")
        #expect(relationships.contains("SFNoteTag.notes → SFNote (many-to-many)"), "\(relationships)")
        // To-ones named after their relationship, not their entity: found by
        // the entity column Core Data adds (Z7_FILE), the table's entity's
        // name followed by theirs (SFNote + serverdata), or the entity's name
        // after its class prefix (SF + Note). Both sides of a one-to-one hold
        // a key: two to-ones, each the other's inverse, and no to-many.
        for expected in [
            "SFNoteFileServerData.file → SFNoteFile (one-to-one, inverse serverdata)",
            "SFNoteFile.serverdata → SFNoteFileServerData (one-to-one, inverse file)",
            "SFNote.serverdata → SFNoteServerData (one-to-one, inverse note)",
            "SFNoteServerData.note → SFNote (one-to-one, inverse serverdata)",
            "SFNoteFile.note → SFNote (to-one)",
            "SFNote.sfnotefiles → SFNoteFile (to-many)",
            "SFChangeItem.change → SFChange (to-one)",
            "SFNote.password → SFPassword (to-one)",
        ] {
            #expect(relationships.contains(expected), "\(expected) in \(relationships)")
        }
        #expect(!relationships.contains { $0.hasPrefix("SFNoteServerData.sfnotes") || $0.hasPrefix("SFNote.sfnoteserverdatas") })
        #expect(schema.entity(named: "SFNoteFileServerData")?.attribute(named: "file") == nil)
        #expect(schema.entity(named: "SFNoteImage")?.discriminator == Discriminator(column: "Z_ENT", values: [9]))
        #expect(schema.entity(named: "SFNoteFile")?.discriminator == Discriminator(column: "Z_ENT", values: [7, 8, 9, 10]))
        let db = try Self.open("bear/database.sqlite")
        try compare(db, schema, "SFNote", "title CONTAINS 'e' AND trashed == 0",
                    "SELECT Z_PK FROM ZSFNOTE WHERE instr(ZTITLE, 'e') > 0 AND ZTRASHED = 0")
    }
}
