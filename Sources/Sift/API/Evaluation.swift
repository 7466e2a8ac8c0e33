/// A ``Filter`` compiled for evaluation: build it once, evaluate it many
/// times, from any thread.
///
/// Threads may share one compiled filter: on the paths of AND, OR, NOT and
/// the comparisons of key paths with constants, evaluating an object copies
/// no part of the filter, so the threads only read its memory. Comparisons
/// left to the general path copy a constant operand that has storage of
/// its own (a string of more than 15 UTF-8 bytes, the list of `IN {…}`)
/// and a function's arguments at every object: for those, compile a filter
/// for each thread (see <doc:Performance>).
public struct CompiledFilter: Sendable {
    /// The filter this was compiled from.
    public let filter: Filter
    @usableFromInline let test: CompiledTest<Value>
    /// The keys a record's raw JSON is scanned for, and the test of the
    /// slots they are read into; nil when every record is decoded in full
    /// (``evaluate(jsonUTF8:maximumDepth:)``).
    let record: RecordReading?

    /// Compiles `filter`; its MATCHES patterns get `regexLimits`, and its
    /// comparisons take the fast paths for dictionaries unless `paths` is
    /// ``EvaluationPaths/generalOnly``.
    public init(_ filter: Filter, regexLimits: RegexLimits = .default, paths: EvaluationPaths = .default) {
        self.init(filter, regexLimits: regexLimits, paths: paths, alsoReading: [])
    }

    /// Compiles `filter` as above, its raw JSON scan also reading the key
    /// paths `tests` read (a ``GroupedRecordFilter`` reads a grouping's keys
    /// in the filter's scan).
    init(_ filter: Filter, regexLimits: RegexLimits, paths: EvaluationPaths, alsoReading tests: [PredicateNode]) {
        self.filter = filter
        // The same predicate, limits and paths for each kind of root.
        func compile<Root>(_ root: RootAccess<Root>) -> CompiledTest<Root> {
            let budget = filter.evaluationBudget
            return Compiler(
                source: filter.source ?? filter.format, root: root, regexLimits: regexLimits, budget: budget,
                paths: paths, functionResultLimit: filter.maximumFunctionResultLength
            ).test(filter.predicate, budget: budget)
        }
        test = compile(.dynamic)
        let scanned = tests.isEmpty ? filter.predicate : PredicateNode(.and([filter.predicate] + tests))
        record = JSONScan(scanned).map { RecordReading(scan: $0, test: compile(.record($0))) }
    }

    /// The keys a record's raw JSON is scanned for.
    var scan: JSONScan? { record?.scan }

    /// Whether `object` matches. `variables` supply `$VARIABLES` that were not
    /// substituted. Throws where Foundation raises (a type mismatch, a bad
    /// regular expression, an unbound variable…).
    @inlinable
    public func evaluate(with object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        try test(object, EvaluationScope(variables: variables))
    }

    /// Whether `object` matches.
    @inlinable
    public func evaluate(with object: some ValueConvertible) throws(EvaluationError) -> Bool {
        try test(object.predicateValue, EvaluationScope(variables: [:]))
    }

    /// Whether the JSON record in `bytes` (UTF-8, one value, whitespace
    /// around it allowed) matches: the same answer, and the same error, as
    /// decoding it with ``JSONValue/init(parsingUTF8:maximumDepth:)`` and
    /// evaluating its ``JSONValue/predicateValue``, at a fraction of the
    /// cost.
    ///
    /// The bytes are scanned once for the key paths the predicate reads
    /// (`age`, `author.name`, `tags`); only the values there are decoded,
    /// and everything else is skipped without building values, though
    /// checked as decoding checks it. A record that is not an object, has a
    /// member name that is not plain ASCII, or is not valid JSON, and a
    /// predicate that reads the record as a whole (`SELF`, `@count` on the
    /// root), are decoded in full. A filter is `Sendable` and keeps no state
    /// between calls: any number of threads may call this at once.
    ///
    /// - Throws: a ``JSONError`` (with the byte offset in `bytes`) when the
    ///   record is not valid JSON as decoding reads it; an
    ///   ``EvaluationError`` when the predicate cannot evaluate it.
    public func evaluate(jsonUTF8 bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512) throws -> Bool {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        if let answer = try record?.evaluate(utf8, maximumDepth: maximumDepth) { return answer }
        let record = try JSONValue(parsingUTF8: utf8, maximumDepth: maximumDepth)
        return try test(record.predicateValue, EvaluationScope(variables: [:]))
    }
}

/// How a ``CompiledFilter`` reads raw JSON records: the scan and the test
/// of the slots it fills. (A class: a record is evaluated through one
/// reference to it, borrowed, see ``evaluate(_:maximumDepth:)``.)
final class RecordReading: Sendable {
    let scan: JSONScan
    let test: CompiledTest<JSONSlots>

