/// The SQL flavour a statement is written in.
public enum SQLDialect: String, Sendable, Hashable, Codable, CaseIterable {
    case sqlite
    case postgreSQL = "postgres"

    /// `name` as a quoted identifier, embedded quotes doubled.
    public func quote(_ name: String) -> String {
        if !name.utf8.contains(UInt8(ascii: "\"")) { return "\"\(name)\"" }
        var out = "\""
        for ch in name.unicodeScalars {
            if ch == "\"" { out += "\"" }
            out.unicodeScalars.append(ch)
        }
        return out + "\""
    }

    /// The placeholder of the `n`th parameter (1-based).
    func placeholder(_ n: Int) -> String {
        self == .sqlite ? "?\(n)" : "$\(n)"
    }

    var trueLiteral: String { self == .sqlite ? "1" : "TRUE" }
    var falseLiteral: String { self == .sqlite ? "0" : "FALSE" }
}
