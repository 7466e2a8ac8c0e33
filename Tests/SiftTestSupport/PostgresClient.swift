import CLibPQ
import Foundation
import SiftSQL

/// An error from PostgreSQL (or from connecting to it), with the statement
/// that caused it.
package struct PostgresError: Error, CustomStringConvertible {
    /// The server's error message (its primary text), or libpq's.
    package var message: String
    /// The SQLSTATE code, such as `42P01`, when the server sent one.
    package var sqlState: String?
    /// The statement that failed; empty for connection errors.
    package var sql: String

    package init(message: String, sqlState: String? = nil, sql: String = "") {
        self.message = message
        self.sqlState = sqlState
        self.sql = sql
    }

    package var description: String {
        var text = "PostgreSQL: " + message
        if let sqlState { text += " [\(sqlState)]" }
        if !sql.isEmpty { text += "\n  in: " + sql }
        return text
    }
}

/// A minimal synchronous PostgreSQL client over libpq, for running lowered
/// statements in the tests. One connection; use it from one thread.
///
/// Parameters are sent as text with explicit types (`int8`, `float8`,
/// `text`, `bool`, `bytea`, and arrays of those); results are read as text
/// and decoded by column type.
package final class PostgresClient {
    private let connection: OpaquePointer

    /// The server named by `SIFT_POSTGRES` (a libpq connection string), or
    /// nil when it is not set, so that the caller can skip. With
    /// `SIFT_REQUIRE_POSTGRES=1` a missing variable or a failed connection
    /// throws instead.
    package static func fromEnvironment() throws -> PostgresClient? {
        let environment = ProcessInfo.processInfo.environment
        let required = environment["SIFT_REQUIRE_POSTGRES"] == "1"
        guard let conninfo = environment["SIFT_POSTGRES"], !conninfo.isEmpty else {
            if required {
                throw PostgresError(message: "SIFT_REQUIRE_POSTGRES=1 but SIFT_POSTGRES is not set")
            }
            return nil
        }
        do {
            return try PostgresClient(conninfo: conninfo)
        } catch {
            if required { throw error }
            FileHandle.standardError.write(Data("skipping PostgreSQL: \(error)\n".utf8))
            return nil
        }
    }

    /// The server of ``fromEnvironment()`` (nil when there is none) with
    /// the connection's tables in a schema of their own, `name`, emptied
    /// first: tests that run at the same time keep apart.
    package static func fromEnvironment(schema name: String) throws -> PostgresClient? {
        guard let client = try fromEnvironment() else { return nil }
        let schema = Dialect.postgreSQL.quote(name)
        try client.execute("DROP SCHEMA IF EXISTS \(schema) CASCADE; CREATE SCHEMA \(schema); SET search_path TO \(schema)")
        return client
    }

    package init(conninfo: String) throws {
        guard let connection = PQconnectdb(conninfo) else {
            throw PostgresError(message: "out of memory connecting to \(conninfo)")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(message: "cannot connect to \(conninfo): \(message)")
        }
        guard PQsetClientEncoding(connection, "UTF8") == 0 else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(message: "cannot set client encoding UTF8: \(message)")
        }
        // Notices (such as "table does not exist, skipping") would go to
        // stderr; the tests don't want them.
        _ = PQsetNoticeProcessor(connection, { _, _ in }, nil)
        self.connection = connection
    }

    deinit {
        PQfinish(connection)
    }

    /// Runs one or more statements without parameters (`PQexec`), such as
    /// DDL; any rows they return are dropped.
    package func execute(_ sql: String) throws {
        let result = PQexec(connection, sql)
        defer { PQclear(result) }
        try check(result, sql: sql, allowEmpty: true)
    }

    package func query(_ statement: BoundStatement) throws -> [[SQLValue]] {
        try query(statement.sql, statement.bindings)
    }

    /// Runs one statement with `$1`, `$2`, … bound to `bindings`, and
    /// returns its rows (none for a statement that returns none).
    package func query(_ sql: String, _ bindings: [SQLValue]) throws -> [[SQLValue]] {
        var types: [Oid] = []
        var texts: [String?] = []
        types.reserveCapacity(bindings.count)
        texts.reserveCapacity(bindings.count)
        for value in bindings {
            let (type, text) = try Self.parameter(value, sql: sql)
            types.append(type)
            texts.append(text)
        }

        // C copies of the parameter texts, alive until PQexecParams returns.
        let values: [UnsafeMutablePointer<CChar>?] = texts.map { text in
            guard let text else { return nil }
            let bytes = Array(text.utf8CString)
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count)
            copy.initialize(from: bytes, count: bytes.count)
            return copy
        }
        defer {
            for value in values { value?.deallocate() }
        }
        let constValues: [UnsafePointer<CChar>?] = values.map { $0.map { UnsafePointer($0) } }

        let result: OpaquePointer? = types.withUnsafeBufferPointer { typeBuffer in
            constValues.withUnsafeBufferPointer { valueBuffer in
                PQexecParams(
                    connection, sql, Int32(bindings.count),
                    typeBuffer.baseAddress, valueBuffer.baseAddress,
                    nil, nil,  // text parameters: no lengths or formats needed
                    0  // text results
                )
            }
        }
        defer { PQclear(result) }
        try check(result, sql: sql, allowEmpty: false)
        return Self.rows(of: result!)
    }

    // MARK: - Results

    private func check(_ result: OpaquePointer?, sql: String, allowEmpty: Bool) throws {
        guard let result else {
            throw PostgresError(message: Self.trimmed(PQerrorMessage(connection)), sql: sql)
        }
        let status = PQresultStatus(result)
        if status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || (allowEmpty && status == PGRES_EMPTY_QUERY) {
            return
        }
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M")))
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C")))
        var message = primary.map { String(cString: $0) } ?? Self.trimmed(PQresultErrorMessage(result))
        if message.isEmpty {
            message = Self.trimmed(PQerrorMessage(connection))
        }
        if message.isEmpty {
            message = String(cString: PQresStatus(status))
        }
        throw PostgresError(message: message, sqlState: state.map { String(cString: $0) }, sql: sql)
    }

    private static func rows(of result: OpaquePointer) -> [[SQLValue]] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        let types = (0..<columnCount).map { PQftype(result, $0) }
        var rows: [[SQLValue]] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            values.reserveCapacity(Int(columnCount))
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) != 0 {
                    values.append(.null)
                } else {
                    let pointer = PQgetvalue(result, row, column)!
                    let length = Int(PQgetlength(result, row, column))
                    values.append(decode(pointer, length: length, type: types[Int(column)]))
                }
            }
            rows.append(values)
        }
        return rows
    }

    private static func decode(_ pointer: UnsafeMutablePointer<CChar>, length: Int, type: Oid) -> SQLValue {
        switch type {
        case OID.bytea:
            var count = 0
            guard let bytes = pointer.withMemoryRebound(to: UInt8.self, capacity: length + 1, {
                PQunescapeBytea($0, &count)
            }) else {
                return .text(String(cString: pointer))
            }
            defer { PQfreemem(bytes) }
            return .blob(Data(bytes: bytes, count: count))
        default:
            break
        }
        let text = String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
        switch type {
        case OID.int2, OID.int4, OID.int8:
            if let value = Int64(text) { return .integer(value) }
        case OID.float4, OID.float8, OID.numeric:
            if let value = double(text) { return .real(value) }
        case OID.bool:
            return .boolean(text == "t")
        default:
            break
        }
        return .text(text)
    }

    /// PostgreSQL's float text, including `Infinity`, `-Infinity` and `NaN`.
    private static func double(_ text: String) -> Double? {
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default: return Double(text)
        }
    }

    // MARK: - Parameters

    /// Type OIDs of the builtin types used here.
    enum OID {
        static let bool: Oid = 16
        static let bytea: Oid = 17
        static let int8: Oid = 20
        static let int2: Oid = 21
        static let int4: Oid = 23
        static let text: Oid = 25
        static let float4: Oid = 700
        static let float8: Oid = 701
        static let numeric: Oid = 1700
        static let boolArray: Oid = 1000
        static let byteaArray: Oid = 1001
        static let textArray: Oid = 1009
        static let int8Array: Oid = 1016
        static let float8Array: Oid = 1022
        /// Let the server infer the type (used for NULL).
        static let unknown: Oid = 0
    }

    /// The type and text form of one parameter; nil text is SQL NULL.
    private static func parameter(_ value: SQLValue, sql: String) throws -> (Oid, String?) {
        switch value {
        case .null: return (OID.unknown, nil)
        case .integer(let i): return (OID.int8, String(i))
        case .real(let d): return (OID.float8, text(d))
        case .text(let s):
            guard !s.utf8.contains(0) else {
                throw PostgresError(message: "a text value contains NUL, which PostgreSQL cannot store", sql: sql)
            }
            return (OID.text, s)
        case .boolean(let b): return (OID.bool, b ? "t" : "f")
        case .blob(let data): return (OID.bytea, hex(data))
        case .array(let items): return try array(items, sql: sql)
        }
    }

    /// Shortest text that reads back as the same double (`"\(d)"`), and
    /// PostgreSQL's spellings of the non-finite values.
    private static func text(_ d: Double) -> String {
        if d.isNaN { return "NaN" }
        if d.isInfinite { return d < 0 ? "-Infinity" : "Infinity" }
        return "\(d)"
    }

    private static func hex(_ data: Data) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        bytes.reserveCapacity(2 + data.count * 2)
        for byte in data {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A one-dimensional array literal, every element double-quoted; the
    /// element type comes from the first non-null element (integers with
    /// reals make a `float8[]`). An empty or all-NULL array has no element
    /// to go by and is sent untyped, for the server to infer: in
    /// `x = ANY($1)` it takes the array type of `x`, whatever that is
    /// (`text[]` would fail there for a number column:
    /// `operator does not exist: bigint = text`).
    private static func array(_ items: [SQLValue], sql: String) throws -> (Oid, String) {
        var type = OID.unknown
        var first = true
        for item in items {
            let itemType: Oid
            switch item {
            case .null: continue
            case .integer: itemType = OID.int8Array
            case .real: itemType = OID.float8Array
            case .text: itemType = OID.textArray
            case .boolean: itemType = OID.boolArray
            case .blob: itemType = OID.byteaArray
            case .array:
                throw PostgresError(message: "nested arrays are not supported as parameters", sql: sql)
            }
            if first {
                type = itemType
                first = false
            } else if (type == OID.int8Array && itemType == OID.float8Array)
                || (type == OID.float8Array && itemType == OID.int8Array)
            {
                type = OID.float8Array
            }
        }
        var literal = "{"
        for (index, item) in items.enumerated() {
            if index > 0 { literal += "," }
            guard let element = try parameter(item, sql: sql).1 else {
                literal += "NULL"
                continue
            }
            literal += "\""
            for character in element.unicodeScalars {
                if character == "\\" || character == "\"" { literal += "\\" }
                literal.unicodeScalars.append(character)
            }
            literal += "\""
        }
        literal += "}"
        return (type, literal)
    }

    private static func trimmed(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "" }
        return String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
