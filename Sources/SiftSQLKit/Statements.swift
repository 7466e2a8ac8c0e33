import Foundation
import NIOCore
import PostgresNIO
import SQLKit
import SQLiteNIO
import Sift
import SiftPostgres
import SiftSQL

/// A lowered statement as an SQLKit expression: its text as the lowering
/// wrote it (placeholders numbered for the dialect, `?N` or `$N`, which
/// both drivers bind by position) and its values as SQLKit binds, each in
/// the form its driver binds as SiftSQLite or SiftPostgres would.
struct LoweredStatement: SQLExpression {
    let sql: String
    let binds: [any Encodable & Sendable]

    init(_ statement: BoundStatement, dialect: Dialect) throws(SiftSQLKitError) {
        sql = statement.sql
        binds = try statement.bindings.map { value throws(SiftSQLKitError) in try Self.bind(value, dialect: dialect, sql: statement.sql) }
    }

    /// A value as a bind of `dialect`'s driver.
    static func bind(_ value: SQLValue, dialect: Dialect, sql: String) throws(SiftSQLKitError) -> any Encodable & Sendable {
        guard dialect == .postgreSQL else { return SQLiteCell(value) }
        do {
            // Optional.none: postgres-kit binds it as an untyped NULL.
            return try value.postgresBind(sql: sql) ?? String?.none
        } catch {
            throw SiftSQLKitError(.valueDoesNotFit, error.message, sql: sql)
        }
    }

    func serialize(to serializer: inout SQLSerializer) {
        serializer.write(sql)
        serializer.binds += binds
    }
}

/// Runs statements on an SQLKit database and reads their cells as
/// SiftSQLite and SiftPostgres read them.
struct StatementRunner: Sendable {
    let database: any SQLDatabase
    let dialect: Dialect

    /// The rows of `statement`, each cell as it is stored.
    func rows(_ statement: BoundStatement) async throws(SiftSQLKitError) -> [[SQLValue]] {
        let expression = try LoweredStatement(statement, dialect: dialect)
        let collected = RowCollector()
        let dialect = self.dialect
        do {
            try await database.execute(sql: expression) { row in
                collected.add { () throws(SiftSQLKitError) in try Self.cells(of: row, dialect: dialect, sql: statement.sql) }
            }
        } catch {
            throw SiftSQLKitError(.database, "\(error)", sql: statement.sql)
        }
        return try collected.result()
    }

    /// The cells of `row` in the order of its columns, which must have
    /// distinct names (SQLKit reads a cell by its column's name; a lowered
    /// statement's columns are named after distinct columns or key paths).
    static func cells(of row: any SQLRow, dialect: Dialect, sql: String) throws(SiftSQLKitError) -> [SQLValue] {
        let names = row.allColumns
        guard Set(names).count == names.count else {
            throw SiftSQLKitError(.valueDoesNotFit, "the result has two columns of one name: \(names)", sql: sql)
        }
        var cells: [SQLValue] = []
        cells.reserveCapacity(names.count)
        for (index, name) in names.enumerated() {
            do {
                if dialect == .postgreSQL {
                    if try row.decodeNil(column: name) {
                        cells.append(.null)
                    } else {
                        let cell = try row.decode(column: name, as: PostgresCellBytes.self)
                        cells.append(try SQLValue(PostgresCell(
                            bytes: cell.bytes, dataType: cell.type, format: cell.format, columnName: name, columnIndex: index)))
                    }
                } else {
                    cells.append(SQLValue(try row.decode(column: name, as: SQLiteCell.self).data))
                }
            } catch let error as SiftPostgresError {
                throw SiftSQLKitError(.valueDoesNotFit, error.message, sql: sql)
            } catch {
                throw SiftSQLKitError(.valueDoesNotFit, "column \(name) does not decode: \(error)", sql: sql)
            }
        }
        return cells
    }
}

/// A PostgreSQL cell as the server sent it: postgres-kit hands a
/// `PostgresDecodable` the cell's bytes, type and format, from which
/// SiftPostgres reads the value by its type.
struct PostgresCellBytes: PostgresDecodable, Decodable {
    let bytes: ByteBuffer
    let type: PostgresDataType
    let format: PostgresFormat

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        bytes = buffer
        self.type = type
        self.format = format
    }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(
            .init(codingPath: decoder.codingPath, debugDescription: "a PostgreSQL cell decodes through postgres-kit"))
    }
}

/// The rows a statement's callback reads, or its first error: SQLKit calls
/// the callback on the driver's thread, one row after another.
final class RowCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [[SQLValue]] = []
    private var error: SiftSQLKitError?

    func add(_ read: () throws(SiftSQLKitError) -> [SQLValue]) {
        lock.lock()
        defer { lock.unlock() }
        guard error == nil else { return }
        do {
            rows.append(try read())
        } catch {
            self.error = error
        }
    }

    func result() throws(SiftSQLKitError) -> [[SQLValue]] {
        lock.lock()
        defer { lock.unlock() }
        if let error { throw error }
        return rows
    }
}
