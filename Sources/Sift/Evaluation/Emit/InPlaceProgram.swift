import Foundation

/// A predicate of a ``TypedFilter`` made only of AND, OR, NOT and comparisons
/// read in place (``InPlaceLeaf``), compiled to a flat list of steps with
/// jumps, as a compiler lowers `&&` and `||`: each step tests one comparison
/// and names the step to go to when it holds and when it does not, or the
/// answer. `name == 'Ann' OR age > 30 AND score < 0.5` is three steps:
///
///     0: name == 'Ann'       yes → true  no → 1
///     1: all of the next 2   yes → true  no → false
///     2:   age in 31...Int.max
///     3:   score in -infinity...0.49999999999999994
///
/// NOT swaps a part's two exits; nothing is called between steps. A
/// comparison of a number with a constant is a test of whether it lies in
/// a closed range (or, negated, outside it: `!=`), which is one unsigned
/// comparison for an integer; comparisons of numbers next to each other in
/// an AND or OR are tested together, without a branch between them (none
/// can throw, so testing them all answers the same). A string is compared
/// with `==` or `!=` by its two words when it is stored inline (Swift keeps
/// strings of up to 15 UTF-8 bytes in the string value itself), which is
/// byte equality, what `==` means in a predicate; other strings, and the
/// other comparisons, are tested by the leaf's own test
/// (``InPlaceComparison``). None of these steps throws, and each answers as
/// the closure tree does.
@usableFromInline
struct InPlaceProgram: Sendable {
    typealias Test = InPlaceComparison<ObjectAddress>.Test

    @usableFromInline
    enum Operation: UInt8, Sendable {
        /// An integer in `low...high` (as `Int`s; never empty).
        case intRange
        /// A double in `low...high` (as `Double`s; empty when low > high).
        case doubleRange
        /// A string equal to a constant: a string kept inline compared by its
        /// words (never equal to a constant of more than 15 bytes), any other
        /// by the leaf's test.
        case string
        /// Whether any (all) of an array of strings equals a constant
        /// (`ANY tags == 'x'`, `'x' IN tags`, `ALL tags != 'x'`; `negated`
        /// for `!=`), each compared as `string` compares one.
        case anyString, allString
        /// Any other comparison: the leaf's test.
        case leaf
        /// Whether all (any) of the `count` number comparisons that follow
        /// hold, tested without branches.
        case allOf, anyOf
    }

    /// Where a step goes next: a step's index, or an answer.
    static let answerFalse: Int32 = -1
    static let answerTrue: Int32 = -2

    @usableFromInline
    struct Step: Sendable {
        var operation: Operation
        /// For a number: whether the answer is the range test's negation.
        var negated = false
        var ifTrue: Int32
        var ifFalse: Int32
        var offset: Int
        /// A number's range, as the bits of two `Int`s or `Double`s; a
        /// string constant's bytes as an inline string's two words hold them
        /// (with the byte count in the second word's high byte), under `mask`
        /// (for a constant of more than 15 bytes, 1 under a mask of 0: no
        /// inline string equals it).
        var low: UInt64 = 0
        var high: UInt64 = 0
        var mask: (UInt64, UInt64) = (0, 0)
        /// The index of the leaf's test in `tests` (strings that are not
        /// inline, and the other comparisons).
        var test = -1
        /// For a group: how many steps follow it.
        var count = 0
        /// For an array of strings: whether its elements are found from the
        /// array value (``StringArrayLayout``).
        var arrayInPlace = false
    }

    let steps: [Step]
    let tests: [Test]

    /// Compiles the planned `node`, whose comparisons are all read in place
    /// (``EvaluationPlan`` makes steps of nothing else).
    init<Root>(_ node: EvaluationPlan<Root>.Node) {
        var emitter = Emitter<Root>()
        emitter.emit(node, ifTrue: Self.answerTrue, ifFalse: Self.answerFalse)
        if emitter.steps.count == 1 && emitter.steps[0].ifTrue == Self.answerFalse
            && (emitter.steps[0].operation == .intRange || emitter.steps[0].operation == .doubleRange)
        {
            // One number comparison under NOT: negated, so that its answer is
            // the predicate's (what the loop of a lone integer comparison takes).
            let s = emitter.steps[0]
            emitter.steps[0].negated.toggle()
            (emitter.steps[0].ifTrue, emitter.steps[0].ifFalse) = (s.ifFalse, s.ifTrue)
        }
        steps = emitter.steps
        tests = emitter.tests
    }

