import Foundation

/// A JSON document, as read by ``JSONValue/init(parsing:maximumDepth:)``.
///
/// Unlike `JSONSerialization`, integers and doubles stay apart: `3` is
/// ``int(_:)`` and `3.0` is ``double(_:)``, which matters for integer
/// division and for printing.
///
/// A number is read as:
/// - ``int(_:)`` when it is an integer that `Int` holds;
/// - ``number(_:)`` with a `Decimal` value when it is a larger integer that
///   `Decimal` holds exactly (up to 38 significant digits, below 10^166), as
///   `JSONSerialization` makes an `NSDecimalNumber` of it;
/// - else the nearest `Double`: ``double(_:)`` when the shortest form of that
///   double is the same number as the text (always so for up to 15
///   significant digits), else ``number(_:)`` with the double as its value
///   and the text kept, so that ``jsonText`` prints the number as it was
///   written;
/// - an error, at the number, when its magnitude is beyond `Double`'s range
///   (`1e400`): no value would compare as it should (`JSONSerialization`
///   refuses it too).
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits in an `Int`.
    case int(Int)
    /// A number whose shortest `Double` form is the number as written.
    case double(Double)
    /// A number that neither `Int` nor the shortest form of a `Double` gives
    /// back as it was written.
    indirect case number(JSONNumber)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// Members in document order.
    case object(JSONObject)

    /// The member named `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
}

/// A number kept with its text: what ``JSONValue/number(_:)`` holds.
public struct JSONNumber: Sendable, Hashable {
    /// The number as it was written, printed back unchanged.
    public let text: String
    /// What predicates compare: `.decimal` (an integer beyond `Int`) or
    /// `.double` (the nearest double).
    public let value: Value
}

extension JSONNumber {
    /// A decimal, printed as its digits (`19.99`), which a double would
    /// print with binary noise or round.
    public init?(_ decimal: Decimal) {
        guard decimal.isFinite else { return nil }
        self.init(text: decimal.description, value: .decimal(decimal))
    }
}

/// A JSON object: its members in document order, with keyed lookup.
/// A repeated key keeps its last value (at the place of its first), as
/// JavaScript and `JSONSerialization` do.
///
/// Keys are looked up as Swift strings, so canonically equivalent keys
/// (`"café"` precomposed and `"cafe\u{301}"`) are one key here; the reader
/// refuses a document that has two of them in one object rather than merge
/// them (`JSONSerialization` would keep both, as `NSString` keys compare
/// literally).
public struct JSONObject: Sendable, Hashable {
    /// The members, in document order.
    public private(set) var members: [(key: String, value: JSONValue)] = []
    private var index: [String: Int] = [:]

    /// An empty object.
    public init() {}

    /// An object of `members`, in order; a repeated key keeps its last value.
    public init(_ members: [(String, JSONValue)]) {
        for (k, v) in members { self[k] = v }
    }

    /// The value of `key`, or nil. Setting nil removes the member; setting a new key appends it.
    public subscript(key: String) -> JSONValue? {
        get { index[key].map { members[$0].value } }
        set {
            if let i = index[key] {
                if let newValue { members[i].value = newValue } else {
                    members.remove(at: i)
                    index = [:]
                    for (n, m) in members.enumerated() { index[m.key] = n }
                }
            } else if let newValue {
                index[key] = members.count
                members.append((key, newValue))
            }
        }
    }

    /// Adds a member read from a document: a key repeated exactly replaces
    /// the value, and a key canonically equivalent to an earlier one but not
    /// the same text is not added: that earlier key is returned.
    mutating func addParsed(_ key: String, _ value: JSONValue) -> String? {
        if let i = index[key] {
            guard members[i].key.utf8.elementsEqual(key.utf8) else { return members[i].key }
            members[i].value = value
        } else {
            index[key] = members.count
            members.append((key, value))
        }
        return nil
    }

    /// The keys, in document order.
    public var keys: [String] { members.map { $0.key } }
    /// The number of members.
    public var count: Int { members.count }

    /// Whether two objects have the same members in the same order.
    public static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.members.count == b.members.count
            && zip(a.members, b.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    /// Hashes the members in order.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(members.count)
        for m in members {
            hasher.combine(m.key)
            hasher.combine(m.value)
        }
    }
}

