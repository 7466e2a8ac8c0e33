import Foundation

// The Sift form of each `PredicateExpressions` type that has one with
// Swift's meaning. A type that is not here is refused by
// `PredicateConverter.term(of:)`; a conformance refuses the shapes whose
// meaning would differ. The reason for each decision is in the
// SwiftPredicates article.

private typealias Refusal = PredicateConversionError

private func refuse(_ expression: Any, keyPath: AnyKeyPath? = nil, _ reason: String) -> Refusal {
    Refusal(
        expressionType: PredicateConverter.typeName(of: expression),
        keyPath: keyPath.map { String(describing: $0) }, reason: reason)
}

// MARK: - Logic

extension PredicateExpressions.Conjunction: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        .predicate(.and([try c.predicate(of: lhs), try c.predicate(of: rhs)]))
    }
}

extension PredicateExpressions.Disjunction: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        .predicate(.or([try c.predicate(of: lhs), try c.predicate(of: rhs)]))
    }
}

extension PredicateExpressions.Negation: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        .predicate(.not(try c.predicate(of: wrapped)))
    }
}

extension PredicateExpressions.Conditional: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let test = try c.predicate(of: test)
        if If.Output.self == Bool.self {
            // A test either way: (t AND a) OR (NOT t AND b), which needs no TERNARY.
            let a = try c.predicate(of: trueBranch), b = try c.predicate(of: falseBranch)
            return .predicate(.or([.and([test, a]), .and([.not(test), b])]))
        }
        return .expression(
            ExpressionNode(.ternary(test, try c.expression(of: trueBranch), try c.expression(of: falseBranch))))
    }
}

// MARK: - Values and key paths

extension PredicateExpressions.Variable: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard let bound = c.bindings[key] else {
            throw refuse(self, "the variable is not the predicate's input or one a closure inside it binds")
        }
        return .expression(bound)
    }
}

extension PredicateExpressions.Value: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard let value = SwiftConstant.value(of: value) else {
            throw refuse(self, "a constant of type \(PredicateConverter.typeName(Output.self)) has no predicate value")
        }
        return .expression(.constant(value))
    }
}

extension PredicateExpressions.NilLiteral: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        .expression(.constant(.null))
    }
}

/// Values of constants: what ``ValueConvertible`` gives, an enum's raw value.
enum SwiftConstant {
    static func value(of constant: Any) -> Value? {
        if let v = constant as? any ValueConvertible { return v.predicateValue }
        if let optional = constant as? any OptionalMarker {
            guard let wrapped = optional.wrappedAny else { return .null }
            return value(of: wrapped)
        }
        if let raw = constant as? any RawRepresentable { return value(of: raw.rawValue) }
        return nil
    }
}

extension PredicateExpressions.KeyPath: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let base = try c.expression(of: root)
        let path = keyPath as AnyKeyPath
        if let kind {
            return try collectionProperty(kind, of: base, path)
        }
        guard let readable = Root.Output.self as? any KeyValueReadable.Type else {
            throw refuse(
                self, keyPath: path,
                "\(PredicateConverter.typeName(Root.Output.self)) is not KeyValueReadable, so its properties have no keys")
        }
        guard let key = readable.key(forAnyKeyPath: path) else {
            throw refuse(
                self, keyPath: path,
                "the key table of \(PredicateConverter.typeName(Root.Output.self)) has no key that reads this key path (a computed property needs @SiftKey, a closure reader `.reads(_:)`)")
        }
        return .expression(base.appending([key], range: nil))
    }

    private func collectionProperty(_ kind: CommonKeyPathKind, of base: ExpressionNode, _ path: AnyKeyPath)
        throws(PredicateConversionError) -> ConvertedTerm
    {
        if SwiftTypes.isString(Root.Output.self) {
            throw refuse(
                self, keyPath: path,
                "a string's count, first and last are in grapheme clusters, which no Sift key counts")
        }
        switch kind {
        case .collectionCount:
            return .expression(base.appending(["@count"], range: nil))
        case .collectionIsEmpty:
            return .predicate(.compare(base.appending(["@count"], range: nil), .equalTo, .constant(.int(0))))
        case .collectionFirst, .bidirectionalCollectionLast:
            guard Root.Output.self is any ArrayMarker.Type else {
                throw refuse(
                    self, keyPath: path,
                    "only an array has a first and a last element in a fixed order")
            }
            return .expression(ExpressionNode(.index(base, kind == .collectionFirst ? .first : .last)))
        @unknown default:
            throw refuse(self, keyPath: path, "this property of a collection has no Sift form")
        }
    }
}

