/// How a compiled predicate reads its roots: the access strategy of its
/// plan. The planner (``EvaluationPlan``) chooses each comparison's way of
/// being answered from it.
enum AccessKind: Sendable {
    /// Objects of a ``KeyValueReadable`` type given by address: a stored
    /// property at a known offset is read in place, any other key through its
    /// typed reader closure.
    case object
    /// ``Value``s (dictionaries, decoded JSON): key paths are walked through
    /// nested dictionaries.
    case dictionary
    /// The rows of a ``ValueTable``, given by index: keys are read from the
    /// table's columns.
    case table(ValueTable)
    /// A record's raw JSON bytes, given as the slots its scan read them
    /// into (``JSONSlots``): a key path is read from its slot, and tested as
    /// the dictionary walk tests the value at the end of the path.
    case record(JSONScan)
}

/// A comparison of a key path with a constant, in the form every fast path
/// answers: `age > 30`, `name BEGINSWITH[c] 'ab'`, `ANY tags == 'x'`,
/// `'x' IN tags`. Anything else (another operator, options, a constant of
/// another kind, a collection operator in the path) has only the general
/// path.
struct KeyComparison: Sendable {
    let keys: [String]
    let test: KeyTest
    /// Whether it was written `'x' IN keys` (`test` is then ANY `==`).
    let isMembership: Bool

    init?(_ c: Comparison) {
        switch (c.lhs.kind, c.rhs.kind, c.modifier) {
        case (.keyPath(let keys), .constant(let k), .direct):
            switch k {
            case .int(let v):
                guard let order = Order(c.op) else { return nil }
                test = .int(order, v)
            case .double(let v):
                guard let order = Order(c.op) else { return nil }
                test = .double(order, v)
            case .string(let v):
                if case .equality(let equal) = c.op.family {
                    guard c.options.isEmpty || c.options == [.normalized] else { return nil }
                    test = .string(LiteralString(v), equal: equal)
                } else if let search = c.op.family.stringSearch, search.needleOnRight,
                    !c.options.contains(.swiftString)
                {
                    test = .search(StringSemantics.Needle(v, search.kind, c.options))
                } else {
                    return nil
                }
            default:
                return nil
            }
            self.keys = keys
            isMembership = false
        case (.constant(.string(let k)), .keyPath(let keys), .direct)
        where c.op.family == .membership(containerOnLeft: false) && c.options.isEmpty:
            self.keys = keys
            test = .strings(LiteralString(k), any: true, equal: true)
            isMembership = true
        case (.keyPath(let keys), .constant(.string(let k)), .any), (.keyPath(let keys), .constant(.string(let k)), .all):
            guard case .equality(let equal) = c.op.family, c.options.isEmpty else { return nil }
            self.keys = keys
            test = .strings(LiteralString(k), any: c.modifier == .any, equal: equal)
            isMembership = false
        default:
            return nil
        }
        guard !keys.isEmpty, !keys.contains(where: CollectionOperator.isOperator) else { return nil }
    }
}

/// The test of a ``KeyComparison`` on the value at its key path, on the
/// value's own type. None of them throws.
enum KeyTest: Sendable {
    case int(Order, Int)
    case double(Order, Double)
    /// `==` (`equal`) or `!=` with a string.
    case string(LiteralString, equal: Bool)
    case search(StringSemantics.Needle)
    /// `ANY strings == literal` (`any`, `equal`), `ALL strings != literal`, ….
    case strings(LiteralString, any: Bool, equal: Bool)

    /// The test for a typed property read as `kind`, when it answers as the
    /// general path does: numbers of the property's own type (an integer
    /// constant for a `Double` only where the double holds it exactly),
    /// strings for `String`, arrays of strings for `[String]`.
    func typed<Root>(for kind: KeyReader<Root>.Kind) -> KeyTest? {
        switch (kind, self) {
        case (.int, .int), (.double, .double), (.string, .string), (.string, .search), (.strings, .strings): return self
        case (.double, .int(let order, let i)) where i.magnitude <= 1 << 53: return .double(order, Double(i))
        default: return nil
        }
    }
}

