import Foundation

/// Raw JSON bytes as one more way of reading a predicate's roots
/// (``AccessKind/record(_:)``): a record's UTF-8 bytes are scanned once for
/// the key paths the predicate reads, and the values there are decoded into
/// one slot per key path (``JSONSlots``); every other part of the record is
/// skipped without building a value, though validated as the decoder
/// validates it. Comparisons read their slot, and are tested as the
/// dictionary walk tests the value at the end of its path; the general path
/// reads the keys of the record from the slots. No dictionary is built for
/// the record, so that a record costs its scan and the values read.
///
/// A slot holds what reading its key path from the decoded record gives:
/// the decoded value (JSON `null` as `NSNull`), or nil where the key is
/// missing or a key before it is `null` or missing. A key with keys read
/// below it (`author` of `author.name`) is not decoded; whether it was an
/// object, `null` or missing is kept beside its slot.
///
/// A key with keys read below it whose value is not an object or `null`
/// (`tags.name` on an array, `name.length` on a string) is decoded whole,
/// and the general path reads the keys below it from that value.
///
/// A record the scan does not read exactly as decoding would is decoded in
/// full instead (``read(_:maximumDepth:into:)`` gives false), with the same
/// answer or error:
/// - a predicate that reads the whole record (`SELF`, a collection operator
///   on the root such as `@count`) or a key that is not ASCII (one that may
///   be canonically equivalent to another) is never scanned;
/// - a record that is not an object, that has a member name with an escape
///   or a byte that is not ASCII anywhere (two such names may be equivalent
///   under Unicode normalization, which decoding refuses), or anything
///   decoding would refuse (invalid JSON, bytes that are not UTF-8,
///   a lone surrogate, a number beyond a double's range, nesting deeper than
///   the limit) is decoded in full, which reports the error at its byte.
struct JSONScan: Sendable {
    /// A key of the paths read. Nodes are in preorder: the keys below node
    /// `i` are the nodes `i + 1 ..< end`, and node `i`'s slot is `i`.
    ///
    /// What the scan of a record reads of a node is trivial (ranges into
    /// the scan's arrays, numbers), so that reading it copies no reference:
    /// every thread that evaluates with the same filter reads the same
    /// nodes, and changing the reference counts of their arrays would move
    /// their cache lines between cores at every record.
    struct Node: Sendable {
        let name: String
        /// Where the name's UTF-8 bytes are in ``JSONScan/names``.
        let bytes: Range<Int>
        /// The name's first eight bytes, little-endian, zero after its end:
        /// with its length, what tells a member's name apart without
        /// following a pointer (and the whole name when it is that short).
        let prefix: UInt64
        /// Whether the whole value is read (the path ends here, or goes on
        /// through a collection operator); else only the keys of `children`
        /// are read from it when it is an object.
        let isWhole: Bool
        /// Where the nodes of the keys read below this one are in
        /// ``JSONScan/members``.
        let children: Range<Int>
        /// The end of the nodes below this one.
        let end: Int
    }

    /// The nodes of every key read, in preorder.
    let nodes: [Node]
    /// Where the nodes of the keys read from the record itself are in
    /// ``members``.
    let roots: Range<Int>
    /// The nodes of the keys of each object read, one object after another.
    let members: [Int]
    /// The UTF-8 bytes of the nodes' names, one after another.
    let names: [UInt8]

    /// A key and the keys read below it, as collected.
    private struct Key {
        let name: String
        var isWhole: Bool
        var below: [Key]
    }

    /// The scan for `predicate`, or nil when it reads the record as a whole
    /// or a key that may be canonically equivalent to another.
    init?(_ predicate: PredicateNode) {
        guard let paths = JSONScan.keyPaths(predicate) else { return nil }
        self.init(paths: paths)
    }

    /// The most keys of one path that the scan reads. Building the scan
    /// recurses once for each key (and so does freeing it): a longer path
    /// (`a.a.a…`, 23,000 keys in 45 KB of predicate) is read by decoding
    /// the record instead, which walks a path in a loop, so that no key
    /// path overflows a thread's stack (512 KiB on Apple's secondary
    /// threads).
    static let maximumPathLength = 64

