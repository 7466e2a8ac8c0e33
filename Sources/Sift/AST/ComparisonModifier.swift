/// How a comparison treats a collection on its left side.
///
/// The words that may come before a comparison (`ANY`, `SOME`, `ALL`,
/// `NONE`) are `spellings`, the one table of them: the lexer's keywords,
/// the parser, the printer and the REPL's completion read it. A modifier's
/// name in JSON is its raw value. What a modifier does is the loop over
/// the elements in the compiler's general comparison
/// (`Evaluation/Plan/Compiler.swift`); its SQL is an `EXISTS` subquery made by
/// `Lowering.comparison` in SiftSQL's `Lowering.swift`.
public enum ComparisonModifier: String, Sendable, Hashable, Codable, CaseIterable {
    /// No modifier: the left value is compared as a whole.
    case direct
    /// `ANY` / `SOME`: true if some element matches.
    case any
    /// `ALL`: true if every element matches (true for an empty collection).
    case all

    /// The word the printer writes before the comparison, if any: `"ANY"`
    /// for ``any``, `"ALL"` for ``all``.
    public var keyword: String? {
        switch self {
        case .direct: return nil
        case .any: return "ANY"
        case .all: return "ALL"
        }
    }
}

// MARK: - The table

extension ComparisonModifier {
    /// A word that may come before a comparison, and what it makes of it.
    /// Plain data (the word is a `StaticString`), so that the parser's
    /// lookup before every comparison copies no reference.
    struct Spelling: Sendable {
        /// The word, read in any case.
        let word: StaticString
        /// The token the lexer makes of it.
        let token: TokenKind
        /// The modifier it gives the comparison.
        let modifier: ComparisonModifier
        /// Whether the comparison is negated as well: `NONE p` is
        /// `NOT ANY p`, and prints so.
        let negated: Bool
    }

    /// Every word, the printed one of each modifier first.
    static let spellings: [Spelling] = [
        Spelling(word: "ANY", token: .kwAny, modifier: .any, negated: false),
        Spelling(word: "SOME", token: .kwSome, modifier: .any, negated: false),
        Spelling(word: "ALL", token: .kwAll, modifier: .all, negated: false),
        Spelling(word: "NONE", token: .kwNone, modifier: .any, negated: true),
    ]

    /// Every word that may come before a comparison: `ANY`, `SOME`,
    /// `ALL`, `NONE`.
    public static var words: [String] { spellings.map { "\($0.word)" } }

    /// The word a token spells, if it spells one: one load, as the parser
    /// asks before every comparison.
    static func spelling(_ token: TokenKind) -> Spelling? { byToken[Int(token.rawValue)] }

    private static let byToken: [Spelling?] = {
        var table = [Spelling?](repeating: nil, count: Int(UInt8.max) + 1)
        for spelling in spellings { table[Int(spelling.token.rawValue)] = spelling }
        return table
    }()
}
