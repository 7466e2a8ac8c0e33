import Foundation

/// A ``Filter`` for objects of an `Encodable` type that is not
/// ``KeyValueReadable``: each object is made a ``Value``
/// (``Value/init(encoding:)``) and evaluated as a value. Types that can
/// conform to ``KeyValueReadable`` are better served by a ``TypedFilter``,
/// which reads properties in place instead of building a value per object.
///
/// ```swift
/// let adults = try people.filter(Filter("age >= 18").compiled(encoding: Person.self))
/// ```
public struct EncodableFilter<Root: Encodable>: Sendable {
    /// The filter this was compiled from.
    public let filter: Filter
    let compiled: CompiledFilter

    /// Compiles `filter`, as ``Filter/compiled(regexLimits:paths:)`` does.
    public init(
        _ filter: Filter, for type: Root.Type = Root.self, regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) {
        self.filter = filter
        self.compiled = CompiledFilter(filter, regexLimits: regexLimits, paths: paths)
    }

    /// Whether `object` matches. Throws an ``EvaluationError`` where the
    /// predicate cannot be evaluated, and what the object's `encode(to:)`
    /// throws.
    public func evaluate(with object: Root, variables: [String: Value] = [:]) throws -> Bool {
        try compiled.evaluate(with: Value(encoding: object), variables: variables)
    }
}

extension Filter {
    /// This filter compiled for objects of an `Encodable` type (see
    /// ``EncodableFilter``).
    public func compiled<Root: Encodable>(
        encoding type: Root.Type, regexLimits: RegexLimits = .default, paths: EvaluationPaths = .default
    ) -> EncodableFilter<Root> {
        EncodableFilter(self, for: type, regexLimits: regexLimits, paths: paths)
    }
}

extension Sequence where Element: Encodable {
    /// The elements that match, in order.
    public func filter(_ filter: EncodableFilter<Element>) throws -> [Element] {
        try self.filter { try filter.evaluate(with: $0) }
    }

    /// The first element that matches.
    public func first(where filter: EncodableFilter<Element>) throws -> Element? {
        try first { try filter.evaluate(with: $0) }
    }

    /// How many elements match.
    public func count(where filter: EncodableFilter<Element>) throws -> Int {
        var n = 0
        for element in self where try filter.evaluate(with: element) { n += 1 }
        return n
    }
}
