import Foundation
import Sift

/// A piece of the input that holds whole records only: what one worker of
/// `sift filter` evaluates at a time.
struct Chunk: Sendable {
    /// The chunk's place among the chunks, from 0: results are printed in
    /// this order.
    var sequence: Int
    /// The bytes read; the items say which of them are records.
    var bytes: [UInt8]
    /// The line (from 1) of `bytes[0]`, and the characters of that line
    /// before it (blanks dropped, or the part of a long line read before).
    var firstLine: Int
    var firstColumn: Int
    /// The records and the errors found while reading, in input order.
    var items: [Item]
    /// How many bytes of the input have been read up to the end of this chunk.
    var inputOffset: Int

    enum Item: Sendable {
        /// Lines of JSON Lines: each line that is not blank is a record,
        /// numbered by its line.
        case lines(Range<Int>)
        /// An element of a JSON array: from its first non-blank byte to the
        /// comma or bracket after it (an empty element is that comma or
        /// bracket alone, which is then the error), its number from 1, and
        /// the line it starts on.
        case element(Range<Int>, number: Int, line: Int)
        /// A record refused while reading: too long, or the array's own
        /// syntax (text after it, no closing bracket).
        case failure(CommandFailure)
    }
}

/// Reads JSON Lines or a JSON array in chunks of about `chunkSize` bytes,
/// each ending at a record's end, keeping at most one chunk and the record
/// that straddles its end in memory.
///
/// The input is a JSON array when its first non-blank byte is `[`, however
/// many blanks come before it. JSON Lines are cut at the last newline of
/// what was read; the lines are found by whoever walks the chunk
/// (``ChunkRecords``), so that the one reading thread only looks for one
/// newline from the end and counts the newlines. A JSON array's elements
/// are found by one pass over the bytes that follows strings, escapes and
/// brackets: an element ends at a comma outside strings at the array's own
/// depth, and the array at its closing bracket; the elements are never
/// parsed here, and are streamed: the array is never held whole.
///
/// A record longer than `maximumRecordSize` bytes (from its first non-blank
/// byte) is refused with its line as soon as that many bytes are read, and
/// the rest of it is dropped as it is read. Blanks before a record are
/// dropped as they are read. Memory is thus bounded by the larger of
/// `chunkSize` and `maximumRecordSize`, whatever the size of the input.
final class ChunkReader {
    /// The default of `--max-record-size`, 64 MiB: far above any record met
    /// in practice, while input that has no newlines (a binary file read by
    /// mistake) is refused before it takes much memory.
    static let defaultMaximumRecordSize = 64 << 20

    /// The default chunk size, 1 MiB (about 9,000 records of 120 bytes):
    /// large enough that handing a chunk to a thread costs nothing next to
    /// evaluating it, small enough that a chunk per worker and the ones
    /// waiting take little memory (with 4 MiB chunks, the peak memory of
    /// two workers was 58 MB instead of 35).
    static let defaultChunkSize = 1 << 20

    /// The chunk size for `jobs` threads: the default, or less where
    /// `2 × jobs` chunks of it would be over 16 MiB (at least 64 KiB), so
    /// that memory stays the same on a machine with many cores.
    static func chunkSize(jobs: Int) -> Int {
        min(defaultChunkSize, max(64 << 10, (16 << 20) / max(1, 2 * jobs)))
    }

    private enum State {
        /// Before the first non-blank byte.
        case start
        case lines
        case array
        /// After the array's closing bracket: only blanks may follow.
        case afterArray
        case finished
    }

    let totalBytes: Int?
    let maximumRecordSize: Int
    let chunkSize: Int
    private let descriptor: Int32
    private let path: String
    private var state = State.start

    /// Bytes read and not yet handed out, from a record's start (or blanks
    /// before one): `buffer[0]` is at `line`, after `column` characters of
    /// its line.
    private var buffer: [UInt8] = []
    private var line = 1
    private var column = 0
    private var atEnd = false
    /// Whether the last read returned fewer bytes than asked: a pipe has
    /// nothing more for now, so what is complete is handed out rather than
    /// kept waiting for a full chunk.
    private var shortRead = false
    private(set) var bytesRead = 0
    /// Chunks handed out so far.
    var chunksRead: Int { sequence }
    private var sequence = 0
    private var pending: [Chunk.Item] = []
    /// Whether the record being read was refused as too long: its bytes are
    /// dropped until it ends.
    private var discarding = false

