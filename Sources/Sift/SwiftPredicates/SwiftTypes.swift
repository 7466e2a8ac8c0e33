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

    /// Whether `type` is a sequence of strings (its `contains` and `==`
    /// compare strings).
    static func isStringSequence(_ type: Any.Type) -> Bool {
        guard let sequence = unwrapped(type) as? any Sequence.Type else { return false }
        return isString(elementType(of: sequence))
    }

    /// Whether `type` is a floating-point type (its `==` is false for NaN).
    static func isFloatingPoint(_ type: Any.Type) -> Bool {
        unwrapped(type) is any BinaryFloatingPoint.Type
    }

    static func elementType<S: Sequence>(of _: S.Type) -> Any.Type { S.Element.self }

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
