/// The built-in functions of `NSExpression`, named by their selectors.
///
/// The format parser checks names and argument counts when it builds the tree,
/// as Apple does: `nosuchfunction(1)` and `sqrt()` are parse errors.
public enum BuiltinFunction: String, Sendable, Hashable, Codable, CaseIterable {
    // Statistics over a collection
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    case median = "median:"
    case mode = "mode:"
    case stddev = "stddev:"
    // Arithmetic (the operators + - * / ** and unary minus build these)
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    case modulus = "modulus:by:"
    case raise = "raise:toPower:"
    // One-number functions
    case sqrt = "sqrt:"
    case log = "log:"
    case ln = "ln:"
    case exp = "exp:"
    case floor = "floor:"
    case ceiling = "ceiling:"
    case abs = "abs:"
    case trunc = "trunc:"
    // Random numbers and time
    case random = "random"
    case randomn = "randomn:"
    case now = "now"
    // Strings
    case lowercase = "lowercase:"
    case uppercase = "uppercase:"
    case length = "length:"
    // Bitwise (the operators & | ^ << >> ~ build these)
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftshift = "leftshift:by:"
    case rightshift = "rightshift:by:"
    case onesComplement = "onesComplement:"
    // Hints
    case noindex = "noindex:"
    case distinct = "distinct:"

    /// The selector, e.g. `"modulus:by:"`.
    public var selector: String { rawValue }

    /// How many arguments the function takes.
    public var arity: Int {
        let colons = rawValue.reduce(0) { $1 == ":" ? $0 + 1 : $0 }
        return colons
    }

    /// True for one-part selectors, which may be called as `name(args)`.
    var hasShortForm: Bool { arity <= 1 }

    /// The function named by a full selector (`"sum:"`, `"add:to:"`, `"now"`).
    public init?(selector: String) { self.init(rawValue: selector) }
}
