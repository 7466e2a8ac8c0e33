/// The comparison operators of the format language.
///
/// What the language says of each operator with a fixed spelling (how it is
/// written, how it prints, which options it takes, its name in JSON) is its
/// row in `Builtin.row`, the one table of comparison operators: the
/// lexer's keywords, the parser, the printer, `Codable`, the REPL's
/// completion and ``standard`` are read from it. What an operator does is
/// its family (`OperatorFamily`): the evaluator, the cost model, the
/// policy and the SQL lowering switch on the family, not on the operator.
public enum ComparisonOperator: Sendable, Hashable {
    /// `<`
    case lessThan
    /// `<=` (`=<`)
    case lessThanOrEqualTo
    /// `>`
    case greaterThan
    /// `>=` (`=>`)
    case greaterThanOrEqualTo
    /// `==` (`=`)
    case equalTo
    /// `!=` (`<>`)
    case notEqualTo
    /// `MATCHES`: the whole left string matches the regular expression.
    case matches
    /// `LIKE`: whole-string glob with `*` and `?`.
    case like
    /// `BEGINSWITH`
    case beginsWith
    /// `ENDSWITH`
    case endsWith
    /// `IN`: the right side contains the left.
    case `in`
    /// `CONTAINS`: the left side contains the right.
    case contains
    /// `BETWEEN {lower, upper}`, inclusive.
    case between
    /// `UTI-CONFORMS-TO`
    case utiConformsTo
    /// `UTI-EQUALS`
    case utiEquals
    /// `lhs selector: rhs`: a named one-argument test, e.g. `name hasPrefix: "A"`.
    case customSelector(String)

    /// Every operator but a custom selector, in the order of the table.
    public static let standard: [ComparisonOperator] = Builtin.allCases.map(\.row.op)

    /// The canonical spelling: what the printer writes and what JSON stores
    /// (`"=="` for `=`, `"BEGINSWITH"`); a custom selector's is the selector
    /// (`"hasPrefix:"`).
    public var symbol: String {
        switch entry {
        case .builtin(let builtin): return builtin.rawValue
        case .selector(let selector): return selector
        }
    }

    /// Every way a format string may write the operator, the canonical one
    /// first (`["==", "="]`). Words are read in any case.
    public var spellings: [String] {
        switch entry {
        case .builtin(let builtin): return [builtin.rawValue] + builtin.row.otherSpellings
        case .selector(let selector): return [selector]
        }
    }

    /// The options that may follow the operator (`BEGINSWITH[cd]`): all of
    /// `[cdnl]` (and `[s]` for the operators that compare or search
    /// strings), or none.
    public var acceptedOptions: ComparisonOptions {
        switch entry {
        case .builtin(let builtin):
            let row = builtin.row
            return ComparisonOptions.swiftStringApplies(to: row.family) ? row.options.union(.swiftString) : row.options
        case .selector: return []
        }
    }

    /// Whether `[cdnl]` options may follow the operator.
    public var takesOptions: Bool { !acceptedOptions.isEmpty }

    /// What the operator tests (its row's family; a custom selector's is
    /// ``OperatorFamily/selector``): what every phase past the parser
    /// switches on.
    package var family: OperatorFamily {
        switch entry {
        case .builtin(let builtin): return builtin.row.family
        case .selector: return .selector
        }
    }

    /// The operator of `family`, if a row has it (each has its own).
    package init?(family: OperatorFamily) {
        guard let builtin = Builtin.allCases.first(where: { $0.row.family == family }) else { return nil }
        self = builtin.row.op
    }

    /// The operator that says the same with its sides exchanged (`>` for
    /// `<`, `IN` for `CONTAINS`, `==` for `==`), if one does.
    package var converse: ComparisonOperator? {
        let converse: OperatorFamily
        switch family {
        case .equality: return self
        case .ordering(let greater, let orEqual): converse = .ordering(greater: !greater, orEqual: orEqual)
        case .membership(let containerOnLeft): converse = .membership(containerOnLeft: !containerOnLeft)
        default: return nil
        }
        return ComparisonOperator(family: converse)
    }

    /// Whether ``PredicatePolicy/untrusted(keyPaths:)`` allows the
    /// operator: every one but `MATCHES` (a regular expression costs what
    /// its author wants), the UTI operators and custom selectors.
    public var isAllowedForUntrusted: Bool {
        switch entry {
        case .builtin(let builtin): return builtin.row.untrusted
        case .selector: return false
        }
    }
}

// MARK: - The table

extension ComparisonOperator {
    /// An operator's row of the table, or a custom selector, which has none.
    enum Entry {
        case builtin(Builtin)
        case selector(String)
    }

    /// The switch is exhaustive, so an operator added to the enum cannot be
    /// left out of the table: it has a row, or is a custom selector.
    var entry: Entry {
        switch self {
        case .lessThan: return .builtin(.lessThan)
        case .lessThanOrEqualTo: return .builtin(.lessThanOrEqualTo)
        case .greaterThan: return .builtin(.greaterThan)
        case .greaterThanOrEqualTo: return .builtin(.greaterThanOrEqualTo)
        case .equalTo: return .builtin(.equalTo)
        case .notEqualTo: return .builtin(.notEqualTo)
        case .matches: return .builtin(.matches)
        case .like: return .builtin(.like)
        case .beginsWith: return .builtin(.beginsWith)
        case .endsWith: return .builtin(.endsWith)
        case .in: return .builtin(.in)
        case .contains: return .builtin(.contains)
        case .between: return .builtin(.between)
        case .utiConformsTo: return .builtin(.utiConformsTo)
        case .utiEquals: return .builtin(.utiEquals)
        case .customSelector(let selector): return .selector(selector)
        }
    }

