import Sift

/// Rows as CSV (`--output csv`), as RFC 4180 writes them: a header line of
/// the column names, then one line a row, fields separated by commas; a
/// field holding a comma, a double quote, a line break or a leading or
/// trailing blank is quoted, its quotes doubled. Lines end with LF, as the
/// tools of the platform expect (RFC 4180 readers take it too).
///
/// Values: nil is an empty field; a string is its text; numbers, Booleans,
/// dates (ISO 8601), UUIDs and data (base64) are written as their JSON
/// form is, without quotes; an array or a dictionary is its JSON text.
/// Nothing is changed to protect a spreadsheet from a cell that starts
/// with `=`: the file holds the values as they are.
enum CSVText {
    /// The lines of `rows` under `columns`.
    static func lines(_ columns: [String], _ rows: [[Value]]) -> [String] {
        [line(columns)] + rows.map { line($0.map(field)) }
    }

    /// One line of fields, quoted where they must be.
    static func line(_ fields: [String]) -> String {
        fields.map(quoted).joined(separator: ",")
    }

    /// A value as the text of its field.
    static func field(_ value: Value) -> String {
        switch value {
        case .null, .nsNull: return ""
        case .string(let s): return s
        default:
            if case .string(let s) = RowFormatting.json(value) { return s }
            return RowFormatting.json(value).jsonText
        }
    }

    static func quoted(_ field: String) -> String {
        let needs = field.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }
            || field.first == " " || field.last == " "
        guard needs else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
