import Foundation
import Sift
import SiftCatalog

/// Standard error and terminal detection.
enum Terminal {
    static var stderrIsTTY: Bool { isatty(2) != 0 }
    static var stdoutIsTTY: Bool { isatty(1) != 0 }

    /// The terminal's width in columns ($COLUMNS, else the terminal's, else 120).
    static var columns: Int {
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        var size = winsize()
        if ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 120
    }

    /// Text for standard output that is both read by people and by
    /// programs (a canonical format string, a syntax tree, a SQL
    /// statement): on a terminal, characters it would act on are shown as
    /// escapes (``TerminalText``); into a pipe or a file, the text is kept
    /// exactly, so it can be used again.
    static func shownOnStandardOutput(_ text: String) -> String {
        stdoutIsTTY ? TerminalText.visible(text, keepingLayout: true) : text
    }

    /// Writes `message` to standard error, passwords masked
    /// (``Credentials``).
    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((Credentials.masked(message) + "\n").utf8))
    }
}
