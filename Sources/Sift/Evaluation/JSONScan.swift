import Foundation

/// Raw JSON bytes as one more way of reading a predicate's roots: a record's
/// UTF-8 bytes are scanned once for the key paths the predicate reads, and
/// only the values at those paths are decoded (by ``JSONReader``, so they are
/// the values decoding gives); every other part of the record is skipped
/// without building a value, though validated as the decoder validates it.
/// The keys read make a sparse dictionary, evaluated by the plan's
/// dictionary strategy (``AccessKind/dictionary``), so the raw bytes have no
/// comparison rules of their own.
///
/// A record the scan does not read exactly as decoding would is decoded in
/// full instead (``read(_:maximumDepth:)`` gives nil), with the same answer
/// or error:
/// - a predicate that reads the whole record (`SELF`, a collection operator
///   on the root such as `@count`) or a key that is not ASCII (one that may
///   be canonically equivalent to another) is never scanned;
/// - a record that is not an object, that has a member name with an escape
///   or a byte that is not ASCII anywhere (two such names may be equivalent
///   under Unicode normalization, which decoding refuses), or anything
///   decoding would refuse (invalid JSON, bytes that are not UTF-8, a lone
///   surrogate, a number beyond a double's range, nesting deeper than the
///   limit) is decoded in full, which reports the error at its byte.
struct JSONScan: Sendable {
    /// A key of the paths read, and the keys read below it.
    struct Key: Sendable {
        let name: String
        let bytes: [UInt8]
        /// Whether the whole value is read (the path ends here, or goes on
        /// through a collection operator); else only the keys of `below`
        /// are read from it when it is an object.
        var isWhole: Bool
        var below: [Key]
    }

    /// The keys the predicate reads from the root.
    let keys: [Key]

    /// The scan for `predicate`, or nil when it reads the record as a whole
    /// or a key that may be canonically equivalent to another.
    init?(_ predicate: PredicateNode) {
        var paths: [[String]] = []
        guard JSONScan.collect(predicate, into: &paths) else { return nil }
        var keys: [Key] = []
        for path in paths {
            // A path that goes on through an operator reads the whole value
            // before it (`tags.@count`); one that starts with it, the root.
            let named = path.prefix { !CollectionOperator.isOperator($0) }
            guard !named.isEmpty, named.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return nil }
            JSONScan.add(named[...], to: &keys)
        }
        self.keys = keys
    }

    /// Adds `path` to `keys`: a key read whole keeps no keys below it.
    private static func add(_ path: ArraySlice<String>, to keys: inout [Key]) {
        guard let name = path.first else { return }
        let rest = path.dropFirst()
        let index: Int
        if let i = keys.firstIndex(where: { $0.name == name }) {
            index = i
        } else {
            keys.append(Key(name: name, bytes: Array(name.utf8), isWhole: false, below: []))
            index = keys.count - 1
        }
        if rest.isEmpty {
            keys[index].isWhole = true
            keys[index].below = []
        } else if !keys[index].isWhole {
            add(rest, to: &keys[index].below)
        }
    }

    /// Adds the key paths on the root that `p` reads; false when it reads
    /// the root as a whole.
    private static func collect(_ p: PredicateNode, into paths: inout [[String]]) -> Bool {
        switch p.kind {
        case .constant: return true
        case .and(let children), .or(let children): return children.allSatisfy { collect($0, into: &paths) }
        case .not(let child): return collect(child, into: &paths)
        case .comparison(let c): return collect(c.lhs, into: &paths) && collect(c.rhs, into: &paths)
        }
    }

    private static func collect(_ e: ExpressionNode, into paths: inout [[String]]) -> Bool {
        switch e.kind {
        case .constant, .variable, .anyKey: return true
        case .evaluatedObject: return false
        case .keyPath(let keys):
            paths.append(keys)
            return true
        case .path(let base, _), .cast(let base, _), .assignment(_, let base):
            return collect(base, into: &paths)
        case .variableKey(let base, let key): return collect(base, into: &paths) && collect(key, into: &paths)
        case .aggregate(let items), .function(_, let items): return items.allSatisfy { collect($0, into: &paths) }
        case .index(let base, let sub):
            guard collect(base, into: &paths) else { return false }
            if case .expression(let i) = sub { return collect(i, into: &paths) }
            return true
        case .invocation(let receiver, _, let args):
            return collect(receiver, into: &paths) && args.allSatisfy { collect($0, into: &paths) }
        case .ternary(let p, let a, let b):
            return collect(p, into: &paths) && collect(a, into: &paths) && collect(b, into: &paths)
        case .subquery(let collection, _, let p):
            // Key paths inside a SUBQUERY's predicate read the root too.
            return collect(collection, into: &paths) && collect(p, into: &paths)
        case .setOperation(_, let a, let b): return collect(a, into: &paths) && collect(b, into: &paths)
        }
    }

    /// The record in `bytes` as a dictionary of just the keys read, or nil
    /// when it is to be decoded in full (see the type's description).
    func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Value? {
        guard let base = bytes.baseAddress else { return .none }
        var scanner = JSONScanner(bytes: bytes, base: base, maximumDepth: maximumDepth)
        scanner.skipSpace()
        guard scanner.byte == UInt8(ascii: "{"), let value = scanner.object(keys, depth: 0) else { return .none }
        scanner.skipSpace()
        // (`Value` is `ExpressibleByNilLiteral`: `.none` says which nil.)
        guard scanner.position == bytes.count else { return .none }
        return value
    }
}

