import Foundation
import GRDB
import SiftSQLite
import SiftTestSupport
import Testing

@testable import SiftTool

/// The eight real Core Data stores in the REPL: each predicate, written with
/// the model's names, selects in memory (the rows the REPL lists) the rows a
/// hand-written query over the Z tables selects, and the REPL's `:sql` finds
/// the same rows in the same order. The expected answers use Foundation's
/// semantics where SQL's differ: `fold(text, 'c'|'d'|'cd')` is Foundation's
/// case and diacritic folding, and nil is spelled out.
@Suite(.serialized)
struct CoreDataReplTests {
    /// A predicate on an entity and the query selecting its rows' `Z_PK`s;
    /// `-- none` in the query marks one that selects no rows.
    typealias Case = (entity: String, format: String, sql: String)

    /// A REPL on `store` (through `model`, or the model it caches, or
    /// inference), and a connection of its own for the expected answers.
    static func open(_ store: String, model: String? = nil) throws -> (ReplSession, DatabaseQueue) {
        let path = try RealStores.readable(store)
        let m = try model.map { try CoreDataModel(contentsOf: RealStores.folder().appendingPathComponent($0)) }
        let session = ReplSession(dataset: try Dataset.load(path: path, model: m), width: 1000)
        let db = try ReadOnlyDatabase.open(path: path)
        let fold = DatabaseFunction("fold", argumentCount: 2, pure: true) { values -> String? in
            guard let text = String.fromDatabaseValue(values[0]), let flags = String.fromDatabaseValue(values[1]) else {
                return nil
            }
            var options: String.CompareOptions = []
            if flags.contains("c") { options.insert(.caseInsensitive) }
            if flags.contains("d") { options.insert(.diacriticInsensitive) }
            return text.precomposedStringWithCanonicalMapping.folding(options: options, locale: nil)
        }
        db.inDatabase { $0.add(function: fold) }
        #expect(!session.handle(":limit 100000").isError)
        return (session, db)
    }

    /// Each case in memory and in SQL through the REPL, against its query;
    /// then each of `sorts` on the first case's entity, memory against SQL.
    func check(_ store: String, model: String? = nil, _ cases: [Case], sorts: [String] = [],
               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (session, db) = try Self.open(store, model: model)
        #expect(cases.count >= 15, sourceLocation: sourceLocation)
        for c in cases {
            #expect(!session.handle(":use " + c.entity).isError, Comment(rawValue: c.entity), sourceLocation: sourceLocation)
            let reply = session.handle(c.format)
            guard !reply.isError else {
                Issue.record("\(c.entity) \(c.format): \(reply.output)", sourceLocation: sourceLocation)
                continue
            }
            let keys = session.collection.primaryKeys ?? []
            let memory = ReplSessionTests.rowNumbers(reply.output).compactMap { Int.fromDatabaseValue(keys[$0 - 1]) }
            let expected = try db.read { try Int.fetchAll($0, sql: c.sql) }
            #expect(memory.sorted() == expected.sorted(), "\(c.entity) \(c.format)", sourceLocation: sourceLocation)
            #expect(!(expected.isEmpty && !c.sql.contains("-- none")), "\(c.format) selects no rows", sourceLocation: sourceLocation)
            let count = expected.count == 1 ? "1 row" : "\(expected.count) rows"
            let sql = session.handle(":sql " + c.format).output
            #expect(sql.contains("SQLite: \(count), the same as in memory."), "\(c.format): \(sql)", sourceLocation: sourceLocation)
        }
        guard let entity = cases.first?.entity else { return }
        #expect(!session.handle(":use " + entity).isError)
        for sort in sorts {
            #expect(!session.handle(":sort " + sort).isError, Comment(rawValue: sort), sourceLocation: sourceLocation)
            let sql = session.handle(":sql TRUEPREDICATE").output
            #expect(sql.contains("ORDER BY"), Comment(rawValue: sql), sourceLocation: sourceLocation)
            #expect(sql.contains(", the same as in memory."), "\(sort): \(sql)", sourceLocation: sourceLocation)
        }
    }

