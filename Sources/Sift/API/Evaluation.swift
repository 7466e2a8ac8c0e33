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

extension Sequence where Element: ValueConvertible {
    /// The elements that match, in order (compiling the filter once).
    public func filter(_ filter: Filter) throws(EvaluationError) -> [Element] {
        try self.filter(filter.compiled())
    }
}

extension Sequence where Element: ValueConvertible {
    /// The elements that match, in order.
    public func filter(_ filter: CompiledFilter) throws(EvaluationError) -> [Element] {
        var out: [Element] = []
        for element in self where try filter.evaluate(with: element) { out.append(element) }
        return out
    }

    /// The first element that matches.
    public func first(where filter: CompiledFilter) throws(EvaluationError) -> Element? {
        for element in self where try filter.evaluate(with: element) { return element }
        return nil
    }

    /// How many elements match.
    public func count(where filter: CompiledFilter) throws(EvaluationError) -> Int {
        var n = 0
        for element in self where try filter.evaluate(with: element) { n += 1 }
        return n
    }
}