    private struct Emitter<Root> {
        typealias Node = EvaluationPlan<Root>.Node
        var steps: [Step] = []
        var tests: [Test] = []

        /// A part of an AND or OR: one child, or comparisons of numbers in a
        /// row; two or more of them are tested together without a branch
        /// between them (none can throw, so testing them all answers the same).
        enum Part {
            case child(Node)
            case numbers([InPlaceLeaf])
        }

        func leaf(_ node: Node) -> InPlaceLeaf? {
            guard case .comparison(let d, _) = node, case .inPlace(let leaf) = d.strategy else { return nil }
            return leaf
        }

        func parts(_ children: [Node]) -> [Part] {
            var parts: [Part] = []
            var numbers: [InPlaceLeaf] = []
            for child in children {
                switch leaf(child) {
                case let number? where number.isNumber: numbers.append(number)
                default:
                    if !numbers.isEmpty { parts.append(.numbers(numbers)) }
                    numbers = []
                    parts.append(.child(child))
                }
            }
            if !numbers.isEmpty { parts.append(.numbers(numbers)) }
            return parts
        }

        func size(_ part: Part) -> Int {
            switch part {
            case .child(let p): return size(p)
            case .numbers(let leaves): return leaves.count == 1 ? 1 : 1 + leaves.count
            }
        }

        func size(_ node: Node) -> Int {
            switch node {
            case .and(let children), .or(let children): return parts(children).reduce(0) { $0 + size($1) }
            case .not(let child), .steps(_, let child): return size(child)
            default: return 1
            }
        }

        /// Appends the steps of `p`, whose exits are `ifTrue` and `ifFalse`.
        mutating func emit(_ node: Node, ifTrue: Int32, ifFalse: Int32) {
            switch node {
            case .and(let children), .or(let children):
                let isAnd: Bool
                if case .and = node { isAnd = true } else { isAnd = false }
                let parts = parts(children)
                for (i, part) in parts.enumerated() {
                    var (yes, no) = (ifTrue, ifFalse)
                    if i < parts.count - 1 {
                        // The next part starts right after this one's steps.
                        let following = Int32(steps.count + size(part))
                        if isAnd { yes = following } else { no = following }
                    }
                    switch part {
                    case .child(let child):
                        emit(child, ifTrue: yes, ifFalse: no)
                    case .numbers(let leaves) where leaves.count == 1:
                        steps.append(step(leaves[0], ifTrue: yes, ifFalse: no))
                    case .numbers(let leaves):
                        var group = Step(operation: isAnd ? .allOf : .anyOf, ifTrue: yes, ifFalse: no, offset: 0)
                        group.count = leaves.count
                        steps.append(group)
                        // Inside a group a step's exits are unused.
                        for leaf in leaves { steps.append(step(leaf, ifTrue: 0, ifFalse: 0)) }
                    }
                }
            case .not(let child):
                emit(child, ifTrue: ifFalse, ifFalse: ifTrue)
            case .steps(_, let child):
                emit(child, ifTrue: ifTrue, ifFalse: ifFalse)
            case .comparison, .constant:
                // The plan makes steps only of comparisons read in place.
                guard let leaf = leaf(node) else { preconditionFailure("steps of a comparison not read in place") }
                steps.append(step(leaf, ifTrue: ifTrue, ifFalse: ifFalse))
            }
        }

        mutating func step(_ leaf: InPlaceLeaf, ifTrue: Int32, ifFalse: Int32) -> Step {
            InPlaceProgram.step(leaf, ifTrue: ifTrue, ifFalse: ifFalse, &tests)
        }
    }

