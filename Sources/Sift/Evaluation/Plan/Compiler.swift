import Foundation

/// Turns a syntax tree into a tree of closures, once: each node's closure is
/// chosen by its operator, modifier and options, with constants, folded
/// search strings and compiled patterns prepared ahead of evaluation, and
/// the root's keys resolved to readers of its type.
struct Compiler<Root> {
    typealias ValueFunction = @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Value
    typealias TestFunction = @Sendable (Root, EvaluationScope) throws(EvaluationError) -> Bool

    let source: String
    let root: RootAccess<Root>
    /// The limits every MATCHES pattern of the predicate is compiled with.
    var regexLimits: RegexLimits = .default
    /// The longest string a FUNCTION may make
    /// (``Filter/maximumFunctionResultLength``).
    var functionResultLimit = Filter.defaultMaximumFunctionResultLength
    /// Whether the work is counted (``Filter/evaluationBudget``).
    let budgeted: Bool
    /// Whether fast paths may be taken, by ``EvaluationPaths``'s one rule
    /// (never with a budget): decided once, for the whole tree, so that
    /// evaluation pays nothing for the choice.
    let fastPaths: Bool

    init(
        source: String, root: RootAccess<Root>, regexLimits: RegexLimits = .default, budget: Int? = nil,
        paths: EvaluationPaths = .default, functionResultLimit: Int = Filter.defaultMaximumFunctionResultLength
    ) {
        self.source = source
        self.root = root
        self.regexLimits = regexLimits
        self.functionResultLimit = functionResultLimit
        self.budgeted = budget != nil
        self.fastPaths = paths.allowFastPaths(budget: budget)
    }

    /// The plan of `p`: each comparison's strategy, and the parts run as
    /// steps.
    func plan(_ p: PredicateNode) -> EvaluationPlan<Root> {
        EvaluationPlan(p, access: root, fastPaths: fastPaths)
    }

    /// The test of the whole predicate, each object with a budget of its own
    /// when `budget` is given.
    func test(_ p: PredicateNode, budget: Int?) -> CompiledTest<Root> {
        test(plan(p), budget: budget)
    }

    /// The test of the planned predicate, each object with a budget of its
    /// own when `budget` is given.
    func test(_ plan: EvaluationPlan<Root>, budget: Int?) -> CompiledTest<Root> {
        let run = predicate(plan.root)
        guard let budget else { return CompiledTest(run) }
        return CompiledTest { r, s throws(EvaluationError) in
            var scope = s
            scope.budget = WorkBudget(limit: budget)
            return try run(r, scope)
        }
    }

    /// Turns failures of the node at `range` into errors that point at it
    /// (at the whole predicate when the node has no range).
    private func failure(at range: SourceRange?) -> @Sendable (Failure) -> EvaluationError {
        let source = self.source
        let range = range ?? SourceRange(0, source.utf8.count)
        return { f in EvaluationError(f.code, f.message, range: range, source: source) }
    }

    // MARK: - Predicates

    /// The test of `p` (a predicate inside an expression), planned by the
    /// same rule as the whole predicate.
    func predicate(_ p: PredicateNode) -> TestFunction {
        predicate(EvaluationPlan.node(p, root, fastPaths))
    }

    func predicate(_ node: EvaluationPlan<Root>.Node) -> TestFunction {
        switch node {
        case .constant(let b):
            return { _, _ in b }
        case .steps(let program, _) where Root.self == ObjectAddress.self:
            return InPlaceComparison<Root>.test(program)
        case .steps(_, let planned):
            return predicate(planned)
        case .and(let children):
            return chain(children[...], until: false)
        case .or(let children):
            return chain(children[...], until: true)
        case .not(let child):
            let t = predicate(child)
            return { r, s throws(EvaluationError) in !(try t(r, s)) }
        case .comparison(let decision, let range):
            return comparison(decision, range: range)
        }
    }

