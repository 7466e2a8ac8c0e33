/// An expression: something that evaluates to a ``Value`` for an object.
///
/// An immutable value. Equality and hashing ignore ``range``.
public struct ExpressionNode: Sendable {
    /// What the expression is.
    public var kind: Kind
    /// Where the expression came from in its format string, if it was parsed.
    public var range: SourceRange?

    /// An expression of `kind`, from `range` of its format string if it was parsed.
    public init(_ kind: Kind, range: SourceRange? = nil) {
        self.kind = kind
        self.range = range
    }

    /// The kinds of expression: one case for each form of Apple's `NSExpression`.
    public indirect enum Kind: Sendable, Hashable {
        /// A literal or a substituted value: `42`, `"text"`, `nil`, `{1, 2}`, `%@`.
        case constant(Value)
        /// `SELF`: the object being evaluated.
        case evaluatedObject
        /// `$NAME`: a substitution variable (or a `SUBQUERY` variable).
        case variable(String)
        /// `a.b.c` (also `%K`): a key path on the evaluated object.
        /// Components are keys or collection operators (`@count`, `@sum`, …).
        case keyPath([String])
        /// A key path applied to another expression's value:
        /// `$a.name`, `%@.name`, `authors[1].name`, `SUBQUERY(…).@count`.
        case path(ExpressionNode, [String])
        /// `base.$NAME`: a key path piece given by a variable, applied to
        /// another expression's value: `$a.$b`, `author.$field`, `$t.$key`
        /// inside `SUBQUERY`. The key is an expression, as in Apple's
        /// key-path expressions (`expression "." expression`), but always a
        /// ``Kind/variable(_:)``. Substituting a string makes it plain keys,
        /// split at dots: `author.$field` with `"name.first"` is the key
        /// path `author.name.first`.
        case variableKey(ExpressionNode, key: ExpressionNode)
        /// `{a, b, c}` with at least one non-constant element (an aggregate of
        /// constants is folded into a constant array).
        case aggregate([ExpressionNode])
        /// A built-in function: `sum:(x)`, `modulus:by:(a, b)`, and the
        /// operators `+ - * / ** & | ^ << >> ~` and unary minus.
        case function(BuiltinFunction, [ExpressionNode])
        /// `collection[index]`, `collection[FIRST]`, `[LAST]`, `[SIZE]`, `dict["key"]`.
        case index(ExpressionNode, Subscript)
        /// `FUNCTION(receiver, "selector:", arguments…)`
        case invocation(ExpressionNode, selector: String, [ExpressionNode])
        /// `CAST(value, "Type")`
        case cast(ExpressionNode, type: String)
        /// `TERNARY(predicate, whenTrue, whenFalse)`
        case ternary(PredicateNode, ExpressionNode, ExpressionNode)
        /// `SUBQUERY(collection, $variable, predicate)`
        case subquery(ExpressionNode, variable: String, PredicateNode)
        /// `left UNION right`, `left INTERSECT right`, `left MINUS right`:
        /// a set built from two collections (see ``SetOperation``).
        case setOperation(SetOperation, ExpressionNode, ExpressionNode)
        /// `$variable := value`
        case assignment(variable: String, ExpressionNode)
        /// `ANYKEY` (Spotlight's "any attribute").
        case anyKey
    }

    /// The index of a subscript expression.
    public indirect enum Subscript: Sendable, Hashable {
        /// `[i]`: an index (or a dictionary key) computed by an expression.
        case expression(ExpressionNode)
        /// `[FIRST]`
        case first
        /// `[LAST]`
        case last
        /// `[SIZE]`
        case size
    }
}

extension ExpressionNode: Hashable {
    /// Whether two expressions have the same tree, ranges aside.
    public static func == (lhs: ExpressionNode, rhs: ExpressionNode) -> Bool { lhs.kind == rhs.kind }
    /// Hashes the tree, ranges aside.
    public func hash(into hasher: inout Hasher) { hasher.combine(kind) }
}

// MARK: - Builders

extension ExpressionNode {
    /// `SELF`.
    public static let evaluatedObject = ExpressionNode(.evaluatedObject)

    /// A constant.
    public static func constant(_ value: Value) -> ExpressionNode { ExpressionNode(.constant(value)) }

    /// A key path, split at dots: `keyPath("author.name")`.
    public static func keyPath(_ path: String) -> ExpressionNode {
        ExpressionNode(.keyPath(path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)))
    }

    /// The keys of a key path given as text (a `%K` argument, a variable
    /// substituted after a dot), split at dots; nil when the text is empty
    /// or has an empty key (`"a..b"`, `".a"`, `"a."`), which names no key
    /// and would print as text that does not read back.
    static func keys(ofKeyPath text: String) -> [String]? {
        let keys = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !keys.contains(where: \.isEmpty) else { return nil }
        return keys.map(String.init)
    }

    /// The keys named by the value of `$name` after a dot: a key path
    /// string. Substitution and evaluation (a variable given only then)
    /// take a value the same way and fail with the same message.
    static func keys(ofVariable name: String, _ value: Value) -> Result<[String], Problem> {
        let described: String
        switch value {
        case .string(let text):
            if let keys = keys(ofKeyPath: text) { return .success(keys) }
            described = text.isEmpty ? "an empty string" : "\"\(text)\", which has an empty key"
        default:
            described = Functions.describe(value)
        }
        return .failure(Problem(
            message: "$\(name) after '.' names a key, so its value must be a key path string, not \(described)"))
    }


    /// `self.keys` as the parser builds it: keys after a key path or `SELF`
    /// extend the key path (`SELF.a` is `a`), keys after a path extend that
    /// path, and any other expression becomes the base of a path. Binding
    /// `%K` after a dot and substituting `$NAME` after a dot both build
    /// through here, so that they give the tree the plain spelling gives.
    package func appending(_ keys: [String], range: SourceRange?) -> ExpressionNode {
        switch kind {
        case .keyPath(let components): return ExpressionNode(.keyPath(components + keys), range: range)
        case .evaluatedObject: return ExpressionNode(.keyPath(keys), range: range)
        case .path(let inner, let components): return ExpressionNode(.path(inner, components + keys), range: range)
        default: return ExpressionNode(.path(self, keys), range: range)
        }
    }

    /// A substitution variable `$name`.
    public static func variable(_ name: String) -> ExpressionNode { ExpressionNode(.variable(name)) }

    /// A built-in function call.
    public static func function(_ function: BuiltinFunction, _ arguments: [ExpressionNode]) -> ExpressionNode {
        ExpressionNode(.function(function, arguments))
    }

    /// A set expression: `left UNION right`, `left INTERSECT right`, `left MINUS right`.
    public static func setOperation(
        _ operation: SetOperation, _ left: ExpressionNode, _ right: ExpressionNode
    ) -> ExpressionNode {
        ExpressionNode(.setOperation(operation, left, right))
    }
}

// Synthesised here, where the types are declared; see Codable.swift.
extension ExpressionNode: Codable {}
extension ExpressionNode.Kind: Codable {}
extension ExpressionNode.Subscript: Codable {}
