/// A half-open range of UTF-8 byte offsets into a format string.
///
/// Line and column numbers are worked out only when a diagnostic is rendered
/// (see ``SourceDiagnostic/rendered(colors:)``), so ranges stay two integers.
public struct SourceRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Offset of the first byte.
    public var lowerBound: Int
    /// Offset one past the last byte.
    public var upperBound: Int

    /// The bytes from `lowerBound` up to `upperBound` (empty when `upperBound` is smaller).
    public init(_ lowerBound: Int, _ upperBound: Int) {
        self.lowerBound = lowerBound
        self.upperBound = max(lowerBound, upperBound)
    }

    /// An empty range at `offset` (used for "expected … here" diagnostics).
    public static func at(_ offset: Int) -> SourceRange { SourceRange(offset, offset) }

    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(lowerBound, other.lowerBound), max(upperBound, other.upperBound))
    }

    /// The number of bytes in the range.
    public var count: Int { upperBound - lowerBound }

    /// The range as `lower..<upper`.
    public var description: String { "\(lowerBound)..<\(upperBound)" }
}