    /// The tests of AND (`until` false) or OR (`until` true): each in
    /// turn until one gives `until`, which is the answer (else the other
    /// answer, also for none).
    ///
    /// Made of pairs, each closure holding the two halves of its tests, so
    /// that a function is always called from where it is held. A function
    /// stored in an array is called through re-abstraction thunks, and is
    /// copied when read: its context's reference count changes at every
    /// object, which, when threads share the filter, moves the count's cache
    /// line between cores. Halves keep the depth at log2 of the number of
    /// tests.
    private func chain(_ tests: ArraySlice<EvaluationPlan<Root>.Node>, until answer: Bool) -> TestFunction {
        if tests.isEmpty { return { _, _ in !answer } }
        if tests.count == 1 { return predicate(tests[tests.startIndex]) }
        let middle = tests.startIndex + tests.count / 2
        let (a, b) = (chain(tests[..<middle], until: answer), chain(tests[middle...], until: answer))
        if answer {
            return { r, s throws(EvaluationError) in
                if try a(r, s) { return true }
                return try b(r, s)
            }
        }
        return { r, s throws(EvaluationError) in
            guard try a(r, s) else { return false }
            return try b(r, s)
        }
    }

    /// The test of a comparison by the strategy its plan chose, with the
    /// general test as the reference it falls back on.
    private func comparison(_ decision: EvaluationPlan<Root>.Decision, range: SourceRange?) -> TestFunction {
        let c = decision.comparison
        let lhs = expression(c.lhs)
        let rhs = expression(c.rhs)
        var constant: Value?
        if case .constant(let v) = c.rhs.kind { constant = v }
        let test = Operators.make(
            c.op, c.options, constant: constant, regexLimits: regexLimits, fastPaths: fastPaths,
            functionResultLimit: functionResultLimit)
        let fail = failure(at: range)
        let general = general(c, lhs, rhs, test, fail, range: range)
        // Each emitter is called only for the root it is made for (the plan
        // chooses it for no other): the check, constant in each compiler of a
        // root, keeps the others from having copies of its closures, which
        // the optimiser would merge behind a forwarding thunk.
        switch decision.strategy {
        case .general: return general
        case .inPlace(let leaf) where Root.self == ObjectAddress.self: return InPlaceComparison<Root>.test(leaf)
        case .typedReader(let reader, let test) where Root.self == ObjectAddress.self:
            return TypedComparison<Root>.make(reader, test, general: general)
        case .dictionary(let t): return root.dictionaryTest(t, general)
        case .table(let t): return DynamicComparison.make(t, general: general)
        case .slot(let slot, let rest, let t): return DynamicComparison.make(slot: slot, rest: rest, t, general: general)
        case .inPlace, .typedReader: return general
        }
    }

    private func general(
        _ c: Comparison, _ lhs: @escaping ValueFunction, _ rhs: @escaping ValueFunction, _ test: @escaping Operators.Test,
        _ fail: @escaping @Sendable (Failure) -> EvaluationError, range: SourceRange?
    ) -> TestFunction {
        let source = self.source
        switch c.modifier {
        case .direct:
            let cost = c.op.family.costClass
            return { r, s throws(EvaluationError) in
                let a = try lhs(r, s)
                let b = try rhs(r, s)
                try s.charge(s.budget?.comparison(a, b, cost) ?? 0, fail)
                do throws(Failure) { return try test(a, b) } catch { throw fail(error) }
            }
        case .any, .all:
            let isAny = c.modifier == .any
            let lhsRange = c.lhs.range ?? range
            let cost = c.op.family.costClass
            return { r, s throws(EvaluationError) in
                let collection = try lhs(r, s)
                let b = try rhs(r, s)
                try s.charge(s.budget?.comparison(collection, b, cost) ?? 0, fail)
                let elements: [Value]
                switch collection {
                case .array(let items): elements = items
                case .set(let items): elements = Array(items)
                case .null, .nsNull: return !isAny
                default:
                    throw EvaluationError(
                        .notACollection,
                        "the left side of \((isAny ? ComparisonModifier.any : .all).keyword ?? "") must be an array or a set, not \(Functions.describe(collection))",
                        range: lhsRange ?? SourceRange(0, source.utf8.count), source: source)
                }
                do throws(Failure) {
                    for element in elements where try test(element, b) == isAny { return isAny }
                } catch {
                    throw fail(error)
                }
                return !isAny
            }
        }
    }

    // MARK: - Expressions