    @Test func testCDPSample1() throws {
        try check("cdp_sample1/SampleModel_V1.sqlite", [
            ("Person", "firstName == 'Victoria'", "SELECT Z_PK FROM ZPERSON WHERE ZFIRSTNAME = 'Victoria'"),
            ("Person", "lastName BEGINSWITH[cd] 'GLE'", "SELECT Z_PK FROM ZPERSON WHERE substr(fold(ZLASTNAME, 'cd'), 1, 3) = 'gle'"),
            ("Person", "cars.@count == 0", "SELECT Z_PK FROM ZPERSON p WHERE NOT EXISTS (SELECT 1 FROM ZCAR c WHERE c.ZOWNER = p.Z_PK)"),
            ("Person", "ANY cars.maker == 'FIAT'", "SELECT Z_PK FROM ZPERSON p WHERE EXISTS (SELECT 1 FROM ZCAR c WHERE c.ZOWNER = p.Z_PK AND c.ZMAKER = 'FIAT')"),
            ("Person", "ANY cars.maker IN {'BMW', 'Kia'}",
             "SELECT Z_PK FROM ZPERSON p WHERE EXISTS (SELECT 1 FROM ZCAR c WHERE c.ZOWNER = p.Z_PK AND c.ZMAKER IN ('BMW', 'Kia'))"),
            ("Person", "SUBQUERY(cars, $c, $c.maker == 'FIAT').@count > 3",
             "SELECT Z_PK FROM ZPERSON p WHERE (SELECT count(*) FROM ZCAR c WHERE c.ZOWNER = p.Z_PK AND c.ZMAKER = 'FIAT') > 3"),
            ("Person", "NOT (ANY cars.maker == 'FIAT')",
             "SELECT Z_PK FROM ZPERSON p WHERE NOT EXISTS (SELECT 1 FROM ZCAR c WHERE c.ZOWNER = p.Z_PK AND c.ZMAKER = 'FIAT')"),
            ("Person", "updatedAt > CAST(639503569.6387, 'NSDate')", "SELECT Z_PK FROM ZPERSON WHERE ZUPDATEDAT > 639503569.6387"),
            ("Car", "owner == nil", "SELECT Z_PK FROM ZCAR WHERE ZOWNER IS NULL"),
            ("Car", "owner.firstName BEGINSWITH 'V'",
             "SELECT c.Z_PK FROM ZCAR c JOIN ZPERSON p ON p.Z_PK = c.ZOWNER WHERE substr(p.ZFIRSTNAME, 1, 1) = 'V'"),
            ("Car", "maker != 'FIAT'", "SELECT Z_PK FROM ZCAR WHERE ZMAKER <> 'FIAT' OR ZMAKER IS NULL"),
            ("Car", "numberPlate BETWEEN {'200', '300'}", "SELECT Z_PK FROM ZCAR WHERE ZNUMBERPLATE BETWEEN '200' AND '300'"),
            ("Car", "markedForDeletionAsOf == nil", "SELECT Z_PK FROM ZCAR WHERE ZMARKEDFORDELETIONASOF IS NULL"),
            ("Car", "model LIKE[c] '*gt*'", "SELECT Z_PK FROM ZCAR WHERE instr(fold(ZMODEL, 'c'), 'gt') > 0"),
            ("Car", "owner.cars.@count > 5",
             "SELECT c.Z_PK FROM ZCAR c WHERE (SELECT count(*) FROM ZCAR o WHERE o.ZOWNER = c.ZOWNER) > 5 AND c.ZOWNER IS NOT NULL"),
            ("SportCar", "maker CONTAINS[c] 'm'", "SELECT Z_PK FROM ZCAR WHERE Z_ENT IN (2, 3) AND instr(fold(ZMAKER, 'c'), 'm') > 0"),
            ("ExpensiveSportCar", "isLimitedEdition == YES", "SELECT Z_PK FROM ZCAR WHERE Z_ENT = 3 AND ZISLIMITEDEDITION = 1"),
            ("ExpensiveSportCar", "owner != nil AND owner.lastName != 'Pyke'",
             "SELECT c.Z_PK FROM ZCAR c JOIN ZPERSON p ON p.Z_PK = c.ZOWNER WHERE c.Z_ENT = 3 AND (p.ZLASTNAME <> 'Pyke' OR p.ZLASTNAME IS NULL)"),
        ], sorts: ["lastName DESC", "firstName ASC caseInsensitive, updatedAt DESC"])
    }