    /// The scan for the key paths `paths`, or nil when one starts with a
    /// collection operator, has a key that is not ASCII, or has more than
    /// ``maximumPathLength`` keys.
    init?(paths: [[String]]) {
        var keys: [Key] = []
        for path in paths {
            // A path that goes on through an operator reads the whole value
            // before it (`tags.@count`); one that starts with it, the root.
            let named = path.prefix { !CollectionOperator.isOperator($0) }
            guard !named.isEmpty, named.count <= Self.maximumPathLength,
                named.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } })
            else { return nil }
            JSONScan.add(named[...], to: &keys)
        }
        var nodes: [Node] = []
        var members: [Int] = []
        var names: [UInt8] = []
        /// Numbers `keys` and the keys below them; where their nodes are in
        /// `members`.
        func number(_ keys: [Key]) -> Range<Int> {
            let numbered = keys.map { key in
                let i = nodes.count
                nodes.append(Node(name: key.name, bytes: 0..<0, prefix: 0, isWhole: key.isWhole, children: 0..<0, end: 0))
                let children = number(key.below)
                let bytes = Array(key.name.utf8)
                var prefix: UInt64 = 0
                for (k, b) in bytes.prefix(8).enumerated() { prefix |= UInt64(b) << (8 * k) }
                nodes[i] = Node(
                    name: key.name, bytes: names.count..<names.count + bytes.count, prefix: prefix,
                    isWhole: key.isWhole, children: children, end: nodes.count)
                names += bytes
                return i
            }
            members += numbered
            return members.count - numbered.count..<members.count
        }
        roots = number(keys)
        self.nodes = nodes
        self.members = members
        self.names = names
    }

    /// Adds `path` to `keys`: a key read whole keeps no keys below it.
    private static func add(_ path: ArraySlice<String>, to keys: inout [Key]) {
        guard let name = path.first else { return }
        let rest = path.dropFirst()
        let index: Int
        if let i = keys.firstIndex(where: { $0.name == name }) {
            index = i
        } else {
            keys.append(Key(name: name, isWhole: false, below: []))
            index = keys.count - 1
        }
        if rest.isEmpty {
            keys[index].isWhole = true
            keys[index].below = []
        } else if !keys[index].isWhole {
            add(rest, to: &keys[index].below)
        }
    }

    /// What a slot holds (``JSONSlots/kinds``). A key with keys read below
    /// it was `missing`, `null`, an `object` (its keys are in their slots),
    /// or another value, `decoded` whole into its slot; the keys below a
    /// decoded one are `unread`, read by the general path from it. A key
    /// read whole is `missing` (its slot is what reading it gives) unless
    /// `unread`, or `plainString`: a string without escapes, whose bytes are
    /// in ``JSONSlots/strings`` and whose value is made when it is first
    /// read (``JSONSlots/value(_:)``), so that a comparison that answers on
    /// the bytes makes no `String`.
    static let missing: UInt8 = 0, null: UInt8 = 1, object: UInt8 = 2, decoded: UInt8 = 3, unread: UInt8 = 4
    static let plainString: UInt8 = 5

    /// `test` of the record in `bytes` read into slots, or nil when the
    /// record is to be decoded in full (see the type's description). The
    /// slots live only during the call.
    func evaluate<T>(
        _ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, _ test: (JSONSlots) throws -> T
    ) rethrows -> T? {
        try JSONScan.withSlots(nodes.count) { slots in
            guard read(bytes, maximumDepth: maximumDepth, into: slots) else { return nil }
            return try test(slots)
        }
    }

    /// `body` given `count` fresh slots (nil, missing), on the stack, which
    /// live only during the call. (Static, and capturing nothing of the
    /// scan: see ``RecordReading/evaluate(_:maximumDepth:)``.)
    static func withSlots<T>(_ count: Int, _ body: (JSONSlots) throws -> T) rethrows -> T {
        let count = max(count, 1)
        // The three arrays in one allocation.
        let strings = count * MemoryLayout<Value>.stride
        let kinds = strings + count * MemoryLayout<UnsafeBufferPointer<UInt8>>.stride
        let alignment = max(MemoryLayout<Value>.alignment, MemoryLayout<UnsafeBufferPointer<UInt8>>.alignment)
        return try withUnsafeTemporaryAllocation(byteCount: kinds + count, alignment: alignment) { raw in
            let base = raw.baseAddress!
            let values = base.bindMemory(to: Value.self, capacity: count)
            values.initialize(repeating: .null, count: count)
            defer { values.deinitialize(count: count) }
            let slots = JSONSlots(
                values: values,
                kinds: (base + kinds).bindMemory(to: UInt8.self, capacity: count),
                // (Read only where the kind is `plainString`, after it is set.)
                strings: (base + strings).bindMemory(to: UnsafeBufferPointer<UInt8>.self, capacity: count))
            slots.kinds.initialize(repeating: JSONScan.missing, count: count)
            return try body(slots)
        }
    }

    /// Reads the record in `bytes` into `slots` (fresh ones: nil, missing);
    /// false when it is to be decoded in full.
    func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int, into slots: JSONSlots) -> Bool {
        guard let base = bytes.baseAddress else { return false }
        return nodes.withUnsafeBufferPointer { nodes in
            members.withUnsafeBufferPointer { members in
                names.withUnsafeBufferPointer { names in
                    var scanner = JSONScanner(
                        bytes: bytes, base: base, maximumDepth: maximumDepth, nodes: nodes, members: members,
                        names: names, slots: slots)
                    scanner.skipSpace()
                    guard scanner.byte == UInt8(ascii: "{"), scanner.object(roots, depth: 0) else { return false }
                    scanner.skipSpace()
                    return scanner.position == bytes.count
                }
            }
        }
    }

    /// What reading the key of node `i` gives, from slots read by the scan:
    /// for a key with keys read below it, `NSNull`, nil, or a dictionary of
    /// the keys read below it that the record has.
    func value(_ i: Int, in slots: JSONSlots) -> Value {
        let node = nodes[i]
        if node.isWhole { return slots.value(i) }
        switch slots.kinds[i] {
        case JSONScan.object: return dictionary(node.children, in: slots)
        case JSONScan.null: return .nsNull
        case JSONScan.decoded: return slots.values[i]
        default: return .null
        }
    }

    /// The record as far as it was read: the keys read that it has.
    func record(_ slots: JSONSlots) -> Value {
        dictionary(roots, in: slots)
    }

    private func dictionary(_ children: Range<Int>, in slots: JSONSlots) -> Value {
        var d: [String: Value] = [:]
        for c in members[children] {
            // (A key that is there is never nil: JSON's null is `NSNull`.)
            let v = value(c, in: slots)
            if case .null = v { continue }
            d[nodes[c].name] = v
        }
        return .dictionary(d)
    }

    /// The node among `children` (in ``members``) named `name`, if any.
    func node(named name: String, among children: Range<Int>) -> Int? {
        members[children].first { nodes[$0].name == name }
    }

    /// The slot of the key path `keys` (or of its start, read whole), and
    /// how many of the keys that is.
    func slot(_ keys: [String]) -> (slot: Int, keys: Int)? {
        var children = roots
        for (n, key) in keys.enumerated() {
            guard let node = node(named: key, among: children) else { return nil }
            if nodes[node].isWhole { return (node, n + 1) }
            children = nodes[node].children
        }
        return nil
    }
}

