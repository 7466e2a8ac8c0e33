import Foundation
import PostgresNIO
import Sift
import SiftCatalog
import SiftSQL

/// What runs statements for SiftPostgres: PostgresNIO's `PostgresClient`
/// (a pool, which must be running) and `PostgresConnection` both are one.
public protocol SiftPostgresQueryRunner: Sendable {
    /// Runs `query` and returns its rows as the server sends them.
    func runSiftQuery(_ query: PostgresQuery) async throws -> PostgresRowSequence
}

extension PostgresClient: SiftPostgresQueryRunner {
    /// Runs `query` on a connection of the pool.
    public func runSiftQuery(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await self.query(query)
    }
}

extension PostgresConnection: SiftPostgresQueryRunner {
    /// Runs `query` on this connection.
    public func runSiftQuery(_ query: PostgresQuery) async throws -> PostgresRowSequence {
        try await self.query(query, logger: SiftPostgres.quietLogger)
    }
}

/// Where SiftPostgres keeps what its pieces share.
enum SiftPostgres {
    /// A logger that says nothing below `critical`: the connection's own
    /// messages are not the caller's to read.
    static let quietLogger: Logger = {
        var logger = Logger(label: "SiftPostgres")
        logger.logLevel = .critical
        return logger
    }()
}

extension SiftPostgresQueryRunner {
    /// Runs `statement` (with `$1`, `$2`, … bound to its values) and
    /// returns its rows as `SQLValue`s, each by its column's
    /// PostgreSQL type.
    public func rows(_ statement: BoundStatement) async throws(SiftPostgresError) -> [[SQLValue]] {
        let sequence = try await start(statement)
        var rows: [[SQLValue]] = []
        do {
            for try await row in sequence {
                rows.append(try SQLValue.row(row, sql: statement.sql, number: rows.count + 1))
            }
        } catch {
            throw SiftPostgresError(error, sql: statement.sql)
        }
        return rows
    }

    /// Sends `statement` with its values bound by their types.
    func start(_ statement: BoundStatement) async throws(SiftPostgresError) -> PostgresRowSequence {
        var binds = PostgresBindings(capacity: statement.bindings.count)
        for value in statement.bindings { try value.bind(to: &binds, sql: statement.sql) }
        do {
            return try await runSiftQuery(PostgresQuery(unsafeSQL: statement.sql, binds: binds))
        } catch {
            throw SiftPostgresError(error, sql: statement.sql)
        }
    }
}

// MARK: - Fetching

extension FetchSpecification {
    /// Runs the request on PostgreSQL and returns each row as a dictionary
    /// from attribute name (or fetched key path) to value, read back by the
    /// attribute's type (see ``SiftPostgresRows``).
    ///
    /// ```swift
    /// let schema = try await StoreSchema.read(from: client)
    /// let request = FetchSpecification(entity: "books", filter: try Filter("author.name BEGINSWITH 'A'"), limit: 10)
    /// for row in try await request.fetchValues(client, schema: schema) { print(row) }
    /// ```
    public func fetchValues(_ runner: some SiftPostgresQueryRunner, schema: StoreSchema) async throws(SiftPostgresError)
        -> [Value]
    {
        var values: [Value] = []
        for try await value in try await stream(runner, schema: schema) { values.append(value) }
        return values
    }

    /// Runs the request and streams its rows as they arrive, each a
    /// dictionary as ``fetchValues(_:schema:)`` returns it; the server
    /// sends more as the loop asks for them.
    public func stream(_ runner: some SiftPostgresQueryRunner, schema: StoreSchema) async throws(SiftPostgresError)
        -> SiftPostgresRows
    {
        let query = try Self.lowering { () throws(SQLLoweringError) in try sql(in: schema, dialect: .postgreSQL) }
        return SiftPostgresRows(rows: try await runner.start(query.statement), query: query)
    }