    @Test func testCDPSample2() throws {
        try check("cdp_sample2/SampleModel2_V1.sqlite", [
            ("Book", "price > 5", "SELECT Z_PK FROM ZBOOK WHERE Z_ENT IN (1, 2) AND ZPRICE > 5"),
            ("Book", "pagesCount < 50", "SELECT Z_PK FROM ZBOOK WHERE ZPAGESCOUNT < 50"),
            ("Book", "title CONTAINS 'author 1'", "SELECT Z_PK FROM ZBOOK WHERE instr(ZTITLE, 'author 1') > 0"),
            ("Book", "author.alias ==[c] 'andrea'",
             "SELECT b.Z_PK FROM ZBOOK b JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR WHERE fold(w.ZALIAS, 'c') = 'andrea'"),
            ("Book", "pages.@count > 90", "SELECT Z_PK FROM ZBOOK b WHERE (SELECT count(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK) > 90"),
            ("Book", "ANY pages.isBookmarked == YES",
             "SELECT Z_PK FROM ZBOOK b WHERE EXISTS (SELECT 1 FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK AND p.ZISBOOKMARKED = 1)"),
            ("Book", "publishedAt > CAST(737057646.95, 'NSDate')", "SELECT Z_PK FROM ZBOOK WHERE ZPUBLISHEDAT > 737057646.95"),
            ("Book", "SUBQUERY(pages, $p, $p.number < 10).@count >= 5",
             "SELECT Z_PK FROM ZBOOK b WHERE (SELECT count(*) FROM ZPAGE p WHERE p.ZBOOK = b.Z_PK AND p.ZNUMBER < 10) >= 5"),
            ("GraphicNovel", "isBlackAndWhite == YES", "SELECT Z_PK FROM ZBOOK WHERE Z_ENT = 2 AND ZISBLACKANDWHITE = 1"),
            ("Author", "books.@count > 10", "SELECT Z_PK FROM ZWRITER w WHERE (SELECT count(*) FROM ZBOOK b WHERE b.ZAUTHOR = w.Z_PK) > 10"),
            ("Author", "age BETWEEN {35, 45}", "SELECT Z_PK FROM ZWRITER WHERE Z_ENT = 6 AND ZAGE BETWEEN 35 AND 45"),
            ("Author", "siteURL == nil", "SELECT Z_PK FROM ZWRITER WHERE Z_ENT = 6 AND ZSITEURL IS NULL"),
            ("Writer", "age > 20", "SELECT Z_PK FROM ZWRITER WHERE ZAGE > 20"),
            ("Page", "number IN {1, 2, 3}", "SELECT Z_PK FROM ZPAGE WHERE ZNUMBER IN (1, 2, 3)"),
            ("Page", "book.title ENDSWITH 'author 1' AND isBookmarked == NO",
             "SELECT p.Z_PK FROM ZPAGE p JOIN ZBOOK b ON b.Z_PK = p.ZBOOK WHERE b.ZTITLE LIKE '%author 1' AND p.ZISBOOKMARKED = 0"),
            ("Page", "book.author.age > 35",
             "SELECT p.Z_PK FROM ZPAGE p JOIN ZBOOK b ON b.Z_PK = p.ZBOOK JOIN ZWRITER w ON w.Z_PK = b.ZAUTHOR WHERE w.ZAGE > 35"),
            ("Feedback", "rating >= 4.6", "SELECT Z_PK FROM ZFEEDBACK WHERE ZRATING >= 4.6"),
            ("Feedback", "comment LIKE 'great*'", "SELECT Z_PK FROM ZFEEDBACK WHERE substr(ZCOMMENT, 1, 5) = 'great'"),
            ("Feedback", "authorAlias IN {'Alessandro'}", "SELECT Z_PK FROM ZFEEDBACK WHERE ZAUTHORALIAS = 'Alessandro'"),
        ], sorts: ["publishedAt DESC", "author.alias, title"])
    }

