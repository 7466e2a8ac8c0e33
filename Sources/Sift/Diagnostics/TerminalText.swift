/// Text from data or input made safe to show on a terminal.
///
/// A string from a record, a database or a format string may hold
/// characters a terminal acts on instead of showing: ESC starts a control
/// sequence (`ESC ] 52 ; c ; … BEL` writes the clipboard, others move the
/// cursor or retitle the window), a bare carriage return or backspace
/// overwrites what was printed, U+009B is a control sequence introducer on
/// its own, and bidirectional overrides (U+202E…) reorder what follows so
/// that the text shown is not the text held. Such characters are written
/// as visible escapes, `\u{1B}`, so that what is shown is what is there.
///
/// ```swift
/// TerminalText.visible("a\u{1B}]52;c;eA==\u{07}b")   // a\u{1B}]52;c;eA==\u{7}b
/// ```
package enum TerminalText {
    /// `text` with every character a terminal would act on or hide written
    /// as `\u{HEX}`: the control characters (U+0000–U+001F, U+007F,
    /// U+0080–U+009F), the format characters (bidirectional controls,
    /// zero-width spaces, U+FEFF…; not the zero-width joiner and non-joiner,
    /// which emoji and several scripts need to show right) and the line and
    /// paragraph separators U+2028 and U+2029. With `keepingLayout`, line
    /// feeds are kept, for text of several lines. A tab is escaped even
    /// then: shown, it would look like spaces, and a tab inside a quoted
    /// string of a printed predicate is data (``FormatPrinter`` prints it
    /// raw, as Apple does), not layout.
    package static func visible(_ text: String, keepingLayout: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: { isHidden($0, keepingLayout: keepingLayout) }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isHidden(scalar, keepingLayout: keepingLayout) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// Whether ``visible(_:keepingLayout:)`` escapes `scalar`.
    package static func isHidden(_ scalar: Unicode.Scalar, keepingLayout: Bool = false) -> Bool {
        let value = scalar.value
        if value < 0x20 {
            return !(keepingLayout && scalar == "\n")
        }
        if value < 0x7F { return false }
        if value <= 0x9F { return true }
        if value == 0x200C || value == 0x200D { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return false
        }
    }
}
