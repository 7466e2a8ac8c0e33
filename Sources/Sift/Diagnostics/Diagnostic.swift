/// An error that points into a format string. Parse, bind and evaluation
/// errors all conform, so the library, the CLI and the REPL render them the
/// same way.
public protocol SourceDiagnostic: Error, CustomStringConvertible {
    /// One line, lowercase, no trailing period: `expected ')' to close '('`.
    var message: String { get }
    /// The part of ``source`` the error is about.
    var range: SourceRange { get }
    /// The format string.
    var source: String { get }
}

extension SourceDiagnostic {
    /// `message (line:column)`.
    public var description: String {
        let (line, column) = DiagnosticRenderer.lineAndColumn(of: range.lowerBound, in: source)
        return "\(message) (\(line):\(column))"
    }

    /// The message followed by the source line with a caret under the range:
    ///
    ///     error: expected expression after '==' (1:7)
    ///      | age ==
    ///      |       ^
    public func rendered(colors: Bool = false) -> String {
        DiagnosticRenderer.render(message: message, range: range, source: source, colors: colors)
    }
}

/// Renders diagnostics with the source line and a `^~~~` underline.
public enum DiagnosticRenderer {
    /// 1-based line and column (in characters) of a UTF-8 offset.
    public static func lineAndColumn(of offset: Int, in source: String) -> (line: Int, column: Int) {
        lineAndColumn(of: offset, inUTF8: Array(source.utf8)[...])
    }

    /// 1-based line and column (in characters) of an offset into UTF-8
    /// bytes, counted from the start of the slice.
    public static func lineAndColumn(of offset: Int, inUTF8 bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        let end = bytes.startIndex + min(max(0, offset), bytes.count)
        var line = 1
        var lineStart = bytes.startIndex
        for i in bytes.startIndex..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        let column = characterCount(bytes[lineStart..<end]) + 1
        return (line, column)
    }

    /// `message` with the line of `source` that holds `range` and a caret
    /// under it (`^~~~`), and the position as (column N) or (line L, column N).
    /// `colors` adds ANSI colours for a terminal.
    public static func render(message: String, range: SourceRange, source: String, colors: Bool) -> String {
        let bytes = Array(source.utf8)
        let lower = min(max(0, range.lowerBound), bytes.count)
        let upper = min(max(lower, range.upperBound), bytes.count)
        var lineStart = lower
        while lineStart > 0 && bytes[lineStart - 1] != UInt8(ascii: "\n") { lineStart -= 1 }
        var lineEnd = lower
        while lineEnd < bytes.count && bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        let (line, column) = lineAndColumn(of: lower, in: source)

        let lineText = display(bytes[lineStart..<lineEnd])
        let pad = display(bytes[lineStart..<lower]).count
        let underlineEnd = min(upper, lineEnd)
        let width = max(1, display(bytes[lower..<max(lower, underlineEnd)]).count)
        let marker = "^" + String(repeating: "~", count: width - 1)

        let red = colors ? "\u{1B}[1;31m" : ""
        let bold = colors ? "\u{1B}[1m" : ""
        let green = colors ? "\u{1B}[1;32m" : ""
        let reset = colors ? "\u{1B}[0m" : ""
        let location = source.contains("\n") ? " (\(line):\(column))" : " (column \(column))"
        return """
            \(red)error:\(reset) \(bold)\(TerminalText.visible(message))\(reset)\(location)
             | \(lineText)
             | \(String(repeating: " ", count: pad))\(green)\(marker)\(reset)
            """
    }

    /// Characters in a byte slice; invalid UTF-8 counts one per byte.
    private static func characterCount(_ bytes: ArraySlice<UInt8>) -> Int {
        String(decoding: bytes, as: UTF8.self).count
    }

    /// The text as it is shown: a tab becomes a space, other characters a
    /// terminal would act on or hide become visible escapes
    /// (`TerminalText`), so the line shown is the line held and the caret
    /// lines up under it; invalid UTF-8 becomes U+FFFD.
    private static func display(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return TerminalText.visible(text.replacingOccurrences(of: "\t", with: " "))
    }
}
