import Foundation

extension JSONValue: ValueConvertible {
    /// JSON as predicate values: objects are dictionaries (so any key can be
    /// read, a missing one giving nil), `null` inside an object or array is
    /// NSNull, as `JSONSerialization` makes it, and a top-level `null` is nil.
    public var predicateValue: Value {
        if case .null = self { return .null }
        return converted
    }

    /// The value of JSON inside an object or array, where `null` is NSNull.
    var converted: Value { converted(object: { _ in nil }) }

    /// The one conversion of JSON to values, where `null` is NSNull:
    /// `object` may read an object as a value of its own (the `{"$date": …}`
    /// conventions of the command line), else it is a dictionary.
    package func converted<E: Error>(object: (JSONObject) throws(E) -> Value?) throws(E) -> Value {
        switch self {
        case .null: return .nsNull
        case .bool(let b): return .bool(b)
        case .int(let i): return .int(i)
        case .double(let d): return .double(d)
        case .number(let n): return n.value
        case .string(let s): return .string(s)
        case .array(let items):
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for item in items { values.append(try item.converted(object: object)) }
            return .array(values)
        case .object(let o):
            if let read = try object(o) { return read }
            var d: [String: Value] = [:]
            d.reserveCapacity(o.count)
            for m in o.members { d[m.key] = try m.value.converted(object: object) }
            return .dictionary(d)
        }
    }
}

extension Value {
    /// Converts what `JSONSerialization` and `[String: Any]` property lists
    /// hold: `NSNull`, numbers (booleans kept apart), strings, dates, data,
    /// UUIDs, arrays, sets and dictionaries with string keys, and any
    /// ``ValueConvertible``. Returns nil for anything else.
    public init?(any object: Any?) {
        guard let object else {
            self = .null
            return
        }
        switch object {
        case let v as Value: self = v
        case let v as any ValueConvertible: self = v.predicateValue
        case is NSNull: self = .nsNull
        case let n as NSNumber:
            self = Value.number(n)
        case let s as NSString: self = .string(s as String)
        case let d as NSDate: self = .date(d as Date)
        case let d as NSData: self = .data(d as Data)
        case let a as [Any]:
            var items: [Value] = []
            items.reserveCapacity(a.count)
            for element in a {
                guard let v = Value(any: element) else { return nil }
                items.append(v)
            }
            self = .array(items)
        case let d as [String: Any]:
            var out: [String: Value] = [:]
            for (k, element) in d {
                guard let v = Value(any: element) else { return nil }
                out[k] = v
            }
            self = .dictionary(out)
        case let s as NSSet:
            var out = Set<Value>()
            for element in s {
                guard let v = Value(any: element) else { return nil }
                out.insert(v)
            }
            self = .set(out)
        default:
            return nil
        }
    }

    private static func number(_ n: NSNumber) -> Value {
        // JSONSerialization's booleans are NSNumbers of type 'c'.
        let type = String(cString: n.objCType)
        switch type {
        case "c", "B":
            if n === NSNumber(value: true) || n === NSNumber(value: false) || type == "B" {
                return .bool(n.boolValue)
            }
            return .int(n.intValue)
        case "f", "d": return .double(n.doubleValue)
        case "Q":
            let u = n.uint64Value
            return u <= UInt64(Int.max) ? .int(Int(u)) : .double(Double(u))
        default: return .int(n.intValue)
        }
    }
}