    fileprivate static func step(_ leaf: InPlaceLeaf, ifTrue: Int32, ifFalse: Int32, _ tests: inout [Test]) -> Step {
        var s = Step(operation: .leaf, ifTrue: ifTrue, ifFalse: ifFalse, offset: 0)
        let offset = leaf.offset
        switch leaf.test {
        case .int(let order, let c):
            s.operation = .intRange
            s.offset = offset
            let empty = (Int.min, Int.max, true)  // outside every integer: never
            let (low, high, negated): (Int, Int, Bool)
            switch order {
            case .less: (low, high, negated) = c == .min ? empty : (.min, c - 1, false)
            case .lessOrEqual: (low, high, negated) = (.min, c, false)
            case .greater: (low, high, negated) = c == .max ? empty : (c + 1, .max, false)
            case .greaterOrEqual: (low, high, negated) = (c, .max, false)
            case .equal: (low, high, negated) = (c, c, false)
            case .notEqual: (low, high, negated) = (c, c, true)
            }
            (s.low, s.high, s.negated) = (UInt64(bitPattern: Int64(low)), UInt64(bitPattern: Int64(high)), negated)
        case .double(let order, let c):
            // x < c is x <= c.nextDown for every x but NaN, for which both are
            // false; a NaN constant orders with nothing and equals nothing.
            s.operation = .doubleRange
            s.offset = offset
            let empty = (Double.infinity, -Double.infinity, false)
            let (low, high, negated): (Double, Double, Bool)
            switch order {
            case _ where c.isNaN: (low, high, negated) = (empty.0, empty.1, order == .notEqual)
            case .less: (low, high, negated) = c == -.infinity ? empty : (-.infinity, c.nextDown, false)
            case .lessOrEqual: (low, high, negated) = (-.infinity, c, false)
            case .greater: (low, high, negated) = c == .infinity ? empty : (c.nextUp, .infinity, false)
            case .greaterOrEqual: (low, high, negated) = (c, .infinity, false)
            case .equal: (low, high, negated) = (c, c, false)
            case .notEqual: (low, high, negated) = (c, c, true)
            }
            (s.low, s.high, s.negated) = (low.bitPattern, high.bitPattern, negated)
        case .string where !leaf.inlineStrings, .strings where !leaf.inlineStrings:
            // Without the layout the words are compared by, the leaf's own
            // test reads the strings (and arrays) as any code does.
            tests.append(InPlaceComparison<ObjectAddress>.test(leaf))
            s.test = tests.count - 1
        case .string(let literal, let equal):
            (s.operation, s.offset) = (.string, offset)
            if !equal { (s.ifTrue, s.ifFalse) = (ifFalse, ifTrue) }
            constant(literal, of: &s, &tests)
        case .strings(let literal, let any, let equal):
            (s.operation, s.offset, s.negated) = (any ? .anyString : .allString, offset, !equal)
            s.arrayInPlace = leaf.arraysInPlace
            constant(literal, of: &s, &tests)
        case .search:
            tests.append(InPlaceComparison<ObjectAddress>.test(leaf))
            s.test = tests.count - 1
        }
        return s
    }

    /// Gives a string comparison its constant as words and mask, and the
    /// test of a string given by its address, for strings not kept inline.
    private static func constant(_ literal: LiteralString, of s: inout Step, _ tests: inout [Test]) {
        tests.append(InPlaceComparison<ObjectAddress>.test(InPlaceLeaf(offset: 0, test: .string(literal, equal: true))))
        s.test = tests.count - 1
        if let inline = InlineString(literal.key) {
            (s.low, s.high) = inline.words
            s.mask = inline.mask
        } else {
            (s.low, s.high, s.mask) = (1, 0, (0, 0))
        }
    }

    // MARK: - Running

    /// Whether a number comparison holds for the object at `object`.
    @inline(__always)
    private static func number(_ s: UnsafePointer<Step>, _ object: UnsafeRawPointer) -> Bool {
        let inside: Bool
        if s.pointee.operation == .intRange {
            let x = UInt64(bitPattern: Int64(object.load(fromByteOffset: s.pointee.offset, as: Int.self)))
            inside = x &- s.pointee.low <= s.pointee.high &- s.pointee.low
        } else {
            let x = object.load(fromByteOffset: s.pointee.offset, as: Double.self)
            inside = Double(bitPattern: s.pointee.low) <= x && x <= Double(bitPattern: s.pointee.high)
        }
        return inside != s.pointee.negated
    }

    /// Whether the object at `object` matches.
    @inline(__always)
    private func holds(_ object: UnsafeRawPointer, _ steps: UnsafePointer<Step>) -> Bool {
        var s = steps
        while true {
            let yes: Bool
            switch s.pointee.operation {
            case .intRange, .doubleRange:
                yes = Self.number(s, object)
            case .allOf:
                var all: UInt8 = 1
                for i in 1...s.pointee.count { all &= Self.number(s + i, object) ? 1 : 0 }
                yes = all != 0
            case .anyOf:
                var any: UInt8 = 0
                for i in 1...s.pointee.count { any |= Self.number(s + i, object) ? 1 : 0 }
                yes = any != 0
            case .string:
                yes = equal(s, object + s.pointee.offset)
            case .anyString, .allString:
                yes = strings(s, object)
            case .leaf:
                yes = slow(s.pointee.test, object)
            }
            let next = yes ? s.pointee.ifTrue : s.pointee.ifFalse
            if next < 0 { return next == Self.answerTrue }
            s = steps + Int(next)
        }
    }