    // JSON Lines: the last newline of `buffer[..<searched]`, if it has one.
    private var searched = 0
    private var knownNewline: Int?

    // A JSON array: the scan's state at `scanned`.
    private var scanned = 0
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// Lines of `buffer[..<scanned]`, and where the current element's first
    /// non-blank byte is, with its line.
    private var scannedLine = 1
    private var elementStart: Int?
    private var elementLine = 0
    /// The end of the current element's value (after its last byte that is
    /// not a blank): what its size is counted to.
    private var valueEnd = 0
    /// Whether the current element was handed out before the comma or
    /// bracket after it, being followed by a long run of blanks: the next
    /// byte that is not a blank must be one of those.
    private var awaitingDelimiter = false
    /// Blanks kept in memory in an array before they are dropped: between
    /// two elements, and after an element's value before its comma, they
    /// take no memory past this (and are no part of the record's size).
    static let blankRun = 1 << 20
    /// Elements ended so far (-1 until the input is known to be an array),
    /// and whether a comma ended one (so `[1,]` has an empty element).
    private var elementCount = -1
    /// Where the next chunk may begin: after the last element handed to
    /// `pending`, with the line there.
    private var cut = 0
    private var cutLine = 1

    /// Opens `path` (any readable file, FIFO or device: it is read as a
    /// stream) or standard input for nil or `-`.
    init(
        path: String?, maximumRecordSize: Int = ChunkReader.defaultMaximumRecordSize,
        chunkSize: Int = ChunkReader.defaultChunkSize
    ) throws {
        if let path, path != "-" {
            // Any file that can be read is taken, not only a regular one: a
            // FIFO or `/dev/stdin` is a stream like standard input, and
            // `sift filter P <(command)` passes one. (Opening a FIFO waits
            // for its writer, as `cat` does.) The commands that need a
            // whole file call `InputFile.requireRegular` first.
            guard FileManager.default.fileExists(atPath: path) else { throw CommandFailure("no such file: \(path)") }
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { throw CommandFailure("cannot read \(path)") }
            descriptor = fd
            totalBytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
            self.path = path
        } else {
            descriptor = 0
            totalBytes = nil
            self.path = "standard input"
        }
        self.maximumRecordSize = maximumRecordSize
        self.chunkSize = max(1, chunkSize)
    }

    deinit {
        if descriptor != 0 { close(descriptor) }
    }

    /// The next chunk, or nil at the end. A read that fails ends the input
    /// with a chunk whose last item is the error.
    func next() -> Chunk? {
        while true {
            switch state {
            case .finished:
                return nil
            case .start:
                if let chunk = readOrFail() { return chunk }
                dropBlanks()
                if buffer.isEmpty {
                    if atEnd { state = .finished }
                    continue
                }
                if buffer[0] == UInt8(ascii: "[") {
                    state = .array
                    (depth, scanned, scannedLine, elementCount, cut, cutLine) = (1, 1, line, 0, 1, line)
                } else {
                    state = .lines
                }
                searched = 0
                if let chunk = scanAndCut() { return chunk }
            case .lines, .array, .afterArray:
                if let chunk = readOrFail() { return chunk }
                if let chunk = scanAndCut() { return chunk }
            }
        }
    }

    /// Reads more unless at the end; a failed read becomes the last chunk.
    private func readOrFail() -> Chunk? {
        guard !atEnd else { return nil }
        do {
            try fill()
            return nil
        } catch {
            state = .finished
            pending.append(.failure(error))
            return handOut(upTo: 0, nextLine: line, nextColumn: column)
        }
    }