    /// Runs the request and decodes each row as `type`, whose coding keys
    /// are the attribute names (and the primary key's column), as
    /// `Value/decoded(as:)` decodes: dates, UUIDs, data and decimals from
    /// the values of their attributes. The arguments are in the order of
    /// SiftSQLite's `fetch(_:schema:as:)`.
    public func fetch<Row: Decodable>(_ runner: some SiftPostgresQueryRunner, schema: StoreSchema, as type: Row.Type)
        async throws(SiftPostgresError) -> [Row]
    {
        var rows: [Row] = []
        for try await value in try await stream(runner, schema: schema) {
            do {
                rows.append(try value.decoded(as: Row.self))
            } catch {
                throw SiftPostgresError(.valueDoesNotFit, "a row does not decode as \(Row.self): \(error)")
            }
        }
        return rows
    }

    /// Renamed ``fetch(_:schema:as:)``, whose arguments are in the order of
    /// SiftSQLite's.
    @available(*, unavailable, renamed: "fetch(_:schema:as:)")
    public func fetch<Row: Decodable>(_ type: Row.Type, _ runner: some SiftPostgresQueryRunner, schema: StoreSchema)
        async throws(SiftPostgresError) -> [Row]
    {
        try await fetch(runner, schema: schema, as: type)
    }

    /// How many rows the request fetches (its offset and limit apply).
    public func fetchCount(_ runner: some SiftPostgresQueryRunner, schema: StoreSchema) async throws(SiftPostgresError)
        -> Int
    {
        let statement = try Self.lowering { () throws(SQLLoweringError) in
            try countSQL(in: schema, dialect: .postgreSQL)
        }
        let rows = try await runner.rows(statement)
        guard let first = rows.first?.first, case .integer(let count) = first else {
            throw SiftPostgresError(.server, "the count statement returned no count", sql: statement.sql)
        }
        return Int(count)
    }

    /// The identifiers of the matching rows, in order: Core Data's object ID
    /// URIs where the schema is a Core Data store's (its store identifier
    /// and entity numbers), else the primary keys as text, as SiftSQLite's
    /// `fetchObjectIDs(_:schema:)` gives them (`sift query --ids`).
    public func fetchObjectIDs(_ runner: some SiftPostgresQueryRunner, schema: StoreSchema)
        async throws(SiftPostgresError) -> [String]
    {
        let query = try Self.lowering { () throws(SQLLoweringError) in
            try objectIDSQL(in: schema, dialect: .postgreSQL)
        }
        return try await runner.rows(query.statement).map { schema.objectID(of: query.values($0), in: query) }
    }
}

extension FetchSpecification {
    /// What `lower` returns, its error said as a ``SiftPostgresError``.
    private static func lowering<T>(_ lower: () throws(SQLLoweringError) -> T) throws(SiftPostgresError) -> T {
        do {
            return try lower()
        } catch {
            throw SiftPostgresError(.lowering, error.description)
        }
    }
}

/// The rows of a fetch as they arrive from the server, each a dictionary
/// from attribute name (or fetched key path) to value, read by the
/// attribute's type: Booleans as `.bool`, decimals as the decimal their
/// double stands for, dates by their encoding, UUIDs from their text or
/// bytes.
public struct SiftPostgresRows: AsyncSequence, Sendable {
    /// A row: a dictionary from attribute name (or fetched key path) to value.
    public typealias Element = Value
    /// Errors are ``SiftPostgresError``s.
    public typealias Failure = SiftPostgresError

    let rows: PostgresRowSequence
    let query: SQLQuery

    /// An iterator over the rows as they arrive.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(rows: rows.makeAsyncIterator(), query: query)
    }

    /// Reads the rows of a ``SiftPostgresRows`` one at a time.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var rows: PostgresRowSequence.AsyncIterator
        let query: SQLQuery
        /// How many rows it has read.
        var read = 0

        /// The next row, or nil after the last.
        public mutating func next() async throws(SiftPostgresError) -> Value? {
            try await next(isolation: nil)
        }

        /// The next row, or nil after the last, read on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(SiftPostgresError) -> Value? {
            let row: PostgresRow?
            do {
                row = try await rows.next(isolation: actor)
            } catch {
                throw SiftPostgresError(error, sql: query.statement.sql)
            }
            guard let row else { return nil }
            read += 1
            let values = try SQLValue.row(row, sql: query.statement.sql, number: read)
            return .dictionary(query.object(query.values(values)))
        }
    }
}