    /// ANY (ALL) of the strings of an array `==` (`!=`) a constant.
    @inline(__always)
    private func strings(_ s: UnsafePointer<Step>, _ object: UnsafeRawPointer) -> Bool {
        let array = object.advanced(by: s.pointee.offset)
        if s.pointee.arrayInPlace {
            guard let (first, count) = StringArrayLayout.elements(array) else { return s.pointee.operation == .allString }
            return strings(s, first, count)
        }
        return array.assumingMemoryBound(to: [String].self).pointee.withUnsafeBufferPointer { strings in
            guard let base = strings.baseAddress else { return s.pointee.operation == .allString }
            return self.strings(s, UnsafeRawPointer(base), strings.count)
        }
    }

    @inline(__always)
    private func strings(_ s: UnsafePointer<Step>, _ first: UnsafeRawPointer, _ count: Int) -> Bool {
        let any = s.pointee.operation == .anyString
        let negated = s.pointee.negated
        var element = first
        for _ in 0..<count {
            // ANY stops at the first that holds, ALL at the first that does not.
            if (equal(s, element) != negated) == any { return any }
            element += MemoryLayout<String>.stride
        }
        return !any
    }

    /// Whether the string at `string` equals the step's constant.
    @inline(__always)
    private func equal(_ s: UnsafePointer<Step>, _ string: UnsafeRawPointer) -> Bool {
        let high = string.load(fromByteOffset: 8, as: UInt64.self)
        guard InlineString.isInline(high) else { return slow(s.pointee.test, string) }
        let low = string.load(as: UInt64.self)
        return (low & s.pointee.mask.0) == s.pointee.low && (high & s.pointee.mask.1) == s.pointee.high
    }

    @inline(never)
    private func slow(_ test: Int, _ object: UnsafeRawPointer) -> Bool {
        // None of these tests throws or reads variables.
        (try? tests[test](ObjectAddress(object), EvaluationScope(variables: [:]))) ?? false
    }

    /// Whether the object at `object` matches.
    func holds(_ object: UnsafeRawPointer) -> Bool {
        steps.withUnsafeBufferPointer { holds(object, $0.baseAddress!) }
    }

    /// How many of the `count` objects `stride` bytes apart from `base` match.
    @usableFromInline
    func count(_ base: UnsafeRawPointer, _ count: Int, stride: Int) -> Int {
        steps.withUnsafeBufferPointer { buffer in
            let steps = buffer.baseAddress!
            var n = 0
            var object = base
            if buffer.count == 1 && steps.pointee.operation == .intRange && steps.pointee.ifTrue == Self.answerTrue {
                // One comparison of an integer: the loop is all there is.
                for _ in 0..<count {
                    n &+= Self.number(steps, object) ? 1 : 0
                    object += stride
                }
                return n
            }
            for _ in 0..<count {
                n &+= holds(object, steps) ? 1 : 0
                object += stride
            }
            return n
        }
    }

    /// The index of the first of the objects from `start` to `count` (of
    /// those `stride` bytes apart from `base`) that matches, or `count`.
    @usableFromInline
    func firstIndex(_ base: UnsafeRawPointer, from start: Int, to count: Int, stride: Int) -> Int {
        steps.withUnsafeBufferPointer { buffer in
            let steps = buffer.baseAddress!
            var i = start
            var object = base + start * stride
            while i < count {
                if holds(object, steps) { return i }
                i += 1
                object += stride
            }
            return count
        }
    }
}

/// The checks of the standard library's layouts that the fast paths read
/// values by (``InlineString/layoutHolds``, ``StringArrayLayout/holds``).
/// Each is made once, on values made for the purpose; where one fails, the
/// code that would rely on it is never used and the general reading of the
/// values answers instead.
enum LayoutChecks {
    /// `SIFT_LAYOUT_CHECKS=fail` in the environment makes every check fail,
    /// as on a platform whose layouts differ, so that the tests can run the
    /// fallbacks on this one (`make test` runs the fast-path suites again
    /// with it). Read once, when the first check is made.
    static let forcedToFail: Bool = ProcessInfo.processInfo.environment["SIFT_LAYOUT_CHECKS"] == "fail"
}

