import Sift
import SiftSQL
import SiftTestSupport
import Testing

/// A grouped fetch is never lowered without its grouping: that would
/// return rows where memory returns groups.
struct GroupedFetchSQLTests {
    @Test func groupedFetchesAreRefusedUntilTheyHaveASQLForm() throws {
        let requests = [
            FetchSpecification(entity: "Book", groupBy: ["year"]),
            FetchSpecification(entity: "Book", expressions: [try ExpressionDescription(name: "n", format: "count:(SELF)")]),
            FetchSpecification(entity: "Book", having: try Filter("TRUEPREDICATE")),
        ]
        for request in requests {
            for dialect in [Dialect.sqlite, .postgreSQL] {
                #expect(throws: SQLLoweringError.self) { try request.sql(in: Library.schema, dialect: dialect) }
                #expect(throws: SQLLoweringError.self) { try request.countSQL(in: Library.schema, dialect: dialect) }
            }
        }
    }
}