    init(scan: JSONScan, test: CompiledTest<JSONSlots>) {
        self.scan = scan
        self.test = test
    }

    /// The test of the record in `utf8` read into slots, or nil when it is
    /// to be decoded in full.
    ///
    /// Nothing of the filter is copied for a record: a closure that
    /// captured the scan or the test would hold copies of them, and copying
    /// changes the reference counts of their arrays and closures, which
    /// every thread evaluating with the same filter shares (their cache
    /// lines then move between cores at every record). The closure captures
    /// an unretained reference to `self` instead, and uses it borrowed: the
    /// caller holds `self` (in its ``CompiledFilter``) for the whole call.
    func evaluate(_ utf8: UnsafeBufferPointer<UInt8>, maximumDepth: Int) throws -> Bool? {
        let reading = Unmanaged.passUnretained(self)
        return try JSONScan.withSlots(scan.nodes.count) { slots in
            try reading._withUnsafeGuaranteedRef { reading in
                guard reading.scan.read(utf8, maximumDepth: maximumDepth, into: slots) else { return nil }
                return try reading.test(slots, EvaluationScope(variables: [:]))
            }
        }
    }

    /// As ``evaluate(_:maximumDepth:)``, calling `matched` with the slots
    /// of a record that matches, while they live.
    func evaluate(
        _ utf8: UnsafeBufferPointer<UInt8>, maximumDepth: Int, matched: (JSONScan, JSONSlots) -> Void
    ) throws -> Bool? {
        let reading = Unmanaged.passUnretained(self)
        return try JSONScan.withSlots(scan.nodes.count) { slots in
            try reading._withUnsafeGuaranteedRef { reading in
                guard reading.scan.read(utf8, maximumDepth: maximumDepth, into: slots) else { return nil }
                guard try reading.test(slots, EvaluationScope(variables: [:])) else { return false }
                matched(reading.scan, slots)
                return true
            }
        }
    }
}

/// A ``Filter`` compiled for objects of one ``KeyValueReadable`` type: the
/// root object's keys are resolved to the type's readers when compiling, so
/// evaluation reads properties directly, without boxing the object. Stored
/// properties given to the ``KeyTable`` by key path are read in place, from
/// the object's memory, without copying the object.
///
/// The collection methods (`filter`, `count(where:)`, `first(where:)`) are
/// inlinable, so that they are specialised for the element type in the
/// caller's module and read elements in place.
public struct TypedFilter<Root: KeyValueReadable>: Sendable {
    /// The filter this was compiled from.
    public let filter: Filter
    /// The test of the object at an address (an element in place, or a
    /// value given to ``evaluate(with:variables:)``).
    @usableFromInline let test: CompiledTest<ObjectAddress>
    /// The same test as steps run over an array's buffer without a call per
    /// element, when the predicate is made of comparisons read in place.
    @usableFromInline let program: InPlaceProgram?

    /// Compiles `filter`; its MATCHES patterns get `regexLimits`, and its
    /// comparisons read properties in place unless `paths` is
    /// ``EvaluationPaths/generalOnly``.
    public init(
        _ filter: Filter, for type: Root.Type = Root.self, regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) {
        self.filter = filter
        let budget = filter.evaluationBudget
        let compiler = Compiler(
            source: filter.source ?? filter.format, root: RootAccess<ObjectAddress>.typed(Root.self),
            regexLimits: regexLimits, budget: budget, paths: paths,
            functionResultLimit: filter.maximumFunctionResultLength)
        let plan = compiler.plan(filter.predicate)
        program = plan.program
        // Steps answer for single objects too.
        test = compiler.test(plan, budget: budget)
    }

    /// Whether `object` matches.
    @inlinable
    public func evaluate(with object: Root, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        try evaluate(with: object, scope: EvaluationScope(variables: variables))
    }

    @inlinable
    func evaluate(with object: Root, scope: EvaluationScope) throws(EvaluationError) -> Bool {
        try withUnsafePointer(to: object) { p throws(EvaluationError) in try test(ObjectAddress(p), scope) }
    }
}

/// The loops behind every `filter`, `first(where:)` and `count(where:)`
/// below, given the compiled test of one element. Inlinable, so that each is
/// specialised for its element type in the caller's module.
extension Sequence {
    @inlinable
    func siftFilter(_ test: (Element, EvaluationScope) throws(EvaluationError) -> Bool) throws(EvaluationError) -> [Element] {
        var out: [Element] = []
        let scope = EvaluationScope(variables: [:])
        for element in self where try test(element, scope) { out.append(element) }
        return out
    }