/// A JSON text that cannot be read, with the byte offset of the problem.
public struct JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// The offset of the problem, in bytes from the start of the text.
    public var offset: Int
    /// The message and the offset: `expected a value at byte 7`.
    public var description: String { "\(message) at byte \(offset)" }
}

extension JSONValue {
    /// Reads one JSON value (RFC 8259); whitespace may surround it.
    /// Nesting deeper than `maximumDepth` is an error, not a stack overflow.
    public init(parsing text: String, maximumDepth: Int = 512) throws(JSONError) {
        var copy = text
        self = try copy.withUTF8 { bytes in JSONValue.read(bytes, maximumDepth: maximumDepth) }.get()
    }

    /// Reads one JSON value from its UTF-8 bytes. Bytes that are not UTF-8
    /// are an error at the first of them, never replaced by U+FFFD.
    public init(parsingUTF8 bytes: some Collection<UInt8>, maximumDepth: Int = 512) throws(JSONError) {
        let result =
            bytes.withContiguousStorageIfAvailable { JSONValue.read($0, maximumDepth: maximumDepth) }
            ?? Array(bytes).withUnsafeBufferPointer { JSONValue.read($0, maximumDepth: maximumDepth) }
        self = try result.get()
    }

    private static func read(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) -> Result<JSONValue, JSONError> {
        var reader = JSONReader(bytes: bytes, maximumDepth: maximumDepth)
        do throws(JSONError) {
            reader.skipSpace()
            let value = try reader.value(depth: 0)
            reader.skipSpace()
            guard reader.position == bytes.count else { throw reader.error("unexpected text after the value") }
            return .success(value)
        } catch {
            return .failure(error)
        }
    }
}

