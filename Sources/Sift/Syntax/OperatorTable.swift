/// How tightly an operator binds its operands, loosest first: the
/// precedence of every operator of the language in one place.
///
/// `a OR b AND c` is `a OR (b AND c)`: AND binds tighter than OR, as in C
/// (Apple does not document it; see grammar/Predicate.ebnf). The
/// predicate levels (``or`` to ``comparison``) are the parser's functions
/// `parseOr`, `parseAnd`, `parseNot` and `parseComparison`, in this order;
/// the expression levels from ``setOperation`` to ``power`` are read from
/// ``OperatorTable/infix`` by its precedence climbing, and the printer
/// brackets by the same levels.
enum Precedence: Int, Comparable, Sendable {
    /// `a OR b`, `a || b`
    case or
    /// `a AND b`, `a && b`
    case and
    /// `NOT a`, `!a`
    case not
    /// `a == b`, `a LIKE b`, …: not associative (`a < b < c` is an error).
    /// A compound predicate (AND, OR, NOT) inside another prints in
    /// brackets, whatever the levels, as Apple prints it: `a OR (b AND c)`,
    /// `a AND (NOT b)`, `NOT (NOT a)`.
    case comparison
    /// `$x := value`: the value is a whole expression.
    case assignment
    /// `a UNION b`, `a INTERSECT b`, `a MINUS b`
    case setOperation
    /// `a | b`
    case bitwiseOr
    /// `a ^ b`
    case bitwiseXor
    /// `a & b`
    case bitwiseAnd
    /// `a << b`, `a >> b`
    case shift
    /// `a + b`, `a - b`
    case additive
    /// `a * b`, `a / b`
    case multiplicative
    /// `a ** b`
    case power
    /// `-a`, `~a`
    case prefix
    /// `a.key`, `a[i]`, and every primary expression.
    case postfix

    static func < (a: Precedence, b: Precedence) -> Bool { a.rawValue < b.rawValue }

    /// The next tighter level.
    var tighter: Precedence { Precedence(rawValue: rawValue + 1) ?? .postfix }
}

/// Which side of equal-precedence operators groups first.
enum Associativity: Sendable {
    /// `a - b - c` is `(a - b) - c`.
    case left
    /// `a ** b ** c` would be `a ** (b ** c)`.
    case right
}

/// How the printer brackets an operand of an operator.
enum Bracketing: Sendable {
    /// Every operand that is itself an operation of this family, whatever
    /// the precedences, as Apple prints them: `(a + b) + c`, `a + (b * c)`,
    /// `a AND (b OR c)`, `NOT (NOT a)`.
    case everyOperation
    /// Only where precedence and associativity require it: `a UNION b
    /// MINUS c`, `a UNION (b MINUS c)`.
    case byPrecedence
}

/// An infix operator of expressions: how it is written, what it builds,
/// how tightly it binds and how it prints.
struct InfixOperator: Sendable {
    /// What the operator builds.
    enum Node: Sendable, Hashable {
        /// A built-in function of two arguments (`+` is `add:to:`).
        case function(BuiltinFunction)
        /// A set expression.
        case set(SetOperation)
    }

    let token: TokenKind
    let spelling: String
    let node: Node
    let precedence: Precedence
    let associativity: Associativity
    let bracketing: Bracketing

    /// Whether an operand of this operator, binding as tightly as
    /// `operand`, is printed in brackets on the left (`onLeft`) or right
    /// side, so that it reads back as the same tree.
    func brackets(_ operand: Precedence, onLeft: Bool) -> Bool {
        switch bracketing {
        case .everyOperation:
            return operand < .prefix
        case .byPrecedence:
            if operand != precedence { return operand < precedence }
            return onLeft ? associativity != .left : associativity != .right
        }
    }
}

/// The operators of the language with their precedence, associativity and
/// printed form: the one table that the parser and the printer read.
enum OperatorTable {
    /// The infix operators of expressions, loosest first. Every one groups
    /// to the left, `**` too (as Apple's parser reads `2 ** 3 ** 2`).
    ///
    /// `UNION`, `INTERSECT` and `MINUS` bind looser than every arithmetic
    /// and bitwise operator and tighter than a comparison, and group to the
    /// left: `a + b UNION c` is `(a + b) UNION c`, `b UNION c + d` is
    /// `b UNION (c + d)`, `a UNION b MINUS c` is `(a UNION b) MINUS c`.
    /// Apple documents no precedence for them (its BNF has no set
    /// expressions); the one observation is `A IN B UNION C` read as
    /// `A IN (B UNION C)`. A chain is naturally built nested on the left
    /// (`expressionForMinusSet(expressionForUnionSet(a, b), c)`), and the
    /// printer writes it without brackets, `a UNION b MINUS c`: grouping to
    /// the left reads that back as the same tree. Of the other
    /// implementations only Cappuccino's
    /// CPPredicate parses them: as postfix operators whose right side is a
    /// whole expression (`a + (b UNION c)`, chains grouped to the right), an
    /// effect of its recursive descent rather than a rule; GNUstep and
    /// Apportable do not parse them. The loosest level is also where SQL
    /// puts its set operators, and arithmetic on a set is an error anyway.
    ///
    /// Arithmetic and bitwise operations print every operand that is an
    /// operation in brackets, as Apple prints NSExpression's functions;
    /// set expressions only where the grouping needs them.
    static let infix: [InfixOperator] =
        SetOperation.allCases.map { infix($0) } + BuiltinFunction.allCases.compactMap { infix($0) }

