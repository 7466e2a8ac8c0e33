/// A word of the language: how it is spelled, the token the lexer makes of
/// it, and how completion offers it.
struct Keyword: Sendable {
    /// The word in capitals; the lexer reads it in any case.
    let word: String
    /// The token it is, or nil for a word that is not reserved (`FUNCTION`
    /// is a key anywhere but before `(`).
    let token: TokenKind?
    /// The token's flag: a word operator's row (``ComparisonOperator/Builtin/code``).
    let flag: UInt8
    /// What tab completion offers for it (`nil` for `NIL`), or nil when it
    /// offers nothing: a second spelling (`NULL`, `TRUE`), or a reserved
    /// word with no use (`CASEINSENSITIVE`).
    let completion: String?

    init(_ word: String, _ token: TokenKind?, flag: UInt8 = 0, offered completion: String?) {
        self.word = word
        self.token = token
        self.flag = flag
        self.completion = completion
    }
}

/// The words of the language, in one list: the lexer's reserved words and
/// the words the REPL completes are read from it, and a test checks it
/// against the grammar's `KEYWORD` (grammar/Predicate.ebnf). The
/// connectives, modifiers, set operations and word operators come from
/// their own tables.
package enum Keywords {
    /// Every word, reserved or not.
    static let all: [Keyword] =
        OperatorTable.connectives.map { Keyword($0.word, $0.token, offered: $0.word) }
        + ComparisonModifier.spellings.map { Keyword("\($0.word)", $0.token, offered: "\($0.word)") }
        + [
            Keyword("NULL", .kwNull, offered: nil), Keyword("NIL", .kwNull, offered: "nil"),
            Keyword("SELF", .kwSelf, offered: "SELF"), Keyword("TRUE", .kwTrue, offered: nil),
            Keyword("YES", .kwTrue, offered: "YES"), Keyword("FALSE", .kwFalse, offered: nil),
            Keyword("NO", .kwFalse, offered: "NO"), Keyword("FIRST", .kwFirst, offered: "FIRST"),
            Keyword("LAST", .kwLast, offered: "LAST"), Keyword("SIZE", .kwSize, offered: "SIZE"),
            Keyword("ANYKEY", .kwAnyKey, offered: nil), Keyword("SUBQUERY", .kwSubquery, offered: "SUBQUERY"),
            Keyword("CAST", .kwCast, offered: "CAST"),
            Keyword("TRUEPREDICATE", .kwTruePredicate, offered: "TRUEPREDICATE"),
            Keyword("FALSEPREDICATE", .kwFalsePredicate, offered: "FALSEPREDICATE"),
            Keyword("CASEINSENSITIVE", .kwReserved, offered: nil), Keyword("CI", .kwReserved, offered: nil),
            Keyword("FETCH", .kwReserved, offered: nil), Keyword("FUNCTION", nil, offered: "FUNCTION"),
        ]
        + SetOperation.allCases.map { Keyword($0.keyword, TokenKind($0), offered: $0.keyword) }
        + ComparisonOperator.Builtin.allCases.filter(\.isWord).map {
            Keyword($0.rawValue, $0.token.kind, flag: $0.token.flag, offered: $0.rawValue)
        }

    /// The reserved words, in capitals: never keys unless escaped (`#IN`).
    package static var reserved: [String] { all.filter { $0.token != nil }.map(\.word) }

    /// The words tab completion offers.
    package static var completions: [String] { all.compactMap(\.completion) }
}
