/// `[c]`, `[d]`, `[n]`, `[l]` and their combinations, and Sift's `[s]`. Raw
/// values are Apple's (`[s]`, which Apple's parser does not know, is 16).
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
    /// `[s]`: Swift's `String` semantics, Sift's own option (Apple's parser
    /// does not know it). `==` is canonical equivalence, `<` orders the
    /// Unicode scalars of the NFC forms, and `BEGINSWITH`, `ENDSWITH` and
    /// `CONTAINS` compare characters (grapheme clusters), as `starts(with:)`
    /// and `contains(_:)` do: `"cafe\u{301}" CONTAINS[s] "e"` is false, and
    /// an empty needle is found everywhere. It stands alone, and applies to
    /// the operators that compare or search strings. Converted Swift
    /// predicates use it (<doc:SwiftPredicates>).
    public static let swiftString = ComparisonOptions(rawValue: 16)

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

    /// Every option, in the order the printer writes them (`[cdnls]`).
    static let table: [Row] = [
        Row(option: .caseInsensitive, letter: UInt8(ascii: "c"), meaning: "case-insensitive"),
        Row(option: .diacriticInsensitive, letter: UInt8(ascii: "d"), meaning: "diacritic-insensitive"),
        Row(option: .normalized, letter: UInt8(ascii: "n"), meaning: "normalized"),
        Row(option: .localeSensitive, letter: UInt8(ascii: "l"), meaning: "locale-sensitive"),
        Row(option: .swiftString, letter: UInt8(ascii: "s"), meaning: "Swift's string semantics"),
    ]

    /// Apple's options: `[cdnl]`, which every operator that takes options
    /// takes. A constant, as every operator's row reads it;
    /// `ComparisonOptionsTableTests` checks it against the table.
    static let all: ComparisonOptions = [.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive]
    /// Every option of the table: Apple's and `[s]`.
    static let known: ComparisonOptions = all.union(.swiftString)

    /// Why `self` cannot follow `op`, or nil when it can: each option must be
    /// one `op` takes, and `[s]` stands alone.
    func problem(after op: ComparisonOperator) -> String? {
        let accepted = op.acceptedOptions
        if !isSubset(of: accepted) {
            guard op.takesOptions else { return "\(op.symbol) takes no options" }
            return "\(op.symbol) takes no [\(subtracting(accepted).letters)] option"
        }
        if contains(.swiftString) && self != .swiftString {
            return "[s] (Swift's string semantics) takes no other option"
        }
        return nil
    }

    /// Whether `[s]` applies to an operator of `family`: those that compare
    /// or search strings.
    static func swiftStringApplies(to family: OperatorFamily) -> Bool {
        switch family {
        case .equality, .ordering, .membership, .search: return true
        case .range, .pattern, .typeTest, .selector: return false
        }
    }

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