    private func fill() throws(CommandFailure) {
        let old = buffer.count
        // Up to a chunk; past it (a record longer than a chunk), a chunk more.
        let want = old < chunkSize ? chunkSize - old : chunkSize
        var result: (count: Int, error: Int32) = (0, 0)
        if old < chunkSize {
            // A new array: the bytes kept (part of a record), then the read
            // into its uninitialized rest. Zeroing a chunk's bytes only to
            // overwrite them took 5% of a grouped filter's time.
            let kept = buffer
            buffer = [UInt8](unsafeUninitializedCapacity: chunkSize) { bytes, initialized in
                kept.withUnsafeBufferPointer { if let from = $0.baseAddress { bytes.baseAddress!.initialize(from: from, count: old) } }
                result = Self.readBytes(descriptor, into: bytes.baseAddress! + old, want)
                initialized = old + max(0, result.count)
            }
        } else {
            // A record longer than a chunk grows in place, amortized.
            buffer.append(contentsOf: repeatElement(0, count: want))
            result = buffer.withUnsafeMutableBytes { Self.readBytes(descriptor, into: $0.baseAddress! + old, want) }
            buffer.removeLast(want - max(0, result.count))
        }
        let count = result.count
        guard count >= 0 else {
            atEnd = true
            throw CommandFailure("cannot read \(path): \(String(cString: strerror(result.error)))")
        }
        if count == 0 { atEnd = true }
        shortRead = count < want
        bytesRead += count
    }

    /// `read(2)` of up to `count` bytes, again when interrupted: the count
    /// read, or -1 and the error.
    private static func readBytes(_ descriptor: Int32, into pointer: UnsafeMutableRawPointer, _ count: Int) -> (count: Int, error: Int32) {
        while true {
            let n = read(descriptor, pointer, count)
            if n >= 0 { return (n, 0) }
            if errno != EINTR { return (-1, errno) }
        }
    }

    /// Drops the blanks at the start of the buffer, counting their lines
    /// and columns: blanks before a record take no memory.
    private func dropBlanks() {
        var dropped = 0
        var (lines, blanks) = (line, column)
        buffer.withUnsafeBufferPointer { bytes in
            scan: while dropped < bytes.count {
                switch bytes[dropped] {
                case 0x0A:
                    lines += 1
                    blanks = 0
                case 0x20, 0x09, 0x0D: blanks += 1
                default: break scan
                }
                dropped += 1
            }
        }
        (line, column) = (lines, blanks)
        if dropped > 0 { buffer.removeSubrange(..<dropped) }
    }

    /// Looks at the bytes read since the last call and hands out a chunk
    /// when one is ready.
    private func scanAndCut() -> Chunk? {
        switch state {
        case .lines: return cutLines()
        case .array: return cutArray()
        case .afterArray: return afterArray()
        default: return nil
        }
    }

    // MARK: - JSON Lines

    private func cutLines() -> Chunk? {
        if discarding {
            // The rest of a line refused as too long: dropped up to its end.
            guard let newline = buffer.firstIndex(of: 0x0A) else {
                buffer.removeAll(keepingCapacity: true)
                if atEnd { state = .finished }
                return nil
            }
            buffer.removeSubrange(...newline)
            (line, column, discarding) = (line + 1, 0, false)
            (searched, knownNewline) = (0, nil)
        }
        let ready = buffer.count >= chunkSize || shortRead || atEnd
        if atEnd {
            state = .finished
            guard !buffer.isEmpty else { return nil }
            pending.append(.lines(0..<buffer.count))
            return handOut(upTo: buffer.count, nextLine: line, nextColumn: 0)
        }
        let last = lastNewline()
        if let last, ready {
            let lines = buffer.withUnsafeBufferPointer { ChunkReader.newlines(in: UnsafeBufferPointer(rebasing: $0[...last])) }
            pending.append(.lines(0..<last + 1))
            return handOut(upTo: last + 1, nextLine: line + lines, nextColumn: 0)
        }
        if last == nil {
            // One line so far, not ended: its blanks are dropped, and it is
            // refused once it is longer than the limit.
            dropBlanks()
            searched = buffer.count
            if buffer.count > maximumRecordSize {
                discarding = true
                buffer.removeAll(keepingCapacity: true)
                (searched, knownNewline) = (0, nil)
                pending.append(.failure(tooLong(line: line)))
                return handOut(upTo: 0, nextLine: line, nextColumn: column)
            }
        }
        return nil
    }