    @Test func testRecipes() throws {
        try check("recipes/Recipes.sqlite", model: "recipes/ios-5-recipes.xcdatamodel.elements", [
            ("Recipe", "name CONTAINS[cd] 'crepe'", "SELECT Z_PK FROM ZRECIPE WHERE instr(fold(ZNAME, 'cd'), 'crepe') > 0"),
            ("Recipe", "name BEGINSWITH[c] 'g'", "SELECT Z_PK FROM ZRECIPE WHERE substr(fold(ZNAME, 'c'), 1, 1) = 'g'"),
            ("Recipe", "type.name == 'Dessert'", "SELECT r.Z_PK FROM ZRECIPE r JOIN ZRECIPETYPE t ON t.Z_PK = r.ZTYPE WHERE t.ZNAME = 'Dessert'"),
            ("Recipe", "ingredients.@count >= 10",
             "SELECT Z_PK FROM ZRECIPE r WHERE (SELECT count(*) FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK) >= 10"),
            ("Recipe", "ANY ingredients.name ==[c] 'milk'",
             "SELECT Z_PK FROM ZRECIPE r WHERE EXISTS (SELECT 1 FROM ZINGREDIENT i WHERE i.ZRECIPE = r.Z_PK AND fold(i.ZNAME, 'c') = 'milk')"),
            ("Recipe", "image != nil", "SELECT Z_PK FROM ZRECIPE WHERE ZIMAGE IS NOT NULL"),
            ("Recipe", "prepTime IN {'1 hour', '20min'}", "SELECT Z_PK FROM ZRECIPE WHERE ZPREPTIME IN ('1 hour', '20min')"),
            ("Recipe", "overview CONTAINS[d] 'francais'", "SELECT Z_PK FROM ZRECIPE WHERE instr(fold(ZOVERVIEW, 'd'), 'francais') > 0"),
            ("Ingredient", "recipe.name BEGINSWITH 'Chocolate'",
             "SELECT i.Z_PK FROM ZINGREDIENT i JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE WHERE substr(r.ZNAME, 1, 9) = 'Chocolate'"),
            ("Ingredient", "displayOrder > 0", "SELECT Z_PK FROM ZINGREDIENT WHERE ZDISPLAYORDER > 0"),
            ("Ingredient", "amount ENDSWITH 'cup'", "SELECT Z_PK FROM ZINGREDIENT WHERE substr(ZAMOUNT, -3) = 'cup'"),
            ("Ingredient", "recipe.type.name == 'Snack'",
             "SELECT i.Z_PK FROM ZINGREDIENT i JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE JOIN ZRECIPETYPE t ON t.Z_PK = r.ZTYPE WHERE t.ZNAME = 'Snack'"),
            ("Ingredient", "name LIKE[c] '*flour'", "SELECT Z_PK FROM ZINGREDIENT WHERE fold(ZNAME, 'c') LIKE '%flour'"),
            ("Image", "recipe.name ==[c] 'macarons'",
             "SELECT i.Z_PK FROM ZIMAGE i JOIN ZRECIPE r ON r.Z_PK = i.ZRECIPE WHERE fold(r.ZNAME, 'c') = 'macarons'"),
            ("RecipeType", "name ==[cd] 'entree'", "SELECT Z_PK FROM ZRECIPETYPE WHERE fold(ZNAME, 'cd') = 'entree'"),
            ("RecipeType", "recipes.@count == 0",
             "SELECT Z_PK FROM ZRECIPETYPE t WHERE NOT EXISTS (SELECT 1 FROM ZRECIPE r WHERE r.ZTYPE = t.Z_PK)"),
            ("RecipeType", "ANY recipes.name CONTAINS 'Cake'",
             "SELECT Z_PK FROM ZRECIPETYPE t WHERE EXISTS (SELECT 1 FROM ZRECIPE r WHERE r.ZTYPE = t.Z_PK AND instr(r.ZNAME, 'Cake') > 0)"),
        ], sorts: ["name DESC", "type.name, prepTime DESC"])
    }

    @Test func testRKTwitter() throws {
        try check("rktwitter/RKSeedDatabase.sqlite", model: "rktwitter/RKTwitterCoreData.xcdatamodel.elements", [
            ("Tweet", "isFavorited == NO", "SELECT Z_PK FROM ZTWEET WHERE ZISFAVORITED = 0"),
            ("Tweet", "inReplyToScreenName != nil", "SELECT Z_PK FROM ZTWEET WHERE ZINREPLYTOSCREENNAME IS NOT NULL"),
            ("Tweet", "inReplyToScreenName ==[c] 'CHRISABRUCE'", "SELECT Z_PK FROM ZTWEET WHERE fold(ZINREPLYTOSCREENNAME, 'c') = 'chrisabruce'"),
            ("Tweet", "text BEGINSWITH '[RestKit]'", "SELECT Z_PK FROM ZTWEET WHERE substr(ZTEXT, 1, 9) = '[RestKit]'"),
            ("Tweet", "text CONTAINS[c] 'xcode'", "SELECT Z_PK FROM ZTWEET WHERE instr(fold(ZTEXT, 'c'), 'xcode') > 0"),
            ("Tweet", "statusID > 42000000000000000", "SELECT Z_PK FROM ZTWEET WHERE ZSTATUSID > 42000000000000000"),
            // Above 2^53: exact in both.
            ("Tweet", "statusID == 43074105142026241", "SELECT Z_PK FROM ZTWEET WHERE ZSTATUSID = 43074105142026241"),
            ("Tweet", "createdAt < CAST(319600000, 'NSDate')", "SELECT Z_PK FROM ZTWEET WHERE ZCREATEDAT < 319600000"),
            ("Tweet", "createdAt BETWEEN {CAST(320000000, 'NSDate'), CAST(320800000, 'NSDate')}",
             "SELECT Z_PK FROM ZTWEET WHERE ZCREATEDAT BETWEEN 320000000 AND 320800000"),
            ("Tweet", "user.screenName == 'RestKit'", "SELECT t.Z_PK FROM ZTWEET t JOIN ZUSER u ON u.Z_PK = t.ZUSER WHERE u.ZSCREENNAME = 'RestKit'"),
            ("Tweet", "user.userID > 1000000", "SELECT t.Z_PK FROM ZTWEET t JOIN ZUSER u ON u.Z_PK = t.ZUSER WHERE u.ZUSERID > 1000000"),
            ("Tweet", "urlString == nil", "SELECT Z_PK FROM ZTWEET WHERE ZURLSTRING IS NULL"),
            ("User", "status.@count > 0", "SELECT Z_PK FROM ZUSER u WHERE EXISTS (SELECT 1 FROM ZTWEET t WHERE t.ZUSER = u.Z_PK)"),
            ("User", "ANY status.text CONTAINS 'Jeremy'",
             "SELECT Z_PK FROM ZUSER u WHERE EXISTS (SELECT 1 FROM ZTWEET t WHERE t.ZUSER = u.Z_PK AND instr(t.ZTEXT, 'Jeremy') > 0)"),
            ("User", "name CONTAINS ' '", "SELECT Z_PK FROM ZUSER WHERE instr(ZNAME, ' ') > 0"),
            ("User", "NONE status.isFavorited == YES",
             "SELECT Z_PK FROM ZUSER u WHERE NOT EXISTS (SELECT 1 FROM ZTWEET t WHERE t.ZUSER = u.Z_PK AND t.ZISFAVORITED = 1)"),
        ], sorts: ["createdAt DESC", "user.name, statusID DESC"])
    }

