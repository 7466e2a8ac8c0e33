import Foundation
import Sift

/// The per-record work of `sift filter`: whether one record matches, given
/// its bytes (one JSON value; blanks may surround it). Throws a `JSONError`
/// (its offset into the bytes) where the bytes are not JSON, else the
/// evaluation's error. It is the only code that looks inside a record; each
/// thread has its own (see ``ParallelChunks``).
typealias RecordTest = (UnsafeBufferPointer<UInt8>) throws -> Bool

enum RecordTests {
    /// Evaluates `filter` on the record's bytes, which decodes only the
    /// values the predicate reads (and checks the rest as decoding would):
    /// the same answers and errors as decoding the record into a
    /// `JSONValue` and evaluating `filter` on it.
    static func reading(_ filter: CompiledFilter) -> RecordTest {
        { bytes in try filter.evaluate(jsonUTF8: UnsafeRawBufferPointer(bytes)) }
    }
}

/// A record that cannot be read or evaluated.
enum RecordFailure: Error, Sendable {
    /// Not JSON, too long, or the array's own syntax; the message has the line.
    case input(CommandFailure)
    /// The predicate cannot be evaluated on the record at `place`.
    case evaluation(place: String, message: String, rendered: String)

    /// One line, for `--on-error skip`.
    var message: String {
        switch self {
        case .input(let failure): return TerminalText.visible(failure.message)
        case .evaluation(let place, let message, _): return TerminalText.visible("\(place): \(message)")
        }
    }

    /// The error as `--on-error stop` ends with it.
    var detail: String {
        switch self {
        case .input(let failure): return failure.description
        case .evaluation(let place, _, let rendered): return "\(place): " + rendered
        }
    }
}

/// What evaluating a chunk gave: the matches and the failures in input
/// order, as ranges of the chunk's bytes.
struct ChunkResult: Sendable {
    enum Event: Sendable {
        /// A record that matched: its bytes, without the blanks around it.
        case match(Range<Int>)
        /// (Boxed: an event is then 17 bytes, not the size of a failure's
        /// strings, and a chunk has thousands of matches.)
        indirect case failure(RecordFailure)
    }

    var bytes: [UInt8]
    var events: [Event] = []
    /// Records read (matched or not, failures included).
    var records = 0
    var inputOffset: Int
    /// For a grouped filter, the chunk's matches in their groups, added by
    /// the thread that evaluated the chunk (``Chunk/evaluate(maximumRecordSize:colors:stopAtFailure:grouping:into:)``):
    /// the main thread merges the parts in input order.
    var groups: GroupedFetchAccumulator?
    /// The match (counted from 0 in the chunk) whose grouping failed, and
    /// the error: the chunk's records after it were not tested.
    var groupingStopped: (match: Int, error: EvaluationError)?
}

extension Chunk {
    /// Runs `test` on each record of the chunk, in input order, stopping at
    /// the first failure when `stopAtFailure`. Lines longer than
    /// `maximumRecordSize` (from their first non-blank byte) are failures.
    func evaluate(
        maximumRecordSize: Int, colors: Bool, stopAtFailure: Bool,
        test: RecordTest
    ) -> ChunkResult {
        var result = ChunkResult(bytes: bytes, inputOffset: inputOffset)
        // Room for a match every 128 bytes without growing (and copying)
        // the array as it fills.
        result.events.reserveCapacity(bytes.count / 128)
        var positions = TextPositions(line: firstLine, column: firstColumn)
        bytes.withUnsafeBufferPointer { all in
            /// Evaluates one record; false to stop.
            func record(_ start: Int, _ end: Int, number: Int, line: Int, isElement: Bool) -> Bool {
                result.records += 1
                do {
                    if try test(UnsafeBufferPointer(rebasing: all[start..<end])) {
                        var last = end
                        while last > start, Chunk.isBlank(all[last - 1]) { last -= 1 }
                        result.events.append(.match(start..<last))
                    }
                    return true
                } catch let error as JSONError {
                    let (l, c) = positions.at(start + error.offset, in: bytes[...])
                    // A value followed by more than blanks: in an array,
                    // where a comma or the closing bracket was expected.
                    let message =
                        isElement && error.message == "unexpected text after the value" ? "expected ',' or ']'" : error.message
                    result.events.append(.failure(.input(CommandFailure("invalid JSON at line \(l), column \(c): \(message)"))))
                } catch {
                    let place = isElement ? "record \(number) (line \(line))" : "line \(line)"
                    let rendered = (error as? any SourceDiagnostic)?.rendered(colors: colors) ?? "error: \(error)"
                    result.events.append(.failure(.evaluation(place: place, message: "\(error)", rendered: rendered)))
                }
                return !stopAtFailure
            }
            func failure(_ failure: CommandFailure) -> Bool {
                result.records += 1
                result.events.append(.failure(.input(failure)))
                return !stopAtFailure
            }
            for item in items {
                switch item {
                case .lines(let range):
                    var line = firstLine
                    var i = range.lowerBound
                    while i < range.upperBound {
                        var start = i
                        while start < range.upperBound, Chunk.isSpace(all[start]) { start += 1 }
                        let base = UnsafeRawPointer(all.baseAddress!)
                        let end = memchr(base + start, 0x0A, range.upperBound - start).map { UnsafeRawPointer($0) - base }
                            ?? range.upperBound
                        if start < end {
                            let goOn =
                                end - start > maximumRecordSize
                                ? failure(ChunkReader.tooLong(line: line, limit: maximumRecordSize))
                                : record(start, end, number: line, line: line, isElement: false)
                            guard goOn else { return }
                        }
                        line += 1
                        i = end + 1
                    }
                case .element(let range, let number, let line):
                    guard record(range.lowerBound, range.upperBound, number: number, line: line, isElement: true) else { return }
                case .failure(let f):
                    guard failure(f) else { return }
                }
            }
        }
        return result
    }

