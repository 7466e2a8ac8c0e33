import Foundation
import Sift
import Synchronization

/// The records of a JSON array or JSON Lines file as the REPL keeps them:
/// the file's bytes, in the chunks ``ChunkReader`` cut them into, and each
/// record's byte range. A predicate is compiled (for each part, so that
/// threads share no compiled filter) and evaluated on each record's bytes (``CompiledFilter/evaluate(jsonUTF8:maximumDepth:)`` reads
/// only the keys it reads), on every core; a record is decoded only when it
/// is shown, explained (`:why`) or sorted, and then only the keys sorted by
/// are kept.
///
/// Why not decoded rows: a ``Value`` takes 24 bytes, a string adds a
/// `String` and its storage, and a nested object or array a heap dictionary
/// or array per record, so rows and the ``ValueTable`` built from them take
/// many times the file's size. On 1,000,000 generated people of 118 bytes
/// each (118 MB of JSON Lines, `Benchmarks/peers/files.py`), decoding them
/// into rows took 10.5 s and peaked at 1.70 GB (1,700 bytes a record), and
/// the table built on the first query took that to 1.99 GB; the bytes and
/// two 32-bit offsets per record peak at 155 MB (1.3 times the file) and
/// load in 0.7 s (0.9 s as one JSON array) on 2 cores.
struct JSONRecords: Sendable {
    /// A chunk of the file: whole records, as read.
    struct Part: Sendable {
        var bytes: [UInt8]
        /// Record `i` of the part is `bytes[starts[i]..<ends[i]]`, without
        /// the blanks around it. (A chunk is at most a chunk's size and a
        /// record's, far below 4 GiB.)
        var starts: [UInt32]
        var ends: [UInt32]
        /// The position (from 0) of the part's first record among all.
        var first: Int
        /// The line (from 1) of `bytes[0]`.
        var firstLine: Int

        var count: Int { starts.count }