    @Test func testCoreDataBooks() throws {
        try check("coredatabooks/CoreDataBooks.sqlite", model: "coredatabooks/CoreDataBooks.xcdatamodel.elements", [
            ("Book", "author == 'Terry Pratchett'", "SELECT Z_PK FROM ZBOOK WHERE ZAUTHOR = 'Terry Pratchett'"),
            ("Book", "author BEGINSWITH[c] 'p. g.'", "SELECT Z_PK FROM ZBOOK WHERE substr(fold(ZAUTHOR, 'c'), 1, 5) = 'p. g.'"),
            ("Book", "title CONTAINS[c] 'the'", "SELECT Z_PK FROM ZBOOK WHERE instr(fold(ZTITLE, 'c'), 'the') > 0"),
            // Before 1970, and before 1910: negative reference seconds.
            ("Book", "copyright < CAST(-978307200, 'NSDate')", "SELECT Z_PK FROM ZBOOK WHERE ZCOPYRIGHT < -978307200"),
            ("Book", "copyright < CAST(-2800000000, 'NSDate')", "SELECT Z_PK FROM ZBOOK WHERE ZCOPYRIGHT < -2800000000"),
            ("Book", "copyright > CAST(0, 'NSDate')", "SELECT Z_PK FROM ZBOOK WHERE ZCOPYRIGHT > 0"),
            ("Book", "copyright BETWEEN {CAST(-1000000000, 'NSDate'), CAST(0, 'NSDate')}",
             "SELECT Z_PK FROM ZBOOK WHERE ZCOPYRIGHT BETWEEN -1000000000 AND 0"),
            ("Book", "title ENDSWITH 'y'", "SELECT Z_PK FROM ZBOOK WHERE substr(ZTITLE, -1) = 'y'"),
            ("Book", "author IN {'Ben Elton', 'Bill Bryson'}", "SELECT Z_PK FROM ZBOOK WHERE ZAUTHOR IN ('Ben Elton', 'Bill Bryson')"),
            ("Book", "NOT author IN {'Ben Elton', 'Bill Bryson'}",
             "SELECT Z_PK FROM ZBOOK WHERE ZAUTHOR NOT IN ('Ben Elton', 'Bill Bryson') OR ZAUTHOR IS NULL"),
            ("Book", "title LIKE '*e*e*'", "SELECT Z_PK FROM ZBOOK WHERE ZTITLE GLOB '*e*e*'"),
            ("Book", "title MATCHES '[A-Z][a-z]+'", "SELECT Z_PK FROM ZBOOK WHERE ZTITLE NOT GLOB '*[^A-Za-z]*' AND ZTITLE GLOB '[A-Z][a-z]*'"),
            ("Book", "contents != nil", "SELECT Z_PK FROM ZBOOK WHERE ZCONTENTS IS NOT NULL"),
            ("Book", "author ==[cd] 'BILL BRYSON'", "SELECT Z_PK FROM ZBOOK WHERE fold(ZAUTHOR, 'cd') = 'bill bryson'"),
            ("Book", "title BEGINSWITH 'The' OR author ENDSWITH 'Wilks'",
             "SELECT Z_PK FROM ZBOOK WHERE substr(ZTITLE, 1, 3) = 'The' OR substr(ZAUTHOR, -5) = 'Wilks'"),
        ], sorts: ["copyright", "author DESC, title"])
    }

