/// Comparisons of a typed key with a constant, compiled to a direct test on
/// the property's own type: `age > 30` reads an `Int` and compares it, with
/// no ``Value`` in between. Only cases whose answer is the same as the
/// general path's are taken (such tests never throw); everything else
/// gets the general test. (Tests are not returned as optionals: a function
/// inside an `Optional` is re-abstracted and called through thunks.)
enum TypedComparison<Root> {
    typealias Test = @Sendable (Root, Scope) throws(EvaluationError) -> Bool

    static func make(_ c: Comparison, root: RootAccess<Root>, general: @escaping Test) -> Test {
        if Root.self == ObjectAddress.self, let leaf = InPlaceLeaf(c, root: root) {
            return InPlaceComparison<Root>.test(leaf)
        }
        if Root.self == Int.self, let table = root.table {
            return DynamicComparison.make(c, table: table, general: general)
        }
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

/// A comparison of a property stored at a known offset in an object given by
/// address with a constant, as data, from which ``InPlaceComparison`` makes
/// its tests. Only cases whose answer is the general path's are
/// taken (the same as ``TypedComparison``'s); none of them throws.
enum InPlaceLeaf: Sendable {
    case int(offset: Int, Order, Int)
    case double(offset: Int, Order, Double)
    /// `==` (`equal`) or `!=` with a string.
    case string(offset: Int, LiteralString, equal: Bool)
    case search(offset: Int, StringSemantics.Needle)
    /// `ANY strings == literal` (`any`, `equal`), `ALL strings != literal`, ….
    case strings(offset: Int, LiteralString, any: Bool, equal: Bool)

    /// Whether it compares an integer or a double.
    var isNumber: Bool {
        switch self {
        case .int, .double: return true
        case .string, .search, .strings: return false
        }
    }

    init?<Root>(_ c: Comparison, root: RootAccess<Root>) {
        switch (c.lhs.kind, c.rhs.kind, c.modifier) {
        case (.keyPath(let keys), .constant(let k), .direct):
            guard let reader = root.typedPath(keys), let offset = reader.offset else { return nil }
            switch (reader.kind, k) {
            case (.int, .int(let v)):
                guard let order = Order(c.op) else { return nil }
                self = .int(offset: offset, order, v)
            case (.double, .double(let v)):
                guard let order = Order(c.op) else { return nil }
                self = .double(offset: offset, order, v)
            case (.double, .int(let i)) where i.magnitude <= 1 << 53:
                guard let order = Order(c.op) else { return nil }
                self = .double(offset: offset, order, Double(i))
            case (.string, .string(let v)):
                switch c.op {
                case .equalTo, .notEqualTo:
                    guard c.options.isEmpty || c.options == [.normalized] else { return nil }
                    self = .string(offset: offset, LiteralString(v), equal: c.op == .equalTo)
                case .beginsWith, .endsWith, .contains:
                    self = .search(offset: offset, StringSemantics.Needle(v, StringSemantics.Search(c.op), c.options))
                default:
                    return nil
                }
            default:
                return nil
            }
        case (.constant(.string(let k)), .keyPath(let keys), .direct) where c.op == .in && c.options.isEmpty:
            // 'x' IN tags
            guard let reader = root.typedPath(keys), case .strings = reader.kind, let offset = reader.offset else {
                return nil
            }
            self = .strings(offset: offset, LiteralString(k), any: true, equal: true)
        case (.keyPath(let keys), .constant(.string(let k)), .any), (.keyPath(let keys), .constant(.string(let k)), .all):
            guard c.op == .equalTo || c.op == .notEqualTo, c.options.isEmpty,
                let reader = root.typedPath(keys), case .strings = reader.kind, let offset = reader.offset
            else { return nil }
            self = .strings(offset: offset, LiteralString(k), any: c.modifier == .any, equal: c.op == .equalTo)
        default:
            return nil
        }
    }
}

/// The comparisons of ``TypedComparison`` for a root given by address
/// (`Root` is ``ObjectAddress``) and a property stored at a known offset in
/// it: the property is read in place, with no reader call and no copy of the
/// object. Written over `Root` so that the closures are made and called with
/// the compiler's own calling convention (no re-abstraction thunks); they
/// are only made when `Root` is ``ObjectAddress``.
enum InPlaceComparison<Root> {
    typealias Test = TypedComparison<Root>.Test

    @inline(__always)
    private static func address(_ r: Root, _ offset: Int) -> UnsafeRawPointer {
        unsafeBitCast(r, to: ObjectAddress.self).raw + offset
    }

    /// AND, OR or NOT of comparisons that are all read in place, as steps
    /// (``InPlaceProgram``); nil for anything else.
    static func program(_ p: PredicateNode, root: RootAccess<Root>) -> InPlaceProgram? {
        guard Root.self == ObjectAddress.self else { return nil }
        return InPlaceProgram(p, root: unsafeBitCast(root, to: RootAccess<ObjectAddress>.self))
    }

    /// The test of a program's steps.
    static func test(_ program: InPlaceProgram) -> Test {
        { r, _ in program.holds(address(r, 0)) }
    }

    /// The test of one leaf, made for it: a closure per kind and operator.
    /// Never inlined, so that each closure has one entry: two identical
    /// copies (one inlined into ``InPlaceProgram``'s emitter) are merged by
    /// the optimiser into one and a forwarding thunk, called per object.
    @inline(never)
    static func test(_ leaf: InPlaceLeaf) -> Test {
        switch leaf {
        case .int(let offset, let order, let c): return ordered(Int.self, at: offset, order, c)
        case .double(let offset, let order, let c): return ordered(Double.self, at: offset, order, c)
        case .string(let offset, let literal, let equal):
            return { r, _ in
                literal.isLiterally(address(r, offset).assumingMemoryBound(to: String.self).pointee) == equal
            }
        case .search(let offset, let needle):
            return { r, _ in needle.found(in: address(r, offset).assumingMemoryBound(to: String.self).pointee) }
        case .strings(let offset, let literal, let any, let equal):
            if any {
                return { r, _ in
                    address(r, offset).assumingMemoryBound(to: [String].self).pointee.contains {
                        literal.isLiterally($0) == equal
                    }
                }
            }
            return { r, _ in
                address(r, offset).assumingMemoryBound(to: [String].self).pointee.allSatisfy {
                    literal.isLiterally($0) == equal
                }
            }
        }
    }

    /// One closure per operator, so that the comparison is all it does.
    private static func ordered<T: Comparable & Sendable & BitwiseCopyable>(
        _: T.Type, at offset: Int, _ order: Order, _ c: T
    ) -> Test {
        switch order {
        case .less: return { r, _ in address(r, offset).load(as: T.self) < c }
        case .lessOrEqual: return { r, _ in address(r, offset).load(as: T.self) <= c }
        case .greater: return { r, _ in address(r, offset).load(as: T.self) > c }
        case .greaterOrEqual: return { r, _ in address(r, offset).load(as: T.self) >= c }
        case .equal: return { r, _ in address(r, offset).load(as: T.self) == c }
        case .notEqual: return { r, _ in address(r, offset).load(as: T.self) != c }
        }
    }
}