    func expression(_ e: ExpressionNode) -> ValueFunction {
        if budgeted, let counted = countedPath(e) { return counted }
        let compiled = uncounted(e)
        return budgeted ? counting(compiled, e) : compiled
    }

    /// With a budget, every value an expression makes or reads is counted
    /// (its size, and 1 for the node), so that work no comparison sees (an
    /// aggregate of many reads, an index into a large set) is bounded too.
    private func counting(_ compiled: @escaping ValueFunction, _ e: ExpressionNode) -> ValueFunction {
        switch e.kind {
        case .constant, .variable, .evaluatedObject: return compiled
        default: break
        }
        let fail = failure(at: e.range)
        return { r, s throws(EvaluationError) in
            let v = try compiled(r, s)
            try s.charge(1 &+ WorkBudget.size(v, cap: max(s.budget?.remaining ?? 0, 0)), fail)
            return v
        }
    }

    private func uncounted(_ e: ExpressionNode) -> ValueFunction {
        let fail = failure(at: e.range)
        switch e.kind {
        case .constant(let v):
            return { _, _ in v }
        case .evaluatedObject:
            let whole = root.value
            return { r, _ in whole(r) }
        case .variable(let name):
            return { r, s throws(EvaluationError) in
                guard let v = s.variables[name] else {
                    throw fail(Failure(.unboundVariable, Messages.noValue(forVariable: name)))
                }
                return v
            }
        case .keyPath(let keys):
            guard let first = keys.first, !CollectionOperator.isOperator(first) else {
                // A collection operator applies to the root as a whole.
                let whole = root.value
                return { r, _ throws(EvaluationError) in
                    do throws(Failure) { return try KeyValueAccess.value(whole(r), path: keys) } catch { throw fail(error) }
                }
            }
            let read = reader(first)
            if keys.count == 1 {
                return { r, _ throws(EvaluationError) in
                    do throws(Failure) { return try read(r) } catch { throw fail(error) }
                }
            }
            let rest = Array(keys.dropFirst())
            return { r, _ throws(EvaluationError) in
                do throws(Failure) { return try KeyValueAccess.value(read(r), path: rest) } catch { throw fail(error) }
            }
        case .path(let base, let keys):
            let b = expression(base)
            return { r, s throws(EvaluationError) in
                let v = try b(r, s)
                do throws(Failure) { return try KeyValueAccess.value(v, path: keys) } catch { throw fail(error) }
            }
        case .variableKey(let base, let key):
            return variableKey(base, key, fail)
        case .aggregate(let items):
            let fns = items.map(expression)
            return { r, s throws(EvaluationError) in
                var out: [Value] = []
                out.reserveCapacity(fns.count)
                for f in fns { out.append(try f(r, s)) }
                return .array(out)
            }
        case .function(let f, let args):
            // A tree built by hand (the node kinds are public) may have any
            // number of arguments; parsing and decoding never give one that
            // does not match the selector.
            if let problem = e.kind.structuralProblem {
                return { _, _ throws(EvaluationError) in throw fail(Failure(.unsupported, problem)) }
            }
            let fns = args.map(expression)
            if fns.count == 2 && !budgeted {
                let (a, b) = (fns[0], fns[1])
                return { r, s throws(EvaluationError) in
                    let x = try a(r, s)
                    let y = try b(r, s)
                    do throws(Failure) { return try Functions.call(f, [x, y]) } catch { throw fail(error) }
                }
            }
            return { r, s throws(EvaluationError) in
                var values: [Value] = []
                values.reserveCapacity(fns.count)
                for fn in fns { values.append(try fn(r, s)) }
                try s.charge(values.reduce(0) { $0.addingSaturating(WorkBudget.size($1, cap: max(s.budget?.remaining ?? 0, 0))) }, fail)
                do throws(Failure) { return try Functions.call(f, values) } catch { throw fail(error) }
            }
        case .index(let base, let sub):
            let b = expression(base)
            switch sub {
            case .expression(let i):
                let index = expression(i)
                return { r, s throws(EvaluationError) in
                    let container = try b(r, s)
                    let key = try index(r, s)
                    do throws(Failure) { return try Indexing.value(container, key) } catch { throw fail(error) }
                }
            case .first, .last, .size:
                return { r, s throws(EvaluationError) in
                    let container = try b(r, s)
                    do throws(Failure) { return try Indexing.value(container, sub) } catch { throw fail(error) }
                }
            }
        case .invocation(let receiver, let selector, let args):
            let recv = expression(receiver)
            let fns = args.map(expression)
            let limit = functionResultLimit
            return { r, s throws(EvaluationError) in
                let target = try recv(r, s)
                var values: [Value] = []
                for fn in fns { values.append(try fn(r, s)) }
                do throws(Failure) {
                    return try Functions.invoke(selector, on: target, values, maximumLength: limit)
                } catch { throw fail(error) }
            }
        case .cast(let value, let type):
            let v = expression(value)
            return { r, s throws(EvaluationError) in
                let x = try v(r, s)
                do throws(Failure) { return try Functions.cast(x, to: type) } catch { throw fail(error) }
            }
        case .ternary(let p, let a, let b):
            let test = predicate(p)
            let whenTrue = expression(a)
            let whenFalse = expression(b)
            return { r, s throws(EvaluationError) in
                if try test(r, s) { return try whenTrue(r, s) }
                return try whenFalse(r, s)
            }
        case .subquery(let collection, let variable, let p):
            let c = expression(collection)
            let test = predicate(p)
            return { r, s throws(EvaluationError) in
                let items = try c(r, s)
                try s.charge(WorkBudget.count(items), fail)
                var inner = s
                switch items {
                case .array(let elements):
                    var out: [Value] = []
                    for element in elements {
                        inner.variables[variable] = element
                        if try test(r, inner) { out.append(element) }
                    }
                    return .array(out)
                case .set(let elements):
                    var out = Set<Value>()
                    for element in elements {
                        inner.variables[variable] = element
                        if try test(r, inner) { out.insert(element) }
                    }
                    return .set(out)
                default:
                    throw fail(Failure(.notACollection, "SUBQUERY needs an array or a set, not \(Functions.describe(items))"))
                }
            }
        case .setOperation(let operation, let left, let right):
            let a = expression(left)
            let b = expression(right)
            return { r, s throws(EvaluationError) in
                let x = try a(r, s)
                let y = try b(r, s)
                // Every element of both sides is hashed (a variable's value
                // is counted nowhere else).
                let cap = max(s.budget?.remaining ?? 0, 0)
                try s.charge(WorkBudget.size(x, cap: cap).addingSaturating(WorkBudget.size(y, cap: cap)), fail)
                do throws(Failure) { return try SetExpressions.apply(operation, x, y) } catch { throw fail(error) }
            }
        case .assignment(_, let value):
            // `$x := value` gives the value; its binding for later use is not
            // defined by Foundation and is not kept.
            return expression(value)
        case .anyKey:
            return { _, _ throws(EvaluationError) in
                throw fail(Failure(.unsupported, "ANYKEY is only meaningful to Spotlight queries"))
            }
        }
    }

