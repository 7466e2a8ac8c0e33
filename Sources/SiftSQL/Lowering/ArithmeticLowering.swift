import Foundation
import Sift

/// `+ - * /` (`add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`; a
/// Swift predicate's `-x` arrives as `x * -1`) as SQL, where the value is
/// exactly memory's.
///
/// Memory's rules (`Semantics/Arithmetic.swift`): two integers give an
/// integer, and overflow or division by zero is an error; a double on either
/// side gives an IEEE double (±infinity, NaN and -0.0 included); nil, strings
/// and dates are errors. What SQL makes of each:
///
/// - An operand that may be nil (an optional attribute, `@min`, `@avg`) is
///   refused: memory raises for a nil operand, SQL would make NULL and drop
///   the row. That includes `x` in a Swift predicate's `(x ?? 0) + 1`: the
///   distributed TERNARY puts `x + 1` under `x != nil`, which this does not
///   look at. `@count` and `@sum` are never nil: a sum of integers is
///   SQL's exact integer (or the statement fails), of doubles added in
///   the collection's order, as memory adds them.
/// - SQLite computes with `sift_arithmetic`, the evaluator's own code, so
///   every operand has an exact form there: overflow and division by zero fail
///   the statement with memory's message (SQLite's own `+` would turn an
///   integer overflow into a double, and `x / 0` into NULL). SQLite holds no
///   NaN: the function answers NULL for it, which the comparisons read as NaN
///   (``Column/nanIsNull``).
/// - PostgreSQL computes with its own operators. Integers are `bigint`, which
///   raises on overflow and division by zero where memory raises, and divides
///   truncating toward zero as memory does. Its doubles raise where memory goes
///   on (overflow to ±infinity, underflow to 0, division by 0), so a double has
///   a form only where none of these can happen: an integer with a finite
///   double constant within bounds that exclude them, and a change of sign
///   (`x * -1`, which never overflows nor underflows).
///
/// Where SQL raises, memory raises for the same row; but SQL may evaluate the
/// conditions of a predicate in another order than memory's left-to-right
/// short circuit, so a row that memory never computes (`year > 2000 AND
/// count * big > 0`) can still make SQL raise.
extension Lowering {
    /// One side of an arithmetic operation (or an argument of another
    /// numeric function), lowered.
    struct Number {
        var sql: SQLFragment
        /// An integer (a Boolean counts as 0 or 1), never a double.
        var isInteger: Bool
        /// A Boolean column (`sql` is it as a number).
        var isBoolean = false
        /// The constant, when it is one (bound in `sql`).
        var constant: Value?
    }

    /// The arithmetic expression `e`, `op` of `arguments`, as an operand:
    /// a constant when both sides are (memory's answer, computed now), else a
    /// column that is never nil.
    func arithmetic(
        _ e: ExpressionNode, _ op: ArithmeticOperator, _ arguments: [ExpressionNode], _ scope: SelectScope
    ) throws(SQLLoweringError) -> Operand {
        let text = FormatPrinter.format(e)
        guard arguments.count == 2 else {
            throw error(.unsupported, "\(text) needs two operands", entity: scope.entity, range: e.range)
        }
        let a = try operand(arguments[0], scope)
        let b = try operand(arguments[1], scope)
        if case .constant(let x) = a, case .constant(let y) = b {
            do throws(ArithmeticFailure) {
                return .constant(try op.apply(x, y))
            } catch {
                throw self.error(.typeMismatch, "\(text): \(error.message)", entity: scope.entity, range: e.range)
            }
        }
        if let why = hooks.computedValueRefusal {
            throw error(.unsupported, "\(text): \(hooks.name): \(why)", entity: scope.entity, range: e.range)
        }
        let x = try number(a, arguments[0], text, scope)
        let y = try number(b, arguments[1], text, scope)
        let integer = x.isInteger && y.isInteger
        let sql: SQLFragment
        if hooks.computesArithmetic {
            sql = .function(SQLiteFunctions.arithmetic, [.integer(op.rawValue), x.sql, y.sql])
        } else if integer {
            sql = .group(.binary(x.sql, Self.symbol(op), y.sql))
        } else {
            sql = try standardDouble(op, x, y, text, scope, range: e.range)
        }
        return .column(
            Column(
                sql: sql, type: integer ? .integer : .double, nullable: false, key: text,
                nanIsNull: hooks.computesArithmetic && !integer))
    }

    private static func symbol(_ op: ArithmeticOperator) -> String {
        switch op {
        case .add: return "+"
        case .subtract: return "-"
        case .multiply: return "*"
        case .divide: return "/"
        }
    }

