import Foundation

/// Passwords taken out of text before it is shown: every error `sift`
/// prints goes through ``masked(_:)``, whatever the text came from (a
/// connection URL taken as a file name, a libpq string in a message of the
/// server's or of the library's).
enum Credentials {
    /// The password of a URL (`scheme://user:password@host…`, to the last
    /// `@` before a blank, so that an unescaped `@`, `?` or `/` in it is
    /// masked too), and the value of a libpq `password=` (quoted or not).
    private static let patterns: [NSRegularExpression] = [
        #"([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@]*:)[^\s]*(@)"#,
        #"((?:^|[\s'"(])password\s*=\s*)('(?:[^'\\]|\\.)*'|[^\s'"]+)"#,
    ].compactMap { try? NSRegularExpression(pattern: $0, options: [.caseInsensitive]) }

    /// `text` with each password replaced by `***`.
    static func masked(_ text: String) -> String {
        var out = text
        for (i, pattern) in patterns.enumerated() {
            let range = NSRange(out.startIndex..., in: out)
            out = pattern.stringByReplacingMatches(in: out, range: range, withTemplate: i == 0 ? "$1***$2" : "$1***")
        }
        return out
    }
}
