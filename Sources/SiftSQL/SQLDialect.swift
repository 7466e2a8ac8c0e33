/// The SQL flavour a statement is written in.
public enum SQLDialect: String, Sendable, Hashable, Codable, CaseIterable {
    case sqlite
    case postgreSQL = "postgres"

    /// `name` as a quoted identifier, embedded quotes doubled.
    public func quote(_ name: String) -> String {
        // Written straight into the string's storage: quoting happens for
        // every identifier of every statement.
        let count = name.utf8.count
        let quote = UInt8(ascii: "\"")
        var plain = true
        let quoted = String(unsafeUninitializedCapacity: count + 2) { buffer in
            buffer[0] = quote
            var i = 1
            for b in name.utf8 {
                if b == quote { plain = false }
                buffer[i] = b
                i += 1
            }
            buffer[i] = quote
            return count + 2
        }
        if plain { return quoted }
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
