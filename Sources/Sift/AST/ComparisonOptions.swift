/// `[c]`, `[d]`, `[n]`, `[l]` and their combinations. Raw values are Apple's.
///
/// Each option's letter and meaning is its row in `table`, the one table
/// of them: the parser reads the letters from it, the printer writes them
/// in its order, and decoding accepts exactly its options. An option set
/// is stored in JSON as its raw value. Which operators take options is
/// each operator's row (``ComparisonOperator/acceptedOptions``). What the
/// options do to strings is `StringSemantics` in
/// `Semantics/StringSemantics.swift`; their SQL is `StringForms.fold` in
/// SiftSQL's `StringForms.swift`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable, Codable {
    /// Apple's bits: `caseInsensitive` 1, `diacriticInsensitive` 2, `normalized` 4,
    /// `localeSensitive` 8.
    public let rawValue: Int
    /// The options whose bits are set in `rawValue`.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// `[c]`: case-insensitive.
    public static let caseInsensitive = ComparisonOptions(rawValue: 1)
    /// `[d]`: diacritic-insensitive.
    public static let diacriticInsensitive = ComparisonOptions(rawValue: 2)
    /// `[n]`: both sides are already normalised; compare literally.
    public static let normalized = ComparisonOptions(rawValue: 4)
    /// `[l]`: locale-sensitive.
    public static let localeSensitive = ComparisonOptions(rawValue: 8)

    /// The letters in canonical order (`cdnl`), empty for no options.
    public var letters: String {
        var s = ""
        for row in Self.table where contains(row.option) { s.unicodeScalars.append(Unicode.Scalar(row.letter)) }
        return s
    }
}

// MARK: - The table

extension ComparisonOptions {
    /// One option: how it is written and what it means.
    struct Row: Sendable {
        /// The option.
        let option: ComparisonOptions
        /// Its letter inside `[]`, lower case (read in any case).
        let letter: UInt8
        /// What it means, as error messages name it.
        let meaning: String
    }

    /// Every option, in the order the printer writes them (`[cdnl]`).
    static let table: [Row] = [
        Row(option: .caseInsensitive, letter: UInt8(ascii: "c"), meaning: "case-insensitive"),
        Row(option: .diacriticInsensitive, letter: UInt8(ascii: "d"), meaning: "diacritic-insensitive"),
        Row(option: .normalized, letter: UInt8(ascii: "n"), meaning: "normalized"),
        Row(option: .localeSensitive, letter: UInt8(ascii: "l"), meaning: "locale-sensitive"),
    ]

    /// Every option: `[cdnl]`. A constant, as every operator's row reads
    /// it; `ComparisonOptionsTableTests` checks that it is the table's.
    static let all: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive]

    /// The option a letter names (in any case), if it names one: one load,
    /// as the parser asks for each letter.
    static func option(letter: UInt8) -> ComparisonOptions? {
        let option = byLetter[Int(letter | 0x20)]
        return option.isEmpty ? nil : option
    }

    /// The table by lower-case letter; no option for any other byte.
    private static let byLetter: [ComparisonOptions] = {
        var options = [ComparisonOptions](repeating: [], count: Int(UInt8.max) + 1)
        for row in table { options[Int(row.letter)] = row.option }
        return options
    }()

    /// The letters, for messages: `"c, d, n, l"`.
    static let letterList = table.map { String(Unicode.Scalar($0.letter)) }.joined(separator: ", ")

    /// The options with their meanings, for messages: `"c
    /// (case-insensitive), d (diacritic-insensitive), n (normalized) and
    /// l (locale-sensitive)"`.
    static let described = listed(table.map { "\(Unicode.Scalar($0.letter)) (\($0.meaning))" })

    /// What decoding accepts: `"options are [c], [d], [n] and [l] (raw
    /// values 1, 2, 4, 8)"`.
    static let decodingRule =
        "options are " + listed(table.map { "[\(Unicode.Scalar($0.letter))]" }) + " (raw values "
        + table.map { String($0.option.rawValue) }.joined(separator: ", ") + ")"

    /// `a, b and c`.
    private static func listed(_ items: [String]) -> String {
        guard let last = items.last, items.count > 1 else { return items.last ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + last
    }
}