    /// The reader of the root's key `key`: a table's column when the plan
    /// reads it from one. (Apart from ``uncounted(_:)``,
    /// whose frame every level of a nested expression takes when compiling.)
    private func reader(_ key: String) -> RootAccess<Root>.Reader {
        if let column = EvaluationPlan.column(key, root, fastPaths) {
            return { r throws(Failure) in column[unsafeBitCast(r, to: Int.self)] }
        }
        return root.reader(key)
    }

    /// `base.$NAME` when `$NAME` was not substituted: its value comes with
    /// the evaluation (``Filter/evaluate(with:variables:)``, a SUBQUERY
    /// variable) and is taken as substitution takes it, a key path string.
    private func variableKey(
        _ base: ExpressionNode, _ key: ExpressionNode, _ fail: @escaping @Sendable (Failure) -> EvaluationError
    ) -> ValueFunction {
        guard case .variable(let name) = key.kind else {
            // Only a tree built by hand has another key (decoding refuses it).
            return { _, _ throws(EvaluationError) in
                throw fail(Failure(.unsupported, "the key after '.' must be a variable such as $key"))
            }
        }
        let b = expression(base)
        let k = expression(key)
        let failAtKey = failure(at: key.range)
        return { r, s throws(EvaluationError) in
            let v = try b(r, s)
            let keys: [String]
            switch ExpressionNode.keys(ofVariable: name, try k(r, s)) {
            case .success(let named): keys = named
            case .failure(let problem): throw failAtKey(Failure(.typeMismatch, problem.message))
            }
            do throws(Failure) { return try KeyValueAccess.value(v, path: keys) } catch { throw fail(error) }
        }
    }

