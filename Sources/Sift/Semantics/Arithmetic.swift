import Foundation

/// `+ - * / **`, `modulus:by:` and the bitwise functions.
///
/// Two integers give an integer (`/` truncates toward zero, as in C); a
/// double on either side gives a double; a decimal with an integer or a
/// decimal gives a decimal. `**` always gives a double. Booleans count as
/// 0 and 1. nil, strings, dates and collections are errors. Integer overflow
/// and integer division by zero are errors rather than wrapping or trapping.
enum Arithmetic {
    static func operand(_ v: Value, _ what: String) throws(Failure) -> NumericValue {
        guard let n = NumericValue(v) else {
            throw Failure(.typeMismatch, "\(what) needs numbers, got \(Functions.describe(v))")
        }
        return n
    }

    static func apply(_ f: BuiltinFunction, _ a: Value, _ b: Value) throws(Failure) -> Value {
        let x = try operand(a, f.rawValue)
        let y = try operand(b, f.rawValue)
        switch f {
        case .raise:
            return .double(Foundation.pow(x.doubleValue, y.doubleValue))
        case .modulus:
            let p = x.exactInt ?? Conversions.truncatedInt(x.doubleValue)
            let q = y.exactInt ?? Conversions.truncatedInt(y.doubleValue)
            guard q != 0 else { throw Failure(.divisionByZero, "modulus by zero") }
            if q == -1 { return .int(0) }
            return .int(p % q)
        case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftshift, .rightshift:
            guard let p = x.exactInt, let q = y.exactInt else {
                throw Failure(.typeMismatch, "\(f.rawValue) needs integers")
            }
            switch f {
            case .bitwiseAnd: return .int(p & q)
            case .bitwiseOr: return .int(p | q)
            case .bitwiseXor: return .int(p ^ q)
            case .leftshift: return .int(q >= 64 || q <= -64 ? 0 : p << q)
            default: return .int(q >= 64 ? (p < 0 ? -1 : 0) : p >> q)
            }
        default:
            break
        }
        switch (x, y) {
        case (.int(let p), .int(let q)):
            let result: (Int, Bool)
            switch f {
            case .add: result = p.addingReportingOverflow(q)
            case .subtract: result = p.subtractingReportingOverflow(q)
            case .multiply: result = p.multipliedReportingOverflow(by: q)
            case .divide:
                guard q != 0 else { throw Failure(.divisionByZero, "integer division by zero") }
                result = p.dividedReportingOverflow(by: q)
            default: throw Failure(.unsupported, "\(f.rawValue) is not arithmetic")
            }
            guard !result.1 else { throw Failure(.overflow, "\(f.rawValue) overflows a 64-bit integer") }
            return .int(result.0)
        case (.double, _), (_, .double):
            let p = x.doubleValue
            let q = y.doubleValue
            switch f {
            case .add: return .double(p + q)
            case .subtract: return .double(p - q)
            case .multiply: return .double(p * q)
            case .divide: return .double(p / q)
            default: throw Failure(.unsupported, "\(f.rawValue) is not arithmetic")
            }
        default:
            let p = try Conversions.decimal(x)
            let q = try Conversions.decimal(y)
            let result: Decimal
            switch f {
            case .add: result = p + q
            case .subtract: result = p - q
            case .multiply: result = p * q
            case .divide:
                guard !q.isZero else { throw Failure(.divisionByZero, "decimal division by zero") }
                result = p / q
            default: throw Failure(.unsupported, "\(f.rawValue) is not arithmetic")
            }
            return .decimal(try Conversions.checkedDecimal(result, f.rawValue))
        }
    }

    /// One-number functions.
    static func apply(_ f: BuiltinFunction, _ a: Value) throws(Failure) -> Value {
        let x = try operand(a, f.rawValue)
        switch f {
        case .sqrt: return .double(x.doubleValue.squareRoot())
        case .log: return .double(Foundation.log10(x.doubleValue))
        case .ln: return .double(Foundation.log(x.doubleValue))
        case .exp: return .double(Foundation.exp(x.doubleValue))
        case .floor, .ceiling, .trunc:
            if case .int = x { return a }
            let rule: FloatingPointRoundingRule = f == .floor ? .down : (f == .ceiling ? .up : .towardZero)
            if case .decimal(var d) = x {
                var r = Decimal()
                NSDecimalRound(&r, &d, 0, f == .floor ? .down : (f == .ceiling ? .up : (d < 0 ? .up : .down)))
                return .decimal(r)
            }
            return .double(x.doubleValue.rounded(rule))
        case .abs:
            switch x {
            case .int(let i):
                guard i != .min else { throw Failure(.overflow, "abs: overflows a 64-bit integer") }
                return .int(Swift.abs(i))
            case .double(let d): return .double(Swift.abs(d))
            case .decimal(let d): return .decimal(d < 0 ? -d : d)
            }
        case .onesComplement:
            guard let i = x.exactInt else { throw Failure(.typeMismatch, "onesComplement: needs an integer") }
            return .int(~i)
        default:
            throw Failure(.unsupported, "\(f.rawValue) is not a one-number function")
        }
    }
}

/// `+ - * /` for the SQL side: the one rule of what they compute, which the
/// SQL lowering folds constants with and `sift_arithmetic` (registered by
/// `SiftSQLite`) runs on SQLite, so that SQL computes exactly as memory does.
package enum ArithmeticOperator: Int, Sendable, CaseIterable {
    case add, subtract, multiply, divide

    /// The operator of `f`, if it is one of the four.
    package init?(_ f: BuiltinFunction) {
        switch f {
        case .add: self = .add
        case .subtract: self = .subtract
        case .multiply: self = .multiply
        case .divide: self = .divide
        default: return nil
        }
    }

    /// The built-in function it is.
    package var function: BuiltinFunction {
        switch self {
        case .add: return .add
        case .subtract: return .subtract
        case .multiply: return .multiply
        case .divide: return .divide
        }
    }

    /// `a op b` as memory computes it; memory's error, by its message.
    package func apply(_ a: Value, _ b: Value) throws(ArithmeticFailure) -> Value {
        do throws(Failure) {
            return try Arithmetic.apply(function, a, b)
        } catch {
            throw ArithmeticFailure(message: error.message)
        }
    }
}

/// The error memory raises for an arithmetic operation or another built-in
/// function (overflow, division by zero, an operand that is not a number).
package struct ArithmeticFailure: Error, CustomStringConvertible {
    package let message: String
    package var description: String { message }
}
