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
