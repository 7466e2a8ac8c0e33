/// A ``Filter`` compiled for evaluation: build it once, evaluate it many
/// times, from any thread.
public struct CompiledFilter: Sendable {
    public let filter: Filter
    private let test: TestFunction

    public init(_ filter: Filter) {
        self.filter = filter
        let compiler = Compiler(source: filter.source ?? filter.format)
        test = compiler.predicate(filter.predicate)
    }

    /// Whether `object` matches. `variables` supply `$VARIABLES` that were not
    /// substituted. Throws where Foundation raises (a type mismatch, a bad
    /// regular expression, an unbound variable…).
    public func evaluate(with object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        try test(Scope(object: object, variables: variables))
    }

    /// Whether `object` matches.
    public func evaluate(with object: some ValueConvertible) throws(EvaluationError) -> Bool {
        try test(Scope(object: object.predicateValue, variables: [:]))
    }
}

extension Filter {
    /// Compiles the filter for repeated evaluation.
    public func compiled() -> CompiledFilter { CompiledFilter(self) }

    /// Whether `object` matches (compiling the filter each time; keep a
    /// ``compiled()`` filter to evaluate many objects).
    public func evaluate(with object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        try compiled().evaluate(with: object, variables: variables)
    }
}

extension Sequence where Element == Value {
    /// The elements that match, in order.
    public func filter(_ filter: CompiledFilter) throws(EvaluationError) -> [Value] {
        var out: [Value] = []
        for element in self where try filter.evaluate(with: element) { out.append(element) }
        return out
    }

    /// The elements that match, in order.
    public func filter(_ filter: Filter) throws(EvaluationError) -> [Value] {
        try self.filter(filter.compiled())
    }
}
