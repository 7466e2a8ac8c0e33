/// Text that would change a statement if it were ever written into one
/// (quotes, comments, terminators, placeholders, look-alike quotes, NUL,
/// a long repetition): the injection suites of the library (InjectionTests)
/// and of `sift serve` (ServeTests) send each of them.
package enum HostileStrings {
    package static let all: [String] = [
        "'", "''", "\"", "`", "' OR '1'='1", "\" OR \"\"=\"", "' OR 1=1 --", "'; DROP TABLE notes; --",
        "\"; DROP TABLE notes; --", "Robert'); DROP TABLE tags;--", "\\", "\\'", "\\\\'; --", "\\\"", ";", "--",
        "/* */", "*/ OR 1=1 /*", "a\u{0}b", "\u{0}' OR 1=1 --", "\u{0}", "line\n'; DROP TABLE notes; --",
        "\r\n", "%", "_", "%' OR '%'='", "a%b_c", "*", "?", "?1", "$1", ":name", "@x", "$$ OR 1=1 $$",
        "E'\\x27'", "U&'\\0027'", "'||(SELECT 1)||'", "＇ OR ＇1＇=＇1", "ʼ OR ʼʼ=ʼ", "\u{2019}; --",
        "＂；－－", "\u{202E}'; llun --", "\u{FEFF}'\u{200B}", "e\u{301}' --", "DROP TABLE notes", "NULL",
        String(repeating: "'; DROP TABLE notes; -- \\\"", count: 500),
    ]
}
