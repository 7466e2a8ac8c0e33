/// The built-in functions of `NSExpression`, named by their selectors: the
/// one table of them.
///
/// What the language says of each function (its selector and short form,
/// how many arguments it takes and what they must be, what it gives, how
/// it prints, whether ``PredicatePolicy/untrusted(keyPaths:)`` allows it,
/// what ``CostEstimate`` counts for it, and why it has no SQL form) is its
/// row in `row`. The parser checks names and argument counts against it
/// when it builds the tree, as Apple does (`nosuchfunction(1)` and
/// `sqrt()` are parse errors); the printer, decoding, the REPL's completion,
/// the policy and the cost model read it. What a function does is
/// `Functions.call` in `Semantics/Functions.swift`, a switch over the same
/// cases.
public enum BuiltinFunction: String, Sendable, Hashable, Codable, CaseIterable {
    // Statistics over a collection
    /// `sum:(numbers)`: the sum of a collection of numbers.
    case sum = "sum:"
    /// `count:(collection)`: the number of elements.
    case count = "count:"
    /// `min:(numbers)`: the smallest element; an error for an empty collection.
    case min = "min:"
    /// `max:(numbers)`: the largest element; an error for an empty collection.
    case max = "max:"
    /// `average:(numbers)`: the mean.
    case average = "average:"
    /// `median:(numbers)`: the middle element (the mean of the two middle ones).
    case median = "median:"
    /// `mode:(values)`: the most frequent elements, as an array.
    case mode = "mode:"
    /// `stddev:(numbers)`: the population standard deviation.
    case stddev = "stddev:"
    // Arithmetic (the operators + - * / ** and unary minus build these)
    /// `add:to:(a, b)`, written `a + b`.
    case add = "add:to:"
    /// `from:subtract:(a, b)`, written `a - b`.
    case subtract = "from:subtract:"
    /// `multiply:by:(a, b)`, written `a * b`.
    case multiply = "multiply:by:"
    /// `divide:by:(a, b)`, written `a / b`: integer division for two integers.
    case divide = "divide:by:"
    /// `modulus:by:(a, b)`: the remainder (the language has no `%` operator).
    case modulus = "modulus:by:"
    /// `raise:toPower:(a, b)`, written `a ** b`: always a double.
    case raise = "raise:toPower:"
    // One-number functions
    /// `sqrt:(x)`: the square root.
    case sqrt = "sqrt:"
    /// `log:(x)`: the base-10 logarithm.
    case log = "log:"
    /// `ln:(x)`: the natural logarithm.
    case ln = "ln:"
    /// `exp:(x)`: e raised to `x`.
    case exp = "exp:"
    /// `floor:(x)`: the largest integer not above `x`.
    case floor = "floor:"
    /// `ceiling:(x)`: the smallest integer not below `x`.
    case ceiling = "ceiling:"
    /// `abs:(x)`: the absolute value.
    case abs = "abs:"
    /// `trunc:(x)`: `x` without its fractional part.
    case trunc = "trunc:"
    // Random numbers and time
    /// `random()`: a double between 0 and 1.
    case random = "random"
    /// `randomn:(n)`: an integer from 0 up to, not including, `n`.
    case randomn = "randomn:"
    /// `now()`: the current date.
    case now = "now"
    // Strings
    /// `lowercase:(s)`: the string in lower case.
    case lowercase = "lowercase:"
    /// `uppercase:(s)`: the string in upper case.
    case uppercase = "uppercase:"
    /// `length:(s)`: the string's length in UTF-16 code units, as `NSString` counts.
    case length = "length:"
    // Bitwise (the operators & | ^ << >> ~ build these)
    /// `bitwiseAnd:with:(a, b)`, written `a & b`.
    case bitwiseAnd = "bitwiseAnd:with:"
    /// `bitwiseOr:with:(a, b)`, written `a | b`.
    case bitwiseOr = "bitwiseOr:with:"
    /// `bitwiseXor:with:(a, b)`, written `a ^ b`.
    case bitwiseXor = "bitwiseXor:with:"
    /// `leftshift:by:(a, n)`, written `a << n`.
    case leftshift = "leftshift:by:"
    /// `rightshift:by:(a, n)`, written `a >> n`.
    case rightshift = "rightshift:by:"
    /// `onesComplement:(a)`, written `~a`.
    case onesComplement = "onesComplement:"
    // Hints
    /// `noindex:(x)`: a Core Data hint that gives `x` unchanged.
    case noindex = "noindex:"
    /// `distinct:(x)`: a Core Data fetch hint with no meaning in memory (an
    /// ``EvaluationError/Code/unsupported`` error).
    case distinct = "distinct:"

