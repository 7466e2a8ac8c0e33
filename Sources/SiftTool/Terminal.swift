import Foundation

/// Standard error and terminal detection.
enum Terminal {
    static var stderrIsTTY: Bool { isatty(2) != 0 }
    static var stdoutIsTTY: Bool { isatty(1) != 0 }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }
}
