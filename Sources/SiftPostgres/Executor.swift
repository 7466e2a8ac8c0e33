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
            for try await row in sequence { rows.append(try SQLValue.row(row, sql: statement.sql)) }
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
    /// are the attribute names (and the primary key's column); dates,
    /// UUIDs, data and decimals decode from the values of their attributes.
    public func fetch<Row: Decodable>(_ type: Row.Type, _ runner: some SiftPostgresQueryRunner, schema: StoreSchema)
        async throws(SiftPostgresError) -> [Row]
    {
        var rows: [Row] = []
        for try await value in try await stream(runner, schema: schema) {
            do {
                rows.append(try Row(from: ValueDecoder(value: value, codingPath: [])))
            } catch {
                throw SiftPostgresError(.valueDoesNotFit, "a row does not decode as \(Row.self): \(error)")
            }
        }
        return rows
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
            let values = try SQLValue.row(row, sql: query.statement.sql)
            return .dictionary(query.object(zip(query.columns, values).map { Value(stored: $1, $0.type) }))
        }
    }
}

// MARK: - Values

extension SQLValue {
    /// Binds the value in its own type: `bigint`, `double precision`,
    /// `text`, `boolean`, `bytea`, or an array of one of them (integers
    /// among doubles are sent as doubles); NULL goes untyped, for the
    /// server to infer.
    func bind(to binds: inout PostgresBindings, sql: String) throws(SiftPostgresError) {
        switch self {
        case .null: binds.appendNull()
        case .integer(let i): binds.append(i)
        case .real(let d): binds.append(d)
        case .text(let s):
            guard !s.utf8.contains(0) else {
                throw SiftPostgresError(.valueDoesNotFit, "a text value contains NUL, which PostgreSQL cannot store", sql: sql)
            }
            binds.append(s)
        case .boolean(let b): binds.append(b)
        case .blob(let data): binds.append(ByteBuffer(bytes: data))
        case .array(let items): try Self.bindArray(items, to: &binds, sql: sql)
        }
    }

    /// An array parameter: all its elements of one type (integers and
    /// doubles together make a `double precision[]`) and none NULL.
    private static func bindArray(_ items: [SQLValue], to binds: inout PostgresBindings, sql: String)
        throws(SiftPostgresError)
    {
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
        case integers.count: binds.append(integers)
        case doubles.count: binds.append(doubles)
        case texts.count: binds.append(texts)
        case booleans.count: binds.append(booleans)
        case blobs.count: binds.append(blobs)
        default: throw refuse("mixes types")
        }
    }

    /// The cells of `row`, each by its PostgreSQL type.
    static func row(_ row: PostgresRow, sql: String) throws(SiftPostgresError) -> [SQLValue] {
        var values: [SQLValue] = []
        for cell in row {
            do {
                values.append(try SQLValue(cell))
            } catch let error as SiftPostgresError {
                throw error
            } catch {
                throw SiftPostgresError(
                    .valueDoesNotFit, "column \(cell.columnName) (\(cell.dataType)) does not decode: \(error)", sql: sql)
            }
        }
        return values
    }

    /// A cell as the value of its type: the integer types as `.integer`,
    /// `real`, `double precision` and `numeric` as `.real`, `boolean`,
    /// `bytea` as `.blob`, and the character types, `uuid` and `name` as
    /// `.text`.
    init(_ cell: PostgresCell) throws {
        guard cell.bytes != nil else {
            self = .null
            return
        }
        switch cell.dataType {
        case .int2, .int4, .int8: self = .integer(try cell.decode(Int64.self))
        case .float4, .float8: self = .real(try cell.decode(Double.self))
        case .numeric:
            let decimal = try cell.decode(Decimal.self)
            self = .real(Value.nearestDouble(to: decimal))
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
