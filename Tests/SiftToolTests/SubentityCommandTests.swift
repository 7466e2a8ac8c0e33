import Foundation
import GRDB
import SiftSQLite
import SiftTestSupport
import Testing

/// `--exclude-subentities` on a real Core Data store whose `Car` has the
/// sub-entities `SportCar` and `ExpensiveSportCar` in one table; the
/// expected counts come from the raw `Z_ENT` column.
extension CommandLineTests {
    @Test func excludeSubentitiesOnARealStore() throws {
        let path = try RealStores.readable("cdp_sample1/SampleModel_V1.sqlite")
        let db = try ReadOnlyDatabase.open(path: path)
        func rows(_ sql: String) throws -> Int { try db.read { try Int.fetchOne($0, sql: sql) ?? -1 } }
        for (entity, own, family) in [("Car", 1, "1, 2, 3"), ("SportCar", 2, "2, 3"), ("ExpensiveSportCar", 3, "3")] {
            let all = try sift(["query", path, entity, "TRUEPREDICATE", "--count"])
            #expect(all.status == 0, "\(all.stderr)")
            #expect(all.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == String(try rows("SELECT count(*) FROM ZCAR WHERE Z_ENT IN (\(family))")))
            let mine = try sift(["query", path, entity, "TRUEPREDICATE", "--count", "--exclude-subentities"])
            #expect(mine.status == 0, "\(mine.stderr)")
            #expect(mine.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == String(try rows("SELECT count(*) FROM ZCAR WHERE Z_ENT = \(own)")))
        }
        let sql = try sift(["sql", "model != nil", "--schema", path, "--entity", "Car", "--exclude-subentities"])
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.contains("\"Z_ENT\" = 1"), "\(sql.stdout)")
    }
}
