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
        // Object IDs name each row's own entity, with the store's UUID.
        let expected = try db.read {
            try String.fetchAll($0, sql: """
                SELECT 'x-coredata://' || (SELECT Z_UUID FROM Z_METADATA) || '/' || p.Z_NAME || '/p' || c.Z_PK
                FROM ZCAR c JOIN Z_PRIMARYKEY p ON p.Z_ENT = c.Z_ENT WHERE c.ZMODEL IS NOT NULL ORDER BY c.Z_PK
                """)
        }
        let ids = try sift(["query", path, "Car", "model != nil", "--ids"])
        #expect(ids.status == 0, "\(ids.stderr)")
        #expect(ids.stdout.split(separator: "\n").map(String.init) == expected)
        #expect(Set(expected.map { $0.split(separator: "/")[2] }) == ["Car", "SportCar", "ExpensiveSportCar"])
        // The example in Documentation/CLI.md, as written there.
        let example = try sift(["query", path, "Car", "model == \"570GT\"", "--ids"])
        #expect(example.stdout == """
            x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/ExpensiveSportCar/p14
            x-coredata://753753D3-A961-4901-AB05-8CC48B1D3853/SportCar/p75

            """)
        for extra in [["--count"], ["--output", "json"]] {
            let both = try sift(["query", path, "Car", "TRUEPREDICATE", "--ids"] + extra)
            #expect(both.status != 0 && both.stderr.contains("--ids"), "\(both)")
        }
        let sql = try sift(["sql", "model != nil", "--schema", path, "--entity", "Car", "--exclude-subentities"])
        #expect(sql.status == 0, "\(sql.stderr)")
        #expect(sql.stdout.contains("\"Z_ENT\" = 1"), "\(sql.stdout)")
    }
}
