/// Comparisons of a key path with a constant, compiled for ``Value`` roots
/// (dictionaries, decoded JSON) and for the rows of a ``ValueTable``: the
/// path is read straight through nested dictionaries, or from the table's
/// columns, and the common value kinds are compared on the spot (`age > 30`
/// on an integer, `name BEGINSWITH[c] 'ab'` on a string, `ANY tags == 'x'`
/// on an array of strings). Anything else (nil, another kind, a step that is
/// not a dictionary) goes to the general test of the same comparison, which
/// gives the answer or the error; so both always agree. The plan
/// (``EvaluationPlan``) chooses which comparisons are made here.
enum DynamicComparison {
    typealias Test = @Sendable (Value, EvaluationScope) throws(EvaluationError) -> Bool

    /// The test `t` of a value root, falling back on `general`.
    /// (Tests are never passed around as optionals: a function inside an
    /// `Optional` is re-abstracted, and every call would go through thunks.)
    static func make(_ t: ValueTest, general: @escaping Test) -> Test {
        path(t.keys, general, t.test)
    }

    /// How a comparison reads a ``ValueTable``'s rows: the arrays of its
    /// column end to end (ANY, ALL), its strings, or the column of the
    /// longest start of the key path (`rest` are the keys below it).
    enum TableTest: Sendable {
        case list(ValueTable.List, ElementTest)
        case strings(ValueTable.Strings, StringTest)
        case column([Value], rest: [LiteralString], ValueTest)
    }

    /// The test `t` of the rows of a ``ValueTable``, falling back on
    /// `general`. Generic, with rows given by index (`Root` is `Int`), so
    /// that the tests are made as the compiler of `Root` stores and calls
    /// them, without re-abstraction thunks.
    static func make<Root>(
        _ t: TableTest, general: @escaping @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool
    ) -> @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool {
        guard Root.self == Int.self else { return general }
        switch t {
        case .list(let list, let elements):
            // ANY/ALL over arrays held end to end: never the general test.
            let (bounds, items, isAny, matches) = (list.bounds, list.elements, elements.isAny, elements.matches)
            return { r, _ in
                let row = unsafeBitCast(r, to: Int.self)
                for i in bounds[row]..<bounds[row + 1] where matches(items[i]) == isAny { return isAny }
                return !isAny
            }
        case .strings(let strings, let string):
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
        case .column(let column, let rest, let t):
            let test = t.test
            if rest.isEmpty {
                return { r, scope throws(EvaluationError) in
                    // The value borrowed where it is, not copied out of the array.
                    let answer = column.withUnsafeBufferPointer { test($0[unsafeBitCast(r, to: Int.self)]) }
                    if let answer { return answer }
                    return try general(r, scope)
                }
            }
            // Keys below the deepest column: through the dictionaries in it.
            return { r, scope throws(EvaluationError) in
                if let v = value(at: rest, in: column[unsafeBitCast(r, to: Int.self)]), let answer = test(v) {
                    return answer
                }
                return try general(r, scope)
            }
        }
    }

