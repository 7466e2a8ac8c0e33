import Foundation

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

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
