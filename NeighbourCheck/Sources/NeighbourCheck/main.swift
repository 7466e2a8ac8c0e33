import FluentKit
import Foundation
import SQLKit
import Sift
import SiftSQL
import SiftSQLKit

// SQLKit's SQLDialect and SQLStatement, FluentKit's Schema, each unqualified.
func dialectName(_ dialect: any SQLDialect) -> String { dialect.name }
func statementType(_ statement: SQLStatement?) -> String { String(describing: type(of: statement)) }
func schemaName<S: Schema>(_ type: S.Type) -> String { S.schema }

// Sift's, unqualified beside them.
let schema = StoreSchema([
    Entity("Book", table: "books", attributes: [Attribute("title", .string), Attribute("year", .integer)])
])
let spec = FetchSpecification(entity: "Book", filter: try Filter("year > %d", 1980), sort: [.descending("year")])
let query = try spec.sql(in: schema, dialect: Dialect.postgreSQL)
let statement: BoundStatement = query.statement
print(statement.sql)
print(statementType(nil))

// SiftSQLKit's names beside SQLKit's and FluentKit's, unqualified.
func fetchAll(_ database: any SQLDatabase) async throws -> [Value] {
    try await spec.fetchValues(database, schema: try await StoreSchema.read(from: database))
}
func siftFiltered<M: Model>(_ query: QueryBuilder<M>) async throws -> QueryBuilder<M> {
    try await query.filter(sift: try Filter("year > 1980"), schema: schema)
}
let refusal: SiftSQLKitError.Kind = .unsupportedDialect
print(refusal)
