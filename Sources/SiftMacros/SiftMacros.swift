@_exported import Sift

/// Makes a struct or a final class `KeyValueReadable`, with a
/// `KeyTable` of its stored properties.
///
/// ```swift
/// import SiftMacros
///
/// @KeyValueReadable
/// struct Book {
///     var title: String
///     var year: Int
///     var genre: Genre            // enum Genre: String, read as its raw value
///     var published: Date?        // nil when absent
///     var editor: Author          // @KeyValueReadable too: a to-one relationship
///     var authors: [Author]       // a to-many relationship
///     @SiftKey("isbn13") var isbn: String
///     @SiftIgnored var cover: Data
///     var age: Int { 2026 - year }  // computed: not a key unless marked @SiftKey
/// }
///
/// let old = try Filter("year < 1950 AND editor.name == 'Ann'").compiled(for: Book.self)
/// ```
///
/// Every stored property that is not `static`, `private` or `fileprivate`
/// becomes a key under its own name. `@SiftKey("name")` renames one,
/// `@SiftKey` alone also adds a computed or private property, and
/// `@SiftIgnored` leaves one out.
///
/// The reader of each key is `KeyReader.property(_:)` on the
/// property's key path, whose overloads follow the property's type:
/// `Int`, `Double`, `String`, `Bool`, `[String]` and `Value` are read
/// in place by a `TypedFilter`, as are the stored properties of nested
/// structs that are `KeyValueReadable`; arrays of those are to-many
/// relationships; other integers and `Float` are read as numbers; `Date`,
/// `Decimal`, `UUID`, `Data`, optionals (nil when absent), arrays, sets and
/// dictionaries of these as values; `RawRepresentable` enums as their raw
/// values. A property of any other type is an error at compile time, in the
/// macro's expansion: conform the type to `ValueConvertible` or mark the
/// property `@SiftIgnored`.
///
/// The macro is an error on an enum, a protocol, an actor or a class that is
/// not final, on lazy properties (mark them `@SiftIgnored`), on properties
/// declared in a tuple pattern or inside `#if`, and on two properties with the
/// same key.
@attached(extension, conformances: KeyValueReadable, names: named(keyTable))
public macro KeyValueReadable() = #externalMacro(module: "SiftMacroPlugin", type: "KeyValueReadableMacro")

/// Gives a property of a `@KeyValueReadable` type another key
/// (`@SiftKey("first_name") var firstName: String`), or, without a name,
/// makes a computed or private property a key under its own name.
@attached(peer)
public macro SiftKey(_ key: String? = nil) = #externalMacro(module: "SiftMacroPlugin", type: "PropertyMarkMacro")

/// Leaves a property of a `@KeyValueReadable` type out of its key table.
@attached(peer)
public macro SiftIgnored() = #externalMacro(module: "SiftMacroPlugin", type: "PropertyMarkMacro")
