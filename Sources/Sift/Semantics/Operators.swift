import Foundation

/// Comparison operators as functions of two values, built once per
/// comparison node with everything that depends only on the node (options,
/// a constant right side's folded form, compiled LIKE and MATCHES patterns)
/// worked out in advance. With `fastPaths` (``EvaluationPaths``) a constant
/// searched for takes the byte-wise searches of ASCII and Latin strings.
enum Operators {
    typealias Test = @Sendable (Value, Value) throws(Failure) -> Bool

    static func make(
        _ op: ComparisonOperator, _ options: ComparisonOptions, constant: Value?, regexLimits: RegexLimits,
        fastPaths: Bool, functionResultLimit: Int = Filter.defaultMaximumFunctionResultLength
    ) -> Test {
        let name = op.symbol
        switch op.family {
        case .equality(let equal):
            if equal { return { a, b throws(Failure) in Ordering.equal(a, b, options: options) } }
            return { a, b throws(Failure) in !Ordering.equal(a, b, options: options) }
        case .ordering(greater: false, orEqual: false):
            return ordering(options, bothNil: false) { $0 == .orderedAscending }
        case .ordering(greater: false, orEqual: true):
            return ordering(options, bothNil: true) { $0 != .orderedDescending }
        case .ordering(greater: true, orEqual: false):
            return ordering(options, bothNil: false) { $0 == .orderedDescending }
        case .ordering(greater: true, orEqual: true):
            return ordering(options, bothNil: true) { $0 != .orderedAscending }
        case .range:
            return between(options, name)
        case .search(let kind):
            return search(kind, name, options, constant: constant, fastPaths: fastPaths)
        case .membership(containerOnLeft: true):
            return { a, b throws(Failure) in try contains(a, b, options, name, containerOnLeft: true) }
        case .membership(containerOnLeft: false):
            return { a, b throws(Failure) in try contains(b, a, options, name, containerOnLeft: false) }
        case .pattern(.wildcard):
            return wildcard(options, name, constant: constant)
        case .pattern(.regularExpression):
            return regularExpression(options, name, constant: constant, limits: regexLimits)
        case .typeTest(let equals):
            return { a, b throws(Failure) in
                if a.isNull || b.isNull { return false }
                guard case .string(let x) = a, case .string(let y) = b else {
                    throw Failure(.typeMismatch, "\(name) needs type identifier strings")
                }
                return equals ? x == y : Functions.conforms(x, to: y)
            }
        case .selector:
            // A custom selector's symbol is the selector.
            return { a, b throws(Failure) in
                let result = try Functions.invoke(name, on: a, [b], maximumLength: functionResultLimit)
                guard let n = NumericValue(result) else {
                    throw Failure(.typeMismatch, "\(name) did not give a boolean")
                }
                return n.doubleValue != 0
            }
        }
    }

