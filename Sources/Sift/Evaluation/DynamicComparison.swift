/// Comparisons of a key path with a constant, compiled for ``Value`` roots
/// (dictionaries, decoded JSON): the path is read straight through nested
/// dictionaries and the common value kinds are compared on the spot
/// (`age > 30` on an integer, `name BEGINSWITH[c] 'ab'` on a string,
/// `ANY tags == 'x'` on an array of strings). Anything else (nil, another
/// kind, a step that is not a dictionary) goes to the general test of the
/// same comparison, which gives the answer or the error; so both always
/// agree.
enum DynamicComparison {
    typealias Test = @Sendable (Value, Scope) throws(EvaluationError) -> Bool

    /// The fast test of `c`, or `general` itself when there is none.
    /// (Tests are never passed around as optionals: a function inside an
    /// `Optional` is re-abstracted, and every call would go through thunks.)
    static func make(_ c: Comparison, general: @escaping Test) -> Test {
        guard let t = valueTest(c) else { return general }
        return path(t.keys, general, t.test)
    }

    /// The fast test of `c` for the rows of a ``ValueTable``, reading the
    /// first key of the path from its column; `general` when there is none.
    /// Generic, with rows given by index (`Root` is `Int`), so that the
    /// tests are made as the compiler of `Root` stores and calls them,
    /// without re-abstraction thunks.
    static func make<Root>(
        _ c: Comparison, table: ValueTable, general: @escaping @Sendable (Root, Scope) throws(EvaluationError) -> Bool
    ) -> @Sendable (Root, Scope) throws(EvaluationError) -> Bool {
        guard Root.self == Int.self, let t = valueTest(c) else { return general }
        if let elements = t.elements, let list = table.list(t.keys) {
            // ANY/ALL over arrays held end to end: never the general test.
            let (bounds, items, isAny, matches) = (list.bounds, list.elements, elements.isAny, elements.matches)
            return { r, _ in
                let row = unsafeBitCast(r, to: Int.self)
                for i in bounds[row]..<bounds[row + 1] where matches(items[i]) == isAny { return isAny }
                return !isAny
            }
        }
        if let string = t.string, let strings = table.strings(t.keys) {
            // The strings read as they are; a row with nil has no answer here.
            let (values, test) = (strings.values, string.test)
            guard let present = strings.present else {
                return { r, _ in values.withUnsafeBufferPointer { test($0[unsafeBitCast(r, to: Int.self)]) } }
            }
            return { r, scope throws(EvaluationError) in
                let row = unsafeBitCast(r, to: Int.self)
                if present[row] { return values.withUnsafeBufferPointer { test($0[row]) } }
                return try general(r, scope)
            }
        }
        guard let (column, used) = table.column(t.keys) else { return general }
        let test = t.test
        let rest = Array(t.keys.dropFirst(used))
        switch rest.count {
        case 0:
            return { r, scope throws(EvaluationError) in
                // The value borrowed where it is, not copied out of the array.
                let answer = column.withUnsafeBufferPointer { test($0[unsafeBitCast(r, to: Int.self)]) }
                if let answer { return answer }
                return try general(r, scope)
            }
        default:
            // Keys below the deepest column: through the dictionaries in it.
            return { r, scope throws(EvaluationError) in
                if let v = value(at: rest, in: column[unsafeBitCast(r, to: Int.self)]), let answer = test(v) {
                    return answer
                }
                return try general(r, scope)
            }
        }
    }

    /// The value at `keys` below `value`, looked up through dictionaries;
    /// nil where a step is not a dictionary.
    @inline(__always)
    private static func value(at keys: [LiteralString], in value: Value) -> Value? {
        var current = value
        for key in keys {
            guard case .dictionary(let d) = current else { return nil }
            current = key.value(in: d)
        }
        return current
    }

    /// A comparison of a key path with a constant as the path's keys and a
    /// test of the value at the end of the path (nil: no answer, the general
    /// test decides), for the comparisons that have one.
    struct ValueTest: Sendable {
        let keys: [LiteralString]
        let test: @Sendable (Value) -> Bool?
        /// For ANY and ALL: the test of one element of the collection.
        var elements: ElementTest?
        /// For a comparison of a string with a string constant: the test of
        /// the string (a value that is not a string has no answer here).
        var string: StringTest?
    }

    /// (A struct, not an optional function: a function inside an
    /// `Optional` would be called through a re-abstraction thunk.)
    struct StringTest: Sendable {
        let test: @Sendable (String) -> Bool
    }

    /// ANY (`isAny`) or ALL of a collection's elements, each tested by
    /// `matches`: true as soon as one matches for ANY, false as soon as one
    /// does not for ALL.
    struct ElementTest: Sendable {
        let isAny: Bool
        let matches: @Sendable (Value) -> Bool
    }