// MARK: - Optionals

extension PredicateExpressions.OptionalFlatMap: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        // `a?.b.c` reads b.c through a; a key path through nil is nil in Sift
        // as the chain is in Swift. Any other transform could give a value
        // for nil (`a.flatMap { _ in 1 }`), so only key paths convert.
        guard (transform as? any KeyPathChain)?.isKeyPathChain(from: variable.key) == true else {
            throw refuse(
                self, "only a chain of properties after `?.` converts: another transform could give a value when the optional is nil")
        }
        var inner = c
        inner.bindings[variable.key] = try c.expression(of: wrapped)
        return .expression(try inner.expression(of: transform))
    }
}

/// Whether an expression reads properties, and nothing else, from a variable.
protocol KeyPathChain {
    func isKeyPathChain(from variable: PredicateExpressions.VariableID) -> Bool
}

extension PredicateExpressions.Variable: KeyPathChain {
    func isKeyPathChain(from variable: PredicateExpressions.VariableID) -> Bool { key == variable }
}

extension PredicateExpressions.KeyPath: KeyPathChain {
    func isKeyPathChain(from variable: PredicateExpressions.VariableID) -> Bool {
        // A collection's count of nil would be nil in Swift but 0 in Sift.
        kind == nil && (root as? any KeyPathChain)?.isKeyPathChain(from: variable) == true
    }
}

extension PredicateExpressions.OptionalFlatMap: KeyPathChain {
    func isKeyPathChain(from variable: PredicateExpressions.VariableID) -> Bool {
        (wrapped as? any KeyPathChain)?.isKeyPathChain(from: variable) == true
            && (transform as? any KeyPathChain)?.isKeyPathChain(from: self.variable.key) == true
    }
}

extension PredicateExpressions.NilCoalesce: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let value = try c.expression(of: lhs)
        let fallback = try c.expression(of: rhs)
        let present = PredicateNode.compare(value, .notEqualTo, .constant(.null))
        return .expression(ExpressionNode(.ternary(present, value, fallback)))
    }
}

// MARK: - Equality and order

/// `==` and `!=` with Swift's meaning.
private func equality(
    _ expression: Any, _ lhs: Any, _ rhs: Any, operandType: Any.Type, negated: Bool, _ c: PredicateConverter
) throws(PredicateConversionError) -> ConvertedTerm {
    let l = try c.expression(of: lhs), r = try c.expression(of: rhs)
    let op: ComparisonOperator = negated ? .notEqualTo : .equalTo
    if SwiftTypes.isString(operandType) {
        return .predicate(stringEquality(l, r, negated: negated))
    }
    try requireSwiftEquality(expression, operandType)
    return .predicate(.compare(l, op, r))
}

/// Refuses values of `type` whose `==` Sift's does not reproduce: values
/// holding strings (compared literally inside in NSPredicate), and `UInt64`
/// or `UInt` (past `Int.max` no integer in Sift).
private func requireSwiftEquality(_ expression: Any, _ type: Any.Type) throws(PredicateConversionError) {
    if SwiftTypes.holdsStrings(type) {
        throw refuse(expression, "values holding strings compare them by canonical equivalence in Swift and code unit by code unit in NSPredicate")
    }
    let base = SwiftTypes.unwrapped(type)
    if base == UInt64.self || base == UInt.self {
        throw refuse(expression, "a UInt64 past Int.max is no integer in Sift, so two of them could compare equal")
    }
}

/// Swift compares strings by canonical equivalence; NSPredicate's `==` is
/// literal. They agree when one side is a constant no other string is
/// canonically equivalent to, and `==` is kept there (it reads as written
/// and uses indexes); otherwise `==[s]`.
private func stringEquality(_ l: ExpressionNode, _ r: ExpressionNode, negated: Bool) -> PredicateNode {
    let op: ComparisonOperator = negated ? .notEqualTo : .equalTo
    for side in [l.kind, r.kind] {
        switch side {
        case .constant(.null): return .compare(l, op, r)
        case .constant(.string(let text)) where SwiftTypes.isCanonicallyUnique(text): return .compare(l, op, r)
        default: continue
        }
    }
    return .compare(l, op, r, options: .swiftString)
}