    private static func ordering(
        _ options: ComparisonOptions, bothNil: Bool, _ accept: @escaping @Sendable (ComparisonResult) -> Bool
    ) -> Test {
        return { a, b throws(Failure) in
            // Fast paths: two integers, two doubles.
            if case .int(let x) = a, case .int(let y) = b {
                return accept(x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame))
            }
            if case .double(let x) = a, case .double(let y) = b, !x.isNaN, !y.isNaN {
                return accept(x < y ? .orderedAscending : (x > y ? .orderedDescending : .orderedSame))
            }
            if a.isNull || b.isNull { return a.isNull && b.isNull && bothNil }
            if case .double(let x) = a, x.isNaN { return false }
            if case .double(let y) = b, y.isNaN { return false }
            return accept(try Ordering.compare(a, b, options: options))
        }
    }

    private static func between(_ options: ComparisonOptions, _ name: String) -> Test {
        return { a, b throws(Failure) in
            let bounds: [Value]
            switch b {
            case .array(let items): bounds = items
            default:
                throw Failure(
                    .typeMismatch, "\(name) needs a collection of two bounds, as in {1, 10}, not \(Functions.describe(b))")
            }
            guard bounds.count == 2 else {
                throw Failure(.typeMismatch, "\(name) needs exactly two bounds, got \(bounds.count)")
            }
            if a.isNull || bounds[0].isNull || bounds[1].isNull { return false }
            // NaN is neither greater nor less than anything, as for < and >.
            for v in [a, bounds[0], bounds[1]] { if case .double(let x) = v, x.isNaN { return false } }
            guard try Ordering.compare(a, bounds[0], options: options) != .orderedAscending else { return false }
            return try Ordering.compare(a, bounds[1], options: options) != .orderedDescending
        }
    }

    private static func strings(_ a: Value, _ b: Value, _ name: String) throws(Failure) -> (String, String)? {
        if a.isNull || b.isNull { return nil }
        guard case .string(let x) = a, case .string(let y) = b else {
            throw Failure(
                .typeMismatch,
                "\(name) needs strings on both sides, got \(Functions.describe(a)) and \(Functions.describe(b))")
        }
        return (x, y)
    }

    private static func search(
        _ kind: StringSemantics.Search, _ name: String, _ options: ComparisonOptions, constant: Value?, fastPaths: Bool
    ) -> Test {
        if case .string(let text)? = constant {
            let needle = StringSemantics.Needle(text, kind, options, fastPaths: fastPaths)
            return { a, b throws(Failure) in
                guard let (x, _) = try strings(a, b, name) else { return false }
                return needle.found(in: x)
            }
        }
        return { a, b throws(Failure) in
            guard let (x, y) = try strings(a, b, name) else { return false }
            return StringSemantics.search(x, y, kind, options)
        }
    }

    /// `container CONTAINS element` (and `element IN container`): membership
    /// for arrays, sets and dictionaries (their values), a substring test for
    /// strings.
    private static func contains(
        _ container: Value, _ element: Value, _ options: ComparisonOptions, _ name: String, containerOnLeft: Bool
    ) throws(Failure) -> Bool {
        switch container {
        case .array, .set, .dictionary:
            return Ordering.contains(container, element, options: options) ?? false
        case .string(let s):
            if element.isNull { return false }
            guard case .string(let t) = element else {
                throw Failure(.typeMismatch, "\(name) cannot look for \(Functions.describe(element)) in a string")
            }
            return StringSemantics.search(s, t, .substring, options)
        case .null, .nsNull:
            return false
        default:
            throw Failure(
                .typeMismatch,
                "\(name) needs a collection or a string \(containerOnLeft ? "on the left" : "on the right"), "
                    + "not \(Functions.describe(container))")
        }
    }

    private static func wildcard(_ options: ComparisonOptions, _ name: String, constant: Value?) -> Test {
        if case .string(let pattern)? = constant {
            let compiled = LikePattern.Matcher(LikePattern.compile(StringSemantics.key(pattern, options)))
            return { a, b throws(Failure) in
                guard let (x, _) = try strings(a, b, name) else { return false }
                return compiled.matches(StringSemantics.key(x, options))
            }
        }
        return { a, b throws(Failure) in
            guard let (x, y) = try strings(a, b, name) else { return false }
            return LikePattern.matches(x, y, options)
        }
    }

    private static func regularExpression(
        _ options: ComparisonOptions, _ name: String, constant: Value?, limits: RegexLimits
    ) -> Test {
        if case .string(let pattern)? = constant {
            // Compiled once; a bad pattern is reported when evaluated, as in Foundation.
            let compiled: Result<MatchesPattern, Failure>
            do {
                compiled = .success(try MatchesPattern(pattern, options, limits: limits))
            } catch {
                compiled = .failure(error)
            }
            return { a, b throws(Failure) in
                guard let (x, _) = try strings(a, b, name) else { return false }
                return try compiled.get().test(x)
            }
        }
        return { a, b throws(Failure) in
            guard let (x, y) = try strings(a, b, name) else { return false }
            return try MatchesPattern(y, options, limits: limits).test(x)
        }
    }
}
