/// Which strings begin with an ASCII prefix under non-literal comparison
/// (no options), where a string begins with `p` when its canonical
/// decomposition (NFD) does.
///
/// Every ASCII character is a starter, so NFD keeps a prefix of starters in
/// place, and a non-ASCII scalar whose decomposition begins with an ASCII
/// character has either nothing after it (a singleton: U+037E `;`, U+1FEF
/// `` ` ``, U+212A `K`) or non-ASCII marks. So a string begins with the ASCII
/// prefix `p₁…pₙ` exactly when its scalars are `s₁…sₙ…` with each `sᵢ`
/// (i < n) `pᵢ` or a singleton of `pᵢ`, and `sₙ` `pₙ` or any scalar whose
/// decomposition begins with `pₙ`.
///
/// The tables are generated from Foundation's
/// `decomposedStringWithCanonicalMapping` over all Unicode scalars;
/// `CanonicalPrefixTests` recomputes them and fails on any difference.
enum CanonicalPrefixes {
    /// The non-ASCII scalars whose canonical decomposition is one ASCII
    /// character, by that character.
    static func singleton(_ ascii: UInt8) -> Unicode.Scalar? {
        switch ascii {
        case UInt8(ascii: ";"): return "\u{037E}"
        case UInt8(ascii: "`"): return "\u{1FEF}"
        case UInt8(ascii: "K"): return "\u{212A}"
        default: return nil
        }
    }

    /// The lowest and highest non-ASCII scalar whose canonical decomposition
    /// begins with `ascii` (nil when there is none: digits, space, most
    /// punctuation, `Q`, `q`). Scalars in between may decompose otherwise.
    static func bounds(_ ascii: UInt8) -> (low: UInt32, high: UInt32)? {
        guard ascii < 0x80, let b = table[Int(ascii)] else { return nil }
        return b
    }

    private static let table: [(low: UInt32, high: UInt32)?] = {
        var t = [(low: UInt32, high: UInt32)?](repeating: nil, count: 128)
        for (c, low, high) in entries { t[Int(c.asciiValue!)] = (low, high) }
        return t
    }()

    /// (character, lowest, highest): generated, see the type's comment.
    private static let entries: [(Character, UInt32, UInt32)] = [
        (";", 0x037E, 0x037E), ("<", 0x226E, 0x226E), ("=", 0x2260, 0x2260), (">", 0x226F, 0x226F),
        ("A", 0x00C0, 0x212B), ("B", 0x1E02, 0x1E06), ("C", 0x00C7, 0x1E08), ("D", 0x010E, 0x1E12),
        ("E", 0x00C8, 0x1EC6), ("F", 0x1E1E, 0x1E1E), ("G", 0x011C, 0x1E20), ("H", 0x0124, 0x1E2A),
        ("I", 0x00CC, 0x1ECA), ("J", 0x0134, 0x0134), ("K", 0x0136, 0x212A), ("L", 0x0139, 0x1E3C),
        ("M", 0x1E3E, 0x1E42), ("N", 0x00D1, 0x1E4A), ("O", 0x00D2, 0x1EE2), ("P", 0x1E54, 0x1E56),
        ("R", 0x0154, 0x1E5E), ("S", 0x015A, 0x1E68), ("T", 0x0162, 0x1E70), ("U", 0x00D9, 0x1EF0),
        ("V", 0x1E7C, 0x1E7E), ("W", 0x0174, 0x1E88), ("X", 0x1E8A, 0x1E8C), ("Y", 0x00DD, 0x1EF8),
        ("Z", 0x0179, 0x1E94), ("`", 0x1FEF, 0x1FEF),
        ("a", 0x00E0, 0x1EB7), ("b", 0x1E03, 0x1E07), ("c", 0x00E7, 0x1E09), ("d", 0x010F, 0x1E13),
        ("e", 0x00E8, 0x1EC7), ("f", 0x1E1F, 0x1E1F), ("g", 0x011D, 0x1E21), ("h", 0x0125, 0x1E96),
        ("i", 0x00EC, 0x1ECB), ("j", 0x0135, 0x01F0), ("k", 0x0137, 0x1E35), ("l", 0x013A, 0x1E3D),
        ("m", 0x1E3F, 0x1E43), ("n", 0x00F1, 0x1E4B), ("o", 0x00F2, 0x1EE3), ("p", 0x1E55, 0x1E57),
        ("r", 0x0155, 0x1E5F), ("s", 0x015B, 0x1E69), ("t", 0x0163, 0x1E97), ("u", 0x00F9, 0x1EF1),
        ("v", 0x1E7D, 0x1E7F), ("w", 0x0175, 0x1E98), ("x", 0x1E8B, 0x1E8D), ("y", 0x00FD, 0x1EF9),
        ("z", 0x017A, 0x1E95),
    ]
}