    /// JSON's blanks: space, tab, carriage return, newline.
    static func isBlank(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == 0x0A
    }

    /// JSON's blanks other than the newline.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}

/// Evaluates the chunks of a reader on `jobs` threads and hands the results
/// back in input order.
///
/// Each thread makes its own work (`makeWork`, once), reads the next chunk
/// (one at a time: reading is sequential), evaluates it, and leaves the
/// result for ``next()``. Work of its own: a compiled filter copies none
/// of its parts on the paths of AND, OR, NOT and key-path comparisons, but
/// a comparison left to the general path still copies a constant with
/// storage or a function's arguments at every record, and threads sharing
/// those would change the same reference counts (see ``CompiledFilter``);
/// compiling is cheap, so each thread compiles its own. At most
/// `2 × jobs` chunks are read and not yet handed back: a thread waits
/// before reading another, so memory stays at about that many chunks
/// however large the input, and a slow consumer (a terminal) slows the
/// reading instead of filling memory.
final class ParallelChunks: @unchecked Sendable {
    // Sendable by hand: `reader` is used only with `readLock` held, and the
    // other mutable properties only with `condition` locked.
    private let condition = NSCondition()
    private let readLock = NSLock()
    private let reader: ChunkReader
    private let makeWork: @Sendable () -> (Chunk) -> ChunkResult
    private let maximumInFlight: Int
    private var results: [Int: ChunkResult] = [:]
    private var inFlight = 0
    private var handedBack = 0
    /// Known once the reader is at its end.
    private var chunkCount: Int?
    private var stopped = false

    init(reader: ChunkReader, jobs: Int, makeWork: @escaping @Sendable () -> (Chunk) -> ChunkResult) {
        self.reader = reader
        self.makeWork = makeWork
        maximumInFlight = 2 * jobs
        Parallel.startThreads(jobs) { [self] _ in run() }
    }

    private func run() {
        let work = makeWork()
        while true {
            condition.lock()
            while inFlight >= maximumInFlight && !stopped { condition.wait() }
            if stopped || chunkCount != nil {
                condition.unlock()
                return
            }
            inFlight += 1
            condition.unlock()

            readLock.lock()
            let chunk = reader.next()
            let read = reader.chunksRead
            readLock.unlock()

            condition.lock()
            if let chunk {
                condition.unlock()
                let result = work(chunk)
                condition.lock()
                results[chunk.sequence] = result
            } else {
                inFlight -= 1
                chunkCount = read
            }
            condition.broadcast()
            condition.unlock()
        }
    }

    /// The next chunk's result in input order, or nil after the last.
    func next() -> ChunkResult? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let result = results.removeValue(forKey: handedBack) {
                handedBack += 1
                inFlight -= 1
                condition.broadcast()
                return result
            }
            if let chunkCount, handedBack >= chunkCount { return nil }
            condition.wait()
        }
    }

    /// Stops the threads after the chunks they are evaluating.
    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }

    /// The results of the work `makeWork` makes (once for each thread) on
    /// the chunks of `reader`, in input order: evaluated on `jobs` threads,
    /// or on the calling one for one job; and what stops the threads early.
    static func results(
        of reader: ChunkReader, jobs: Int, makeWork: @escaping @Sendable () -> (Chunk) -> ChunkResult
    ) -> (next: () -> ChunkResult?, stop: () -> Void) {
        if jobs == 1 {
            let work = makeWork()
            return ({ reader.next().map(work) }, {})
        }
        let parallel = ParallelChunks(reader: reader, jobs: jobs, makeWork: makeWork)
        return (parallel.next, parallel.stop)
    }
}

extension Chunk {
    /// Tests the chunk's records with `filter` and adds those that match to
    /// `part` (a part of the grouped fetch, fresh), in one scan of each
    /// record: the result's ``ChunkResult/groups``. The first grouping
    /// error ends the chunk: it is its last match.
    func evaluate(
        maximumRecordSize: Int, colors: Bool, stopAtFailure: Bool, grouping filter: GroupedRecordFilter,
        into part: GroupedFetchAccumulator
    ) -> ChunkResult {
        final class Grouping {
            var part: GroupedFetchAccumulator
            var matches = 0
            var stopped: (match: Int, error: EvaluationError)?
            init(_ part: GroupedFetchAccumulator) { self.part = part }
        }
        let grouping = Grouping(part)
        var result = evaluate(maximumRecordSize: maximumRecordSize, colors: colors, stopAtFailure: stopAtFailure) { bytes in
            if grouping.stopped != nil { return false }
            switch try filter.evaluate(jsonUTF8: UnsafeRawBufferPointer(bytes), addingTo: &grouping.part) {
            case .rejected:
                return false
            case .added:
                grouping.matches += 1
                return true
            case .failed(let error):
                grouping.stopped = (grouping.matches, error)
                grouping.matches += 1
                return true
            }
        }
        result.groups = grouping.part
        result.groupingStopped = grouping.stopped
        return result
    }
}