/// Reads chosen members of JSON records from their bytes, with the scan
/// that reads a predicate's keys: only those members' values are decoded,
/// and the rest is skipped, though checked as decoding checks it. For this
/// package's tools (the REPL keeps only the members it sorts by).
package struct JSONMemberReader: Sendable {
    private let scan: JSONScan

    /// A reader of the members named `names`; nil when a name is not ASCII
    /// (decode such records in full).
    package init?(_ names: some Sequence<String>) {
        guard let scan = JSONScan(paths: names.map { [$0] }) else { return nil }
        self.scan = scan
    }

    /// The record in `bytes` (UTF-8, one value, blanks around it allowed)
    /// as decoding it and keeping only the named members gives it: a
    /// dictionary of the named members it has, JSON's null as `NSNull`, a
    /// repeated name's last value. Nil when the record is to be decoded in
    /// full instead: it is not an object, it has a member name that is not
    /// plain ASCII, or decoding would refuse it.
    package func members(of bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int = 512) -> Value? {
        scan.evaluate(bytes, maximumDepth: maximumDepth) { scan.record($0) }
    }
}

/// The values of one record's key paths, read by a ``JSONScan``: slot `i` is
/// the scan's node `i`. Valid only while the scan's evaluation runs.
struct JSONSlots {
    /// What reading each key path from the decoded record gives (for a key
    /// with keys read below it, nil unless it was decoded whole; for a
    /// `plainString`, made by ``value(_:)``).
    let values: UnsafeMutablePointer<Value>
    /// What each slot holds: ``JSONScan/missing`` and the other kinds.
    let kinds: UnsafeMutablePointer<UInt8>
    /// The bytes of each `plainString` slot's string (valid UTF-8, no
    /// escapes: the string is exactly these bytes).
    let strings: UnsafeMutablePointer<UnsafeBufferPointer<UInt8>>

    /// The value of a slot read whole: a `plainString` is made into its
    /// `String` here, once.
    @inline(__always)
    func value(_ i: Int) -> Value {
        if kinds[i] == JSONScan.plainString {
            values[i] = .string(String(decoding: strings[i], as: UTF8.self))
            kinds[i] = JSONScan.missing
        }
        return values[i]
    }
}

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