    /// An operand of `text`, or why it has no exact form.
    func number(_ o: Operand, _ e: ExpressionNode, _ text: String, _ scope: SelectScope)
        throws(SQLLoweringError) -> Number
    {
        switch o {
        case .constant(let v):
            switch v {
            case .int(let i): return Number(sql: ctx.bind(.integer(Int64(i))), isInteger: true, constant: v)
            case .bool(let b): return Number(sql: ctx.bind(.integer(b ? 1 : 0)), isInteger: true, constant: .int(b ? 1 : 0))
            case .double(let d): return Number(sql: ctx.bind(.real(d)), isInteger: false, constant: v)
            case .decimal:
                throw error(
                    .unsupported, "\(text): decimal arithmetic has no SQL form (memory computes in decimals, SQL in doubles)",
                    entity: scope.entity, range: e.range)
            default:
                throw error(
                    .typeMismatch, "\(text) needs numbers, got \(v.isNull ? "nil" : v.typeName)", entity: scope.entity,
                    range: e.range)
            }
        case .column(let c):
            if case .keyPath(let components) = e.kind,
                let aggregate = components.first(where: {
                    CollectionOperator.isOperator($0) && $0 != CollectionOperator.count.name && $0 != CollectionOperator.sum.name
                })
            {
                throw error(
                    .unsupported,
                    "\(text): \(aggregate) has no SQL form in arithmetic (it is nil for an empty collection, and arithmetic on nil is an error in memory)",
                    entity: scope.entity, key: c.key, range: e.range)
            }
            guard !c.isRelationship else {
                throw error(.typeMismatch, "\(text) needs numbers; \(c.key) is a relationship", entity: scope.entity,
                            key: c.key, range: e.range)
            }
            switch c.type {
            case .integer, .boolean, .double: break
            case .decimal:
                throw error(
                    .unsupported, "\(text): decimal arithmetic has no SQL form (memory computes in decimals, SQL in doubles)",
                    entity: scope.entity, key: c.key, range: e.range)
            default:
                throw error(.typeMismatch, "\(text) needs numbers; \(c.key) is \(c.type.name)", entity: scope.entity,
                            key: c.key, range: e.range)
            }
            if c.nullable {
                throw error(
                    .unsupported,
                    "\(text): \(c.key) may be nil, and arithmetic on nil is an error in memory where SQL gives NULL; "
                        + "give it a value first (in Swift, ?? 0)",
                    entity: scope.entity, key: c.key, range: e.range)
            }
            return Number(sql: numeric(c), isInteger: c.type != .double, isBoolean: c.type == .boolean, constant: nil)
        case .toMany(let many):
            throw keys.toManyError(many.key, owner: many.owner, range: e.range)
        }
    }

    /// A double computed by standard SQL (PostgreSQL), where it cannot raise:
    /// `x * ±1`, or an integer with a finite double constant. An integer is at
    /// most 2^63 in size and at least 1 when not 0, so the bounds on the
    /// constant keep the result finite and, unless an operand is 0, away from 0.
    private func standardDouble(
        _ op: ArithmeticOperator, _ x: Number, _ y: Number, _ text: String, _ scope: SelectScope, range: SourceRange?
    ) throws(SQLLoweringError) -> SQLFragment {
        func value(_ n: Number) -> Double? {
            switch n.constant {
            case .int(let i)?: return Double(i)
            case .double(let d)?: return d
            default: return nil
            }
        }
        if op == .multiply, value(x).map({ abs($0) == 1 }) == true || value(y).map({ abs($0) == 1 }) == true {
            return .group(.binary(x.sql, "*", y.sql))
        }
        let refusal = error(
            .unsupported,
            "\(text) has no PostgreSQL form: its doubles raise an error on overflow, underflow and division by zero, "
                + "where memory goes on with ±infinity, 0 or NaN; PostgreSQL computes exactly only an integer with a double constant, "
                + "or a change of sign",
            entity: scope.entity, range: range)
        let constantFirst = x.constant != nil
        guard let c = constantFirst ? value(x) : value(y), c.isFinite, (constantFirst ? y : x).isInteger else { throw refusal }
        let integer = constantFirst ? y.sql : x.sql
        let double = SQLFragment.cast(integer, "DOUBLE PRECISION")
        let bound = constantFirst ? x.sql : y.sql
        let (lhs, rhs) = constantFirst ? (bound, double) : (double, bound)
        switch op {
        case .add, .subtract:
            guard abs(c) <= 1e300 else { throw refusal }
        case .multiply:
            guard abs(c) <= 1e280 else { throw refusal }
        case .divide where !constantFirst:
            guard c != 0, abs(c) >= 1e-280 else { throw refusal }
        case .divide:
            guard c == 0 || abs(c) >= 1e-280 else { throw refusal }
            // Dividing by the integer 0 is dividing by +0.0 in memory.
            let byZero = c == 0 ? Double.nan : (c > 0 ? Double.infinity : -Double.infinity)
            return .group(
                .sequence([
                    .sql("CASE WHEN "), .binary(integer, "=", .integer(0)), .sql(" THEN "), ctx.bind(.real(byZero)),
                    .sql(" ELSE "), .binary(lhs, "/", rhs), .sql(" END"),
                ]))
        }
        return .group(.binary(lhs, Self.symbol(op), rhs))
    }
}