extension PredicateExpressions.Equal: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try equality(self, lhs, rhs, operandType: LHS.Output.self, negated: false, c)
    }
}

extension PredicateExpressions.NotEqual: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try equality(self, lhs, rhs, operandType: LHS.Output.self, negated: true, c)
    }
}

/// Why the least or greatest string is refused.
private let stringOrderReason =
    "@min and @max order strings by compare:, not by Swift's order (the scalars of the NFC forms)"

extension PredicateExpressions.Comparison: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard SwiftTypes.ordersAsSwift(LHS.Output.self) else { throw refuse(self, SwiftTypes.unorderedReason(LHS.Output.self)) }
        let options: ComparisonOptions = SwiftTypes.isString(LHS.Output.self) ? .swiftString : []
        let ops: [PredicateExpressions.ComparisonOperator: ComparisonOperator] = [
            .lessThan: .lessThan, .lessThanOrEqual: .lessThanOrEqualTo,
            .greaterThan: .greaterThan, .greaterThanOrEqual: .greaterThanOrEqualTo,
        ]
        guard let sift = ops[op] else { throw refuse(self, "an unknown comparison operator") }
        return .predicate(.compare(try c.expression(of: lhs), sift, try c.expression(of: rhs), options: options))
    }
}

// MARK: - Ranges

extension PredicateExpressions.RangeExpressionContains: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard SwiftTypes.ordersAsSwift(Element.Output.self) else { throw refuse(self, SwiftTypes.unorderedReason(Element.Output.self)) }
        let options: ComparisonOptions = SwiftTypes.isString(Element.Output.self) ? .swiftString : []
        let element = try c.expression(of: element)
        if let bounds = range as? any RangeBounds {
            let (lower, upper, isClosed) = try bounds.bounds(c)
            return .predicate(.and([
                .compare(element, .greaterThanOrEqualTo, lower, options: options),
                .compare(element, isClosed ? .lessThanOrEqualTo : .lessThan, upper, options: options),
            ]))
        }
        throw refuse(self, "only a range written in the predicate (a...b or a..<b) converts")
    }
}

/// `a...b` and `a..<b` written in a predicate.
protocol RangeBounds {
    func bounds(_ c: PredicateConverter) throws(PredicateConversionError) -> (ExpressionNode, ExpressionNode, Bool)
}

extension PredicateExpressions.ClosedRange: RangeBounds {
    func bounds(_ c: PredicateConverter) throws(PredicateConversionError) -> (ExpressionNode, ExpressionNode, Bool) {
        (try orderedBounds(self, lower, upper, c), try c.expression(of: upper), true)
    }
}

extension PredicateExpressions.Range: RangeBounds {
    func bounds(_ c: PredicateConverter) throws(PredicateConversionError) -> (ExpressionNode, ExpressionNode, Bool) {
        (try orderedBounds(self, lower, upper, c), try c.expression(of: upper), false)
    }
}

/// The lower bound of a range whose bounds are constants in order. Swift
/// throws for `a..<b` and stops the program for `a...b` when `a > b`
/// (NaN too), and evaluates both bounds, where Sift's two comparisons are
/// false and skip the upper bound when the first fails: bounds read from
/// an object are refused.
private func orderedBounds<L: PredicateExpression, U: PredicateExpression>(
    _ range: Any, _ lower: L, _ upper: U, _ c: PredicateConverter
) throws(PredicateConversionError) -> ExpressionNode where L.Output == U.Output, L.Output: Comparable {
    let low = try c.expression(of: lower), high = try c.expression(of: upper)
    // Both are constants (or a minus before one), which evaluate without the input.
    if case .constant = low.kind, case .constant = high.kind,
        let a = try? lower.evaluate(PredicateBindings()), let b = try? upper.evaluate(PredicateBindings()), a <= b
    {
        return low
    }
    throw refuse(
        range,
        "only bounds written as constants, the lower not above the upper, convert: Swift throws or stops when the lower is above the upper, where Sift's comparisons are false")
}

// MARK: - String searches

