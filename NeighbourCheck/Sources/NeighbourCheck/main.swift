import FluentKit
import Foundation
import SQLKit
import Sift
import SiftSQL

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
