import Foundation

/// The keys that Foundation's value classes answer through KVC
/// (`s.length`, `n.stringValue`, `d.timeIntervalSince1970`), each named
/// once, with what each kind of receiver answers. Key paths
/// (``KeyValueAccess``), `FUNCTION` with no argument (``Functions``), the
/// work budget and the cost model all read this table.
struct MethodKey: Sendable {
    let name: String
    var string: (@Sendable (String) -> Value)?
    var number: (@Sendable (NumericValue, Value) throws(Failure) -> Value)?
    var date: (@Sendable (Date) -> Value)?
    var data: (@Sendable (Data) -> Value)?
    var uuid: (@Sendable (UUID) -> Value)?

    init(
        _ name: String, string: (@Sendable (String) -> Value)? = nil,
        number: (@Sendable (NumericValue, Value) throws(Failure) -> Value)? = nil,
        date: (@Sendable (Date) -> Value)? = nil, data: (@Sendable (Data) -> Value)? = nil,
        uuid: (@Sendable (UUID) -> Value)? = nil
    ) {
        (self.name, self.string, self.number, self.date, self.data, self.uuid) = (name, string, number, date, data, uuid)
    }

    /// Foundation's answer for `receiver`, or nil when its class has no
    /// such method.
    func read(_ receiver: Value) throws(Failure) -> Value? {
        switch receiver {
        case .string(let s): return string?(s)
        case .bool, .int, .double, .decimal:
            guard let number, let n = NumericValue(receiver) else { return nil }
            return try number(n, receiver)
        case .date(let d): return date?(d)
        case .data(let d): return data?(d)
        case .uuid(let u): return uuid?(u)
        default: return nil
        }
    }

    /// The table, in the order an unsupported selector's error lists them.
    static let all: [MethodKey] = {
        let description: @Sendable (NumericValue, Value) throws(Failure) -> Value = { _, v in
            .string(Conversions.description(v))
        }
        let double: @Sendable (NumericValue, Value) throws(Failure) -> Value = { n, _ in .double(n.doubleValue) }
        let int: @Sendable (NumericValue, Value) throws(Failure) -> Value = { n, _ in
            .int(n.exactInt ?? Conversions.truncatedInt(n.doubleValue))
        }
        let leadingInt: @Sendable (String) -> Value = { .int(Conversions.leadingInt($0)) }
        let leadingDouble: @Sendable (String) -> Value = { .double(Conversions.leadingDouble($0)) }
        // NSString's path methods by Foundation's own implementation (its
        // documented results, `/tmp/` → `tmp`, are tested).
        func path(_ f: @escaping @Sendable (NSString) -> String) -> @Sendable (String) -> Value {
            { .string(f($0 as NSString)) }
        }
        return [
            MethodKey("length", string: { .int($0.utf16.count) }, data: { .int($0.count) }),
            MethodKey("uppercaseString", string: { .string($0.uppercased()) }),
            MethodKey("lowercaseString", string: { .string($0.lowercased()) }),
            MethodKey("capitalizedString", string: { .string($0.capitalized) }),
            MethodKey(
                "description", string: { .string($0) }, number: description,
                date: { .string(Conversions.description(.date($0))) }),
            MethodKey("stringValue", string: { .string($0) }, number: description),
            MethodKey("doubleValue", string: leadingDouble, number: double),
            MethodKey("floatValue", string: leadingDouble, number: double),
            MethodKey("intValue", string: leadingInt, number: int),
            MethodKey("integerValue", string: leadingInt, number: int),
            MethodKey("longLongValue", string: leadingInt, number: int),
            MethodKey("longValue", number: int),
            MethodKey("boolValue", string: { .bool(Conversions.stringBool($0)) }, number: { n, _ in .bool(n.doubleValue != 0) }),
            MethodKey("decimalValue", number: { n, _ throws(Failure) in .decimal(try Conversions.decimal(n)) }),
            MethodKey("lastPathComponent", string: path { $0.lastPathComponent }),
            MethodKey("pathExtension", string: path { $0.pathExtension }),
            MethodKey("stringByDeletingLastPathComponent", string: path { $0.deletingLastPathComponent }),
            MethodKey("stringByDeletingPathExtension", string: path { $0.deletingPathExtension }),
            MethodKey("pathComponents", string: { .array(($0 as NSString).pathComponents.map(Value.string)) }),
            MethodKey("timeIntervalSinceReferenceDate", date: { .double($0.timeIntervalSinceReferenceDate) }),
            MethodKey("timeIntervalSince1970", date: { .double($0.timeIntervalSince1970) }),
            MethodKey("UUIDString", uuid: { .string($0.uuidString) }),
        ]
    }()

    /// The table by name.
    static let named: [String: MethodKey] = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

    /// The names of the method keys a kind of receiver answers, in the
    /// table's order (for the list of supported selectors).
    static func names(of kind: KeyPath<MethodKey, Bool>) -> [String] {
        all.filter { $0[keyPath: kind] }.map(\.name)
    }

    var answersString: Bool { string != nil }
    var answersNumber: Bool { number != nil }
    var answersDate: Bool { date != nil }
}
