import Foundation
import GRDB
import SiftTestSupport
import Testing

/// `--output csv` on `sift filter` (records and groups) and `sift query`
/// (rows and groups, a sum of doubles in key order among them), with the
/// files worked out by hand.
extension CommandLineTests {
    @Test func csvOutputOfGroupsAndRecords() throws {
        let select = "category.name, n = count:(SELF), total = sum:(price), avg = average:(price), first = min:(title)"
        let groups = try sift(["filter", "TRUEPREDICATE", "-", "--group-by", "category.name", "--select", select,
                               "--sort", "total DESC", "--output", "csv"], input: Self.sales)
        #expect(groups.status == 0, "\(groups.stderr)")
        // A header of the columns; nil an empty field.
        #expect(groups.stdout == """
            category.name,n,total,avg,first
            sf,3,14,7.0,Dune
            classic,1,7.5,7.5,Emma
            ,1,3,3.0,Nothing

            """)
        // Records: the keys in first-seen order; an object as its JSON,
        // quoted, its quotes doubled.
        let records = try sift(["filter", "year > 1900", "-", "--output", "csv"], input: Self.sales)
        #expect(records.status == 0, "\(records.stderr)")
        #expect(records.stdout == """
            title,category,price,year
            Dune,"{""name"":""sf""}",10,1965
            Neuromancer,"{""name"":""sf""}",,1984
            Zed,"{""name"":""sf""}",4,1984

            """)
    }

    @Test func csvOutputOfAQuery() throws {
        let path = Self.temporaryPath("csv.sqlite")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let db = try DatabaseQueue(path: path)
        try db.write { db in
            try db.execute(sql: "CREATE TABLE books (id INTEGER PRIMARY KEY, title TEXT, kind TEXT, price REAL)")
            // Stored out of key order; in key order the prices add to 0.7
            // (1e16 + 0.1 is 1e16), in another order to something else.
            for (id, title, price) in [(3, "c", -1e16), (1, "Says \"hi\", twice", 1e16), (4, " pad", 0.7), (2, "line\nbreak", 0.1)] {
                try db.execute(sql: "INSERT INTO books VALUES (?, ?, 'k', ?)", arguments: [id, title, price])
            }
        }
        try db.close()
        let rows = try sift(["query", path, "books", "TRUEPREDICATE", "--sort", "id", "--output", "csv"])
        #expect(rows.status == 0, "\(rows.stderr)")
        #expect(rows.stdout == """
            id,title,kind,price
            1,"Says ""hi"", twice",k,1e+16
            2,"line
            break",k,0.1
            3,c,k,-1e+16
            4," pad",k,0.7

            """, "\(rows.stdout)")
        let sum = try sift(["query", path, "books", "TRUEPREDICATE", "--group-by", "kind",
                            "--select", "kind, n = count:(SELF), s = sum:(price)", "--output", "csv"])
        #expect(sum.status == 0, "\(sum.stderr)")
        #expect(sum.stdout == "kind,n,s\nk,4,\(((0.0 + 1e16) + 0.1) + -1e16 + 0.7)\n", "\(sum.stdout)")
    }
}