    @Test func testTavant() throws {
        try check("tavant/Model.sqlite", model: "tavant/Model.xcdatamodel.contents", [
            ("FeedbackCategory", "name BEGINSWITH 'Password'", "SELECT Z_PK FROM ZFEEDBACKCATEGORY WHERE substr(ZNAME, 1, 8) = 'Password'"),
            ("FeedbackCategory", "name CONTAINS[c] 'lien'", "SELECT Z_PK FROM ZFEEDBACKCATEGORY WHERE instr(fold(ZNAME, 'c'), 'lien') > 0"),
            ("FeedbackCategory", "subcategory.@count == 0",
             "SELECT Z_PK FROM ZFEEDBACKCATEGORY c WHERE NOT EXISTS (SELECT 1 FROM ZFEEDBACKSUBCATEGORY s WHERE s.ZCATEGORY = c.Z_PK) -- none"),
            ("FeedbackCategory", "subcategory.@count >= 5",
             "SELECT Z_PK FROM ZFEEDBACKCATEGORY c WHERE (SELECT count(*) FROM ZFEEDBACKSUBCATEGORY s WHERE s.ZCATEGORY = c.Z_PK) >= 5"),
            ("FeedbackCategory", "ANY subcategory.name == ''",
             "SELECT Z_PK FROM ZFEEDBACKCATEGORY c WHERE EXISTS (SELECT 1 FROM ZFEEDBACKSUBCATEGORY s WHERE s.ZCATEGORY = c.Z_PK AND s.ZNAME = '')"),
            ("FeedbackCategory", "ANY subcategory.name CONTAINS[c] 'password'",
             "SELECT Z_PK FROM ZFEEDBACKCATEGORY c WHERE EXISTS (SELECT 1 FROM ZFEEDBACKSUBCATEGORY s WHERE s.ZCATEGORY = c.Z_PK AND instr(fold(s.ZNAME, 'c'), 'password') > 0)"),
            ("FeedbackCategory", "name IN {'Trade', 'Website', 'Nothing'}", "SELECT Z_PK FROM ZFEEDBACKCATEGORY WHERE ZNAME IN ('Trade', 'Website')"),
            ("FeedbackCategory", "name LIKE '*/*'", "SELECT Z_PK FROM ZFEEDBACKCATEGORY WHERE instr(ZNAME, '/') > 0"),
            ("FeedbackCategory", "SUBQUERY(subcategory, $s, $s.name BEGINSWITH 'Status').@count > 0",
             "SELECT Z_PK FROM ZFEEDBACKCATEGORY c WHERE EXISTS (SELECT 1 FROM ZFEEDBACKSUBCATEGORY s WHERE s.ZCATEGORY = c.Z_PK AND substr(s.ZNAME, 1, 6) = 'Status')"),
            ("FeedbackSubCategory", "name == ''", "SELECT Z_PK FROM ZFEEDBACKSUBCATEGORY WHERE ZNAME = ''"),
            ("FeedbackSubCategory", "name != ''", "SELECT Z_PK FROM ZFEEDBACKSUBCATEGORY WHERE ZNAME <> '' OR ZNAME IS NULL"),
            ("FeedbackSubCategory", "category.name == 'Trade'",
             "SELECT s.Z_PK FROM ZFEEDBACKSUBCATEGORY s JOIN ZFEEDBACKCATEGORY c ON c.Z_PK = s.ZCATEGORY WHERE c.ZNAME = 'Trade'"),
            ("FeedbackSubCategory", "category == nil", "SELECT Z_PK FROM ZFEEDBACKSUBCATEGORY WHERE ZCATEGORY IS NULL -- none"),
            ("FeedbackSubCategory", "name ENDSWITH[c] 'statement'",
             "SELECT Z_PK FROM ZFEEDBACKSUBCATEGORY WHERE substr(fold(ZNAME, 'c'), -9) = 'statement'"),
            ("FeedbackSubCategory", "category.name BEGINSWITH 'DP'",
             "SELECT s.Z_PK FROM ZFEEDBACKSUBCATEGORY s JOIN ZFEEDBACKCATEGORY c ON c.Z_PK = s.ZCATEGORY WHERE substr(c.ZNAME, 1, 2) = 'DP'"),
            ("FeedbackSubCategory", "name CONTAINS '/' AND category.subcategory.@count > 5",
             "SELECT s.Z_PK FROM ZFEEDBACKSUBCATEGORY s WHERE instr(s.ZNAME, '/') > 0 AND (SELECT count(*) FROM ZFEEDBACKSUBCATEGORY o WHERE o.ZCATEGORY = s.ZCATEGORY) > 5"),
        ], sorts: ["name DESC"])
    }