    /// The last newline of the buffer, looking only at bytes not searched
    /// before.
    private func lastNewline() -> Int? {
        let found = buffer.withUnsafeBufferPointer { bytes -> Int? in
            var i = bytes.count
            while i > searched {
                i -= 1
                if bytes[i] == 0x0A { return i }
            }
            return nil
        }
        searched = buffer.count
        if let found { knownNewline = found }
        return knownNewline
    }

    static func newlines(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        // Sixty-four bytes a round, as four 16-byte vectors compared with
        // newlines: each lane adds 1 where its byte is one. A lane takes at
        // most 4 a round, and 63 rounds (252) fit in its byte before the
        // lanes are added up. On 1,000,000 JSON Lines records (118 MB, in
        // the page cache) this took 4 ms, memchr per line 9 ms, and eight
        // bytes at a time in a UInt64 27 ms. (Concrete SIMD16<UInt8>
        // vectors are made into vector instructions by an optimized build;
        // a debug build is slow, and gives the same counts.)
        let raw = UnsafeRawPointer(base)
        let (newline, one, zero) = (SIMD16<UInt8>(repeating: 0x0A), SIMD16<UInt8>(repeating: 1), SIMD16<UInt8>())
        var count = 0
        var i = 0
        while i + 64 <= bytes.count {
            var lanes = SIMD16<UInt8>()
            var rounds = 0
            while rounds < 63 && i + 64 <= bytes.count {
                for k in stride(from: 0, to: 64, by: 16) {
                    let v = raw.loadUnaligned(fromByteOffset: i + k, as: SIMD16<UInt8>.self)
                    lanes &+= zero.replacing(with: one, where: v .== newline)
                }
                i += 64
                rounds += 1
            }
            for lane in 0..<16 { count += Int(lanes[lane]) }
        }
        while i < bytes.count {
            if base[i] == 0x0A { count += 1 }
            i += 1
        }
        return count
    }

    // MARK: - A JSON array

    private func cutArray() -> Chunk? {
        scanArray()
        if state == .afterArray || state == .finished {
            // The closing bracket (or an error at it) was found.
            return handOut(upTo: cut, nextLine: cutLine, nextColumn: columnAt(cut))
        }
        if atEnd {
            endAtEndOfInput()
            return handOut(upTo: buffer.count, nextLine: scannedLine, nextColumn: 0)
        }
        if let start = elementStart, (depth == 1 && !inString ? valueEnd : scanned) - start > maximumRecordSize, !discarding {
            discarding = true
            elementCount += 1
            pending.append(.failure(tooLong(line: elementLine)))
        }
        if !discarding, state == .array, !inString, depth == 1 {
            if let start = elementStart, scanned - valueEnd > Self.blankRun {
                // A value followed by a long run of blanks: handed out now,
                // its comma still to come, and the blanks dropped.
                elementCount += 1
                pending.append(.element(start..<valueEnd, number: elementCount, line: elementLine))
                elementStart = nil
                awaitingDelimiter = true
                let newlines = buffer[valueEnd..<scanned].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                let chunk = handOut(upTo: valueEnd, nextLine: scannedLine - newlines, nextColumn: columnAt(valueEnd))
                dropScanned()
                return chunk
            }
            if elementStart == nil, pending.isEmpty, scanned > Self.blankRun {
                // Blanks (and commas) between elements take no memory.
                dropScanned()
            }
        }
        if discarding {
            // Hand out what came before the long element; drop the element's bytes read so far.
            let chunk = pending.isEmpty ? nil : handOut(upTo: cut, nextLine: cutLine, nextColumn: columnAt(cut))
            dropScanned()
            return chunk
        }
        if !pending.isEmpty, buffer.count >= chunkSize || shortRead {
            return handOut(upTo: cut, nextLine: cutLine, nextColumn: columnAt(cut))
        }
        return nil
    }

