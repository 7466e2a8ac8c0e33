/// Comparisons of a typed key with a constant, compiled to a direct test on
/// the property's own type: `age > 30` reads an `Int` and compares it, with
/// no ``Value`` in between. Only cases whose answer is the same as the
/// general path's are taken (such tests never throw); everything else
/// returns nil and goes the general way.
enum TypedComparison<Root> {
    typealias Test = @Sendable (Root, Scope) throws(EvaluationError) -> Bool

    static func make(_ c: Comparison, root: RootAccess<Root>) -> Test? {
        switch (c.lhs.kind, c.rhs.kind, c.modifier) {
        case (.keyPath(let keys), .constant(let k), .direct):
            guard let reader = root.typedPath(keys) else { return nil }
            return direct(reader, c.op, c.options, k)
        case (.constant(.string(let k)), .keyPath(let keys), .direct) where c.op == .in && c.options.isEmpty:
            // 'x' IN tags
            guard let reader = root.typedPath(keys), case .strings(let read) = reader.kind, isASCII(k) else { return nil }
            return { r, _ in read(r).contains(k) }
        case (.keyPath(let keys), .constant(.string(let k)), .any), (.keyPath(let keys), .constant(.string(let k)), .all):
            guard c.op == .equalTo || c.op == .notEqualTo, c.options.isEmpty, isASCII(k),
                let reader = root.typedPath(keys), case .strings(let read) = reader.kind
            else { return nil }
            let equal = c.op == .equalTo
            if c.modifier == .any {
                return { r, _ in read(r).contains { ($0 == k) == equal } }
            }
            return { r, _ in read(r).allSatisfy { ($0 == k) == equal } }
        default:
            return nil
        }
    }

    /// An ASCII string is canonically equivalent only to itself, so Swift's
    /// `==` (canonical equivalence) is the literal comparison there.
    static func isASCII(_ s: String) -> Bool { s.utf8.allSatisfy { $0 < 0x80 } }

    private static func direct(_ reader: KeyReader<Root>, _ op: ComparisonOperator, _ options: ComparisonOptions, _ k: Value)
        -> Test?
    {
        switch (reader.kind, k) {
        case (.int(let read), .int(let c)):
            return ordered(op, read, c)
        case (.double(let read), .double(let c)):
            return ordered(op, read, c)
        case (.double(let read), .int(let c)) where c.magnitude <= 1 << 53:
            return ordered(op, read, Double(c))
        case (.string(let read), .string(let c)):
            return string(op, options, read, c)
        default:
            return nil
        }
    }

    private static func ordered<T: Comparable & Sendable>(
        _ op: ComparisonOperator, _ read: @escaping @Sendable (Root) -> T, _ c: T
    ) -> Test? {
        switch op {
        case .lessThan: return { r, _ in read(r) < c }
        case .lessThanOrEqualTo: return { r, _ in read(r) <= c }
        case .greaterThan: return { r, _ in read(r) > c }
        case .greaterThanOrEqualTo: return { r, _ in read(r) >= c }
        case .equalTo: return { r, _ in read(r) == c }
        case .notEqualTo: return { r, _ in read(r) != c }
        default: return nil
        }
    }

    private static func string(
        _ op: ComparisonOperator, _ options: ComparisonOptions, _ read: @escaping @Sendable (Root) -> String, _ c: String
    ) -> Test? {
        switch op {
        case .equalTo, .notEqualTo:
            guard options.isEmpty || options == [.normalized] else { return nil }
            let equal = op == .equalTo
            if isASCII(c) { return { r, _ in (read(r) == c) == equal } }
            return { r, _ in read(r).utf8.elementsEqual(c.utf8) == equal }
        case .beginsWith, .endsWith, .contains:
            let kind: StringSemantics.Search = op == .beginsWith ? .prefix : (op == .endsWith ? .suffix : .substring)
            let needle = StringSemantics.Needle(c, kind, options)
            return { r, _ in needle.found(in: read(r)) }
        default:
            return nil
        }
    }
}