    @Test func testSwiftData() throws {
        try check("swiftdata/default.store", [
            ("Item", "craftingRecipe == nil", "SELECT Z_PK FROM ZITEM WHERE ZCRAFTINGRECIPE IS NULL"),
            ("Item", "craftingRecipe != nil", "SELECT Z_PK FROM ZITEM WHERE ZCRAFTINGRECIPE IS NOT NULL"),
            ("Item", "name BEGINSWITH 'Wooden'", "SELECT Z_PK FROM ZITEM WHERE substr(ZNAME, 1, 6) = 'Wooden'"),
            ("Item", "name CONTAINS[c] 'STICK'", "SELECT Z_PK FROM ZITEM WHERE instr(fold(ZNAME, 'c'), 'stick') > 0"),
            ("Item", "name IN {'Bolts', 'Nails'}", "SELECT Z_PK FROM ZITEM WHERE ZNAME IN ('Bolts', 'Nails')"),
            ("Item", "craftingRecipe.producedItemCount == '10'",
             "SELECT i.Z_PK FROM ZITEM i JOIN ZCRAFTINGRECIPE r ON r.Z_PK = i.ZCRAFTINGRECIPE WHERE r.ZPRODUCEDITEMCOUNT = '10'"),
            ("Item", "craftingRecipe.requiredComponents.@count >= 2",
             "SELECT i.Z_PK FROM ZITEM i WHERE (SELECT count(*) FROM ZCOMPONENT c WHERE c.ZCRAFTINGRECIPE = i.ZCRAFTINGRECIPE) >= 2"),
            ("CraftingRecipe", "producedItem == nil", "SELECT Z_PK FROM ZCRAFTINGRECIPE WHERE ZPRODUCEDITEM IS NULL"),
            ("CraftingRecipe", "producedItem.name ENDSWITH 'Axe'",
             "SELECT r.Z_PK FROM ZCRAFTINGRECIPE r JOIN ZITEM i ON i.Z_PK = r.ZPRODUCEDITEM WHERE substr(i.ZNAME, -3) = 'Axe'"),
            ("CraftingRecipe", "ANY requiredComponents.count > 10",
             "SELECT Z_PK FROM ZCRAFTINGRECIPE r WHERE EXISTS (SELECT 1 FROM ZCOMPONENT c WHERE c.ZCRAFTINGRECIPE = r.Z_PK AND c.ZCOUNT > 10)"),
            ("CraftingRecipe", "requiredComponents.@sum.count > 10",
             "SELECT Z_PK FROM ZCRAFTINGRECIPE r WHERE (SELECT total(c.ZCOUNT) FROM ZCOMPONENT c WHERE c.ZCRAFTINGRECIPE = r.Z_PK) > 10"),
            ("CraftingRecipe", "requiredComponents.@count == 0",
             "SELECT Z_PK FROM ZCRAFTINGRECIPE r WHERE NOT EXISTS (SELECT 1 FROM ZCOMPONENT c WHERE c.ZCRAFTINGRECIPE = r.Z_PK)"),
            ("Component", "count BETWEEN {2, 8}", "SELECT Z_PK FROM ZCOMPONENT WHERE ZCOUNT BETWEEN 2 AND 8"),
            ("Component", "craftingRecipe == nil", "SELECT Z_PK FROM ZCOMPONENT WHERE ZCRAFTINGRECIPE IS NULL"),
            ("Component", "item.name == 'Wooden Plank'",
             "SELECT c.Z_PK FROM ZCOMPONENT c JOIN ZITEM i ON i.Z_PK = c.ZITEM WHERE i.ZNAME = 'Wooden Plank'"),
            ("Component", "item.craftingRecipe != nil",
             "SELECT c.Z_PK FROM ZCOMPONENT c JOIN ZITEM i ON i.Z_PK = c.ZITEM WHERE i.ZCRAFTINGRECIPE IS NOT NULL"),
            ("Component", "craftingRecipe.producedItem.name == 'Wooden Chest'",
             "SELECT c.Z_PK FROM ZCOMPONENT c JOIN ZCRAFTINGRECIPE r ON r.Z_PK = c.ZCRAFTINGRECIPE JOIN ZITEM i ON i.Z_PK = r.ZPRODUCEDITEM WHERE i.ZNAME = 'Wooden Chest'"),
        ], sorts: ["name DESC", "craftingRecipe.producedItemCount, name"])
    }