/// The decoder behind ``JSONValue/init(parsingUTF8:maximumDepth:)``: the raw
/// scan of a record (``JSONScan``) also reads with it the values a predicate
/// reads that it does not make itself (strings with escapes, numbers other
/// than short ones, arrays, objects read whole), so that they are exactly
/// the values decoding gives.
struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    let maximumDepth: Int
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    func error(_ message: String) -> JSONError { JSONError(message: message, offset: position) }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func skipSpace() {
        while let b = peek, b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { position += 1 }
    }

    mutating func expect(_ word: StaticString, _ value: JSONValue) throws(JSONError) -> JSONValue {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard position + w.count <= bytes.count, bytes[position..<position + w.count].elementsEqual(w)
        else { throw error("invalid literal") }
        position += w.count
        return value
    }

    mutating func value(depth: Int) throws(JSONError) -> JSONValue {
        guard let b = peek else { throw error("unexpected end of JSON") }
        switch b {
        case UInt8(ascii: "n"): return try expect("null", .null)
        case UInt8(ascii: "t"): return try expect("true", .bool(true))
        case UInt8(ascii: "f"): return try expect("false", .bool(false))
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        case UInt8(ascii: "["):
            guard depth < maximumDepth else { throw error("JSON nesting is deeper than the limit of \(maximumDepth)") }
            position += 1
            var items: [JSONValue] = []
            skipSpace()
            if peek == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"):
                    position += 1
                    return .array(items)
                default: throw error("expected ',' or ']'")
                }
            }
        case UInt8(ascii: "{"):
            guard depth < maximumDepth else { throw error("JSON nesting is deeper than the limit of \(maximumDepth)") }
            position += 1
            var object = JSONObject()
            skipSpace()
            if peek == UInt8(ascii: "}") {
                position += 1
                return .object(object)
            }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw error("expected a member name") }
                let keyStart = position
                let key = try string()
                skipSpace()
                guard peek == UInt8(ascii: ":") else { throw error("expected ':'") }
                position += 1
                skipSpace()
                if let earlier = object.addParsed(key, try value(depth: depth + 1)) {
                    throw JSONError(
                        message: "member name \(JSONReader.quoted(key)) is canonically equivalent to the earlier "
                            + "\(JSONReader.quoted(earlier)) but not the same text; a dictionary cannot keep both",
                        offset: keyStart)
                }
                skipSpace()
                switch peek {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"):
                    position += 1
                    return .object(object)
                default: throw error("expected ',' or '}'")
                }
            }
        default:
            throw error("unexpected character")
        }
    }

    mutating func number() throws(JSONError) -> JSONValue {
        let start = position
        var isInteger = true
        // Digits from the first non-zero one (trailing zeros too): up to 15
        // of them, the shortest form of the nearest double is the same number.
        var significant = 0
        if peek == UInt8(ascii: "-") { position += 1 }
        guard let first = peek, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw error("expected a digit")
        }
        if first == UInt8(ascii: "0") {
            position += 1
        } else {
            digits(counting: &significant)
        }
        if peek == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            let digits = position
            self.digits(counting: &significant)
            guard position > digits else { throw error("expected a digit after '.'") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            let digits = position
            var exponentDigits = 0
            self.digits(counting: &exponentDigits)
            guard position > digits else { throw error("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        switch isInteger ? Value.exactInteger(text) : nil {
        case .int(let i)?: return .int(i)
        case let exact?: return .number(JSONNumber(text: text, value: exact))
        case nil: break
        }
        guard let d = Double(text) else { throw JSONError(message: "invalid number", offset: start) }
        guard d.isFinite else {
            throw JSONError(message: "number \(JSONReader.abridged(text)) is beyond the range of a double", offset: start)
        }
        if significant <= 15 && (d.isNormal || significant == 0) { return .double(d) }
        // A double prints at most 17 digits: the text may be just that.
        if significant <= 17 && d.description == text { return .double(d) }
        return .number(JSONNumber(text: text, value: .double(d)))
    }

    /// Skips decimal digits, counting those from the first non-zero one.
    mutating func digits(counting significant: inout Int) {
        while let d = peek, d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") {
            if d != UInt8(ascii: "0") || significant > 0 { significant += 1 }
            position += 1
        }
    }

    /// A name or number for a message: quoted, non-ASCII as `\u{…}`, and
    /// its middle left out when long.
    static func quoted(_ key: String) -> String {
        var out = "\""
        for u in key.unicodeScalars { out += u.isASCII ? String(u) : "\\u{" + String(u.value, radix: 16) + "}" }
        return abridged(out + "\"")
    }

    static func abridged(_ text: String) -> String {
        text.count <= 60 ? text : String(text.prefix(28)) + "…" + String(text.suffix(28))
    }

    mutating func hex4() throws(JSONError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[position]
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("expected a hex digit")
            }
            v = v << 4 | UInt32(digit)
            position += 1
        }
        return v
    }

    mutating func string() throws(JSONError) -> String {
        position += 1  // opening quote
        let contentStart = position
        var out: [UInt8] = []
        while true {
            guard let b = peek else { throw error("unterminated string") }
            position += 1
            switch b {
            case UInt8(ascii: "\""):
                guard let s = String(validating: out, as: UTF8.self) else {
                    // Escapes add whole characters, so the first bad byte is
                    // one of the document's own.
                    throw JSONError(
                        message: "invalid UTF-8 in string",
                        offset: contentStart + JSONReader.firstInvalidUTF8(in: bytes[contentStart..<position - 1]))
                }
                return s
            case UInt8(ascii: "\\"):
                guard let e = peek else { throw error("unterminated escape") }
                position += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard peek == UInt8(ascii: "\\"), position + 1 < bytes.count,
                            bytes[position + 1] == UInt8(ascii: "u")
                        else { throw error("unpaired surrogate") }
                        position += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("unpaired surrogate") }
                    out.append(contentsOf: String(Character(u)).utf8)
                default:
                    throw error("invalid escape")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                out.append(b)
            }
        }
    }

    /// The offset of the first byte that does not begin valid UTF-8 (the
    /// count when all of it is valid).
    static func firstInvalidUTF8(in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .error: return offset
            case .emptyInput: return offset
            }
        }
    }
}

extension JSONValue {
    /// The JSON text of this value (compact, members in order).
    public var jsonText: String {
        var out = ""
        write(into: &out)
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            if d.isFinite {
                out += "\(d)"
            } else {
                out += "null"
            }
        case .number(let n): out += n.text
        case .string(let s): JSONValue.writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(into: &out)
            }
            out += "]"
        case .object(let o):
            out += "{"
            for (i, m) in o.members.enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeString(m.key, into: &out)
                out += ":"
                m.value.write(into: &out)
            }
            out += "}"
        }
    }

    static func writeString(_ s: String, into out: inout String) {
        out += "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(u)
            }
        }
        out += "\""
    }
}