/// `CONTAINS[s]` or `BEGINSWITH[s]` of two strings: characters compared
/// as Swift compares them. Other collections have no Sift form.
private func stringSearch(
    _ expression: Any, _ subject: Any, _ op: ComparisonOperator, _ needle: Any, subjectType: Any.Type,
    _ c: PredicateConverter
) throws(PredicateConversionError) -> ConvertedTerm {
    guard SwiftTypes.isString(subjectType) else {
        throw refuse(expression, "only strings convert: a run of a collection's elements has no Sift form")
    }
    return .predicate(.compare(try c.expression(of: subject), op, try c.expression(of: needle), options: .swiftString))
}

extension PredicateExpressions.CollectionContainsCollection: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try stringSearch(self, base, .contains, other, subjectType: Base.Output.self, c)
    }
}

extension PredicateExpressions.SequenceStartsWith: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try stringSearch(self, base, .beginsWith, prefix, subjectType: Base.Output.self, c)
    }
}

// MARK: - Arithmetic

/// Why arithmetic on `type` is refused.
private func arithmeticReason(_ type: Any.Type) -> String {
    "arithmetic on \(PredicateConverter.typeName(type)) rounds or overflows at other bounds than Sift's Int and Double"
}

extension PredicateExpressions.Arithmetic: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard SwiftTypes.computesAsSwift(LHS.Output.self) else { throw refuse(self, arithmeticReason(LHS.Output.self)) }
        let function: BuiltinFunction
        switch op {
        case .add: function = .add
        case .subtract: function = .subtract
        case .multiply: function = .multiply
        @unknown default: throw refuse(self, "an unknown arithmetic operator")
        }
        return .expression(.function(function, [try c.expression(of: lhs), try c.expression(of: rhs)]))
    }
}

extension PredicateExpressions.FloatDivision: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard SwiftTypes.computesAsSwift(LHS.Output.self) else { throw refuse(self, arithmeticReason(LHS.Output.self)) }
        return .expression(.function(.divide, [try c.expression(of: lhs), try c.expression(of: rhs)]))
    }
}

extension PredicateExpressions.UnaryMinus: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard SwiftTypes.computesAsSwift(Wrapped.Output.self) else {
            throw refuse(self, arithmeticReason(Wrapped.Output.self))
        }
        let value = try c.expression(of: wrapped)
        // A negative literal is a minus before a number.
        switch value.kind {
        case .constant(.int(let n)) where n != .min: return .expression(.constant(.int(-n)))
        case .constant(.double(let d)): return .expression(.constant(.double(-d)))
        default:
            // x * -1 keeps the sign of zero, as -x does (0 - 0.0 would not).
            return .expression(.function(.multiply, [value, .constant(.int(-1))]))
        }
    }
}

// MARK: - Sequences

extension PredicateExpressions.SequenceContains: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try requireSwiftEquality(self, RHS.Output.self)
        let sequence = try c.expression(of: sequence)
        let element = try c.expression(of: element)
        // Swift finds nil in a sequence of optionals that holds nil, where
        // NSPredicate's IN is false for a nil element: a nil constant becomes
        // `x == nil`, and a sequence read from an object is refused unless
        // the element is a constant other than nil.
        var members: [Value]?
        switch sequence.kind {
        case .constant(.array(let items)): members = items
        case .constant(.set(let items)): members = Array(items)
        default: members = nil
        }
        var elementIsPresent = false
        if case .constant(let v) = element.kind { elementIsPresent = v != .null }
        if RHS.Output.self is any OptionalMarker.Type && members == nil && !elementIsPresent {
            throw refuse(
                self,
                "a sequence of optionals read from an object may hold nil, which Swift finds and NSPredicate's IN does not")
        }
        if let items = members, items.contains(.null) {
            let present = containsTest(element, .constant(.array(items.filter { $0 != .null })))
            return .predicate(.or([present, .compare(element, .equalTo, .constant(.null))]))
        }
        return .predicate(containsTest(element, sequence))
    }

    /// `element IN sequence`; for strings `IN[s]`, unless every constant is
    /// one no other string is canonically equivalent to (literal membership
    /// is canonical membership only for those).
    private func containsTest(_ element: ExpressionNode, _ sequence: ExpressionNode) -> PredicateNode {
        var options: ComparisonOptions = []
        // A string searched for a character: Swift compares characters.
        if SwiftTypes.isString(LHS.Output.self) { return .compare(element, .in, sequence, options: .swiftString) }
        if SwiftTypes.isString(RHS.Output.self) {
            let constants: [Value]
            switch (sequence.kind, element.kind) {
            case (.constant(.array(let items)), _): constants = items
            case (.constant(.set(let items)), _): constants = Array(items)
            case (_, .constant(let item)): constants = [item]
            default: constants = []
            }
            let unique = !constants.isEmpty && constants.allSatisfy {
                if case .string(let s) = $0 { return SwiftTypes.isCanonicallyUnique(s) }
                return false
            }
            if !unique { options = .swiftString }
        }
        return .compare(element, .in, sequence, options: options)
    }
}