// MARK: - Values

extension SQLValue {
    /// Binds the value in its own type (``postgresBind(sql:)``); NULL goes
    /// untyped, for the server to infer.
    func bind(to binds: inout PostgresBindings, sql: String) throws(SiftPostgresError) {
        guard let value = try postgresBind(sql: sql) else { return binds.appendNull() }
        do {
            try binds.append(value, context: .default)
        } catch {
            throw SiftPostgresError(.valueDoesNotFit, "a value does not encode: \(error)", sql: sql)
        }
    }

    /// The value as PostgreSQL receives it, in its own type: `bigint`,
    /// `double precision`, `text`, `boolean`, `bytea`, or an array of one
    /// of them (integers among doubles are sent as doubles); nil for NULL.
    /// Shared by every client that binds through PostgresNIO (SiftSQLKit
    /// hands it to postgres-kit).
    package func postgresBind(sql: String) throws(SiftPostgresError) -> PostgresBind? {
        switch self {
        case .null: return nil
        case .integer(let i): return PostgresBind(i)
        case .real(let d): return PostgresBind(d)
        case .text(let s):
            guard !s.utf8.contains(0) else {
                throw SiftPostgresError(.valueDoesNotFit, "a text value contains NUL, which PostgreSQL cannot store", sql: sql)
            }
            return PostgresBind(s)
        case .boolean(let b): return PostgresBind(b)
        case .blob(let data): return PostgresBind(ByteBuffer(bytes: data))
        case .array(let items): return try Self.postgresArray(items, sql: sql)
        }
    }

    /// An array parameter: all its elements of one type (integers and
    /// doubles together make a `double precision[]`) and none NULL.
    private static func postgresArray(_ items: [SQLValue], sql: String) throws(SiftPostgresError) -> PostgresBind {
        func refuse(_ what: String) -> SiftPostgresError {
            SiftPostgresError(.valueDoesNotFit, "a list parameter \(what), which a PostgreSQL array cannot hold", sql: sql)
        }
        var integers: [Int64] = [], doubles: [Double] = [], texts: [String] = [], booleans: [Bool] = []
        var blobs: [ByteBuffer] = []
        for item in items {
            switch item {
            case .integer(let i): integers.append(i); doubles.append(Double(i))
            case .real(let d): doubles.append(d)
            case .text(let s):
                guard !s.utf8.contains(0) else { throw refuse("has a text containing NUL") }
                texts.append(s)
            case .boolean(let b): booleans.append(b)
            case .blob(let data): blobs.append(ByteBuffer(bytes: data))
            case .null: throw refuse("has a NULL element")
            case .array: throw refuse("is nested")
            }
        }
        switch items.count {
        case integers.count: return PostgresBind(integers)
        case doubles.count: return PostgresBind(doubles)
        case texts.count: return PostgresBind(texts)
        case booleans.count: return PostgresBind(booleans)
        case blobs.count: return PostgresBind(blobs)
        default: throw refuse("mixes types")
        }
    }

    /// The cells of `row`, the `number`th of the result (from 1), each by
    /// its PostgreSQL type.
    static func row(_ row: PostgresRow, sql: String, number: Int) throws(SiftPostgresError) -> [SQLValue] {
        var values: [SQLValue] = []
        for cell in row {
            do {
                values.append(try SQLValue(cell))
            } catch let error as SiftPostgresError {
                var located = error
                located.message += " in row \(number) of the result"
                located.sql = sql
                throw located
            } catch {
                throw SiftPostgresError(
                    .valueDoesNotFit, "column \(cell.columnName) (\(cell.dataType)) of row \(number) does not decode: \(error)",
                    sql: sql)
            }
        }
        return values
    }

