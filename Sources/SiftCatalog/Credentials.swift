import Foundation

/// Passwords taken out of text before it is shown: the one rule behind
/// `PostgresConnectionString.redacted(_:)` (SiftPostgres) and every error
/// the `sift` tool prints, whatever the text came from (a connection URL
/// taken as a file name, a libpq string in a message of the server's or of
/// the library's).
package enum Credentials {
    /// The password of a URL (`scheme://user:password@host…`, to the last
    /// `@` before a blank, so that an unescaped `@`, `?` or `/` in it is
    /// masked too); a `password=` parameter in a URL's query; and the value
    /// of a libpq `password=` (quoted or not) in text that holds a libpq
    /// string (another of its keys), so that a predicate's `password = 'x'`
    /// in a parse error is left as it is.
    private static let url = regex(#"([A-Za-z][A-Za-z0-9+.\-]*://[^\s:/@]*:)[^\s]*(@)"#)
    private static let query = regex(#"([?&;]password=)[^\s&#]*"#)
    private static let libpq = regex(#"((?:^|[\s'"(])password\s*=(?!=)\s*)('(?:[^'\\]|\\.)*'|[^\s'"]+)"#)
    private static let libpqKeys = regex(#"(?:^|[\s'"(])(?:host|hostaddr|user|dbname|port)\s*=(?!=)"#)

    private static func regex(_ pattern: String) -> NSRegularExpression? {
        try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
    }

    /// `text` with each password replaced by `***`. With
    /// `connectionString`, `text` is one connection string, and a libpq
    /// `password=` in it is masked without another key beside it.
    package static func masked(_ text: String, connectionString: Bool = false) -> String {
        var out = text
        func replace(_ pattern: NSRegularExpression?, _ template: String) {
            guard let pattern else { return }
            out = pattern.stringByReplacingMatches(in: out, range: NSRange(out.startIndex..., in: out), withTemplate: template)
        }
        replace(url, "$1***$2")
        replace(query, "$1***")
        if connectionString || libpqKeys?.firstMatch(in: out, range: NSRange(out.startIndex..., in: out)) != nil {
            replace(libpq, "$1***")
        }
        return out
    }
}
