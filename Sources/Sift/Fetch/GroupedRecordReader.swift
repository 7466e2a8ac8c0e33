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

    /// The reader for `request`'s grouped key paths and aggregates; one
    /// that reads the whole record (an aggregate of `SELF` other than
    /// `count:`, a key that is not ASCII) decodes records in full.
    public init(_ request: FetchSpecification) {
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
        scan = tests.isEmpty ? JSONScan(paths: [["_"]]) : JSONScan(PredicateNode(.and(tests)))
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
}