extension PredicateExpressions.SequenceContainsWhere: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let matching = try subquery(
            self, sequence, of: LHS.Output.self, binding: variable.key, test, stopsEarly: "contains(where:)", c)
        return .predicate(.compare(matching.appending(["@count"], range: nil), .greaterThan, .constant(.int(0))))
    }
}

extension PredicateExpressions.SequenceAllSatisfy: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let failing = try subquery(
            self, sequence, of: LHS.Output.self, binding: variable.key, test, negated: true, stopsEarly: "allSatisfy", c)
        return .predicate(.compare(failing.appending(["@count"], range: nil), .equalTo, .constant(.int(0))))
    }
}

extension PredicateExpressions.Filter: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        .expression(try subquery(self, sequence, of: LHS.Output.self, binding: variable.key, filter, c))
    }
}

/// `SUBQUERY(sequence, $x, test)` for a closure over `sequence` whose
/// variable is `id` (`$x`, then `$x2` inside it), the test negated for
/// `allSatisfy`; `stopsEarly` names the Swift method that stops at the
/// first element that decides. A string's characters are no collection
/// SUBQUERY can go through: refused.
private func subquery(
    _ expression: Any, _ sequence: Any, of sequenceType: Any.Type, binding id: PredicateExpressions.VariableID,
    _ test: Any, negated: Bool = false, stopsEarly: String? = nil, _ c: PredicateConverter
) throws(PredicateConversionError) -> ExpressionNode {
    if SwiftTypes.isString(sequenceType) {
        throw refuse(expression, "a string's characters are no collection SUBQUERY can go through")
    }
    let collection = try c.expression(of: sequence)
    let name = c.depth == 0 ? "x" : "x\(c.depth + 1)"
    var inner = c
    inner.depth += 1
    inner.stopsEarly = stopsEarly ?? c.stopsEarly
    inner.bindings[id] = .variable(name)
    let predicate = try inner.predicate(of: test)
    return ExpressionNode(.subquery(collection, variable: name, negated ? .not(predicate) : predicate))
}

/// `@min.self` or `@max.self` of numbers or dates (`operator`): strings and
/// types with a `<` of their own are refused.
private func extreme(
    _ expression: Any, _ elements: Any, of elementType: Any.Type, _ operator: String, _ c: PredicateConverter
) throws(PredicateConversionError) -> ConvertedTerm {
    if SwiftTypes.isString(elementType) { throw refuse(expression, stringOrderReason) }
    guard SwiftTypes.ordersAsSwift(elementType) else { throw refuse(expression, SwiftTypes.unorderedReason(elementType)) }
    return .expression(try c.expression(of: elements).appending([`operator`, "self"], range: nil))
}

extension PredicateExpressions.SequenceMinimum: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try extreme(self, elements, of: Elements.Output.Element.self, "@min", c)
    }
}

extension PredicateExpressions.SequenceMaximum: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        try extreme(self, elements, of: Elements.Output.Element.self, "@max", c)
    }
}

// MARK: - Subscripts

extension PredicateExpressions.CollectionIndexSubscript: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        // Swift throws for an index outside the array, as Sift's `[n]`
        // does (a negative one too); `&&`, `||`, `? :` and `??` skip the
        // same operands in both.
        guard Wrapped.Output.self is any ArrayMarker.Type else {
            throw refuse(
                self, "only an array's indexes are the integers from 0 that Sift's [n] reads (a slice keeps its base's)")
        }
        if let closure = c.stopsEarly {
            throw refuse(
                self,
                "inside \(closure) Swift stops at the first element that decides, where SUBQUERY tests every element: an index out of range on a later element would throw in Sift only")
        }
        let array = try c.expression(of: wrapped)
        return .expression(ExpressionNode(.index(array, .expression(try c.expression(of: index)))))
    }
}

