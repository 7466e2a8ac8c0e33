import Sift
import SiftSQL

/// The database a ``SiftServer/SiftServer`` serves: its schema, its SQL dialect, and
/// how it runs a count and a query. The server calls these from a thread of
/// its own, one statement at a time, so they may block; `sift serve` hands
/// it what `sift query` opens (a SQLite file read-only, a Core Data store,
/// or a PostgreSQL database).
public struct ServedDatabase: Sendable {
    /// The name shown on the page: a file name, or a URL without its password.
    public var name: String
    /// The entities, attributes and relationships the fetches are lowered against.
    public var schema: StoreSchema
    /// The dialect the fetches are lowered to.
    public var dialect: Dialect
    /// Runs a count statement and returns the count.
    public var count: @Sendable (BoundStatement) throws -> Int
    /// Runs a query and hands each row to the closure as it is read, its
    /// values in the order of the query's columns.
    public var each: @Sendable (SQLQuery, ([Value]) throws -> Void) throws -> Void
    /// Stops the statement under way, which then fails; the server calls it
    /// when a request runs past its timeout.
    public var interrupt: @Sendable () -> Void
    /// A row as the JSON object the API returns.
    public var rowJSON: @Sendable (SQLQuery, [Value]) -> JSONValue

    /// A database from its parts (see each property).
    public init(
        name: String, schema: StoreSchema, dialect: Dialect,
        count: @escaping @Sendable (BoundStatement) throws -> Int,
        each: @escaping @Sendable (SQLQuery, ([Value]) throws -> Void) throws -> Void,
        interrupt: @escaping @Sendable () -> Void,
        rowJSON: @escaping @Sendable (SQLQuery, [Value]) -> JSONValue
    ) {
        self.name = name
        self.schema = schema
        self.dialect = dialect
        self.count = count
        self.each = each
        self.interrupt = interrupt
        self.rowJSON = rowJSON
    }
}
