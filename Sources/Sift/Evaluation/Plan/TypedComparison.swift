/// Comparisons of a typed key with a constant, compiled to a direct test on
/// the property's own type through its reader closure: `age > 30` reads an
/// `Int` and compares it, with no ``Value`` in between. The plan
/// (``EvaluationPlan``) takes them only where the answer is the general
/// path's; none of them throws. (Tests are not returned as optionals: a
/// function inside an `Optional` is re-abstracted and called through thunks.)
enum TypedComparison<Root> {
    typealias Test = @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool

    /// The test of `test` on the property `reader` reads (the plan has
    /// matched the two: ``KeyTest/typed(for:)``; `general` otherwise).
    static func make(_ reader: KeyReader<Root>, _ test: KeyTest, general: @escaping Test) -> Test {
        switch (reader.kind, test) {
        // One closure per type, comparing concrete values (a generic helper
        // would not be specialised, the root's type being unknown here).
        case (.int(let read), .int(let order, let c)):
            return { r, _ in order.holds(read(r), c) }
        case (.double(let read), .double(let order, let c)):
            return { r, _ in order.holds(read(r), c) }
        case (.string(let read), .string(let literal, let equal)):
            return { r, _ in literal.isLiterally(read(r)) == equal }
        case (.string(let read), .search(let needle)):
            return { r, _ in needle.found(in: read(r)) }
        case (.strings(let read), .strings(let literal, let any, let equal)):
            if any { return { r, _ in read(r).contains { literal.isLiterally($0) == equal } } }
            return { r, _ in read(r).allSatisfy { literal.isLiterally($0) == equal } }
        default:
            return general
        }
    }
}

/// A comparison of a property stored at a known offset in an object given by
/// address with a constant, as data, from which ``InPlaceComparison`` makes
/// its tests and ``InPlaceProgram`` its steps.
struct InPlaceLeaf: Sendable {
    let offset: Int
    let test: KeyTest
    /// Whether strings may be compared by the words of an inline string
    /// (``InlineString/layoutHolds``), and arrays of strings read from the
    /// array value (``StringArrayLayout/holds``): the plan's choice, by the
    /// layout checks.
    var inlineStrings = false
    var arraysInPlace = false

    /// Whether ``InPlaceProgram`` has a step of its own for it (others are
    /// run by their test): numbers, and strings where the layout check holds.
    var hasStep: Bool {
        switch test {
        case .int, .double: return true
        case .string, .strings: return inlineStrings
        case .search: return false
        }
    }

    /// Whether it compares an integer or a double.
    var isNumber: Bool {
        switch test {
        case .int, .double: return true
        case .string, .search, .strings: return false
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
        let offset = leaf.offset
        switch leaf.test {
        case .int(let order, let c): return ordered(Int.self, at: offset, order, c)
        case .double(let order, let c): return ordered(Double.self, at: offset, order, c)
        case .string(let literal, let equal):
            return { r, _ in
                literal.isLiterally(address(r, offset).assumingMemoryBound(to: String.self).pointee) == equal
            }
        case .search(let needle):
            return { r, _ in needle.found(in: address(r, offset).assumingMemoryBound(to: String.self).pointee) }
        case .strings(let literal, let any, let equal):
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