/// A string of at most 15 UTF-8 bytes as a Swift string value holds it
/// inline on a 64-bit little-endian platform: the bytes in order across the
/// two words, the count in the low four bits of the last byte, and bit 61 of
/// the second word set (a string stored elsewhere has it clear). The layout
/// is checked once, on a string made for the purpose, before it is relied
/// on; where it does not hold, strings are compared by their test.
struct InlineString {
    let words: (UInt64, UInt64)
    let mask: (UInt64, UInt64)

    @inline(__always)
    static func isInline(_ high: UInt64) -> Bool { high & (1 << 61) != 0 }

    init?(_ key: String) {
        #if _endian(little) && _pointerBitWidth(_64)
            let bytes = Array(key.utf8)
            guard bytes.count <= 15, Self.layoutHolds else { return nil }
            (words, mask) = Self.encode(bytes)
        #else
            return nil
        #endif
    }

    private static func encode(_ bytes: [UInt8]) -> (words: (UInt64, UInt64), mask: (UInt64, UInt64)) {
        var words: (UInt64, UInt64) = (0, UInt64(bytes.count) << 56)
        var mask: (UInt64, UInt64) = (0, 0x0F << 56)
        for (i, b) in bytes.enumerated() {
            if i < 8 {
                words.0 |= UInt64(b) << (8 * i)
                mask.0 |= 0xFF << (8 * i)
            } else {
                words.1 |= UInt64(b) << (8 * (i - 8))
                mask.1 |= 0xFF << (8 * (i - 8))
            }
        }
        return (words, mask)
    }

    /// The two words of a string value as they are in memory.
    @inline(__always)
    static func words(of s: String) -> (UInt64, UInt64) {
        withUnsafeBytes(of: s) { ($0.load(as: UInt64.self), $0.load(fromByteOffset: 8, as: UInt64.self)) }
    }

    /// Whether strings made at run time are laid out as described: short
    /// ones (ASCII and not) inline with their bytes and count, a long one
    /// not. Never on a platform whose strings are not two 64-bit
    /// little-endian words (the check would read past a smaller value), nor
    /// when ``LayoutChecks/forcedToFail``.
    static let layoutHolds: Bool = {
        #if !(_endian(little) && _pointerBitWidth(_64))
            return false
        #endif
        guard MemoryLayout<String>.size == 16, !LayoutChecks.forcedToFail else { return false }
        for sample in ["", "a", "Ann", "éé", "Ivo Å", "123456789012345"] {
            let made = String(decoding: Array(sample.utf8), as: UTF8.self)
            let w = words(of: made)
            let (k, m) = encode(Array(sample.utf8))
            guard isInline(w.1), w.0 & m.0 == k.0, w.1 & m.1 == k.1 else { return false }
        }
        let long = String(decoding: Array("1234567890123456".utf8), as: UTF8.self)
        return !isInline(words(of: long).1)
    }()
}

/// Where an array of strings keeps its elements, read from the array value
/// without retaining its buffer: where arrays are always native (no
/// Objective-C bridging), an array value is the address of its buffer,
/// which holds the count 16 bytes in and the elements from 32 bytes on.
/// Checked once, on arrays made for the purpose, before it is relied on;
/// where it does not hold, the array is read through
/// `withUnsafeBufferPointer`.
enum StringArrayLayout {
    static let holds: Bool = {
        #if _runtime(_ObjC) || !_pointerBitWidth(_64)
            return false
        #else
            if LayoutChecks.forcedToFail { return false }
            let samples: [[String]] = [[], ["a"], ["x", "a string longer than fifteen bytes", "é", ""]]
            return samples.allSatisfy { sample in
                withUnsafeBytes(of: sample) { value in
                    guard let (first, count) = elements(value.baseAddress!), count == sample.count else { return false }
                    return sample.enumerated().allSatisfy { i, s in
                        let element = first + i * MemoryLayout<String>.stride
                        let w = InlineString.words(of: s)
                        return element.load(as: UInt64.self) == w.0 && element.load(fromByteOffset: 8, as: UInt64.self) == w.1
                    }
                }
            }
        #endif
    }()

    /// The first element and the count of the `[String]` at `array`, for
    /// use only where the layout holds.
    @inline(__always)
    static func elements(_ array: UnsafeRawPointer) -> (first: UnsafeRawPointer, count: Int)? {
        guard let buffer = array.load(as: UnsafeRawPointer?.self) else { return nil }
        return (buffer + 32, buffer.load(fromByteOffset: 16, as: Int.self))
    }
}
