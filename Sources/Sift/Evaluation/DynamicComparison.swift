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
        guard case .keyPath(let names) = c.lhs.kind, case .constant(let k) = c.rhs.kind,
            !names.isEmpty, names.allSatisfy({ !$0.hasPrefix("@") })
        else { return general }
        let keys = names.map(LiteralString.init)
        switch c.modifier {
        case .direct:
            return direct(c.op, c.options, k, keys, general)
        case .any, .all:
            guard c.op == .equalTo || c.op == .notEqualTo, c.options.isEmpty, case .string(let s) = k else { return general }
            let equal = c.op == .equalTo
            let isAny = c.modifier == .any
            let constant = k
            let literal = LiteralString(s)
            // Equality never throws, so each element is compared here; only
            // a value that is not a collection goes to the general path.
            return path(keys, general) { v in
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
                var current = root
                for key in keys {
                    guard case .dictionary(let d) = current else { return try general(root, scope) }
                    current = key.value(in: d)
                }
                if let answer = test(current) { return answer }
                return try general(root, scope)
            }
        }
    }

    /// `key op constant` on one value.
    private static func direct(
        _ op: ComparisonOperator, _ options: ComparisonOptions, _ k: Value, _ keys: [LiteralString],
        _ general: @escaping Test
    ) -> Test {
        switch k {
        case .int(let c):
            guard let order = Order(op) else { return general }
            return path(keys, general) { v in
                guard case .int(let x) = v else { return nil }
                return order.holds(x, c)
            }
        case .double(let c) where !c.isNaN:
            guard let order = Order(op) else { return general }
            return path(keys, general) { v in
                guard case .double(let x) = v, !x.isNaN else { return nil }
                return order.holds(x, c)
            }
        case .string(let c):
            switch op {
            case .equalTo, .notEqualTo:
                guard options.isEmpty || options == [.normalized] else { return general }
                let equal = op == .equalTo
                let constant = LiteralString(c)
                return path(keys, general) { v in
                    guard case .string(let x) = v else { return nil }
                    return constant.isLiterally(x) == equal
                }
            case .beginsWith, .endsWith, .contains:
                let needle = StringSemantics.Needle(c, StringSemantics.Search(op), options)
                return path(keys, general) { v in
                    guard case .string(let x) = v else { return nil }
                    return needle.found(in: x)
                }
            default:
                return general
            }
        default:
            return general
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