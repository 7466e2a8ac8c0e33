import Foundation

/// Reads chosen members of JSON records from their bytes, with the scan
/// that reads a predicate's keys: only those members' values are decoded,
/// and the rest is skipped, though checked as decoding checks it. For this
/// package's tools (the REPL keeps only the members it sorts by).
package struct JSONMemberReader: Sendable {
    private let scan: JSONScan

    /// A reader of the members named `names`; nil when a name is not ASCII
    /// (decode such records in full).
    package init?(_ names: some Sequence<String>) {
        guard let scan = JSONScan(paths: names.map { [$0] }) else { return nil }
        self.scan = scan
    }

    /// The record in `bytes` (UTF-8, one value, blanks around it allowed)
    /// as decoding it and keeping only the named members gives it: a
    /// dictionary of the named members it has, JSON's null as `NSNull`, a
    /// repeated name's last value. Nil when the record is to be decoded in
    /// full instead: it is not an object, it has a member name that is not
    /// plain ASCII, or decoding would refuse it.
    package func members(of bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = 512) -> Value? {
        scan.evaluate(bytes, maximumDepth: maximumDepth) { scan.record($0) }
    }
}