/// The scan of one record: skips values, validating them as ``JSONReader``
/// does, and reads the keys asked for. Every method returns nil or false
/// where the record is to be decoded in full.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let base: UnsafePointer<UInt8>
    let maximumDepth: Int
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.base = base
        self.maximumDepth = maximumDepth
    }

    /// The byte at the position, 0 at the end (a 0 byte is invalid wherever
    /// the scan looks at one, as the end is).
    var byte: UInt8 {
        @inline(__always) get { position < bytes.count ? base[position] : 0 }
    }

    @inline(__always)
    mutating func skipSpace() {
        while position < bytes.count {
            switch base[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    /// The object at the position (its `{`) with only `keys` read.
    mutating func object(_ keys: [JSONScan.Key], depth: Int) -> Value? {
        guard depth < maximumDepth else { return .none }
        position += 1
        var members: [String: Value] = keys.isEmpty ? [:] : Dictionary(minimumCapacity: keys.count)
        skipSpace()
        if byte == UInt8(ascii: "}") {
            position += 1
            return .dictionary(members)
        }
        while true {
            skipSpace()
            guard let name = memberName() else { return .none }
            skipSpace()
            guard byte == UInt8(ascii: ":") else { return .none }
            position += 1
            skipSpace()
            if let key = keys.first(where: { $0.bytes.count == name.count && memcmp($0.bytes, base + name.lowerBound, name.count) == 0 }) {
                guard let value = read(key, depth: depth + 1) else { return .none }
                // A repeated key keeps its last value, as decoding does.
                members[key.name] = value
            } else {
                guard skipValue(depth: depth + 1) else { return .none }
            }
            skipSpace()
            switch byte {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return .dictionary(members)
            default: return .none
            }
        }
    }

    /// The value of `key` at the position: decoded whole, or with only the
    /// keys below it read when it is an object.
    private mutating func read(_ key: JSONScan.Key, depth: Int) -> Value? {
        if !key.isWhole && byte == UInt8(ascii: "{") { return object(key.below, depth: depth) }
        return decoding { reader throws(JSONError) in try reader.value(depth: depth) }?.converted
    }

    /// The bytes of the member name at the position (at its quote), when it
    /// is ASCII without escapes.
    private mutating func memberName() -> Range<Int>? {
        guard byte == UInt8(ascii: "\"") else { return nil }
        position += 1
        let start = position
        skipPlain()
        guard byte == UInt8(ascii: "\"") else { return nil }
        position += 1
        return start..<position - 1
    }

    /// Skips one value, validating it.
    mutating func skipValue(depth: Int) -> Bool {
        switch byte {
        case UInt8(ascii: "\""): return skipString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return skipNumber()
        case UInt8(ascii: "n"): return skipWord("null")
        case UInt8(ascii: "t"): return skipWord("true")
        case UInt8(ascii: "f"): return skipWord("false")
        case UInt8(ascii: "{"):
            // An object with no key read: nothing is kept of it.
            guard case .some = object([], depth: depth) else { return false }
            return true
        case UInt8(ascii: "["):
            guard depth < maximumDepth else { return false }
            position += 1
            skipSpace()
            if byte == UInt8(ascii: "]") {
                position += 1
                return true
            }
            while true {
                skipSpace()
                guard skipValue(depth: depth + 1) else { return false }
                skipSpace()
                switch byte {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return true
                default: return false
                }
            }
        default:
            return false
        }
    }

    private mutating func skipWord(_ word: StaticString) -> Bool {
        let n = word.utf8CodeUnitCount
        guard position + n <= bytes.count, memcmp(base + position, word.utf8Start, n) == 0 else { return false }
        position += n
        return true
    }

    private mutating func skipDigits() {
        while position < bytes.count, base[position] &- UInt8(ascii: "0") < 10 { position += 1 }
    }

    /// Skips a number. One that may be beyond a double's range (an exponent,
    /// or more than 300 characters) is read as decoding reads it.
    private mutating func skipNumber() -> Bool {
        let start = position
        if byte == UInt8(ascii: "-") { position += 1 }
        guard byte &- UInt8(ascii: "0") < 10 else { return false }
        if byte == UInt8(ascii: "0") { position += 1 } else { skipDigits() }
        if byte == UInt8(ascii: ".") {
            position += 1
            let digits = position
            skipDigits()
            guard position > digits else { return false }
        }
        var plain = true
        if byte | 0x20 == UInt8(ascii: "e") {
            plain = false
            position += 1
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") { position += 1 }
            let digits = position
            skipDigits()
            guard position > digits else { return false }
        }
        // Fewer than 300 digits before the point: far inside a double's range.
        if plain && position - start <= 300 { return true }
        position = start
        guard case .some = decoding({ reader throws(JSONError) in try reader.number() }) else { return false }
        return true
    }

    /// Skips a string, validating its escapes and UTF-8.
    private mutating func skipString() -> Bool {
        position += 1
        while true {
            skipPlain()
            guard position < bytes.count else { return false }
            let b = base[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return true
            } else if b == UInt8(ascii: "\\") {
                guard skipEscape() else { return false }
            } else if b >= 0x80 {
                guard skipUTF8() else { return false }
            } else {
                return false  // a control character
            }
        }
    }

    /// Moves to the next byte of a string that is not printable ASCII (a
    /// quote, a backslash, a control character or the start of UTF-8),
    /// eight bytes at a time.
    @inline(__always)
    private mutating func skipPlain() {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let w = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            // A high bit for each byte that is a quote (0x22), a backslash
            // (0x5C), below 0x20 or above 0x7F; exact for the lowest such
            // byte (a borrow only marks bytes above a marked one).
            let quote = w ^ (ones &* 0x22)
            let backslash = w ^ (ones &* 0x5C)
            let marks =
                ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- ones &* 0x20) & ~w | w) & high
            if marks != 0 {
                position += marks.trailingZeroBitCount >> 3
                return
            }
            position += 8
        }
        while position < bytes.count {
            let b = base[position]
            guard b >= 0x20, b < 0x80, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") else { return }
            position += 1
        }
    }

    /// Skips an escape (at its backslash) as decoding reads it: a surrogate
    /// must be a high one followed by a low one.
    private mutating func skipEscape() -> Bool {
        position += 1
        guard position < bytes.count else { return false }
        let e = base[position]
        position += 1
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return true
        case UInt8(ascii: "u"):
            guard let scalar = hex4() else { return false }
            if scalar >= 0xD800 && scalar < 0xDC00 {
                guard position + 1 < bytes.count, base[position] == UInt8(ascii: "\\"),
                    base[position + 1] == UInt8(ascii: "u")
                else { return false }
                position += 2
                guard let low = hex4() else { return false }
                return low >= 0xDC00 && low < 0xE000
            }
            return scalar < 0xDC00 || scalar >= 0xE000
        default:
            return false
        }
    }

    private mutating func hex4() -> UInt32? {
        decoding { reader throws(JSONError) in try reader.hex4() }
    }

    /// What `read` reads with the decoder from the position, which it
    /// moves past it; nil where decoding fails.
    private mutating func decoding<T>(_ read: (inout JSONReader) throws(JSONError) -> T) -> T? {
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        reader.position = position
        guard let value = try? read(&reader) else { return nil }
        position = reader.position
        return value
    }

    /// Skips one scalar of UTF-8 (at its first byte, not ASCII), when it is
    /// well formed: no overlong form, no surrogate, nothing above U+10FFFF.
    private mutating func skipUTF8() -> Bool {
        let lead = base[position]
        let count: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: count = 2
        case 0xE0: count = 3; low = 0xA0
        case 0xED: count = 3; high = 0x9F
        case 0xE1...0xEF: count = 3
        case 0xF0: count = 4; low = 0x90
        case 0xF4: count = 4; high = 0x8F
        case 0xF1...0xF3: count = 4
        default: return false
        }
        guard position + count <= bytes.count else { return false }
        let second = base[position + 1]
        guard second >= low && second <= high else { return false }
        for i in 2..<count where base[position + i] & 0xC0 != 0x80 { return false }
        position += count
        return true
    }
}
