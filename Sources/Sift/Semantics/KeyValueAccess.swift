import Foundation

/// Key-value coding over ``Value``s, as `valueForKeyPath:` does it.
///
/// - A dictionary looks the key up; a missing entry is nil.
/// - An array (set) applies the key to each element and collects the
///   results into an array (set), with NSNull standing in for nil. Two
///   to-many steps give an array of arrays; they are not flattened.
/// - nil gives nil for every key.
/// - Other values answer a small set of method keys (`length`, `self`,
///   `doubleValue`, `uppercaseString`, …); any other key is an error, as
///   `valueForUndefinedKey:` is.
/// - A component starting with `@` is a collection operator and takes the
///   rest of the path as its argument.
enum KeyValueAccess {
    static func value(_ value: Value, path: [String]) throws(Failure) -> Value {
        try self.value(value, path: path[...])
    }

    static func value(_ value: Value, path: ArraySlice<String>) throws(Failure) -> Value {
        var current = value
        var index = path.startIndex
        while index < path.endIndex {
            let key = path[index]
            if CollectionOperator.isOperator(key) {
                return try collectionOperator(key, on: current, rest: path[(index + 1)...])
            }
            current = try self.value(current, key: key)
            index += 1
        }
        return current
    }

    static func value(_ value: Value, key: String) throws(Failure) -> Value {
        switch value {
        case .dictionary(let d):
            return d[key] ?? .null
        case .null, .nsNull:
            return .null
        case .object(let object):
            if let v = object.value(forKey: key) { return v }
            if key == "self" || key == "SELF" { return value }
            throw Failure(.unknownKey, "\(object.typeName) has no key '\(key)'")
        case .array(let items):
            var out: [Value] = []
            out.reserveCapacity(items.count)
            for item in items {
                let v = try self.value(item, key: key)
                out.append(v == .null ? .nsNull : v)
            }
            return .array(out)
        case .set(let items):
            var out = Set<Value>()
            for item in items {
                let v = try self.value(item, key: key)
                out.insert(v == .null ? .nsNull : v)
            }
            return .set(out)
        default:
            if let v = try methodKey(key, on: value) { return v }
            throw Failure(.unknownKey, "\(Functions.describe(value)) has no key '\(key)'")
        }
    }

    /// The keys ``methodKey(_:on:)`` answers (``MethodKey/all`` and
    /// `self`): each reads its receiver whole (the budget counts it
    /// before), and may make a value larger than it, by at most
    /// ``methodKeyGrowth`` for each unit.
    static let methodKeys: Set<String> = Set(MethodKey.all.map(\.name)).union(["self", "SELF"])

    /// How many times larger than its receiver (in ``WorkBudget`` units) a
    /// method key's value can be: a number (1 unit) described takes up to
    /// 47 bytes (a 38-digit decimal with its sign and exponent), a string
    /// upper-cased up to three bytes for each byte.
    static let methodKeyGrowth = 48

    /// The keys that Foundation's value classes answer through KVC
    /// (``MethodKey``), and `self`.
    static func methodKey(_ key: String, on value: Value) throws(Failure) -> Value? {
        if key == "self" || key == "SELF" { return value }
        return try MethodKey.named[key]?.read(value)
    }

    // MARK: - Collection operators

    /// The value of the collection operator `name` (see
    /// ``CollectionOperator``) applied to `value`, with `rest` the key path
    /// after it. A name the table does not have is an error once the value
    /// is found to be a collection, as KVC's undefined key is.
    static func collectionOperator(_ name: String, on value: Value, rest: ArraySlice<String>) throws(Failure) -> Value {
        let op = CollectionOperator(name: name)
        let elements: [Value]
        switch value {
        case .null, .nsNull: return .null
        case .array(let items): elements = items
        case .set(let items): elements = Array(items)
        case .dictionary(let d):
            // A dictionary answers `@count` (NSDictionary's `count`); the
            // other operators are NSArray's and NSSet's, and a dictionary
            // has none of them (KVC raises for an undefined key), as it
            // has no ANY, SUBQUERY or sum:(…) either.
            guard op == .count else {
                throw Failure(.notACollection, "\(name) needs an array or a set, not \(Functions.describe(value))")
            }
            return .int(d.count)
        default:
            throw Failure(.notACollection, "\(name) needs an array or a set, not \(Functions.describe(value))")
        }
        if op == .count { return .int(elements.count) }
        guard !rest.isEmpty else {
            throw Failure(.missingKeyPath, "\(name) needs a key path after it, as in \(name).price (or \(name).self)")
        }
        var values: [Value] = []
        values.reserveCapacity(elements.count)
        for element in elements { values.append(try self.value(element, path: rest)) }
        guard let op else { throw Failure(.unknownKey, "unknown collection operator \(name)") }
        switch op {
        case .count:
            return .int(elements.count)
        case .sum:
            return try Aggregates.sum(values.filter { !$0.isNull }, what: name)
        case .avg:
            // nil counts as 0 and stays in the denominator, as in Foundation.
            guard !values.isEmpty else { return .null }
            let sum = try Aggregates.sum(values.filter { !$0.isNull }, what: name)
            return .double((NumericValue(sum)?.doubleValue ?? 0) / Double(values.count))
        case .max, .min:
            let present = values.filter { !$0.isNull }
            guard var best = present.first else { return .null }
            for v in present.dropFirst() {
                let order = try Ordering.compare(v, best, options: [])
                if op == .max ? order == .orderedDescending : order == .orderedAscending { best = v }
            }
            return best
        case .unionOfObjects:
            return .array(values.filter { !$0.isNull })
        case .distinctUnionOfObjects:
            return .array(distinct(values.filter { !$0.isNull }))
        case .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets:
            var flat: [Value] = []
            for v in values {
                switch v {
                case .array(let items): flat.append(contentsOf: items)
                case .set(let items): flat.append(contentsOf: items)
                case .null, .nsNull: continue
                default: throw Failure(.notACollection, "\(name) needs collections, got \(Functions.describe(v))")
                }
            }
            switch op {
            case .unionOfArrays: return .array(flat)
            case .distinctUnionOfSets: return .set(Set(flat))
            default: return .array(distinct(flat))
            }
        }
    }

    static func distinct(_ values: [Value]) -> [Value] {
        var seen = Set<Value>()
        var out: [Value] = []
        for v in values where seen.insert(v).inserted { out.append(v) }
        return out
    }
}