    /// The test `t` of a record read into slots (`Root` is ``JSONSlots``),
    /// whose key path starts with the keys read into `slot` and goes on with
    /// `rest`, falling back on `general`. Generic, as for a table.
    static func make<Root>(
        slot: Int, rest: [LiteralString], _ t: ValueTest,
        general: @escaping @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool
    ) -> @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool {
        guard Root.self == JSONSlots.self else { return general }
        // A slot below a key that was not an object is unread: the general
        // path reads the key path from that key's value.
        let test = t.test
        if rest.isEmpty, let bytes = t.bytes?.test {
            // A string without escapes is tested on its bytes when they
            // tell; else it is made, and tested as any string.
            return { r, scope throws(EvaluationError) in
                let slots = unsafeBitCast(r, to: JSONSlots.self)
                let kind = slots.kinds[slot]
                if kind == JSONScan.plainString, let answer = bytes(slots.strings[slot]) { return answer }
                if kind != JSONScan.unread, let answer = test(slots.value(slot)) { return answer }
                return try general(r, scope)
            }
        }
        if rest.isEmpty {
            return { r, scope throws(EvaluationError) in
                let slots = unsafeBitCast(r, to: JSONSlots.self)
                if slots.kinds[slot] != JSONScan.unread, let answer = test(slots.value(slot)) { return answer }
                return try general(r, scope)
            }
        }
        return { r, scope throws(EvaluationError) in
            let slots = unsafeBitCast(r, to: JSONSlots.self)
            if slots.kinds[slot] != JSONScan.unread, let v = value(at: rest, in: slots.value(slot)),
                let answer = test(v)
            {
                return answer
            }
            return try general(r, scope)
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
        /// For the same comparisons, the test of a string given as its
        /// UTF-8 bytes, when the bytes can tell (nil: make the string).
        var bytes: BytesTest?
    }

    /// (A struct, not an optional function: a function inside an
    /// `Optional` would be called through a re-abstraction thunk.)
    struct StringTest: Sendable {
        let test: @Sendable (String) -> Bool
    }

    /// A test of a string's valid UTF-8 bytes: the answer, or nil when only
    /// the string itself can give it.
    struct BytesTest: Sendable {
        let test: @Sendable (UnsafeBufferPointer<UInt8>) -> Bool?
    }

    /// ANY (`isAny`) or ALL of a collection's elements, each tested by
    /// `matches`: true as soon as one matches for ANY, false as soon as one
    /// does not for ALL.
    struct ElementTest: Sendable {
        let isAny: Bool
        let matches: @Sendable (Value) -> Bool
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
}

extension DynamicComparison.ValueTest {
    /// The test of `k` on a value: a number of the constant's kind (not a
    /// NaN: the plan leaves those to the general path), a string, or the
    /// elements of an array or a set (for ANY and ALL).
    init(_ k: KeyComparison) {
        let keys = k.keys.map(LiteralString.init)
        switch k.test {
        case .int(let order, let c):
            self.init(keys: keys) { v in
                guard case .int(let x) = v else { return nil }
                return order.holds(x, c)
            }
        case .double(let order, let c):
            self.init(keys: keys) { v in
                guard case .double(let x) = v, !x.isNaN else { return nil }
                return order.holds(x, c)
            }
        case .string(let constant, let equal):
            self.init(keys: keys) { v in
                guard case .string(let x) = v else { return nil }
                return constant.isLiterally(x) == equal
            }
            string = DynamicComparison.StringTest { x in constant.isLiterally(x) == equal }
            if constant.plain {
                // Only a string of the same bytes is equal to a plain constant.
                let key = Array(constant.key.utf8)
                bytes = DynamicComparison.BytesTest { h in
                    (h.count == key.count && key.withUnsafeBufferPointer { h.elementsEqual($0) }) == equal
                }
            }
        case .search(let needle):
            self.init(keys: keys) { v in
                guard case .string(let x) = v else { return nil }
                return needle.found(in: x)
            }
            string = DynamicComparison.StringTest { x in needle.found(in: x) }
            bytes = DynamicComparison.BytesTest { h in needle.found(utf8: h) }
        case .strings(let literal, let isAny, let equal):
            let constant = Value.string(literal.key)
            let elements = DynamicComparison.ElementTest(isAny: isAny) { item in
                if case .string(let x) = item { return literal.isLiterally(x) == equal }
                return Ordering.equal(item, constant, options: []) == equal
            }
            // Equality never throws, so each element is compared here; only
            // a value that is not a collection goes to the general path.
            self.init(keys: keys) { v in
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
            self.elements = elements
        }
    }
}

/// An ordering comparison, applied without a closure call.
enum Order: Sendable {
    case less, lessOrEqual, greater, greaterOrEqual, equal, notEqual

    /// The order of an ordering or equality operator (its family's).
    init?(_ op: ComparisonOperator) {
        switch op.family {
        case .ordering(greater: false, orEqual: false): self = .less
        case .ordering(greater: false, orEqual: true): self = .lessOrEqual
        case .ordering(greater: true, orEqual: false): self = .greater
        case .ordering(greater: true, orEqual: true): self = .greaterOrEqual
        case .equality(let equal): self = equal ? .equal : .notEqual
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