/// A predicate compiled once into plan nodes: each comparison with the way
/// it is answered and the reason, chosen by one rule (``strategy(_:_:_:)``) from
/// the root's access (``AccessKind``), the key readers and columns it has,
/// and whether fast paths may be taken at all (``EvaluationPaths``, a
/// budget). The emitters (``Compiler``, ``InPlaceProgram``,
/// ``TypedComparison``, ``DynamicComparison``) make the closures and steps of
/// the strategies chosen, and decide nothing. Every fast path has the
/// general path's test of the same comparison as its reference: the tests
/// compare the two on random trees.
struct EvaluationPlan<Root>: Sendable {
    /// How one comparison is answered.
    enum Strategy: Sendable {
        /// A stored property read in place, at its offset in the object.
        case inPlace(InPlaceLeaf)
        /// A typed reader closure of the object's type.
        case typedReader(KeyReader<Root>, KeyTest)
        /// The key path walked through dictionaries, the value tested on the
        /// spot (the general test where it has no answer).
        case dictionary(DynamicComparison.ValueTest)
        /// A ``ValueTable``'s column, strings or arrays end to end.
        case table(DynamicComparison.TableTest)
        /// The slot a record's scan read the key path (or its start, `rest`
        /// being the keys below it) into.
        case slot(Int, rest: [LiteralString], DynamicComparison.ValueTest)
        /// The general test: both sides read as ``Value``s and compared.
        case general

        /// Its name, as the plan's description gives it.
        var name: String {
            switch self {
            case .inPlace: "in place"
            case .typedReader: "typed reader"
            case .dictionary: "dictionary walk"
            case .table(.list): "table list"
            case .table(.strings): "table strings"
            case .table(.column): "table column"
            case .slot: "record slot"
            case .general: "general"
            }
        }
    }

    /// A comparison, its strategy and why it was chosen.
    struct Decision: Sendable {
        let comparison: Comparison
        let strategy: Strategy
        let reason: String
    }

    indirect enum Node: Sendable {
        case constant(Bool)
        case and([Node])
        case or([Node])
        case not(Node)
        case comparison(Decision, range: SourceRange?)
        /// AND, OR and NOT of comparisons all read in place, run as steps
        /// (the planned node is kept for the description).
        case steps(InPlaceProgram, Node)
    }

    let root: Node

    /// The steps of the whole predicate, when it is run as steps.
    var program: InPlaceProgram? {
        if case .steps(let program, _) = root { return program }
        return nil
    }

    // MARK: - The planner

    /// Plans `p` for roots read by `access`, taking fast paths only when
    /// `fastPaths` (``EvaluationPaths/allowFastPaths(budget:)``).
    init(_ p: PredicateNode, access: RootAccess<Root>, fastPaths: Bool) {
        root = Self.steps(Self.planned(p, access, fastPaths), whole: true)
    }

    /// The plan of a predicate inside an expression (a SUBQUERY's, a
    /// ternary's condition).
    static func node(_ p: PredicateNode, _ access: RootAccess<Root>, _ fastPaths: Bool) -> Node {
        steps(planned(p, access, fastPaths), whole: false)
    }

    private static func planned(_ p: PredicateNode, _ access: RootAccess<Root>, _ fastPaths: Bool) -> Node {
        switch p.kind {
        case .constant(let b): return .constant(b)
        case .and(let children): return .and(children.map { planned($0, access, fastPaths) })
        case .or(let children): return .or(children.map { planned($0, access, fastPaths) })
        case .not(let child): return .not(planned(child, access, fastPaths))
        case .comparison(let c):
            let (strategy, reason) = strategy(c, access, fastPaths)
            return .comparison(Decision(comparison: c, strategy: strategy, reason: reason), range: p.range)
        }
    }

    /// `node` with its largest AND, OR and NOT read wholly in place run as
    /// steps, and the whole predicate (`whole`) when it is one comparison
    /// read in place (for the loops over an array's buffer). A lone
    /// comparison without a step of its own (a search, a string where the
    /// layout check fails) is left to its test, which is as fast.
    private static func steps(_ node: Node, whole: Bool) -> Node {
        switch node {
        case .comparison where !whole, .constant, .steps: return node
        case _ where readsInPlace(node): return isLoneTest(node) ? node : .steps(InPlaceProgram(node), node)
        case .and(let children): return .and(children.map { steps($0, whole: false) })
        case .or(let children): return .or(children.map { steps($0, whole: false) })
        case .not(let child): return .not(steps(child, whole: false))
        case .comparison: return node
        }
    }

    /// Whether `node` is one comparison (through NOT, or an AND or OR of one)
    /// that has no step of its own.
    private static func isLoneTest(_ node: Node) -> Bool {
        switch node {
        case .and(let children), .or(let children): return children.count == 1 && isLoneTest(children[0])
        case .not(let child): return isLoneTest(child)
        case .comparison(let d, _):
            guard case .inPlace(let leaf) = d.strategy else { return false }
            return !leaf.hasStep
        case .constant, .steps: return false
        }
    }

    /// Whether `node` is made of AND, OR, NOT and comparisons read in place,
    /// or is run as steps already.
    private static func readsInPlace(_ node: Node) -> Bool {
        switch node {
        case .and(let children), .or(let children): return !children.isEmpty && children.allSatisfy(readsInPlace)
        case .not(let child): return readsInPlace(child)
        case .comparison(let d, _): if case .inPlace = d.strategy { return true } else { return false }
        case .steps: return true
        case .constant: return false
        }
    }

