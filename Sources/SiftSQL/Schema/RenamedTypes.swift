// Former names, kept so that code written for them gets an error that
// names the new one. They are unavailable rather than deprecated: a
// deprecated alias would still be found by name lookup, so a file that
// imports SwiftData or FluentKit (`Schema`) or SQLKit (`SQLDialect`,
// `SQLStatement`) next to SiftSQL would still find two of each.
// Unavailable declarations are set aside when another declaration of the
// name is visible.

/// Renamed ``StoreSchema``, which does not clash with SwiftData's or FluentKit's `Schema`.
@available(*, unavailable, renamed: "StoreSchema")
public typealias Schema = StoreSchema

/// Renamed ``StoreSchemaError``.
@available(*, unavailable, renamed: "StoreSchemaError")
public typealias SchemaError = StoreSchemaError

/// Renamed ``Dialect``, which does not clash with SQLKit's `SQLDialect`.
@available(*, unavailable, renamed: "Dialect")
public typealias SQLDialect = Dialect

/// Renamed ``BoundStatement``, which does not clash with SQLKit's `SQLStatement`.
@available(*, unavailable, renamed: "BoundStatement")
public typealias SQLStatement = BoundStatement