    /// With a budget, a key path with a collection operator counts the
    /// collection the operator reads, not only its answer. (Apart from
    /// ``expression(_:)``, whose frame every level of a nested expression
    /// takes when compiling.)
    private func countedPath(_ e: ExpressionNode) -> ValueFunction? {
        let prefix: ValueFunction
        let rest: [String]
        // A collection operator reads its collection whole, and a method
        // key (`s.boolValue`, `s.uppercaseString`) its receiver: each is
        // counted before it runs, and a method key's value after.
        let counted = { (key: String) in CollectionOperator.isOperator(key) || KeyValueAccess.methodKeys.contains(key) }
        switch e.kind {
        case .keyPath(let keys):
            guard let at = keys.firstIndex(where: counted) else { return nil }
            prefix = at == 0 ? expression(ExpressionNode(.evaluatedObject)) : expression(ExpressionNode(.keyPath(Array(keys[..<at])), range: e.range))
            rest = Array(keys[at...])
        case .path(let base, let keys):
            guard let at = keys.firstIndex(where: counted) else { return nil }
            prefix = at == 0 ? expression(base) : expression(ExpressionNode(.path(base, Array(keys[..<at])), range: e.range))
            rest = Array(keys[at...])
        default:
            return nil
        }
        let fail = failure(at: e.range)
        return { r, s throws(EvaluationError) in
            var v = try prefix(r, s)
            for (i, key) in rest.enumerated() {
                let size = { (v: Value) in WorkBudget.size(v, cap: max(s.budget?.remaining ?? 0, 0)) }
                if CollectionOperator.isOperator(key) {
                    try s.charge(size(v), fail)
                    do throws(Failure) { return try KeyValueAccess.value(v, path: rest[i...]) } catch { throw fail(error) }
                }
                // A dictionary (or an object, or nil) looks the key up: only
                // other values run the method.
                var method = KeyValueAccess.methodKeys.contains(key)
                switch v {
                case .dictionary, .object, .null, .nsNull: method = false
                default: break
                }
                if method { try s.charge(size(v), fail) }
                do throws(Failure) { v = try KeyValueAccess.value(v, key: key) } catch { throw fail(error) }
                if method { try s.charge(size(v), fail) }
            }
            return v
        }
    }
}

/// `collection[index]`, `[FIRST]`, `[LAST]`, `[SIZE]`, `dictionary["key"]`.
enum Indexing {
    static func value(_ container: Value, _ index: Value) throws(Failure) -> Value {
        switch container {
        case .array(let items):
            guard let n = NumericValue(index), let i = n.exactInt else {
                throw Failure(.typeMismatch, "an array index must be an integer, not \(Functions.describe(index))")
            }
            guard items.indices.contains(i) else {
                throw Failure(.indexOutOfRange, "index \(i) is beyond the bounds of an array of \(items.count)")
            }
            return items[i]
        case .dictionary(let d):
            guard case .string(let key) = index else {
                throw Failure(.typeMismatch, "a dictionary key must be a string, not \(Functions.describe(index))")
            }
            return d[key] ?? .null
        case .set(let items):
            return items.contains(index) ? index : .null
        default:
            throw Failure(.typeMismatch, "cannot index \(Functions.describe(container))")
        }
    }

    static func value(_ container: Value, _ sub: ExpressionNode.Subscript) throws(Failure) -> Value {
        let items: [Value]
        switch container {
        case .array(let a): items = a
        case .set(let s): items = Array(s)
        case .dictionary(let d): items = d.keys.sorted().compactMap { d[$0] }
        default:
            throw Failure(.typeMismatch, "cannot index \(Functions.describe(container))")
        }
        switch sub {
        case .first: return items.first ?? .null
        case .last: return items.last ?? .null
        case .size: return .int(items.count)
        case .expression: return .null
        }
    }
}