    /// The row of a set operation.
    static func infix(_ operation: SetOperation) -> InfixOperator {
        InfixOperator(
            token: TokenKind(operation), spelling: operation.keyword, node: .set(operation),
            precedence: .setOperation, associativity: .left, bracketing: .byPrecedence)
    }

    /// The row of the infix operator that builds `function`, if one does
    /// (its spelling and precedence are the function's row,
    /// ``BuiltinFunction/Row/infix``).
    static func infix(_ function: BuiltinFunction) -> InfixOperator? {
        guard let row = function.row.infix else { return nil }
        return InfixOperator(
            token: row.token, spelling: row.spelling, node: .function(function), precedence: row.precedence,
            associativity: .left, bracketing: .everyOperation)
    }

    /// The loosest level of the infix operators: where an expression starts.
    static let loosestInfix: Precedence = infix.map(\.precedence).min() ?? .postfix

    /// The infix operator a token spells, if any: one load, as the parser
    /// asks after every operand.
    static func infix(_ token: TokenKind) -> InfixOperator? { byToken[Int(token.rawValue)] }

    private static let byToken: [InfixOperator?] = {
        var table = [InfixOperator?](repeating: nil, count: Int(UInt8.max) + 1)
        for op in infix { table[Int(op.token.rawValue)] = op }
        return table
    }()
}

/// A connective of predicates: how it is written as a word and as a
/// symbol, and how tightly it binds (the parser's `parseOr`, `parseAnd`
/// and `parseNot`).
struct Connective: Sendable {
    /// Its level: ``Precedence/or``, ``Precedence/and`` or ``Precedence/not``.
    let precedence: Precedence
    /// The word, read in any case; what the printer writes.
    let word: String
    /// The symbol, scanned by the lexer's character switch.
    let symbol: String
    /// The token the lexer makes of either.
    let token: TokenKind
}

extension OperatorTable {
    /// `OR` (`||`), `AND` (`&&`) and `NOT` (`!`), loosest first.
    static let connectives: [Connective] = [
        Connective(precedence: .or, word: "OR", symbol: "||", token: .or),
        Connective(precedence: .and, word: "AND", symbol: "&&", token: .and),
        Connective(precedence: .not, word: "NOT", symbol: "!", token: .not),
    ]

    /// The word of the connective at `level` (`"AND"` for ``Precedence/and``),
    /// as the printer writes it.
    static func word(_ level: Precedence) -> String {
        connectives.first { $0.precedence == level }?.word ?? ""
    }

    /// Every operator written with symbols, and the token the lexer makes
    /// of it: the comparison operators' symbols (`==`, `=<`, `<>`), the
    /// infix and prefix operators of expressions and the connectives'
    /// symbols. The lexer scans them with its character switch, which is
    /// tested against this list: each lexes to its token, and no other
    /// run of operator characters lexes to an operator.
    static let symbols: [(spelling: String, token: TokenKind)] =
        ComparisonOperator.Builtin.allCases.filter { !$0.isWord }.flatMap { builtin in
            builtin.row.op.spellings.map { ($0, builtin.token.kind) }
        }
        + infix.filter { !Lexer.isIdentifierStart($0.spelling.utf8.first ?? 0) }.map { ($0.spelling, $0.token) }
        + BuiltinFunction.allCases.compactMap { f in f.row.prefix.map { ($0.spelling, $0.token) } }
        + connectives.map { ($0.symbol, $0.token) }

    /// The function a prefix operator's token builds, if any: `-x` is
    /// `from:subtract:(0, x)`, `~x` is `onesComplement:(x)`.
    static func prefix(_ token: TokenKind) -> BuiltinFunction? { prefixByToken[Int(token.rawValue)] }

    private static let prefixByToken: [BuiltinFunction?] = {
        var table = [BuiltinFunction?](repeating: nil, count: Int(UInt8.max) + 1)
        for f in BuiltinFunction.allCases { if let prefix = f.row.prefix { table[Int(prefix.token.rawValue)] = f } }
        return table
    }()
}
