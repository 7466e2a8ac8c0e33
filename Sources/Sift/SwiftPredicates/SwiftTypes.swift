import Foundation

/// What conversion needs to know of a Swift value type: whether its `==` and
/// `<` mean what Sift's do.
enum SwiftTypes {
    /// `T` without one level of `Optional`.
    static func unwrapped(_ type: Any.Type) -> Any.Type {
        (type as? any OptionalMarker.Type)?.wrappedType ?? type
    }

    /// Whether `type` (or its wrapped type) is a string type, whose `==` is
    /// canonical equivalence, `<` the order of NFC scalars and whose
    /// searches respect grapheme clusters.
    static func isString(_ type: Any.Type) -> Bool {
        let base = unwrapped(type)
        return base == String.self || base == Substring.self || base == Character.self
    }

    /// Whether `type` holds strings inside it (`[String]`, `[String: Int]`,
    /// `[[String]]`, …) without being one: its `==` compares them by
    /// canonical equivalence in Swift and literally in NSPredicate.
    static func holdsStrings(_ type: Any.Type) -> Bool {
        guard !isString(type) else { return false }
        let name = String(reflecting: unwrapped(type))
        return ["Swift.String", "Swift.Substring", "Swift.Character"].contains { name.contains($0) }
    }

    /// Whether Sift orders values of `type` as Swift's `<` does: numbers
    /// that are values exactly (integers up to 64 bits signed or 32
    /// unsigned, `Double`, `Float`), strings (with `[s]`), dates. A
    /// `Comparable` type of one's own (an enum read as its raw value) has
    /// its own `<`, which Sift cannot see.
    static func ordersAsSwift(_ type: Any.Type) -> Bool {
        let base = unwrapped(type)
        return isString(base) || exactNumber(base) || base == Double.self || base == Float.self || base == Date.self
    }

    /// Why values of `type` are refused in an ordering (see ``ordersAsSwift(_:)``).
    static func unorderedReason(_ type: Any.Type) -> String {
        "\(PredicateConverter.typeName(unwrapped(type))) has a < of its own (Sift orders numbers, strings and dates only; an enum by its raw value)"
    }

    /// Whether `type` is an integer type whose every value is an `Int`:
    /// equal and ordered as Sift's integers are (`UInt64` past `Int.max`
    /// becomes a double or a decimal).
    static func exactNumber(_ type: Any.Type) -> Bool {
        let base = unwrapped(type)
        let integers: [Any.Type] = [
            Int.self, Int8.self, Int16.self, Int32.self, Int64.self, UInt8.self, UInt16.self, UInt32.self,
        ]
        return integers.contains { $0 == base }
    }

    /// Whether arithmetic on `type` is computed as Sift computes it: `Int`
    /// and `Double` (other integer types and `Float` round or stop at other
    /// bounds in Swift).
    static func computesAsSwift(_ type: Any.Type) -> Bool {
        let base = unwrapped(type)
        return base == Int.self || base == Int64.self || base == Double.self
    }

    /// The scalars other than themselves whose canonical decomposition is
    /// ASCII: GREEK QUESTION MARK (`;`), GREEK VARIA (a grave accent) and KELVIN SIGN
    /// (`K`). `SwiftPredicateTests.asciiDecompositions` checks the list
    /// against every scalar.
    static let asciiDecompositionTargets: Set<Unicode.Scalar> = [";", "`", "K"]

    /// Whether a string is equal to `text` canonically exactly when it is
    /// equal code unit by code unit: then Swift's `==` and NSPredicate's
    /// literal `==` agree. True for ASCII without a semicolon, grave accent or capital K, which no
    /// other scalar decomposes to.
    static func isCanonicallyUnique(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.isASCII && !asciiDecompositionTargets.contains($0) }
    }
}

/// `Optional`, so that conversion can see through it.
protocol OptionalMarker {
    static var wrappedType: Any.Type { get }
    /// The wrapped value, nil for `.none`.
    var wrappedAny: Any? { get }
}

extension Optional: OptionalMarker {
    static var wrappedType: Any.Type { Wrapped.self }
    var wrappedAny: Any? { map { $0 } }
}

extension KeyValueReadable {
    /// The key `keyPath` reads in this type's table, if it is a key path of this type.
    static func key(forAnyKeyPath keyPath: AnyKeyPath) -> String? {
        guard let path = keyPath as? PartialKeyPath<Self> else { return nil }
        return keyTable.key(for: path)
    }
}

/// Whether `T` is an array, whose first and last elements Sift reads as
/// `[FIRST]` and `[LAST]` (a set's are in no fixed order).
protocol ArrayMarker {}
extension Array: ArrayMarker {}