    /// Follows strings, escapes and brackets over the bytes not scanned
    /// yet, adding each element that ends to `pending`.
    private func scanArray() {
        var i = scanned
        var (depth, inString, escaped, line) = (self.depth, self.inString, self.escaped, scannedLine)
        var closed = false
        buffer.withUnsafeBufferPointer { bytes in
            let n = bytes.count
            while i < n {
                let b = bytes[i]
                if inString {
                    if escaped {
                        escaped = false
                    } else if b == UInt8(ascii: "\\") {
                        escaped = true
                    } else if b == UInt8(ascii: "\"") {
                        inString = false
                        valueEnd = i + 1
                    } else if b == 0x0A {
                        line += 1
                    }
                    i += 1
                    continue
                }
                switch b {
                case 0x20, 0x09, 0x0D: i += 1; continue
                case 0x0A: line += 1; i += 1; continue
                default: break
                }
                if awaitingDelimiter {
                    // After a value handed out early: only its comma or the
                    // closing bracket.
                    awaitingDelimiter = false
                    if b == UInt8(ascii: ",") {
                        (cut, cutLine) = (i + 1, line)
                        i += 1
                        continue
                    }
                    if b == UInt8(ascii: "]") {
                        depth = 0
                        i += 1
                        (cut, cutLine) = (i, line)
                        closed = true
                        return
                    }
                    state = .finished
                    pending.append(.failure(invalid("expected ',' or ']'", at: i)))
                    (cut, cutLine) = (i, line)
                    return
                }
                if depth > 1 || (b != UInt8(ascii: ",") && b != UInt8(ascii: "]") && b != UInt8(ascii: "}")) {
                    valueEnd = i + 1
                }
                switch b {
                case UInt8(ascii: "\""):
                    if elementStart == nil { (elementStart, elementLine) = (i, line) }
                    inString = true
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if elementStart == nil { (elementStart, elementLine) = (i, line) }
                    depth += 1
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if depth == 1 {
                        endElement(at: i, line: line, closing: b)
                        depth = 0
                        i += 1
                        (cut, cutLine) = (i, line)
                        closed = true
                        return
                    }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 1 {
                        endElement(at: i, line: line, closing: nil)
                        (cut, cutLine) = (i + 1, line)
                    }
                default:
                    if elementStart == nil { (elementStart, elementLine) = (i, line) }
                }
                i += 1
            }
        }
        (scanned, self.depth, self.inString, self.escaped, scannedLine) = (i, depth, inString, escaped, line)
        if closed { state = .afterArray }
    }

    /// Ends the current element at `end`, the comma or bracket after it.
    private func endElement(at end: Int, line: Int, closing: UInt8?) {
        defer { elementStart = nil }
        if discarding {
            // The end of an element refused as too long: it was reported.
            discarding = false
            return
        }
        elementCount += 1
        if let start = elementStart {
            if valueEnd - start > maximumRecordSize {
                pending.append(.failure(tooLong(line: elementLine)))
            } else {
                pending.append(.element(start..<end, number: elementCount, line: elementLine))
            }
            if closing == UInt8(ascii: "}") {
                state = .finished
                pending.append(.failure(invalid("expected ',' or ']'", at: end)))
            }
        } else if closing == UInt8(ascii: "]") && elementCount == 1 {
            elementCount = 0  // `[]`: no elements
        } else {
            // Nothing between two delimiters: the element is the delimiter,
            // which reading it as JSON reports ("unexpected character").
            pending.append(.element(end..<end + 1, number: elementCount, line: line))
        }
    }

    /// The input ended inside the array.
    private func endAtEndOfInput() {
        state = .finished
        if discarding { return }
        if let start = elementStart {
            elementCount += 1
            pending.append(.element(start..<buffer.count, number: elementCount, line: elementLine))
            // A complete value with no comma or bracket after it; an
            // incomplete one is reported by reading it.
            if depth == 1 && !inString { pending.append(.failure(invalid("expected ',' or ']'", at: buffer.count))) }
        } else {
            elementCount += 1
            pending.append(.element(buffer.count..<buffer.count, number: elementCount, line: scannedLine))
        }
    }