    /// The one rule: how comparison `c` is answered for roots read by
    /// `access`, and why.
    static func strategy(_ c: Comparison, _ access: RootAccess<Root>, _ fastPaths: Bool) -> (Strategy, String) {
        guard fastPaths else { return (.general, "fast paths are off (EvaluationPaths.generalOnly, or a budget)") }
        guard let k = KeyComparison(c) else {
            return (.general, "not a key path compared with a constant the fast paths answer")
        }
        switch access.kind {
        case .object:
            guard let reader = access.typedPath(k.keys) else { return (.general, "no typed reader for the key path") }
            guard let test = k.test.typed(for: reader.kind) else {
                return (.general, "the property's type does not answer this comparison as the general path does")
            }
            guard let offset = reader.offset else { return (.typedReader(reader, test), "no offset: read by its typed reader") }
            var leaf = InPlaceLeaf(offset: offset, test: test)
            var reason = "a stored property at offset \(offset)"
            switch test {
            case .string, .strings:
                // Steps read the standard library's layouts only where their
                // checks hold; elsewhere strings and arrays are read as any
                // code reads them.
                leaf.inlineStrings = InlineString.layoutHolds
                leaf.arraysInPlace = StringArrayLayout.holds
                reason += leaf.inlineStrings ? ", inline strings by their words" : ", strings by their test (layout check failed)"
            case .int, .double, .search: break
            }
            return (.inPlace(leaf), reason)
        case .dictionary, .table, .record:
            if k.isMembership { return (.general, "'x' IN a key path of a dictionary has no fast path") }
            if case .double(_, let v) = k.test, v.isNaN { return (.general, "a NaN constant") }
            let test = DynamicComparison.ValueTest(k)
            if case .record(let scan) = access.kind {
                guard let (slot, used) = scan.slot(k.keys) else { return (.general, "no slot for the key path") }
                return (.slot(slot, rest: Array(test.keys.dropFirst(used)), test), "the slot of \(used) of the keys")
            }
            guard case .table(let table) = access.kind else {
                return (.dictionary(test), "the key path is walked through dictionaries")
            }
            if let elements = test.elements, let list = table.list(test.keys) {
                return (.table(.list(list, elements)), "the arrays of the key path's column, end to end")
            }
            if let string = test.string, let strings = table.strings(test.keys) {
                return (.table(.strings(strings, string)), "the key path's column holds strings and nils")
            }
            guard let (column, used) = table.column(test.keys) else {
                return (.general, "no column for the key path's first key")
            }
            return (.table(.column(column, rest: Array(test.keys.dropFirst(used)), test)), "a column for \(used) of the keys")
        }
    }

    /// The column a table's key `key` is read from, when fast paths may be
    /// taken and it has one; nil: the row's own reader.
    static func column(_ key: String, _ access: RootAccess<Root>, _ fastPaths: Bool) -> [Value]? {
        guard fastPaths, case .table(let table) = access.kind else { return nil }
        return table.column(key)
    }

    // MARK: - Description

    /// Every comparison of the plan with its strategy and reason, in order:
    /// `age > 30: in place (a stored property at offset 8)`.
    var decisions: [Decision] {
        var out: [Decision] = []
        func visit(_ node: Node) {
            switch node {
            case .constant: break
            case .and(let children), .or(let children): children.forEach(visit)
            case .not(let child), .steps(_, let child): visit(child)
            case .comparison(let d, _): out.append(d)
            }
        }
        visit(root)
        return out
    }

    /// The plan, one line a node: the steps, and each comparison's strategy
    /// and reason.
    var description: String {
        var lines: [String] = []
        func visit(_ node: Node, _ indent: String) {
            switch node {
            case .constant(let b): lines.append(indent + (b ? "TRUEPREDICATE" : "FALSEPREDICATE"))
            case .and(let children): lines.append(indent + "AND"); children.forEach { visit($0, indent + "  ") }
            case .or(let children): lines.append(indent + "OR"); children.forEach { visit($0, indent + "  ") }
            case .not(let child): lines.append(indent + "NOT"); visit(child, indent + "  ")
            case .steps(let program, let child):
                lines.append(indent + "steps (\(program.steps.count))")
                visit(child, indent + "  ")
            case .comparison(let d, _):
                let format = FormatPrinter.format(PredicateNode(.comparison(d.comparison)))
                lines.append(indent + "\(format): \(d.strategy.name) (\(d.reason))")
            }
        }
        visit(root, "")
        return lines.joined(separator: "\n")
    }
}
