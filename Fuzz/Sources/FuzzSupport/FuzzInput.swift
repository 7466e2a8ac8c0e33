import Sift

/// One fuzzer input read as a format string.
public struct FuzzInput {
    /// The text parsed: the bytes themselves when they are UTF-8, otherwise
    /// their lossy decoding (invalid sequences replaced by U+FFFD).
    public let text: String
    /// Whether the bytes were valid UTF-8.
    public let isValidUTF8: Bool
    /// The predicate, or the error that refused it.
    public let parsed: Result<Filter, ParseError>

    public init(_ data: UnsafePointer<UInt8>, _ size: Int) {
        let bytes = UnsafeBufferPointer(start: data, count: size)
        do {
            text = try FormatParser.validatedString(bytes)
            isValidUTF8 = true
        } catch {
            // Invalid UTF-8 given as bytes is an error at its offset, never a
            // predicate and never a crash; the repaired text is parsed instead.
            _ = error.rendered()
            if let p = try? FormatParser.parsePredicate(utf8: bytes, arguments: FuzzFixtures.arguments) {
                FuzzCheck.fail("invalid UTF-8 was accepted", input: String(decoding: bytes, as: UTF8.self), FuzzCheck.describe(p))
            }
            text = String(decoding: bytes, as: UTF8.self)
            isValidUTF8 = false
        }
        do throws(ParseError) {
            parsed = .success(try Filter(text, arguments: FuzzFixtures.arguments))
        } catch {
            _ = error.rendered()
            _ = error.description
            parsed = .failure(error)
        }
    }

    /// The predicate, if the text parsed.
    public var filter: Filter? { try? parsed.get() }
}