    /// The selector, e.g. `"modulus:by:"`: how the function is written
    /// (`modulus:by:(a, 3)`), how it prints, and its name in JSON.
    public var selector: String { rawValue }

    /// How many arguments the function takes: one for each part of its
    /// selector.
    public var arity: Int {
        let colons = rawValue.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
        return colons
    }

    /// True for one-part selectors, which may also be called as
    /// `name(args)` (`sqrt(x)`, `now()`).
    var hasShortForm: Bool { arity <= 1 }

    /// Every way a format string may name the function: the selector, and
    /// for a one-part selector its short form (`["sqrt:", "sqrt"]`).
    public var spellings: [String] {
        guard hasShortForm, rawValue.hasSuffix(":") else { return [rawValue] }
        return [rawValue, String(rawValue.dropLast())]
    }

    /// The function named by a full selector (`"sum:"`, `"add:to:"`, `"now"`).
    public init?(selector: String) { self.init(rawValue: selector) }

    /// What the arguments must be.
    public var operands: Operands { row.operands }

    /// What the function gives.
    public var result: Result { row.result }

    /// Whether ``PredicatePolicy/untrusted(keyPaths:)`` allows the
    /// function: those whose cost is bounded by their arguments' sizes and
    /// whose answer is the same on every evaluation.
    public var isAllowedForUntrusted: Bool { row.untrusted }

    /// What SQL lowering makes of the function.
    public var sql: SQLForm { row.sql }
}

// MARK: - The table

extension BuiltinFunction {
    /// The function's row. The switch is exhaustive, so a function added
    /// to the enum cannot be left out of the table.
    var row: Row {
        switch self {
        case .sum, .average:
            return Row(.numbersIn, gives: .number, untrusted: true, sql: .refused(Self.useCollectionOperators))
        case .min, .max:
            return Row(.numbersIn, gives: .element, untrusted: true, sql: .refused(Self.useCollectionOperators))
        case .count:
            return Row(.collection, gives: .number, untrusted: true, sql: .refused(Self.useCollectionOperators))
        case .median, .mode:
            return Row(.numbersIn, gives: .element, sql: .refused("SQLite and PostgreSQL have no \(rawValue)"))
        case .stddev:
            return Row(.numbersIn, gives: .number, sql: .refused("SQLite has no standard deviation"))
        case .add: return Row(.numbers, gives: .number, untrusted: true, sql: Self.arithmetic, infix: (.plus, "+", .additive))
        case .subtract:
            return Row(
                .numbers, gives: .number, untrusted: true, sql: Self.arithmetic, infix: (.minus, "-", .additive),
                prefix: (.minus, "-"))
        case .multiply:
            return Row(.numbers, gives: .number, untrusted: true, sql: Self.arithmetic, infix: (.star, "*", .multiplicative))
        case .divide:
            return Row(.numbers, gives: .number, untrusted: true, sql: Self.arithmetic, infix: (.slash, "/", .multiplicative))
        case .modulus: return Row(.numbers, gives: .number, untrusted: true, sql: Self.integerFunction)
        case .abs, .floor, .ceiling, .trunc: return Row(.numbers, gives: .number, untrusted: true, sql: Self.rounding)
        case .raise: return Row(.numbers, gives: .number, sql: Self.realFunction, infix: (.starStar, "**", .power))
        case .sqrt:
            return Row(.numbers, gives: .number, sql: .exact(
                "an operand that is never nil; on PostgreSQL, whose sqrt raises for a negative number, with NaN for it, as memory"))
        case .log, .ln, .exp: return Row(.numbers, gives: .number, sql: Self.realFunction)
        case .random: return Row(.none, gives: .number, sql: .refused(Self.differsEachTime))
        case .randomn: return Row(.integers, gives: .number, sql: .refused(Self.differsEachTime))
        case .now: return Row(.none, gives: .date, sql: .refused(Self.differsEachTime))
        case .lowercase, .uppercase:
            return Row(.string, gives: .caseMapped, untrusted: true, sql: .exact(
                "a string that is never nil, on SQLite only (memory's own code): PostgreSQL's lower() and upper() follow "
                    + "the collation and map one character to one (ß stays ß, where memory gives SS)"))
        case .length:
            return Row(.string, gives: .number, untrusted: true, sql: .exact(
                "a string that is never nil: UTF-16 code units, as memory counts (on PostgreSQL, its code points and one more "
                    + "for each beyond U+FFFF)"))
        case .bitwiseOr: return Row(.integers, gives: .number, sql: Self.integerFunction, infix: (.pipe, "|", .bitwiseOr))
        case .bitwiseXor: return Row(.integers, gives: .number, sql: Self.integerFunction, infix: (.caret, "^", .bitwiseXor))
        case .bitwiseAnd:
            return Row(.integers, gives: .number, sql: Self.integerFunction, infix: (.ampersand, "&", .bitwiseAnd))
        case .leftshift: return Row(.integers, gives: .number, sql: Self.integerFunction, infix: (.shiftLeft, "<<", .shift))
        case .rightshift: return Row(.integers, gives: .number, sql: Self.integerFunction, infix: (.shiftRight, ">>", .shift))
        case .onesComplement: return Row(.integers, gives: .number, sql: Self.integerFunction, prefix: (.tilde, "~"))
        case .noindex: return Row(.any, gives: .argument, sql: .refused("noindex: is a hint to Core Data's SQL store"))
        case .distinct:
            return Row(.any, gives: .argument, sql: .refused("distinct: is only meaningful to a database fetch"))
        }
    }

