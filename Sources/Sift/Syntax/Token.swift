/// The kinds of token in a format string.
enum TokenKind: UInt8, Sendable {
    case end
    /// `name`, or `#name` (an escaped word; ``Token/flag`` is 1).
    case identifier
    /// `@count`, `@sum`, …: a collection operator key component.
    case collectionOperator
    /// A number literal; ``Token/flag`` is a ``NumberForm``.
    case number
    /// A quoted string; ``Token/flag`` is 1 when it contains escapes.
    case string
    /// `$NAME`; ``Token/flag`` is 1 for `$#name`.
    case variable
    /// `%@`, `%K`, `%d`, `%2$@`, `%%`…
    case formatSpecifier

    // Punctuation
    case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
    case comma, dot, colon, colonEquals

    // Comparison operators
    case equal, notEqual, less, lessEqual, greater, greaterEqual

    // Logic
    case and, or, not

    // Arithmetic and bitwise
    case plus, minus, star, slash, starStar, ampersand, pipe, caret, shiftLeft, shiftRight, tilde

    /// A comparison operator written as a word (`IN`, `BEGINSWITH`,
    /// `UTI-EQUALS`; any case): ``Token/flag`` is its row's
    /// ``ComparisonOperator/Builtin/code``. The words are the table's
    /// (``ComparisonOperator/Builtin``), not token kinds of their own.
    case operatorWord

    // Keywords (case-insensitive, whole words)
    case kwAll, kwAny, kwSome, kwNone
    case kwNull, kwSelf, kwTrue, kwFalse, kwFirst, kwLast, kwSize, kwAnyKey, kwSubquery
    case kwCast, kwTruePredicate, kwFalsePredicate
    /// `UNION`, `INTERSECT`, `MINUS` (see ``SetOperation``).
    case kwUnion, kwIntersect, kwMinus
    /// `CASEINSENSITIVE`, `CI`, `FETCH`: reserved, with no meaning.
    case kwReserved
}

extension TokenKind {
    /// The token that spells a set operation's keyword.
    init(_ operation: SetOperation) {
        switch operation {
        case .union: self = .kwUnion
        case .intersect: self = .kwIntersect
        case .minus: self = .kwMinus
        }
    }

    /// The set operation this token spells, if it is one.
    var setOperation: SetOperation? {
        switch self {
        case .kwUnion: return .union
        case .kwIntersect: return .intersect
        case .kwMinus: return .minus
        default: return nil
        }
    }
}

/// How a number literal was written.
enum NumberForm: UInt8 {
    case integer = 0, real = 1, hexadecimal = 2, octal = 3, binary = 4
}

/// A token: its kind and where it is. Payloads (names, string contents,
/// numbers) are decoded from the source by the parser only when needed.
struct Token: Sendable {
    var kind: TokenKind
    var flag: UInt8
    var start: Int32
    var end: Int32

    var range: SourceRange { SourceRange(Int(start), Int(end)) }
}
