import Foundation
import Sift

/// The conventions of the conformance cases (and of `--arg`/`--var` on the
/// command line) for writing predicate values in JSON:
///
/// - `{"$date": S}`: a date, S seconds since 2001-01-01 00:00 UTC;
/// - `{"$set": [...]}`: a set;
/// - `{"$keypath": "a.b"}` (arguments only): an expression argument for `%@`;
/// - `{"$predicate": "…"}` (arguments only): a predicate argument;
/// - `null`: nil as a format argument, `NSNull` inside objects and variables.
public enum CaseValues {
    public struct ConversionError: Error, CustomStringConvertible {
        public var description: String
    }

    /// A value inside an object or a variable: `null` is `NSNull`.
    public static func value(_ json: JSONValue) throws(ConversionError) -> Value {
        switch json {
        case .null: return .nsNull
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .number(let n): return n.value
        case .string(let s): return .string(s)
        case .array(let items):
            var values: [Value] = []
            for item in items { values.append(try value(item)) }
            return .array(values)
        case .object(let object):
            if object.count == 1, let wrapped = try wrapper(object) { return wrapped }
            var dict: [String: Value] = [:]
            for member in object.members { dict[member.key] = try value(member.value) }
            return .dictionary(dict)
        }
    }

    private static func wrapper(_ object: JSONObject) throws(ConversionError) -> Value? {
        if let seconds = object["$date"] {
            switch seconds {
            case .int(let i): return .date(Date(timeIntervalSinceReferenceDate: Double(i)))
            case .double(let d): return .date(Date(timeIntervalSinceReferenceDate: d))
            default: throw ConversionError(description: "\"$date\" needs a number of seconds")
            }
        }
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
