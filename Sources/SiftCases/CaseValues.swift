import Foundation
import Sift

/// The conventions of the conformance cases (and of `--arg`/`--var` on the
/// command line) for writing predicate values in JSON:
///
/// - `{"$date": S}`: a date, S seconds since 2001-01-01 00:00 UTC;
/// - `{"$uuid": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"}`: a UUID (either case);
/// - `{"$decimal": "19.99"}`: a decimal number, exactly as written (up to 38
///   significant digits); a JSON number there is the decimal its double
///   stands for;
/// - `{"$set": [...]}`: a set;
/// - `{"$id": 3}`, `{"$id": "x-coredata://…/Author/p3"}`: a reference to an
///   object by its primary key or its object ID URI (``ObjectReference``);
/// - `{"$keypath": "a.b"}` (arguments only): an expression argument for `%@`;
/// - `{"$predicate": "…"}` (arguments only): a predicate argument;
/// - `null`: nil as a format argument, `NSNull` inside objects and variables.
public enum CaseValues {
    public struct ConversionError: Error, CustomStringConvertible {
        public var description: String
    }

    /// A value inside an object or a variable: `null` is `NSNull`.
    public static func value(_ json: JSONValue) throws(ConversionError) -> Value {
        try json.converted { object throws(ConversionError) in object.count == 1 ? try wrapper(object) : nil }
    }

    private static func wrapper(_ object: JSONObject) throws(ConversionError) -> Value? {
        if let seconds = object["$date"] {
            switch seconds {
            case .int(let i): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            case .double(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
            default: throw ConversionError(description: "\"$date\" needs a number of seconds")
            }
        }
        if let text = object["$uuid"] {
            guard case .string(let s) = text, let u = UUID(uuidString: s) else {
                throw ConversionError(description: "\"$uuid\" needs a UUID's text, as \"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"")
            }
            return .uuid(u)
        }
        if let number = object["$decimal"] {
            switch number {
            case .string(let s):
                guard let d = decimal(s) else {
                    throw ConversionError(
                        description: "\"$decimal\" needs a decimal number of at most 38 significant digits, as \"19.99\"; got \"\(s)\"")
                }
                return .decimal(d)
            case .int(let i): return .decimal(Decimal(i))
            case .double(let d):
                guard let decimal = Value.shortestDecimal(of: d) else { break }
                return .decimal(decimal)
            case .number(let n):
                if let d = decimal(n.text) { return .decimal(d) }
            default: break
            }
            throw ConversionError(description: "\"$decimal\" needs a decimal number written as a string, as \"19.99\"")
        }
        if let id = object["$id"] { return try reference(id) }
        if let items = object["$set"] {
            guard case .array(let list) = items else {
                throw ConversionError(description: "\"$set\" needs an array")
            }
            var set = Set<Value>()
            for item in list { set.insert(try value(item)) }
            return .set(set)
        }
        return nil
    }

    /// `-12.50`, `1e-3`: a sign, digits with an optional point, an optional
    /// exponent; nil for anything else, and for more significant digits
    /// than `Decimal` keeps (38), which it would round away unsaid.
    static func decimal(_ s: String) -> Decimal? {
        let b = Array(s.utf8)
        var i = 0
        if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        var digits: [UInt8] = []
        var point = false
        while i < b.count, b[i] &- UInt8(ascii: "0") < 10 || (b[i] == UInt8(ascii: ".") && !point) {
            if b[i] == UInt8(ascii: ".") { point = true } else { digits.append(b[i]) }
            i += 1
        }
        guard !digits.isEmpty else { return nil }
        if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if i < b.count, b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
            let start = i
            while i < b.count, b[i] &- UInt8(ascii: "0") < 10 { i += 1 }
            guard i > start, i - start <= 3 else { return nil }
        }
        guard i == b.count else { return nil }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }.reversed().drop { $0 == UInt8(ascii: "0") }
        guard significant.count <= 38, let d = Decimal(string: s, locale: Locale(identifier: "en_US_POSIX")), d.isFinite
        else { return nil }
        return d
    }

    /// A format argument: `null` is nil.
    public static func argument(_ json: JSONValue) throws(ConversionError) -> FormatArgument {
        if case .null = json { return .value(.null) }
        if case .object(let object) = json, object.count == 1 {
            if case .string(let path)? = object["$keypath"] {
                do {
                    return .expression(try FormatParser.parseExpression(path))
                } catch {
                    throw ConversionError(description: "\"$keypath\": \(error)")
                }
            }
            if case .string(let format)? = object["$predicate"] {
                do {
                    return .predicate(try FormatParser.parsePredicate(format))
                } catch {
                    throw ConversionError(description: "\"$predicate\": \(error)")
                }
            }
        }
        return .value(try value(json))
    }

    /// The evaluated object: a top-level `null` is nil, `null` inside is `NSNull`.
    public static func object(_ json: JSONValue) throws(ConversionError) -> Value {
        if case .null = json { return .null }
        return try value(json)
    }

    /// Substitution variables: a JSON object of values.
    public static func variables(_ json: JSONValue) throws(ConversionError) -> [String: Value] {
        guard case .object(let object) = json else {
            throw ConversionError(description: "\"vars\" must be an object")
        }
        var result: [String: Value] = [:]
        for member in object.members { result[member.key] = try value(member.value) }
        return result
    }
}
