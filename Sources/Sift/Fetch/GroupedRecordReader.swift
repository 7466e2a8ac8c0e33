/// Reads what a grouped fetch needs of a JSON record: the grouped key paths
/// and the keys its aggregates read, scanned from the record's bytes as a
/// filter's key paths are (``CompiledFilter/evaluate(jsonUTF8:maximumDepth:)``),
/// without decoding the rest. The value it gives holds those keys as the
/// decoded record has them, so that a ``GroupedFetchAccumulator`` adds it
/// as it would add the whole record. It is `Sendable` and keeps no state:
/// the threads that test records can read them, while one thread adds
/// them to their groups in order.
public struct GroupedRecordReader: Sendable {
    let scan: JSONScan?
    /// The slots of the grouped key paths and of the aggregates' arguments
    /// (nil for `count:(SELF)`), when each is a key path the scan reads
    /// whole: ``add(jsonUTF8:maximumDepth:to:)`` then reads them from the
    /// slots without making the record's dictionary.
    let direct: (keys: [Int], arguments: [Int?])?

    /// The reader for `request`'s grouped key paths and aggregates; one
    /// that reads the whole record (an aggregate of `SELF` other than
    /// `count:`, a key that is not ASCII) decodes records in full.
    public init(_ request: FetchSpecification) {
        let tests = Self.reads(request)
        let scan = tests.isEmpty ? JSONScan(paths: [["_"]]) : JSONScan(PredicateNode(.and(tests)))
        self.scan = scan
        direct = scan.flatMap { Self.slots(of: request, in: $0) }
    }

    /// What `request` reads of a record, as tests that read it: a grouped
    /// key path or an aggregate's argument `x`, each as `x != nil`
    /// (`count:(SELF)` reads nothing).
    static func reads(_ request: FetchSpecification) -> [PredicateNode] {
        var tests: [PredicateNode] = []
        func reads(_ e: ExpressionNode) {
            tests.append(PredicateNode(.comparison(Comparison(e, .notEqualTo, .constant(.null)))))
        }
        for key in request.groupBy ?? [] { reads(ExpressionNode(.keyPath(key.split(separator: ".").map(String.init)))) }
        for d in request.expressions {
            guard case .function(let f, let arguments) = d.expression.kind else {
                reads(d.expression)
                continue
            }
            // count:(SELF) counts objects: it reads none of their keys.
            if f == .count, arguments.count == 1, case .evaluatedObject = arguments[0].kind { continue }
            arguments.forEach(reads)
        }
        return tests
    }

    /// Each grouped key path's slot and each aggregate argument's, or nil
    /// when one is not a key path that ends at a slot read whole.
    static func slots(of request: FetchSpecification, in scan: JSONScan) -> (keys: [Int], arguments: [Int?])? {
        guard let groups = try? GroupedFetchAccumulator(request), let arguments = groups.argumentKeyPaths else { return nil }
        func slot(_ path: [String]) -> Int? {
            guard let (slot, keys) = scan.slot(path), keys == path.count else { return nil }
            return slot
        }
        var keySlots: [Int] = []
        for path in groups.groupedKeyPaths {
            guard let s = slot(path) else { return nil }
            keySlots.append(s)
        }
        var argumentSlots: [Int?] = []
        for path in arguments {
            guard let path else {
                argumentSlots.append(nil)
                continue
            }
            guard let s = slot(path) else { return nil }
            argumentSlots.append(s)
        }
        return (keySlots, argumentSlots)
    }

    /// Adds the record in `bytes` to `groups` (an accumulator, or a part,
    /// of the request this reader was made for): what
    /// `groups.add(try value(jsonUTF8: bytes))` does, without making the
    /// record's dictionary where the values it needs are in the scan's
    /// slots. An error reading the record is thrown as ``value(jsonUTF8:maximumDepth:)``
    /// throws it; the grouping's own as an ``EvaluationError``.
    public func add(
        jsonUTF8 bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512, to groups: inout GroupedFetchAccumulator
    ) throws {
        if let scan, let direct {
            let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
            let done: Bool = try JSONScan.withSlots(scan.nodes.count) { slots throws(EvaluationError) in
                guard scan.read(utf8, maximumDepth: maximumDepth, into: slots) else { return false }
                try Self.add(slots, of: scan, direct: direct, to: &groups)
                return true
            }
            if done { return }
        }
        try groups.add(try value(jsonUTF8: bytes, maximumDepth: maximumDepth))
    }

    /// The record in `bytes` (one JSON value, blanks around it allowed), as
    /// far as the grouped fetch reads it; in full when the scan cannot read
    /// it exactly.
    public func value(jsonUTF8 bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512) throws -> Value {
        let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
        if let scan {
            // (`Optional.none`: a bare nil here would be `Value.null`, which
            // is nil-literal expressible.)
            let read: Value? = JSONScan.withSlots(scan.nodes.count) { slots in
                scan.read(utf8, maximumDepth: maximumDepth, into: slots) ? .some(scan.record(slots)) : Optional.none
            }
            if let read { return read }
        }
        return try JSONValue(parsingUTF8: utf8, maximumDepth: maximumDepth).predicateValue
    }

    /// Adds the record read into `slots` by `scan` to `groups`: from the
    /// slots `direct` names, or, where a key is below a value that is not
    /// an object (read from that value by the dictionary walk), from the
    /// record as far as the scan read it.
    static func add(
        _ slots: JSONSlots, of scan: JSONScan, direct: (keys: [Int], arguments: [Int?]),
        to groups: inout GroupedFetchAccumulator
    ) throws(EvaluationError) {
        let (keySlots, argumentSlots) = direct
        for s in keySlots where slots.kinds[s] == JSONScan.unread {
            try groups.add(scan.record(slots))
            return
        }
        for case let s? in argumentSlots where slots.kinds[s] == JSONScan.unread {
            try groups.add(scan.record(slots))
            return
        }
        if keySlots.count == 1, slots.kinds[keySlots[0]] == JSONScan.plainString {
            // The key's group found by its bytes, most of the time without
            // making its String.
            try groups.add(
                stringKey: slots.strings[keySlots[0]], key: { slots.value(keySlots[$0]) },
                argument: { slots.value(argumentSlots[$0]!) })
            return
        }
        try groups.add(key: { slots.value(keySlots[$0]) }, argument: { slots.value(argumentSlots[$0]!) })
    }
}