extension PredicateExpressions.CollectionRangeSubscript: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        throw refuse(self, "Sift has no expression for a run of an array's elements (a slice)")
    }
}

/// The dictionary of a key subscript, refused unless Sift looks the key
/// up as Swift does: string keys (Sift's dictionaries have no others;
/// both find a key by canonical equivalence), values that are not
/// optional (Swift tells a key holding nil from a missing key, Sift
/// gives nil for both), and a dictionary read from an object (one
/// written in the predicate has no format-string form).
private func dictionary(
    _ expression: Any, _ wrapped: Any, keyType: Any.Type, valueType: Any.Type, _ c: PredicateConverter
) throws(PredicateConversionError) -> ExpressionNode {
    guard keyType == String.self else {
        throw refuse(
            expression, "Sift's dictionaries have string keys, not \(PredicateConverter.typeName(keyType))")
    }
    if valueType is any OptionalMarker.Type {
        throw refuse(
            expression,
            "a dictionary of optionals holds nil for some keys, which Swift tells apart from a missing key and Sift does not")
    }
    let node = try c.expression(of: wrapped)
    if case .constant = node.kind {
        throw refuse(expression, "a dictionary written in the predicate has no format-string form")
    }
    return node
}

extension PredicateExpressions.DictionaryKeySubscript: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let base = try dictionary(self, wrapped, keyType: Key.Output.self, valueType: Value.self, c)
        return .expression(ExpressionNode(.index(base, .expression(try c.expression(of: key)))))
    }
}

extension PredicateExpressions.DictionaryKeyDefaultValueSubscript: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        let base = try dictionary(self, wrapped, keyType: Key.Output.self, valueType: Default.Output.self, c)
        // A value is never nil (values are not optional): nil means no key.
        let value = ExpressionNode(.index(base, .expression(try c.expression(of: key))))
        let fallback = try c.expression(of: `default`)
        return .expression(ExpressionNode(.ternary(.compare(value, .notEqualTo, .constant(.null)), value, fallback)))
    }
}

// MARK: - Regular expressions

/// Why a regular expression other than plain characters is refused.
private let regexReason =
    "Swift's Regex matches grapheme clusters where Sift's MATCHES (PCRE2) matches code points; only a pattern of plain ASCII characters without ; ` and K (which other characters decompose to) converts, to CONTAINS[s]"

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, *)
extension PredicateExpressions.StringContainsRegex: SiftConvertibleExpression {
    func converted(_ c: inout PredicateConverter) throws(PredicateConversionError) -> ConvertedTerm {
        guard let constant = regex as? PredicateExpressions.Value<PredicateExpressions.PredicateRegex> else {
            throw refuse(self, "only a regular expression written in or captured by the predicate converts")
        }
        // The pattern Swift prints parses to the same regex: options it
        // was given (`.ignoresCase()`, `.matchingSemantics(_:)`) appear in
        // it as groups, so plain characters are matched as written.
        let pattern = constant.value.stringRepresentation
        guard SwiftRegexPattern.isPlainCharacters(pattern) else { throw refuse(self, regexReason) }
        return .predicate(
            .compare(try c.expression(of: subject), .contains, .constant(.string(pattern)), options: .swiftString))
    }
}

/// What conversion knows of Swift regular expressions' patterns.
enum SwiftRegexPattern {
    /// The characters with a meaning in a pattern (outside a class).
    static let metacharacters: Set<Character> = ["\\", "^", "$", ".", "|", "?", "*", "+", "(", ")", "[", "]", "{", "}"]

    /// Whether `pattern` matches itself and nothing else, as
    /// `String.contains(_:)` finds a string: ASCII characters that are no
    /// metacharacters. Swift's Regex does not match KELVIN SIGN with `K` or
    /// GREEK QUESTION MARK with `;` (measured), which Swift's `==` takes for
    /// equal, so those (and the grave accent, which GREEK VARIA
    /// decomposes to) are refused too. (`SwiftPredicateTests` checks the
    /// rest on hard strings.)
    static func isPlainCharacters(_ pattern: String) -> Bool {
        SwiftTypes.isCanonicallyUnique(pattern) && !pattern.contains(where: metacharacters.contains)
    }
}
