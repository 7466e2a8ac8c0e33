/// A compiled predicate's test of one root object. Kept in a generic
/// struct so that the function is stored and called as the compiler made it:
/// a function converted to a concrete type (`(Value, EvaluationScope) -> Bool`) would
/// be called through a re-abstraction thunk on every object.
@usableFromInline
struct CompiledTest<Root>: Sendable {
    @usableFromInline let run: @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool

    init(_ run: @escaping @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool) {
        self.run = run
    }

    @inlinable @inline(__always)
    func callAsFunction(_ root: Root, _ scope: EvaluationScope) throws(EvaluationError) -> Bool {
        try run(root, scope)
    }
}