        func withRecord<T>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
            try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[Int(starts[i])..<Int(ends[i])])) }
        }
    }

    /// What loading a file gives besides the records.
    struct Loaded {
        var records: JSONRecords
        /// The members' names of the records that are objects, in
        /// first-seen order.
        var keys: [String]
        /// The first records decoded, for completion's key paths.
        var sample: [Value]
    }

    /// Records decoded at load for completion's key paths.
    static let sampleSize = 500

    let parts: [Part]
    let count: Int
    /// Whether the file is one JSON array, else JSON Lines.
    let isArray: Bool
    /// Threads for evaluating and decoding.
    let jobs: Int

    /// Reads `path` with the reader of `sift filter`, in chunks of
    /// `chunkSize` bytes (by default as `sift filter`'s), checking every
    /// record as decoding does (on `jobs` threads), so that a file with a
    /// bad record is refused here with its line and column, as before.
    static func load(
        path: String, jobs: Int = ProcessInfo.processInfo.activeProcessorCount, chunkSize: Int? = nil
    ) throws -> Loaded {
        let jobs = max(1, jobs)
        let reader = try ChunkReader(path: path, chunkSize: chunkSize ?? ChunkReader.chunkSize(jobs: jobs))
        let maximumRecordSize = reader.maximumRecordSize
        // A record is checked by evaluating TRUEPREDICATE on its bytes, which
        // reports what decoding would (the same error at the same byte)
        // without building its values: the 1,000,000 people load in 0.5 to
        // 0.7 s so, in 3.2 s when each record was decoded into a `JSONValue`.
        let check = Filter(PredicateNode.truePredicate)
        // What a result does not say of its chunk, by the chunk's sequence:
        // the line it starts on, whether it holds elements of an array, and
        // the names of its records' members.
        let about = Mutex<[Int: (line: Int, isArray: Bool, keys: [String])]>([:])
        // Each thread with a filter compiled for it (see ParallelChunks).
        let (next, stop) = ParallelChunks.results(of: reader, jobs: jobs) {
            let check = check.compiled()
            return { chunk in
                var keys = KeyOrder()
                let result = chunk.evaluate(maximumRecordSize: maximumRecordSize, colors: false, stopAtFailure: true) { bytes in
                    _ = try check.evaluate(jsonUTF8: UnsafeRawBufferPointer(bytes))
                    keys.add(memberNames(bytes))
                    return true
                }
                let isArray = chunk.items.contains { if case .element = $0 { true } else { false } }
                about.withLock { $0[chunk.sequence] = (chunk.firstLine, isArray, keys.names) }
                return result
            }
        }
        defer { stop() }
        var parts: [Part] = []
        var count = 0
        var keys = KeyOrder()
        var isArray = false
        var sequence = 0
        while let result = next() {
            let chunk = about.withLock { $0.removeValue(forKey: sequence) } ?? (line: 1, isArray: false, keys: [])
            sequence += 1
            var part = Part(bytes: result.bytes, starts: [], ends: [], first: count, firstLine: chunk.line)
            part.starts.reserveCapacity(result.events.count)
            part.ends.reserveCapacity(result.events.count)
            for event in result.events {
                switch event {
                case .match(let range):
                    part.starts.append(UInt32(range.lowerBound))
                    part.ends.append(UInt32(range.upperBound))
                case .failure(.input(let failure)):
                    throw failure
                case .failure(.evaluation(_, let message, _)):
                    throw CommandFailure(message)
                }
            }
            isArray = isArray || chunk.isArray
            keys.add(chunk.keys)
            count += part.count
            if part.count > 0 { parts.append(part) }
        }
        let records = JSONRecords(parts: parts, count: count, isArray: isArray, jobs: jobs)
        let sample = (0..<min(count, sampleSize)).map { records.value(at: $0) }
        return Loaded(records: records, keys: keys.names, sample: sample)
    }

    /// The member names of the record in `bytes` (valid JSON, from its
    /// first byte) in document order, a repeated name again; none when it is
    /// not an object. A record with a name that has an escape is decoded
    /// for its names.
    static func memberNames(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var names: [String] = []
        var escaped = false
        _ = members(of: bytes) { name, hasEscape, _ in
            escaped = escaped || hasEscape
            names.append(String(decoding: name, as: UTF8.self))
        }
        guard escaped else { return names }
        guard case .object(let object)? = try? JSONValue(parsingUTF8: bytes) else { return [] }
        return object.keys
    }

    /// Calls `body` with each member of the object in `bytes` (valid JSON,
    /// from its first byte), in document order: the name's bytes between
    /// its quotes, whether they hold an escape (then they are not the name
    /// itself), and the range of the value's bytes (blanks around it
    /// included). Members are found by following strings and brackets,
    /// without reading the values. False when the record is not an object.
    static func members(
        of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>, Bool, Range<Int>) -> Void
    ) -> Bool {
        guard bytes.first == UInt8(ascii: "{") else { return false }
        var depth = 0
        // Whether the next string at depth 1 is a name; the member's name
        // once read, and where its value starts.
        var expectingName = false
        var name: (range: Range<Int>, escaped: Bool)?
        var valueStart = 0
        var i = 0
        while i < bytes.count {
            switch bytes[i] {
            case UInt8(ascii: "\""):
                var end = i + 1
                var escaped = false
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    if bytes[end] == UInt8(ascii: "\\") {
                        escaped = true
                        end += 1
                    }
                    end += 1
                }
                if expectingName {
                    name = (i + 1..<end, escaped)
                    expectingName = false
                }
                i = end
            case UInt8(ascii: ":") where depth == 1:
                valueStart = i + 1
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
                expectingName = depth == 1
            case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 1, let member = name {
                    body(UnsafeBufferPointer(rebasing: bytes[member.range]), member.escaped, valueStart..<i)
                    name = nil
                }
                if bytes[i] == UInt8(ascii: ",") {
                    expectingName = depth == 1
                } else {
                    depth -= 1
                }
            default:
                break
            }
            i += 1
        }
        return true
    }

    // MARK: - Reading records

    /// The part that holds record `index`.
    private func part(of index: Int) -> Int {
        var (low, high) = (0, parts.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if parts[middle].first <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Record `index` (from 0), decoded.
    func value(at index: Int) -> Value {
        let part = parts[part(of: index)]
        return part.withRecord(index - part.first, Self.decode)
    }

    /// A record's bytes decoded. Every record was decoded when the file was
    /// loaded, so this does not fail; should it, the record reads as nil
    /// rather than stopping the session.
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Value {
        (try? JSONValue(parsingUTF8: bytes))?.predicateValue ?? .null
    }

    /// How an error names record `index`: its row number (the `#` column)
    /// and its line.
    func place(of index: Int) -> String {
        let part = parts[part(of: index)]
        let start = Int(part.starts[index - part.first])
        let line = part.firstLine + part.bytes.withUnsafeBufferPointer {
            ChunkReader.newlines(in: UnsafeBufferPointer(rebasing: $0[..<start]))
        }
        return "row \(index + 1) (line \(line))"
    }

    // MARK: - Evaluating

    /// A predicate that cannot be evaluated on a record: the first such
    /// record in the file's order.
    struct Failure: Error {
        /// The record's position, from 0.
        var index: Int
        var error: any Error
    }

    /// The positions of the records that match `filter`, in order. The
    /// filter is compiled for each part of the file and each record's bytes
    /// are read for the keys it reads, on ``jobs`` threads; with ``EvaluationPaths/generalOnly``
    /// (`SIFT_EVAL_GENERAL_ONLY=1`) each record is decoded in full instead
    /// and evaluated with `variables`, the way the rows were before. (The
    /// REPL substitutes its variables into `filter`: those left are unbound,
    /// an error on either path.)
    func indices(where filter: Filter, variables: [String: Value] = [:], stop: Interruption? = nil) throws -> [Int] {
        let generalOnly = EvaluationPaths.default == .generalOnly
        // A part after one that failed need not be evaluated.
        let firstFailed = FirstFailure()
        let results = Parallel.map(parts.count, jobs: jobs) { [parts] p -> Result<[Int], Failure> in
            guard firstFailed.isBefore(p) == false else { return .success([]) }
            // The filter compiled for each part: a comparison left to the
            // general path copies parts of its filter at every record, which
            // threads sharing one would contend on (see ParallelChunks).
            let compiled = filter.compiled()
            let test: (UnsafeBufferPointer<UInt8>) throws -> Bool
            if generalOnly {
                test = { bytes in
                    let record = try JSONValue(parsingUTF8: bytes)
                    return try compiled.evaluate(with: record.predicateValue, variables: variables)
                }
            } else {
                test = { bytes in try compiled.evaluate(jsonUTF8: UnsafeRawBufferPointer(bytes)) }
            }
            let part = parts[p]
            var matches: [Int] = []
            for i in 0..<part.count {
                if stop?.happened == true { break }
                do {
                    if try part.withRecord(i, test) { matches.append(part.first + i) }
                } catch {
                    firstFailed.note(p)
                    return .failure(Failure(index: part.first + i, error: error))
                }
            }
            return .success(matches)
        }
        var matches: [Int] = []
        for result in results {
            switch result {
            case .success(let found): matches += found
            case .failure(let failure): throw failure
            }
        }
        if stop?.happened == true { throw Interruption.Stopped() }
        return matches
    }

    /// The records at `indices` (in increasing order), decoded on ``jobs``
    /// threads; with `keeping`, an object keeps only those members, so that
    /// sorting many matches takes little memory.
    func values(at indices: [Int], keeping: Set<String>? = nil) -> [Value] {
        // The run of `indices` in each part.
        var runs = [0]
        for p in parts.indices {
            let end = parts[p].first + parts[p].count
            var i = runs[p]
            while i < indices.count, indices[i] < end { i += 1 }
            runs.append(i)
        }
        let bounds = runs
        // Only the kept members' values are decoded (most of the time of
        // decoding goes to building values), by the scan that reads a
        // predicate's keys; a record it does not read (not an object, a
        // member name that is not plain ASCII) is decoded in full, then its
        // other members left out.
        let reader = keeping.flatMap { JSONMemberReader($0) }
        let values = Parallel.map(parts.count, jobs: jobs) { [parts] p -> [Value] in
            let part = parts[p]
            return indices[bounds[p]..<bounds[p + 1]].map { index in
                part.withRecord(index - part.first) { bytes in
                    guard let keeping else { return Self.decode(bytes) }
                    if let value = reader?.members(of: bytes) { return value }
                    let value = Self.decode(bytes)
                    guard case .dictionary(let members) = value else { return value }
                    return .dictionary(members.filter { keeping.contains($0.key) })
                }
            }
        }
        return Array(values.joined())
    }

    /// The names of the kinds of value (`integer`, `string`…) under each
    /// member name of the records that are objects, nils left out, as the
    /// decoded records' values name them: every record is read, on ``jobs``
    /// threads, decoding only numbers and literals (a string, an object or
    /// an array is known by its first byte).
    func kinds() -> [String: Set<String>] {
        let found = Parallel.map(parts.count, jobs: jobs) { [parts] p -> [String: Set<String>] in
            var kinds: [String: Set<String>] = [:]
            // The names of the last record read, known to be without repeats.
            var last: [String] = []
            let part = parts[p]
            for i in 0..<part.count {
                part.withRecord(i) { bytes in
                    var members: [(name: String, kind: String?)] = []
                    var escaped = false
                    guard Self.members(of: bytes, { name, hasEscape, range in
                        escaped = escaped || hasEscape
                        members.append((String(decoding: name, as: UTF8.self), Self.kind(of: UnsafeBufferPointer(rebasing: bytes[range]))))
                    }) else { return }
                    let names = members.map(\.name)
                    if escaped || (names != last && Set(names).count != names.count) {
                        // A repeated name has its last value only: decoded.
                        guard case .dictionary(let d) = Self.decode(bytes) else { return }
                        for (k, v) in d where !v.isNull { kinds[k, default: []].insert(v.typeName) }
                        return
                    }
                    last = names
                    for case (let name, let kind?) in members { kinds[name, default: []].insert(kind) }
                }
            }
            return kinds
        }
        return found.reduce(into: [:]) { all, kinds in all.merge(kinds) { $0.union($1) } }
    }

    /// The name of the kind of the JSON value in `bytes` (valid, blanks
    /// around it allowed) as its value inside a decoded object names it, nil
    /// for null: a string, an object or an array by its first byte, a
    /// number or a literal decoded.
    private static func kind(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let json: JSONValue?
        switch bytes.first(where: { !Chunk.isBlank($0) }) {
        case UInt8(ascii: "\""): json = .string("")
        case UInt8(ascii: "{"): json = .object(JSONObject())
        case UInt8(ascii: "["): json = .array([])
        default: json = try? JSONValue(parsingUTF8: bytes)
        }
        guard let json, case .array(let values) = JSONValue.array([json]).predicateValue, let value = values.first,
            !value.isNull
        else { return nil }
        return value.typeName
    }
}

/// The first of the parts whose evaluation failed, shared by the threads.
private final class FirstFailure: Sendable {
    private let part = Mutex(Int.max)

    /// Whether a part before `p` failed.
    func isBefore(_ p: Int) -> Bool { part.withLock { $0 < p } }

    func note(_ p: Int) { part.withLock { $0 = min($0, p) } }
}

/// Names in first-seen order, without repeats.
struct KeyOrder {
    private(set) var names: [String] = []
    private var seen: Set<String> = []
    /// The last names added: records of one file mostly have the same
    /// members, whose names then need no lookup.
    private var last: [String] = []

    mutating func add(_ keys: [String]) {
        guard keys != last else { return }
        for key in keys where seen.insert(key).inserted { names.append(key) }
        last = keys
    }
}