    @inlinable
    func siftFirst(_ test: (Element, EvaluationScope) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Element? {
        let scope = EvaluationScope(variables: [:])
        for element in self where try test(element, scope) { return element }
        return nil
    }

    @inlinable
    func siftCount(_ test: (Element, EvaluationScope) throws(EvaluationError) -> Bool) throws(EvaluationError) -> Int {
        var n = 0
        let scope = EvaluationScope(variables: [:])
        for element in self where try test(element, scope) { n += 1 }
        return n
    }
}

/// The same loops over an array's buffer: each element is given to the test
/// by its address, where it is, instead of being copied out of the array.
extension Array {
    @inlinable
    func siftFilterInPlace(_ test: (UnsafePointer<Element>, EvaluationScope) throws(EvaluationError) -> Bool)
        throws(EvaluationError) -> [Element]
    {
        try withUnsafeBufferPointer { buffer throws(EvaluationError) in
            var out: [Element] = []
            let scope = EvaluationScope(variables: [:])
            guard let base = buffer.baseAddress else { return out }
            for i in 0..<buffer.count where try test(base + i, scope) { out.append(base[i]) }
            return out
        }
    }

    @inlinable
    func siftFirstInPlace(_ test: (UnsafePointer<Element>, EvaluationScope) throws(EvaluationError) -> Bool)
        throws(EvaluationError) -> Element?
    {
        try withUnsafeBufferPointer { buffer throws(EvaluationError) in
            let scope = EvaluationScope(variables: [:])
            guard let base = buffer.baseAddress else { return nil }
            for i in 0..<buffer.count where try test(base + i, scope) { return base[i] }
            return nil
        }
    }

    @inlinable
    func siftCountInPlace(_ test: (UnsafePointer<Element>, EvaluationScope) throws(EvaluationError) -> Bool)
        throws(EvaluationError) -> Int
    {
        try withUnsafeBufferPointer { buffer throws(EvaluationError) in
            var n = 0
            let scope = EvaluationScope(variables: [:])
            guard var element = buffer.baseAddress else { return 0 }
            for _ in 0..<buffer.count {
                if try test(element, scope) { n += 1 }
                element += 1
            }
            return n
        }
    }
}

/// A ``TypedFilter`` tests each element where it is: by its address in an
/// array's buffer, or by the address of the element in hand.
extension Sequence where Element: KeyValueReadable {
    /// The elements that match, in order.
    @inlinable
    public func filter(_ filter: TypedFilter<Element>) throws(EvaluationError) -> [Element] {
        try siftFilter { e, s throws(EvaluationError) in try filter.evaluate(with: e, scope: s) }
    }

    /// The first element that matches.
    @inlinable
    public func first(where filter: TypedFilter<Element>) throws(EvaluationError) -> Element? {
        try siftFirst { e, s throws(EvaluationError) in try filter.evaluate(with: e, scope: s) }
    }

    /// How many elements match.
    @inlinable
    public func count(where filter: TypedFilter<Element>) throws(EvaluationError) -> Int {
        try siftCount { e, s throws(EvaluationError) in try filter.evaluate(with: e, scope: s) }
    }
}

extension Array where Element: KeyValueReadable {
    /// The elements that match, in order (read in place, not copied).
    @inlinable
    public func filter(_ filter: TypedFilter<Element>) throws(EvaluationError) -> [Element] {
        if let program = filter.program {
            return withUnsafeBufferPointer { buffer in
                var out: [Element] = []
                guard let base = buffer.baseAddress else { return out }
                let stride = MemoryLayout<Element>.stride
                var i = program.firstIndex(base, from: 0, to: buffer.count, stride: stride)
                while i < buffer.count {
                    out.append(base[i])
                    i = program.firstIndex(base, from: i + 1, to: buffer.count, stride: stride)
                }
                return out
            }
        }
        return try siftFilterInPlace { p, s throws(EvaluationError) in try filter.test(ObjectAddress(p), s) }
    }

    /// The positions of the elements that match, in order (read in place,
    /// not copied).
    @inlinable
    public func indices(where filter: TypedFilter<Element>) throws(EvaluationError) -> [Int] {
        try withUnsafeBufferPointer { buffer throws(EvaluationError) in
            var out: [Int] = []
            guard let base = buffer.baseAddress else { return out }
            if let program = filter.program {
                var i = program.firstIndex(base, from: 0, to: buffer.count, stride: MemoryLayout<Element>.stride)
                while i < buffer.count {
                    out.append(i)
                    i = program.firstIndex(base, from: i + 1, to: buffer.count, stride: MemoryLayout<Element>.stride)
                }
            } else {
                let scope = EvaluationScope(variables: [:])
                for i in 0..<buffer.count where try filter.test(ObjectAddress(base + i), scope) { out.append(i) }
            }
            return out
        }
    }

