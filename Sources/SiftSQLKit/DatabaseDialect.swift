import SQLKit
import SiftSQL

/// The Sift dialect of an SQLKit database, from `database.dialect.name`:
/// "sqlite" and "postgresql" are Sift's; any other (MySQL's "mysql") is
/// refused, naming it, since Sift has no lowering that answers as memory
/// does there.
enum DatabaseDialect {
    static func of(_ database: any SQLDatabase) throws(SiftSQLKitError) -> Dialect {
        let name = database.dialect.name
        switch name {
        case "sqlite": return .sqlite
        case "postgresql": return .postgreSQL
        default:
            throw SiftSQLKitError(
                .unsupportedDialect,
                "the database's SQL dialect is \"\(name)\", which Sift has no lowering for: "
                    + "SiftSQLKit runs fetches on SQLite (\"sqlite\") and PostgreSQL (\"postgresql\") only")
        }
    }
}
