/// `left UNION right`, `left INTERSECT right`, `left MINUS right`, as
/// `NSExpression`'s set expressions evaluate them.
///
/// The left side must be a set or an array (taken as the set of its
/// elements): anything else, nil included, is an error, as `NSExpression`'s
/// documentation requires a set there. The right side may be an array, a
/// set or a dictionary (its values), as documented; nil, which is how a
/// missing to-many relationship or array reads, counts as an empty
/// collection (so `a INTERSECT nil` is empty, `a UNION nil` and `a MINUS
/// nil` are `a`), a choice of this project, Apple's answer not being
/// observed; anything else is an error. The result is always a set.
/// Elements are the same when they are equal as ``Value``s, the equality of
/// `IN` and of set constants (`1`, `1.0` and `YES` are one element).
package enum SetExpressions {
    /// The set two constants make, for SiftSQL, which folds constant
    /// operands before it writes SQL.
    package static func constant(_ operation: SetOperation, _ left: Value, _ right: Value) throws(Problem) -> Value {
        do throws(Failure) { return try apply(operation, left, right) } catch { throw Problem(message: error.message) }
    }

    static func apply(_ operation: SetOperation, _ left: Value, _ right: Value) throws(Failure) -> Value {
        var result: Set<Value>
        switch left {
        case .set(let items): result = items
        case .array(let items): result = Set(items)
        default:
            throw Failure(
                .notACollection,
                "\(operation.keyword) needs a set or an array on the left, not \(Functions.describe(left))")
        }
        switch right {
        case .null:
            combine(operation, &result, [])
        case .set(let items):
            combine(operation, &result, items)
        case .array(let items):
            combine(operation, &result, items)
        case .dictionary(let entries):
            combine(operation, &result, entries.values)
        default:
            throw Failure(
                .notACollection,
                "\(operation.keyword) needs an array, a set or a dictionary on the right, not \(Functions.describe(right))")
        }
        return .set(result)
    }

    /// The right side is read as it is, without a set made of it first.
    private static func combine(
        _ operation: SetOperation, _ result: inout Set<Value>, _ other: some Collection<Value>
    ) {
        switch operation {
        case .union:
            result.reserveCapacity(result.count + other.count)
            result.formUnion(other)
        case .intersect: result.formIntersection(other)
        case .minus: result.subtract(other)
        }
    }
}
