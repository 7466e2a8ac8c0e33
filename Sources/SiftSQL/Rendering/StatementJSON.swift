import Foundation
import Sift

extension BoundStatement {
    /// The statement as one JSON object, `{"sql": …, "bindings": […]}`, for
    /// a tool in another language to run: the bindings in order, each as
    /// ``SQLValue/jsonText``.
    public var jsonText: String {
        "{\"sql\": " + SQLValue.jsonString(sql) + ", \"bindings\": [" + bindings.map(\.jsonText).joined(separator: ", ") + "]}"
    }
}

extension SQLValue {
    /// The value as JSON that reads back as the same value, bit for bit:
    /// `null`, an integer's digits, `true`/`false`, a string, an array; a
    /// double always with a point or an exponent (`2.0`, `1e+16`, `-0.0`:
    /// the shortest digits that read back as the same double), and
    /// `{"$double": "NaN"}` (`"Infinity"`, `"-Infinity"`) where JSON has no
    /// number; bytes as `{"$blob": "<hex>"}`.
    public var jsonText: String {
        switch self {
        case .null: return "null"
        case .integer(let i): return String(i)
        case .real(let d):
            guard d.isFinite else {
                return "{\"$double\": \"" + (d.isNaN ? "NaN" : d < 0 ? "-Infinity" : "Infinity") + "\"}"
            }
            return d.description
        case .text(let s): return Self.jsonString(s)
        case .blob(let b): return "{\"$blob\": \"" + b.map { String(format: "%02x", $0) }.joined() + "\"}"
        case .boolean(let b): return b ? "true" : "false"
        case .array(let items): return "[" + items.map(\.jsonText).joined(separator: ", ") + "]"
        }
    }

    /// `s` as a JSON string (``JSONValue``'s escapes).
    static func jsonString(_ s: String) -> String { JSONValue.string(s).jsonText }
}
