import Foundation

/// The values of one record's key paths, read by a ``JSONScan``: slot `i` is
/// the scan's node `i`. Valid only while the scan's evaluation runs.
struct JSONSlots {
    /// What reading each key path from the decoded record gives (for a key
    /// with keys read below it, nil unless it was decoded whole; for a
    /// `plainString`, made by ``value(_:)``).
    let values: UnsafeMutablePointer<Value>
    /// What each slot holds: ``JSONScan/missing`` and the other kinds.
    let kinds: UnsafeMutablePointer<UInt8>
    /// The bytes of each `plainString` slot's string (valid UTF-8, no
    /// escapes: the string is exactly these bytes).
    let strings: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>

    /// The value of a slot read whole: a `plainString` is made into its
    /// `String` here, once.
    @inline(__always)
    func value(_ i: Int) -> Value {
        if kinds[i] == JSONScan.plainString {
            values[i] = .string(String(decoding: strings[i], as: UTF8.self))
            kinds[i] = JSONScan.missing
        }
        return values[i]
    }
}
