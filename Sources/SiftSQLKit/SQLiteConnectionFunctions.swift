import Foundation
import Sift
import SiftSQL
import SQLiteNIO

/// The `sift_*` functions on a sqlite-nio connection: the bodies SiftSQLite
/// registers through GRDB (`SQLiteFunctions.bodies(regexLimits:)`), on
/// sqlite-nio's values. sqlite-nio installs functions but not collations,
/// so a sort by a string orders by `sift_sort_key`, and a localized one is
/// refused (`SQLLoweringOptions.siftCollations`).
enum SQLiteConnectionFunctions {
    /// Installs the functions on `connection` (again, when it has them:
    /// the new ones replace the old).
    static func install(on connection: SQLiteConnection, regexLimits: RegexLimits) async throws {
        for body in SQLiteFunctions.bodies(regexLimits: regexLimits) {
            let function = SQLiteCustomFunction(
                body.name, argumentCount: body.argumentCount.map(Int32.init), pure: true
            ) { (arguments: [SQLiteData]) throws -> (any SQLiteDataConvertible)? in
                do throws(SQLiteFunctionFailure) {
                    return SQLiteCell(try body.call(arguments.map { SQLValue($0) }))
                } catch {
                    throw FunctionFailure(message: error.message)
                }
            }
            try await connection.install(customFunction: function)
        }
        try await connection.install(
            customFunction: SQLiteCustomFunction(SQLiteFunctions.orderedSum, argumentCount: 2, pure: true, aggregate: OrderedSum.self))
    }

    /// `sift_sum(value, key)`, the aggregate of `OrderedSumState`.
    struct OrderedSum: SQLiteCustomAggregate {
        var state = OrderedSumState()

        /// SQLite calls it with exactly two arguments (`argumentCount`).
        mutating func step(_ values: [SQLiteData]) throws {
            do throws(SQLiteFunctionFailure) {
                try state.step(SQLValue(values[0]), key: SQLValue(values[1]))
            } catch {
                throw FunctionFailure(message: error.message)
            }
        }

        func finalize() throws -> (any SQLiteDataConvertible)? {
            do throws(SQLiteFunctionFailure) {
                return SQLiteCell(try state.finalize())
            } catch {
                throw FunctionFailure(message: error.message)
            }
        }
    }

    /// A function's failure, said by sqlite-nio as its description.
    struct FunctionFailure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}

/// A SQLite value as sqlite-nio carries it, both ways: a bind (sqlite-kit's
/// encoder takes a `SQLiteDataConvertible` as it is) and a cell (its
/// decoder gives one the cell as it is stored).
struct SQLiteCell: SQLiteDataConvertible, Codable, Sendable {
    let data: SQLiteData

    init(_ value: SQLValue) {
        switch value.sqliteStorage {
        case .integer(let i): data = .integer(SQLiteInt64(i))
        case .real(let d): data = .float(d)
        case .text(let s): data = .text(s)
        case .blob(let bytes): data = .blob(ByteBuffer(bytes: bytes))
        case .null, .boolean, .array: data = .null  // sqliteStorage has none of the last two
        }
    }

    init?(sqliteData: SQLiteData) { data = sqliteData }

    var sqliteData: SQLiteData? { data }

    init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a SQLite cell decodes through sqlite-kit"))
    }

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(data, .init(codingPath: encoder.codingPath, debugDescription: "a SQLite bind encodes through sqlite-kit"))
    }
}

extension SQLValue {
    /// A sqlite-nio value as it is stored.
    init(_ data: SQLiteData) {
        switch data {
        case .integer(let i): self = .integer(Int64(i))
        case .float(let d): self = .real(d)
        case .text(let s): self = .text(s)
        case .blob(let buffer): self = .blob(Data(buffer.readableBytesView))
        case .null: self = .null
        }
    }
}