    /// The first element that matches (read in place, not copied).
    @inlinable
    public func first(where filter: TypedFilter<Element>) throws(EvaluationError) -> Element? {
        if let program = filter.program {
            return withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return nil }
                let i = program.firstIndex(base, from: 0, to: buffer.count, stride: MemoryLayout<Element>.stride)
                return i < buffer.count ? base[i] : nil
            }
        }
        return try siftFirstInPlace { p, s throws(EvaluationError) in try filter.test(ObjectAddress(p), s) }
    }

    /// How many elements match (read in place, not copied).
    @inlinable
    public func count(where filter: TypedFilter<Element>) throws(EvaluationError) -> Int {
        if let program = filter.program {
            return withUnsafeBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                return program.count(base, buffer.count, stride: MemoryLayout<Element>.stride)
            }
        }
        return try siftCountInPlace { p, s throws(EvaluationError) in try filter.test(ObjectAddress(p), s) }
    }
}

extension Sequence where Element: ValueConvertible {
    /// The elements that match, in order.
    @inlinable
    public func filter(_ filter: CompiledFilter) throws(EvaluationError) -> [Element] {
        try siftFilter { e, s throws(EvaluationError) in try filter.test(e.predicateValue, s) }
    }

    /// The first element that matches.
    @inlinable
    public func first(where filter: CompiledFilter) throws(EvaluationError) -> Element? {
        try siftFirst { e, s throws(EvaluationError) in try filter.test(e.predicateValue, s) }
    }

    /// How many elements match.
    @inlinable
    public func count(where filter: CompiledFilter) throws(EvaluationError) -> Int {
        try siftCount { e, s throws(EvaluationError) in try filter.test(e.predicateValue, s) }
    }
}

extension Sequence where Element == Value {
    /// The values that match, in order.
    @inlinable
    public func filter(_ filter: CompiledFilter) throws(EvaluationError) -> [Value] {
        try siftFilter { v, s throws(EvaluationError) in try filter.test(v, s) }
    }

    /// The first value that matches.
    @inlinable
    public func first(where filter: CompiledFilter) throws(EvaluationError) -> Value? {
        try siftFirst { v, s throws(EvaluationError) in try filter.test(v, s) }
    }

    /// How many values match.
    @inlinable
    public func count(where filter: CompiledFilter) throws(EvaluationError) -> Int {
        try siftCount { v, s throws(EvaluationError) in try filter.test(v, s) }
    }
}

extension Array where Element == Value {
    /// The values that match, in order (read in place, not copied).
    @inlinable
    public func filter(_ filter: CompiledFilter) throws(EvaluationError) -> [Value] {
        try siftFilterInPlace { p, s throws(EvaluationError) in try filter.test(p.pointee, s) }
    }

    /// How many values match (read in place, not copied).
    @inlinable
    public func count(where filter: CompiledFilter) throws(EvaluationError) -> Int {
        try siftCountInPlace { p, s throws(EvaluationError) in try filter.test(p.pointee, s) }
    }
}

extension Filter {
    /// Compiles the filter for repeated evaluation, with `regexLimits` for
    /// its MATCHES patterns, taking `paths`.
    public func compiled(regexLimits: RegexLimits = .default, paths: EvaluationPaths = .default) -> CompiledFilter {
        CompiledFilter(self, regexLimits: regexLimits, paths: paths)
    }

    /// Compiles the filter for objects of one type, reading their keys
    /// directly (the fastest way to filter a collection of them; with
    /// ``EvaluationPaths/generalOnly``, through their readers by the
    /// general path).
    public func compiled<Root: KeyValueReadable>(
        for type: Root.Type, regexLimits: RegexLimits = .default, paths: EvaluationPaths = .default
    ) -> TypedFilter<Root> {
        TypedFilter(self, for: type, regexLimits: regexLimits, paths: paths)
    }

    /// Whether `object` matches (compiling the filter each time; keep a
    /// ``compiled(regexLimits:paths:)`` filter to evaluate many objects).
    public func evaluate(with object: Value, variables: [String: Value] = [:]) throws(EvaluationError) -> Bool {
        try compiled().evaluate(with: object, variables: variables)
    }
}

extension Sequence where Element: ValueConvertible {
    /// The elements that match, in order (compiling the filter once).
    public func filter(_ filter: Filter) throws(EvaluationError) -> [Element] {
        try self.filter(filter.compiled())
    }
}

extension ExpressionNode {
    /// The expression's value for `object`, as `NSExpression`'s
    /// `expressionValue(with:context:)`: `author.name` reads the key path,
    /// `@sum.items.price` aggregates, constants are themselves. `source` is
    /// the text the expression came from, for errors that point into it.
    public func value(
        with object: Value, variables: [String: Value] = [:], source: String? = nil
    ) throws(EvaluationError) -> Value {
        let compiler = Compiler(source: source ?? FormatPrinter.format(self), root: .dynamic)
        return try compiler.expression(self)(object, EvaluationScope(variables: variables))
    }
}
