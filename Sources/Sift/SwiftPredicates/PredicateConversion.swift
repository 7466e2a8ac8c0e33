import Foundation

/// Why a Swift predicate (`#Predicate`) or sort descriptor has no Sift form.
///
/// Conversion never approximates: an expression whose Sift meaning would
/// differ from Swift's on some input is refused with this error, which
/// names the expression's type and, where one is involved, the key path.
public struct PredicateConversionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `PredicateExpressions` type refused, without its generic
    /// arguments (`CollectionContainsCollection`), or `SortDescriptor`.
    public let expressionType: String
    /// The key path involved, as Swift describes it, when there is one.
    public let keyPath: String?
    /// Why there is no exact Sift form.
    public let reason: String

    /// An error for `expressionType`, with the key path involved and the reason.
    public init(expressionType: String, keyPath: String? = nil, reason: String) {
        self.expressionType = expressionType
        self.keyPath = keyPath
        self.reason = reason
    }

    /// The message: the expression type, the key path and the reason.
    public var description: String {
        let path = keyPath.map { " (\($0))" } ?? ""
        return "cannot convert \(expressionType)\(path): \(reason)"
    }
}

extension Filter {
    /// The Sift form of a Swift predicate, answering as `predicate.evaluate`
    /// does on every object.
    ///
    /// Key paths become keys through `Root`'s ``KeyTable`` (`\Book.author?.name`
    /// becomes `author.name`), so every property the predicate reads must be
    /// in the table of its type, by key path. The result is an ordinary
    /// filter: it prints (``format``), compiles, encodes, lowers to SQL and is
    /// checked by a ``PredicatePolicy`` like one parsed from a string. Its
    /// ``source`` is its ``format``, so that policy violations and errors
    /// point into that text exactly as for the string parsed.
    ///
    /// Expressions whose NSPredicate meaning differs from Swift's are refused
    /// rather than approximated; <doc:SwiftPredicates> lists what converts
    /// and why the rest does not.
    ///
    /// - Throws: ``PredicateConversionError`` naming the expression that has
    ///   no exact Sift form.
    public init<Root: KeyValueReadable>(_ predicate: Predicate<Root>) throws(PredicateConversionError) {
        var converter = PredicateConverter()
        let variable: PredicateExpressions.Variable<Root> = predicate.variable
        converter.bindings[variable.key] = .evaluatedObject
        let converted = try converter.predicate(of: predicate.expression)
        // The printed form parsed back is the same tree with source ranges,
        // so that policy violations and errors point into ``format`` exactly
        // as they do for the format string itself.
        let format = Filter(converted).format
        if let parsed = try? Filter(format), parsed.predicate == converted {
            self = parsed
        } else {
            self.init(converted)
        }
    }
}

/// What one Swift expression becomes: a predicate (a Boolean test) or an
/// expression (a value).
enum ConvertedTerm {
    case predicate(PredicateNode)
    case expression(ExpressionNode)
}

/// A `PredicateExpressions` type with a Sift form. The conformances are in
/// `PredicateExpressions+Sift.swift`; a type without one is refused.
protocol SiftConvertibleExpression {
    func converted(_ converter: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm
}

/// The state of one conversion: what each Swift variable stands for.
struct PredicateConverter {
    /// The root object, a SUBQUERY's variable, or the value an optional
    /// chain reads through.
    var bindings: [PredicateExpressions.VariableID: ExpressionNode] = [:]
    /// How many SUBQUERY variables are in scope, for their names (`$x`,
    /// then `$x2` inside it).
    var depth = 0
    /// The closure being converted, when Swift stops calling it at the
    /// first element that decides (`contains(where:)`, `allSatisfy`) while
    /// SUBQUERY tests every element: an expression that can throw (an
    /// index out of range) is refused there, since Sift would throw on an
    /// element Swift never reaches.
    var stopsEarly: String?

    func term(of expression: Any) throws(PredicateConversionError) -> ConvertedTerm {
        guard let convertible = expression as? any SiftConvertibleExpression else {
            throw PredicateConversionError(
                expressionType: Self.typeName(of: expression),
                reason: "it has no Sift form with the same meaning")
        }
        var copy = self
        return try convertible.converted(&copy)
    }

    /// `expression` as a test: a Boolean value `b` becomes `b == YES`.
    func predicate(of expression: Any) throws(PredicateConversionError) -> PredicateNode {
        switch try term(of: expression) {
        case .predicate(let p): return p
        case .expression(let e): return .compare(e, .equalTo, .constant(.bool(true)))
        }
    }

    /// `expression` as a value: a test `t` becomes `TERNARY(t, YES, NO)`.
    func expression(of expression: Any) throws(PredicateConversionError) -> ExpressionNode {
        switch try term(of: expression) {
        case .expression(let e): return e
        case .predicate(let p):
            return ExpressionNode(.ternary(p, .constant(.bool(true)), .constant(.bool(false))))
        }
    }

    /// The name of an expression's type without its module or generic
    /// arguments: `PredicateExpressions.Equal<…>` is `Equal`.
    static func typeName(of expression: Any) -> String {
        typeName(type(of: expression))
    }

    static func typeName(_ type: Any.Type) -> String {
        var name = String(reflecting: type)
        if let generic = name.firstIndex(of: "<") { name = String(name[..<generic]) }
        return name.split(separator: ".").last.map(String.init) ?? name
    }
}