    /// Only blanks may follow the array.
    private func afterArray() -> Chunk? {
        dropBlanks()
        guard !buffer.isEmpty else {
            if atEnd { state = .finished }
            return nil
        }
        state = .finished
        pending.append(.failure(invalid("unexpected text after the value", at: 0)))
        return handOut(upTo: 0, nextLine: line, nextColumn: column)
    }

    /// Drops the scanned bytes of an element refused as too long.
    private func dropScanned() {
        let dropped = scanned
        column = columnAt(dropped)
        line = scannedLine
        buffer.removeSubrange(..<dropped)
        scanned = 0
        valueEnd = 0
        elementStart = elementStart.map { _ in 0 }
        (cut, cutLine) = (0, line)
    }

    // MARK: - Handing out

    /// The pending items as a chunk of `buffer[..<end]`; the rest of the
    /// buffer starts the next chunk, at `nextLine` and `nextColumn`.
    /// (With no pending items, the bytes are dropped and no chunk made.)
    private func handOut(upTo end: Int, nextLine: Int, nextColumn: Int) -> Chunk? {
        var chunk: Chunk?
        if !pending.isEmpty {
            // The chunk keeps the buffer whole (the rest is copied out), so
            // that handing out copies only the straddling record.
            chunk = Chunk(
                sequence: sequence, bytes: [], firstLine: line, firstColumn: column, items: pending,
                inputOffset: bytesRead - (buffer.count - end))
            sequence += 1
            pending = []
        }
        let rest = Array(buffer[end...])
        chunk?.bytes = buffer
        buffer = rest
        (line, column) = (nextLine, nextColumn)
        searched = 0
        knownNewline = nil
        scanned -= end
        cut -= end
        valueEnd = max(0, valueEnd - end)
        if let start = elementStart { elementStart = start - end }
        return chunk
    }

    /// The characters before `offset` on its line. Counted in Unicode
    /// scalars where the line began in an earlier chunk (a one-line array
    /// is then counted once, not again for each error).
    private func columnAt(_ offset: Int) -> Int {
        buffer.withUnsafeBufferPointer { bytes in
            var i = offset
            var scalars = 0
            while i > 0 {
                i -= 1
                let b = bytes[i]
                if b == 0x0A { return scalars }
                if b & 0xC0 != 0x80 { scalars += 1 }
            }
            return column + scalars
        }
    }

    private func tooLong(line: Int) -> CommandFailure {
        ChunkReader.tooLong(line: line, limit: maximumRecordSize)
    }

    static func tooLong(line: Int, limit: Int) -> CommandFailure {
        CommandFailure("the record at line \(line) is longer than the limit of \(limit) bytes (--max-record-size)")
    }

    /// An error in the array's own syntax at `offset` in the buffer.
    private func invalid(_ message: String, at offset: Int) -> CommandFailure {
        var positions = TextPositions(line: line, column: column)
        let (l, c) = positions.at(offset, in: buffer[...])
        return CommandFailure("invalid JSON at line \(l), column \(c): \(message)")
    }
}

/// Lines and columns (in characters) of offsets into a chunk's bytes, asked
/// for in increasing order: each byte is counted once however many errors a
/// chunk has.
struct TextPositions {
    private var offset = 0
    private var line: Int
    /// Characters before `offset` on its line.
    private var column: Int
    private let start: (line: Int, column: Int)

    init(line: Int, column: Int) {
        (self.line, self.column) = (line, column)
        start = (line, column)
    }

    /// The line and the column (from 1) of `target` in `bytes`, whose first
    /// byte is at the line and column this was made with.
    mutating func at(_ target: Int, in bytes: ArraySlice<UInt8>) -> (line: Int, column: Int) {
        let target = min(max(0, target), bytes.count)
        if target < offset { (offset, line, column) = (0, start.line, start.column) }
        let from = bytes.startIndex + offset
        let (l, c) = DiagnosticRenderer.lineAndColumn(of: target - offset, inUTF8: bytes[from..<bytes.startIndex + target])
        line += l - 1
        column = l == 1 ? column + c - 1 : c - 1
        offset = target
        return (line, column + 1)
    }
}