    private static let useCollectionOperators =
        "write it as a collection operator on a to-many key path (@sum, @count, @avg, @min, @max)"
    private static let differsEachTime = "its value differs on each evaluation"
    /// SQLite computes these, and the functions below, with memory's own
    /// code (`sift_function`); PostgreSQL as the lowering
    /// (`SiftSQL/Lowering/FunctionLowering.swift`) says for each.
    private static let rounding = SQLForm.exact(
        "an operand that is never nil (PostgreSQL's abs, floor, ceil and trunc give memory's values)")
    private static let integerFunction = SQLForm.exact(
        "operands that are never nil; on PostgreSQL, integers only (memory truncates a double to an integer first)")
    private static let realFunction = SQLForm.exact(
        "operands that are never nil, on SQLite only: PostgreSQL raises where memory gives ±infinity, 0 or NaN, "
            + "and its C library need not round as memory's does")
    private static let arithmetic = SQLForm.exact(
        "operands that are never nil; on PostgreSQL, doubles only where they cannot overflow, underflow or divide by zero")

    /// What the language says of one function, besides its selector.
    struct Row {
        /// What the arguments must be.
        let operands: Operands
        /// What it gives.
        let result: Result
        /// Whether ``PredicatePolicy/untrusted(keyPaths:)`` allows it.
        let untrusted: Bool
        /// Its SQL form, or why it has none.
        let sql: SQLForm
        /// The infix operator that builds it (`+` builds `add:to:`), which
        /// is how it prints: its token, spelling and precedence (read by
        /// ``OperatorTable/infix``).
        let infix: (token: TokenKind, spelling: String, precedence: Precedence)?
        /// The prefix operator that builds it, if one does: `~x` is
        /// `onesComplement:(x)`; `-x` is `from:subtract:(0, x)`, a
        /// function of two arguments whose first is 0.
        let prefix: (token: TokenKind, spelling: String)?

        init(
            _ operands: Operands, gives result: Result, untrusted: Bool = false, sql: SQLForm,
            infix: (token: TokenKind, spelling: String, precedence: Precedence)? = nil,
            prefix: (token: TokenKind, spelling: String)? = nil
        ) {
            self.operands = operands
            self.result = result
            self.untrusted = untrusted
            self.sql = sql
            self.infix = infix
            self.prefix = prefix
        }
    }

    /// What a function needs of its arguments.
    public enum Operands: Sendable, Hashable {
        /// None: it takes no arguments (`random`, `now`).
        case none
        /// A collection whose elements are counted, not read (`count:`).
        case collection
        /// A collection of numbers (`sum:`, `average:`, `median:`, …).
        case numbersIn
        /// Numbers (`add:to:`, `sqrt:`, …).
        case numbers
        /// Integers (the bitwise functions, `randomn:`).
        case integers
        /// A string (`lowercase:`, `uppercase:`, `length:`).
        case string
        /// Anything (the hints `noindex:` and `distinct:`).
        case any
    }

    /// What a function gives, which tells the policy what its value
    /// reveals and the cost model how large it can be.
    public enum Result: Sendable, Hashable {
        /// A number computed from the arguments, of size one.
        case number
        /// A date (`now`).
        case date
        /// The string argument with its case mapped: at most three times
        /// as long.
        case caseMapped
        /// Taken from the elements of the collection argument (`min:`,
        /// `max:`, `median:`, `mode:`): it reveals them, and is at most as
        /// large as the arguments.
        case element
        /// The argument itself (`noindex:`, `distinct:`).
        case argument
    }

    /// What SQL lowering makes of a function.
    public enum SQLForm: Sendable, Hashable {
        /// No SQL form, for the reason given.
        case refused(String)
        /// A SQL form with memory's exact value, for the operands described
        /// (the SQL lowering refuses the others, saying why).
        case exact(String)
    }
}
