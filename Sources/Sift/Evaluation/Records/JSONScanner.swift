import Foundation

/// The scan of one record: skips values, validating them as ``JSONReader``
/// does, and reads the keys of `nodes` into `slots`. Every method returns
/// nil or false where the record is to be decoded in full. The scan's
/// arrays are read through pointers, and a node only for its trivial parts
/// (see ``JSONScan/Node``).
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    let base: UnsafePointer<UInt8>
    let maximumDepth: Int
    let nodes: UnsafeBufferPointer<JSONScan.Node>
    /// ``JSONScan/members`` and ``JSONScan/names``.
    let members: UnsafeBufferPointer<Int>
    let names: UnsafeBufferPointer<UInt8>
    let slots: JSONSlots
    var position = 0

    init(
        bytes: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>, maximumDepth: Int,
        nodes: UnsafeBufferPointer<JSONScan.Node>, members: UnsafeBufferPointer<Int>,
        names: UnsafeBufferPointer<UInt8>, slots: JSONSlots
    ) {
        self.bytes = bytes
        self.base = base
        self.maximumDepth = maximumDepth
        self.nodes = nodes
        self.members = members
        self.names = names
        self.slots = slots
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

    /// The object at the position (its `{`), the members of the nodes
    /// `children` (in ``JSONScan/members``) read into their slots, the
    /// others skipped.
    mutating func object(_ children: Range<Int>, depth: Int) -> Bool {
        guard depth < maximumDepth else { return false }
        position += 1
        skipSpace()
        if byte == UInt8(ascii: "}") {
            position += 1
            return true
        }
        while true {
            skipSpace()
            guard let name = memberName() else { return false }
            skipSpace()
            guard byte == UInt8(ascii: ":") else { return false }
            position += 1
            skipSpace()
            if let node = node(named: name, among: children) {
                guard read(node, depth: depth + 1) else { return false }
            } else {
                guard skipValue(depth: depth + 1) else { return false }
            }
            skipSpace()
            switch byte {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return true
            default: return false
            }
        }
    }

    /// The node among `children` (in ``JSONScan/members``) whose name has
    /// the bytes at `name`.
    @inline(__always)
    private func node(named name: Range<Int>, among children: Range<Int>) -> Int? {
        guard !children.isEmpty else { return nil }
        let count = name.count
        // The name's first eight bytes, as the nodes keep theirs.
        var prefix: UInt64 = 0
        if name.lowerBound + 8 <= bytes.count {
            prefix = UInt64(littleEndian: UnsafeRawPointer(base + name.lowerBound).loadUnaligned(as: UInt64.self))
            if count < 8 { prefix &= (1 << (8 * UInt64(count))) &- 1 }
        } else {
            for k in 0..<min(count, 8) { prefix |= UInt64(base[name.lowerBound + k]) << (8 * UInt64(k)) }
        }
        for m in children {
            let c = members[m]
            guard nodes[c].prefix == prefix && nodes[c].bytes.count == count else { continue }
            if count <= 8 || memcmp(names.baseAddress! + nodes[c].bytes.lowerBound, base + name.lowerBound, count) == 0 {
                return c
            }
        }
        return nil
    }

    /// The value of node `i` at the position into its slot: decoded whole,
    /// or with only the keys below it read when it is an object.
    private mutating func read(_ i: Int, depth: Int) -> Bool {
        if nodes[i].isWhole {
            // A repeated key keeps its last value, as decoding does.
            if byte == UInt8(ascii: "\""), let string = plainStringBytes() {
                slots.strings[i] = string
                slots.kinds[i] = JSONScan.plainString
                return true
            }
            guard let value = wholeValue(depth: depth) else { return false }
            slots.values[i] = value
            slots.kinds[i] = JSONScan.missing
            return true
        }
        // A repeated key: what its earlier value filled is forgotten.
        for j in i..<nodes[i].end {
            slots.values[j] = .null
            slots.kinds[j] = JSONScan.missing
        }
        switch byte {
        case UInt8(ascii: "{"):
            slots.kinds[i] = JSONScan.object
            return object(nodes[i].children, depth: depth)
        case UInt8(ascii: "n"):
            slots.kinds[i] = JSONScan.null
            return skipWord("null")
        default:
            // Keys read from an array map over its elements, from a string
            // or a number are methods: the general path reads them from the
            // value, decoded whole.
            guard let value = wholeValue(depth: depth) else { return false }
            slots.values[i] = value
            slots.kinds[i] = JSONScan.decoded
            for j in i + 1..<nodes[i].end { slots.kinds[j] = JSONScan.unread }
            return true
        }
    }

    /// The value at the position as decoding gives it inside an object:
    /// strings without escapes and short numbers made here, the rest by the
    /// decoder.
    private mutating func wholeValue(depth: Int) -> Value? {
        switch byte {
        case UInt8(ascii: "\""):
            if let s = plainString() { return .string(s) }
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            if let n = shortNumber() { return n }
        case UInt8(ascii: "t"): return skipWord("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return skipWord("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return skipWord("null") ? .nsNull : nil
        default: break
        }
        return decoding { reader throws(JSONError) in try reader.value(depth: depth) }?.converted
    }

    /// The string at the position (its quote) when it has no escape and is
    /// valid UTF-8; else nil, at the same position.
    private mutating func plainString() -> String? {
        // Checked by the scan: the bytes are the string's, as decoding makes it.
        plainStringBytes().map { String(decoding: $0, as: UTF8.self) }
    }

    /// The bytes of the string at the position (its quote, then moved past
    /// the closing one) when it has no escape and is valid UTF-8; else
    /// nil, at the same position.
    private mutating func plainStringBytes() -> UnsafeBufferPointer<UInt8>? {
        let start = position
        position += 1
        while true {
            skipPlain()
            guard position < bytes.count else { break }
            let b = base[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return UnsafeBufferPointer(start: base + start + 1, count: position - start - 2)
            }
            guard b >= 0x80, skipUTF8() else { break }
        }
        position = start
        return nil
    }

    /// Exact powers of ten, for numbers of up to 15 significant digits.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17,
        1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// The number at the position as ``JSONReader/number()`` reads it, when
    /// it is short: an integer of at most 18 digits (an `Int`), or a number
    /// with a fraction, no exponent, at most 15 significant digits and 22
    /// after the point (a double: both the digits and the power of ten are
    /// exact doubles, so one division rounds as parsing the text does).
    /// Else nil, at the same position.
    private mutating func shortNumber() -> Value? {
        let start = position
        let negative = byte == UInt8(ascii: "-")
        if negative { position += 1 }
        var mantissa: UInt64 = 0
        var significant = 0
        var fraction = 0
        let lead = byte
        if lead == UInt8(ascii: "0") {
            position += 1
        } else if lead &- UInt8(ascii: "0") < 10 {
            while case let d = byte &- UInt8(ascii: "0"), d < 10 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                significant += 1
                position += 1
            }
        } else {
            position = start
            return nil
        }
        if byte == UInt8(ascii: ".") {
            position += 1
            while case let d = byte &- UInt8(ascii: "0"), d < 10 {
                mantissa = mantissa &* 10 &+ UInt64(d)
                if d != 0 || significant > 0 { significant += 1 }
                fraction += 1
                position += 1
            }
            if fraction > 0, fraction <= 22, significant <= 15, byte | 0x20 != UInt8(ascii: "e") {
                let d = Double(mantissa) / JSONScanner.powersOfTen[fraction]
                return .double(negative ? -d : d)
            }
        } else if significant <= 18, byte | 0x20 != UInt8(ascii: "e") {
            let i = Int(mantissa)
            return .int(negative ? -i : i)
        }
        position = start
        return nil
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
            return object(0..<0, depth: depth)
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