    /// A `numeric` cell as the double it stands for, read from its binary
    /// form (its digits, base 10,000): NaN and ±Infinity as themselves; a
    /// value beyond a double's range (`1e400`, or a non-zero `1e-400` that
    /// would read as 0) is an error naming the column and the value, never
    /// a silently changed number. (PostgresNIO's `Decimal` traps on values
    /// beyond `Decimal`'s range and reads NaN as 0.)
    static func numeric(_ cell: PostgresCell) throws(SiftPostgresError) -> Double {
        func refuse(_ why: String) -> SiftPostgresError {
            SiftPostgresError(.valueDoesNotFit, "column \(cell.columnName) (numeric) \(why)")
        }
        guard var buffer = cell.bytes, cell.format == .binary,
            let ndigits = buffer.readInteger(as: Int16.self), let weight = buffer.readInteger(as: Int16.self),
            let sign = buffer.readInteger(as: UInt16.self), let _ = buffer.readInteger(as: Int16.self), ndigits >= 0,
            buffer.readableBytes == Int(ndigits) * 2
        else { throw refuse("is not in PostgreSQL's binary numeric form") }
        switch sign {
        case 0xC000: return .nan
        case 0xD000: return .infinity
        case 0xF000: return -.infinity
        case 0x0000, 0x4000: break
        default: throw refuse("has an unknown sign code \(sign)")
        }
        // digits × 10,000^(weight - i): written as an exponent form.
        var digits = ""
        for _ in 0..<ndigits {
            guard let d = buffer.readInteger(as: Int16.self), (0..<10_000).contains(d) else {
                throw refuse("has a digit outside 0-9999")
            }
            let text = String(d)
            digits += String(repeating: "0", count: 4 - text.count) + text
        }
        let trimmed = digits.drop { $0 == "0" }
        guard !trimmed.isEmpty else { return sign == 0x4000 ? -0.0 : 0 }
        let exponent = (Int(weight) + 1) * 4 - digits.count
        let text = (sign == 0x4000 ? "-" : "") + digits + "e" + String(exponent)
        guard let value = Double(text), value.isFinite, value != 0 else {
            let magnitude = (sign == 0x4000 ? "-" : "") + "1e" + String(exponent + trimmed.count - 1)
            throw refuse("holds about \(magnitude), beyond the range of a double (Sift reads numeric columns as doubles)")
        }
        return value
    }

    /// A cell as the value of its type: the integer types as `.integer`,
    /// `real`, `double precision` and `numeric` as `.real`, `boolean`,
    /// `bytea` as `.blob`, and the character types, `uuid` and `name` as
    /// `.text`.
    package init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .numeric:
            self = .real(try Self.numeric(cell))
        case .bool: self = .boolean(try cell.decode(Bool.self))
        case .bytea:
            var buffer = try cell.decode(ByteBuffer.self)
            self = .blob(Data(buffer.readBytes(length: buffer.readableBytes) ?? []))
        case .uuid: self = .text(try cell.decode(UUID.self).uuidString)
        case .text, .varchar, .bpchar, .name, .unknown: self = .text(try cell.decode(String.self))
        default:
            throw SiftPostgresError(
                .valueDoesNotFit,
                "column \(cell.columnName) has PostgreSQL type \(cell.dataType), which Sift does not read")
        }
    }
}

/// A value bound to a PostgreSQL statement in its own type
/// (`SQLValue.postgresBind(sql:)`). `Encodable` only so that SQLKit can
/// carry it as a bind: postgres-kit encodes it through PostgresNIO, as
/// SiftPostgres does, and never through `Encodable`.
package struct PostgresBind: PostgresThrowingDynamicTypeEncodable, Encodable, Sendable {
    let value: any PostgresThrowingDynamicTypeEncodable & Sendable

    init(_ value: some PostgresThrowingDynamicTypeEncodable & Sendable) {
        self.value = value
    }

    package var psqlType: PostgresDataType { value.psqlType }
    package var psqlFormat: PostgresFormat { value.psqlFormat }

    package func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        try value.encode(into: &buffer, context: context)
    }

    package func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(
            self, .init(codingPath: encoder.codingPath, debugDescription: "a PostgreSQL bind encodes through PostgresNIO"))
    }
}
