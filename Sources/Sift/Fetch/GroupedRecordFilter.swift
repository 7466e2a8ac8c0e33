/// A grouped fetch's filter and its grouping over raw JSON records, in one
/// scan of each record's bytes: the filter's key paths and the grouping's
/// (grouped keys, aggregates' arguments) are read together, the filter is
/// tested on them, and a record that matches is added to its group from
/// the same values. The answers and errors are those of testing the record
/// with ``CompiledFilter/evaluate(jsonUTF8:maximumDepth:)`` and then adding
/// it with ``GroupedRecordReader/add(jsonUTF8:maximumDepth:to:)``, which
/// would scan it twice. `Sendable`, and keeps no state: each thread adds to
/// a part of its own (``GroupedFetchAccumulator/init(partOf:)``).
public struct GroupedRecordFilter: Sendable {
    /// The filter, whose scan also reads the grouping's key paths.
    let filter: CompiledFilter
    /// The grouping's own reading, for records the joint scan cannot read.
    let reader: GroupedRecordReader
    /// The grouping's slots in the filter's scan (see ``GroupedRecordReader``).
    let direct: (keys: [Int], arguments: [Int?])?

    /// What became of a record.
    public enum Outcome: Sendable, Equatable {
        /// The filter rejected it.
        case rejected
        /// It matched, and was added to its group.
        case added
        /// It matched, and adding it failed (a grouped key that is a
        /// collection, a sum of text…): the grouping's error, not the
        /// record's.
        case failed(EvaluationError)
    }

    /// `filter` compiled to read `request`'s grouping too; its MATCHES
    /// patterns get `regexLimits`, its comparisons the fast paths unless
    /// `paths` is ``EvaluationPaths/generalOnly``. (`request`'s own filter
    /// is not read: `filter` is the one tested.)
    public init(
        _ filter: Filter, grouping request: FetchSpecification, regexLimits: RegexLimits = .default,
        paths: EvaluationPaths = .default
    ) {
        self.filter = CompiledFilter(
            filter, regexLimits: regexLimits, paths: paths, alsoReading: GroupedRecordReader.reads(request))
        reader = GroupedRecordReader(request)
        direct = self.filter.scan.flatMap { GroupedRecordReader.slots(of: request, in: $0) }
    }

    /// Tests the record in `bytes` (UTF-8, one value, blanks around it
    /// allowed) and adds it to `groups` when it matches.
    ///
    /// - Throws: what ``CompiledFilter/evaluate(jsonUTF8:maximumDepth:)``
    ///   throws for the record (a ``JSONError``, or the filter's
    ///   ``EvaluationError``); the grouping's errors are an ``Outcome``.
    public func evaluate(
        jsonUTF8 bytes: UnsafeRawBufferPointer, maximumDepth: Int = 512, addingTo groups: inout GroupedFetchAccumulator
    ) throws -> Outcome {
        if let record = filter.record, let direct {
            var outcome = Outcome.added
            let answer = try record.evaluate(bytes.assumingMemoryBound(to: UInt8.self), maximumDepth: maximumDepth) {
                scan, slots in
                do throws(EvaluationError) {
                    try GroupedRecordReader.add(slots, of: scan, direct: direct, to: &groups)
                } catch {
                    outcome = .failed(error)
                }
            }
            if let answer { return answer ? outcome : .rejected }
        }
        guard try filter.evaluate(jsonUTF8: bytes, maximumDepth: maximumDepth) else { return .rejected }
        do {
            try reader.add(jsonUTF8: bytes, maximumDepth: maximumDepth, to: &groups)
        } catch let error as EvaluationError {
            return .failed(error)
        }
        return .added
    }
}