    static func valueTest(_ c: Comparison) -> ValueTest? {
        guard case .keyPath(let names) = c.lhs.kind, case .constant(let k) = c.rhs.kind,
            !names.isEmpty, !names.contains(where: CollectionOperator.isOperator)
        else { return nil }
        let keys = names.map(LiteralString.init)
        switch c.modifier {
        case .direct:
            return direct(c.op, c.options, k, keys)
        case .any, .all:
            guard c.op == .equalTo || c.op == .notEqualTo, c.options.isEmpty, case .string(let s) = k else { return nil }
            let equal = c.op == .equalTo
            let isAny = c.modifier == .any
            let constant = k
            let literal = LiteralString(s)
            let elements = ElementTest(isAny: isAny) { item in
                if case .string(let x) = item { return literal.isLiterally(x) == equal }
                return Ordering.equal(item, constant, options: []) == equal
            }
            // Equality never throws, so each element is compared here; only
            // a value that is not a collection goes to the general path.
            var test = ValueTest(keys: keys) { v in
                switch v {
                case .array(let items):
                    for item in items {
                        let same: Bool
                        if case .string(let x) = item { same = literal.isLiterally(x) } else {
                            same = Ordering.equal(item, constant, options: [])
                        }
                        if (same == equal) == isAny { return isAny }
                    }
                    return !isAny
                case .set(let items):
                    for item in items where (Ordering.equal(item, constant, options: []) == equal) == isAny {
                        return isAny
                    }
                    return !isAny
                case .null, .nsNull:
                    return !isAny
                default:
                    return nil
                }
            }
            test.elements = elements
            return test
        }
    }

    /// A test of the value at `keys`, falling back to `general` when the path
    /// does not go through dictionaries or `test` has no answer (nil).
    private static func path(
        _ keys: [LiteralString], _ general: @escaping Test, _ test: @escaping @Sendable (Value) -> Bool?
    ) -> Test {
        switch keys.count {
        case 1:
            let key = keys[0]
            return { root, scope throws(EvaluationError) in
                if case .dictionary(let d) = root, let answer = test(key.value(in: d)) { return answer }
                return try general(root, scope)
            }
        case 2:
            let (first, second) = (keys[0], keys[1])
            return { root, scope throws(EvaluationError) in
                if case .dictionary(let d) = root, case .dictionary(let e) = first.value(in: d),
                    let answer = test(second.value(in: e))
                {
                    return answer
                }
                return try general(root, scope)
            }
        default:
            return { root, scope throws(EvaluationError) in
                if let v = value(at: keys, in: root), let answer = test(v) { return answer }
                return try general(root, scope)
            }
        }
    }

    /// `key op constant` on one value.
    /// (A `ValueTest` rather than an optional function: a function inside an
    /// `Optional` would be called through a re-abstraction thunk.)
    private static func direct(
        _ op: ComparisonOperator, _ options: ComparisonOptions, _ k: Value, _ keys: [LiteralString]
    ) -> ValueTest? {
        switch k {
        case .int(let c):
            guard let order = Order(op) else { return nil }
            return ValueTest(keys: keys) { v in
                guard case .int(let x) = v else { return nil }
                return order.holds(x, c)
            }
        case .double(let c) where !c.isNaN:
            guard let order = Order(op) else { return nil }
            return ValueTest(keys: keys) { v in
                guard case .double(let x) = v, !x.isNaN else { return nil }
                return order.holds(x, c)
            }
        case .string(let c):
            switch op {
            case .equalTo, .notEqualTo:
                guard options.isEmpty || options == [.normalized] else { return nil }
                let equal = op == .equalTo
                let constant = LiteralString(c)
                var t = ValueTest(keys: keys) { v in
                    guard case .string(let x) = v else { return nil }
                    return constant.isLiterally(x) == equal
                }
                t.string = StringTest { x in constant.isLiterally(x) == equal }
                return t
            case .beginsWith, .endsWith, .contains:
                let needle = StringSemantics.Needle(c, StringSemantics.Search(op), options)
                var t = ValueTest(keys: keys) { v in
                    guard case .string(let x) = v else { return nil }
                    return needle.found(in: x)
                }
                t.string = StringTest { x in needle.found(in: x) }
                return t
            default:
                return nil
            }
        default:
            return nil
        }
    }
}

/// An ordering comparison, applied without a closure call.
enum Order: Sendable {
    case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual

    init?(_ op: ComparisonOperator) {
        switch op {
        case .lessThan: self = .less
        case .lessThanOrEqualTo: self = .lessOrEqual
        case .greaterThan: self = .greater
        case .greaterThanOrEqualTo: self = .greaterOrEqual
        case .equalTo: self = .equal
        case .notEqualTo: self = .notEqual
        default: return nil
        }
    }

    @inline(__always)
    func holds<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch self {
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        case .equal: return a == b
        case .notEqual: return a != b
        }
    }
}

/// A key looked up in `[String: Value]` dictionaries. Keys are compared
/// as the dictionary compares them (canonical equivalence); for an ASCII key
/// that no other string is canonically equivalent to, that is byte equality,
/// and a small dictionary is scanned instead of hashing the key, which costs
/// more than comparing a few short keys.
struct LiteralString: Sendable {
    let key: String
    let plain: Bool

    init(_ key: String) {
        self.key = key
        // K, ; and ` are what the Kelvin sign, the Greek question mark and
        // the Greek varia decompose to.
        plain = key.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "K") && $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: "`") }
    }

    /// Whether `s` has the same code units as the key.
    @inline(__always)
    func isLiterally(_ s: String) -> Bool {
        // For a plain key, equal bytes and canonical equivalence are the same
        // (and `==` answers two equal short strings at once).
        if plain { return s.utf8.count == key.utf8.count && s == key }
        return StringSemantics.literallyEqual(s, key)
    }

    @inline(__always)
    func value(in d: [String: Value]) -> Value {
        if plain && d.count <= 8 {
            // A plain key is only equal to a string of the same bytes, so the
            // length rules out most keys and `==` is byte equality here
            // (immediate for two short strings).
            let n = key.utf8.count
            for (k, v) in d where k.utf8.count == n && k == key { return v }
            return .null
        }
        return d[key] ?? .null
    }
}