    @Test func testBearByInference() throws {
        // No model: the inferred schema's names are lower case, and the
        // model's camel case finds them.
        try check("bear/database.sqlite", [
            ("SFNote", "title == 'Note 1'", "SELECT Z_PK FROM ZSFNOTE WHERE ZTITLE = 'Note 1'"),
            ("SFNote", "title BEGINSWITH[c] 'note'", "SELECT Z_PK FROM ZSFNOTE WHERE substr(fold(ZTITLE, 'c'), 1, 4) = 'note'"),
            ("SFNote", "trashed == NO", "SELECT Z_PK FROM ZSFNOTE WHERE ZTRASHED = 0"),
            ("SFNote", "creationDate > CAST(724526700, 'NSDate')", "SELECT Z_PK FROM ZSFNOTE WHERE ZCREATIONDATE > 724526700"),
            ("SFNote", "modificationDate < CAST(724700000, 'NSDate')", "SELECT Z_PK FROM ZSFNOTE WHERE ZMODIFICATIONDATE < 724700000"),
            // The server data rows are not in the store: the keys lead nowhere.
            ("SFNote", "serverData != nil", "SELECT Z_PK FROM ZSFNOTE WHERE ZSERVERDATA IS NOT NULL"),
            ("SFNote", "serverData.note == nil",
             "SELECT n.Z_PK FROM ZSFNOTE n LEFT JOIN ZSFNOTESERVERDATA s ON s.Z_PK = n.ZSERVERDATA WHERE s.ZNOTE IS NULL"),
            ("SFNote", "password == nil", "SELECT Z_PK FROM ZSFNOTE WHERE ZPASSWORD IS NULL"),
            ("SFNote", "tags.@count == 0", "SELECT Z_PK FROM ZSFNOTE n WHERE NOT EXISTS (SELECT 1 FROM Z_5TAGS t WHERE t.Z_5NOTES = n.Z_PK)"),
            ("SFNote", "lastEditingDevice CONTAINS 'MacBook'", "SELECT Z_PK FROM ZSFNOTE WHERE instr(ZLASTEDITINGDEVICE, 'MacBook') > 0"),
            ("SFNote", "uniqueIdentifier BEGINSWITH '44F'", "SELECT Z_PK FROM ZSFNOTE WHERE substr(ZUNIQUEIDENTIFIER, 1, 3) = '44F'"),
            ("SFNote", "subtitle == title", "SELECT Z_PK FROM ZSFNOTE WHERE ZSUBTITLE IS ZTITLE"),
            ("SFNote", "version BETWEEN {1, 2}", "SELECT Z_PK FROM ZSFNOTE WHERE ZVERSION BETWEEN 1 AND 2"),
            ("SFNote", "text CONTAINS[c] 'SOME TEXT'", "SELECT Z_PK FROM ZSFNOTE WHERE instr(fold(ZTEXT, 'c'), 'some text') > 0"),
            ("SFNote", "ANY tags.title == 'x'", "SELECT Z_PK FROM ZSFNOTE WHERE 0 -- none"),
            ("SFNoteFile", "note.title == 'Note 1'", "SELECT Z_PK FROM ZSFNOTEFILE WHERE 0 -- none"),
            ("SFNoteTag", "notes.@count > 0", "SELECT Z_PK FROM ZSFNOTETAG WHERE 0 -- none"),
        ], sorts: ["modificationDate DESC", "title DESC"])
    }

    /// The objects in memory hold three levels of relationships: a key
    /// path following four is refused, not read as nil (SQL finds 3 rows).
    @Test func testKeyPathsDeeperThanTheObjectsAreRefused() throws {
        let (session, _) = try Self.open("swiftdata/default.store")
        #expect(!session.handle(":use Component").isError)
        let deep = "craftingRecipe.producedItem.craftingRecipe.producedItem.name == 'Wooden Chest'"
        let reply = session.handle(deep)
        #expect(reply.isError)
        #expect(reply.output.contains("follows more than 3 relationships"), Comment(rawValue: reply.output))
        #expect(session.handle(":sql " + deep).output.contains("follows more than 3 relationships"))
        #expect(!session.handle("craftingRecipe.producedItem.craftingRecipe.producedItemCount == '1'").isError)
        #expect(session.handle(":sort item.craftingRecipe.producedItem.craftingRecipe.producedItemCount").isError)
    }

    /// `:schema` shows the model's names and each relationship's kind,
    /// inverse and order, abstract entities and parents.
    @Test func testSchemaShowsTheModel() throws {
        let (sample2, _) = try Self.open("cdp_sample2/SampleModel2_V1.sqlite")
        let schema = sample2.handle(":schema").output
        for line in [
            "Writer (table ZWRITER, 2 rows, abstract)",
            "Author (table ZWRITER, 2 rows, parent Writer)",
            "GraphicNovel (table ZBOOK, 1 row, parent Book)",
            "  books → Book (to-many, inverse author)",
            "  author → Author (to-one, inverse books)",
            "  siteURL: string",
            "  feedbacks: not in the store (",
        ] {
            #expect(schema.contains(line), "\(line) in\n\(schema)")
        }
        let (swiftData, _) = try Self.open("swiftdata/default.store")
        #expect(swiftData.handle(":schema").output.contains("  producedItem → Item (one-to-one, inverse craftingRecipe)"))
        let (bear, _) = try Self.open("bear/database.sqlite")
        let inferred = bear.handle(":schema").output
        #expect(inferred.contains("  tags → SFNoteTag (many-to-many)"), Comment(rawValue: inferred))
        #expect(inferred.contains("  serverdata → SFNoteServerData (one-to-one, inverse note)"), Comment(rawValue: inferred))
    }
}
