/// Comparisons of a typed key with a constant, compiled to a direct test on
/// the property's own type: `age > 30` reads an `Int` and compares it, with
/// no ``Value`` in between. Only cases whose answer is the same as the
/// general path's are taken (such tests never throw); everything else
/// gets the general test. (Tests are not returned as optionals: a function
/// inside an `Optional` is re-abstracted and called through thunks.)
enum TypedComparison<Root> {
    typealias Test = @Sendable (Root, Scope) throws(EvaluationError) -> Bool

    static func make(_ c: Comparison, root: RootAccess<Root>, general: @escaping Test) -> Test {
        switch (c.lhs.kind, c.rhs.kind, c.modifier) {
        case (.keyPath(let keys), .constant(let k), .direct):
            guard let reader = root.typedPath(keys) else { return general }
            return direct(reader, c.op, c.options, k, general)
        case (.constant(.string(let k)), .keyPath(let keys), .direct) where c.op == .in && c.options.isEmpty:
            // 'x' IN tags
            guard let reader = root.typedPath(keys), case .strings(let read) = reader.kind else { return general }
            let literal = LiteralString(k)
            return { r, _ in read(r).contains { literal.isLiterally($0) } }
        case (.keyPath(let keys), .constant(.string(let k)), .any), (.keyPath(let keys), .constant(.string(let k)), .all):
            guard c.op == .equalTo || c.op == .notEqualTo, c.options.isEmpty,
                let reader = root.typedPath(keys), case .strings(let read) = reader.kind
            else { return general }
            let equal = c.op == .equalTo
            let literal = LiteralString(k)
            if c.modifier == .any {
                return { r, _ in read(r).contains { literal.isLiterally($0) == equal } }
            }
            return { r, _ in read(r).allSatisfy { literal.isLiterally($0) == equal } }
        default:
            return general
        }
    }

    private static func direct(
        _ reader: KeyReader<Root>, _ op: ComparisonOperator, _ options: ComparisonOptions, _ k: Value,
        _ general: @escaping Test
    ) -> Test {
        switch (reader.kind, k) {
        // One closure per type, comparing concrete values (a generic helper
        // would not be specialised, the root's type being unknown here).
        case (.int(let read), .int(let c)):
            guard let order = Order(op) else { return general }
            return { r, _ in order.holds(read(r), c) }
        case (.double(let read), .double(let c)):
            guard let order = Order(op) else { return general }
            return { r, _ in order.holds(read(r), c) }
        case (.double(let read), .int(let i)) where i.magnitude <= 1 << 53:
            guard let order = Order(op) else { return general }
            let c = Double(i)
            return { r, _ in order.holds(read(r), c) }
        case (.string(let read), .string(let c)):
            return string(op, options, read, c, general)
        default:
            return general
        }
    }

    private static func string(
        _ op: ComparisonOperator, _ options: ComparisonOptions, _ read: @escaping @Sendable (Root) -> String, _ c: String,
        _ general: @escaping Test
    ) -> Test {
        switch op {
        case .equalTo, .notEqualTo:
            guard options.isEmpty || options == [.normalized] else { return general }
            let equal = op == .equalTo
            let literal = LiteralString(c)
            return { r, _ in literal.isLiterally(read(r)) == equal }
        case .beginsWith, .endsWith, .contains:
            let needle = StringSemantics.Needle(c, StringSemantics.Search(op), options)
            return { r, _ in needle.found(in: read(r)) }
        default:
            return general
        }
    }
}