    /// The operators with a fixed spelling, one case each. The raw value is
    /// the canonical spelling, which is also the operator's name in JSON.
    enum Builtin: String, CaseIterable, Sendable {
        case lessThan = "<"
        case lessThanOrEqualTo = "<="
        case greaterThan = ">"
        case greaterThanOrEqualTo = ">="
        case equalTo = "=="
        case notEqualTo = "!="
        case matches = "MATCHES"
        case like = "LIKE"
        case beginsWith = "BEGINSWITH"
        case endsWith = "ENDSWITH"
        case `in` = "IN"
        case contains = "CONTAINS"
        case between = "BETWEEN"
        case utiConformsTo = "UTI-CONFORMS-TO"
        case utiEquals = "UTI-EQUALS"

        /// The operator's row. Symbols are scanned by the lexer's character
        /// switch, each to its row's token; word operators are keywords (any
        /// case) made from ``rawValue``, and a word with a hyphen is read as
        /// one word.
        var row: Row {
            switch self {
            case .lessThan: return Row(.lessThan, .ordering(greater: false, orEqual: false), token: .less)
            case .lessThanOrEqualTo:
                return Row(.lessThanOrEqualTo, .ordering(greater: false, orEqual: true), token: .lessEqual, also: ["=<"])
            case .greaterThan: return Row(.greaterThan, .ordering(greater: true, orEqual: false), token: .greater)
            case .greaterThanOrEqualTo:
                return Row(.greaterThanOrEqualTo, .ordering(greater: true, orEqual: true), token: .greaterEqual, also: ["=>"])
            case .equalTo: return Row(.equalTo, .equality(equal: true), token: .equal, also: ["="])
            case .notEqualTo: return Row(.notEqualTo, .equality(equal: false), token: .notEqual, also: ["<>"])
            case .matches: return Row(.matches, .pattern(.regularExpression), untrusted: false)
            case .like: return Row(.like, .pattern(.wildcard))
            case .beginsWith: return Row(.beginsWith, .search(.prefix))
            case .endsWith: return Row(.endsWith, .search(.suffix))
            case .in: return Row(.in, .membership(containerOnLeft: false))
            case .contains: return Row(.contains, .membership(containerOnLeft: true))
            // The bounds are a list, compared as numbers or dates: Apple
            // takes no options after BETWEEN.
            case .between: return Row(.between, .range, options: [])
            case .utiConformsTo: return Row(.utiConformsTo, .typeTest(equals: false), untrusted: false)
            case .utiEquals: return Row(.utiEquals, .typeTest(equals: true), untrusted: false)
            }
        }

        /// Whether the operator is written as a word (`LIKE`), not a symbol.
        var isWord: Bool { Lexer.isIdentifierStart(rawValue.utf8.first ?? 0) }

        /// The operator's number: its place in the table, which the token
        /// of a word operator carries as its flag.
        var code: UInt8 { UInt8(Self.allCases.firstIndex(of: self) ?? 0) }

        /// The token the lexer makes of the operator: a symbol's own kind,
        /// or ``TokenKind/operatorWord`` with the operator's ``code``.
        var token: (kind: TokenKind, flag: UInt8) {
            isWord ? (.operatorWord, code) : (row.token, 0)
        }
    }

    /// What the language says of one operator.
    struct Row {
        /// The operator the row describes.
        let op: ComparisonOperator
        /// What it tests: how every phase past the parser handles it.
        let family: OperatorFamily
        /// The token the lexer makes of a symbol operator; a word operator's
        /// is ``TokenKind/operatorWord`` (``Builtin/token``).
        let token: TokenKind
        /// The spellings besides the canonical one (``Builtin/rawValue``).
        let otherSpellings: [String]
        /// The options it takes.
        let options: ComparisonOptions
        /// Whether ``PredicatePolicy/untrusted(keyPaths:)`` allows it.
        let untrusted: Bool

        init(
            _ op: ComparisonOperator, _ family: OperatorFamily, token: TokenKind = .operatorWord, also: [String] = [],
            options: ComparisonOptions = .all, untrusted: Bool = true
        ) {
            self.op = op
            self.family = family
            self.token = token
            self.otherSpellings = also
            self.options = options
            self.untrusted = untrusted
        }
    }

    /// The operator a token spells, if it spells one (a custom selector is
    /// two tokens, `name:`, and is not one of these).
    init?(token: Token) {
        if token.kind == .operatorWord {
            self = Self.standard[Int(token.flag)]
            return
        }
        guard let op = Self.bySymbolToken[Int(token.kind.rawValue)] else { return nil }
        self = op
    }

    /// The symbol operators by token kind, so that the parser's lookup is
    /// one load (a word operator's token says its row, ``Builtin/code``).
    private static let bySymbolToken: [ComparisonOperator?] = {
        var table = [ComparisonOperator?](repeating: nil, count: Int(UInt8.max) + 1)
        for builtin in Builtin.allCases where !builtin.isWord { table[Int(builtin.row.token.rawValue)] = builtin.row.op }
        return table
    }()

    /// The operator named by its canonical spelling (`"BEGINSWITH"`), as
    /// JSON stores it; any other name is a custom selector.
    init(symbol: String) {
        self = Builtin(rawValue: symbol)?.row.op ?? .customSelector(symbol)
    }
}
