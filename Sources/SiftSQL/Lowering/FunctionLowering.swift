import Foundation
import Sift

/// The built-in functions besides `+ - * /` (which are
/// `ArithmeticLowering.swift`'s), and `CAST`, as SQL where the value is
/// exactly memory's; the others refused, saying why.
///
/// A function whose row in ``BuiltinFunction`` says `.refused` is refused
/// with the row's reason. For the others, memory's rules (`Semantics/
/// Arithmetic.swift`, `Semantics/Functions.swift`) and what SQL makes of them:
///
/// - Every argument must be never nil: memory raises for a nil argument
///   (`abs:(nil)`, `lowercase:(nil)`), SQL would make NULL and drop the row.
///   Decimals are refused, as in arithmetic (memory computes in decimals).
/// - SQLite computes each with `sift_function`, the evaluator's own code
///   (``SQLiteFunctions/function``), so the value is memory's by construction:
///   overflow (`abs:` of Int.min), modulus by zero, a bitwise function of a
///   double that is not whole fail the statement as they fail an evaluation;
///   NaN, which SQLite cannot hold, is NULL both ways (``Column/nanIsNull``).
/// - PostgreSQL computes with its own functions only where their value is
///   memory's, bit for bit, and they raise only where memory raises: see
///   ``standardFunction(_:_:_:_:range:)`` for each function's reason.
extension Lowering {
    /// The function `f` of `arguments` (the expression `e`), as an operand: a
    /// constant when every argument is one (memory's answer, computed now),
    /// else a column that is never nil.
    func function(_ e: ExpressionNode, _ f: BuiltinFunction, _ arguments: [ExpressionNode], _ scope: SelectScope)
        throws(SQLLoweringError) -> Operand
    {
        if let op = ArithmeticOperator(f) { return try arithmetic(e, op, arguments, scope) }
        let text = FormatPrinter.format(e)
        if case .refused(let reason) = f.sql {
            throw error(.unsupported, "\(text): \(f.rawValue) has no SQL form: \(reason)", entity: scope.entity, range: e.range)
        }
        guard arguments.count == f.arity else {
            throw error(.unsupported, "\(text) needs \(f.arity) operands", entity: scope.entity, range: e.range)
        }
        var operands: [Operand] = []
        var constants: [Value] = []
        for argument in arguments {
            let o = try operand(argument, scope)
            if case .constant(let v) = o { constants.append(v) }
            operands.append(o)
        }
        if constants.count == operands.count {
            do throws(ArithmeticFailure) {
                return .constant(try f.apply(constants))
            } catch {
                throw self.error(.typeMismatch, "\(text): \(error.message)", entity: scope.entity, range: e.range)
            }
        }
        if let why = hooks.computedValueRefusal {
            throw error(.unsupported, "\(text): \(hooks.name): \(why)", entity: scope.entity, range: e.range)
        }
        if f.operands == .string {
            return .column(try stringFunction(f, operands[0], arguments[0], text, scope, range: e.range))
        }
        var numbers: [Number] = []
        for (o, argument) in zip(operands, arguments) { numbers.append(try number(o, argument, text, scope)) }
        // floor:, ceiling: and trunc: give an integer (a Boolean) unchanged.
        if [.floor, .ceiling, .trunc].contains(f), numbers[0].isInteger, case .column(let c) = operands[0] {
            return .column(Column(sql: c.sql, type: c.type, nullable: false, key: text))
        }
        let type = Self.resultType(f, numbers)
        if hooks.computesArithmetic {
            let sql = SQLFragment.function(SQLiteFunctions.function, [.integer(f.code)] + numbers.map(\.sql))
            return .column(Column(sql: sql, type: type, nullable: false, key: text, nanIsNull: type == .double))
        }
        let sql = try standardFunction(f, numbers, text, scope, range: e.range)
        return .column(Column(sql: sql, type: type, nullable: false, key: text))
    }

    /// What memory's `f` gives for `numbers`: a double from the functions of
    /// real numbers, an integer from the integer ones, the argument's kind
    /// from `abs:`, `floor:`, `ceiling:` and `trunc:`.
    private static func resultType(_ f: BuiltinFunction, _ numbers: [Number]) -> AttributeType {
        switch f {
        case .abs, .floor, .ceiling, .trunc: return numbers[0].isInteger ? .integer : .double
        case .sqrt, .log, .ln, .exp, .raise: return .double
        default: return .integer
        }
    }

    /// The function on PostgreSQL, with its own functions and operators.
    private func standardFunction(
        _ f: BuiltinFunction, _ numbers: [Number], _ text: String, _ scope: SelectScope, range: SourceRange?
    ) throws(SQLLoweringError) -> SQLFragment {
        func refused(_ why: String) -> SQLLoweringError {
            error(.unsupported, "\(text) has no PostgreSQL form: \(why)", entity: scope.entity, range: range)
        }
        let x = numbers[0]
        switch f {
        case .abs:
            // abs(bigint) raises for -2^63 as memory does; abs(float8) is
            // exact for every double (NaN, ±infinity and -0.0 included).
            return .function("ABS", [x.sql])
        case .floor, .ceiling, .trunc:
            // A double (integers are given unchanged): C's floor, ceil and
            // trunc, exact and never raising, as Swift's rounded(_:).
            let name = f == .floor ? "FLOOR" : (f == .ceiling ? "CEIL" : "TRUNC")
            return .function(name, [x.sql])
        case .sqrt:
            // The square root is correctly rounded in both; PostgreSQL raises
            // for a number below 0 where memory gives NaN (-0.0 is not below 0,
            // and its root is -0.0 in both).
            let d = x.isInteger ? SQLFragment.cast(x.sql, "DOUBLE PRECISION") : x.sql
            return .group(
                .sequence([
                    .sql("CASE WHEN "), .binary(d, "<", .integer(0)), .sql(" THEN "), ctx.bind(.real(.nan)),
                    .sql(" ELSE "), .function("SQRT", [d]), .sql(" END"),
                ]))
        case .ln, .log, .exp, .raise:
            throw refused(
                "PostgreSQL's ln, log, exp and power raise an error where memory gives ±infinity, 0 or NaN (the logarithm of 0, "
                    + "an overflow or underflow), and the server's C library need not round as memory's does")
        case .modulus, .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftshift, .rightshift, .onesComplement:
            guard numbers.allSatisfy(\.isInteger) else {
                throw refused(
                    "memory takes a double as the integer it truncates to (\(f.rawValue) of a double that is not whole raises "
                        + "for the bitwise functions), which PostgreSQL's bigint operators cannot do")
            }
            // As bigint: a Boolean is an INTEGER (32 bits) once numeric.
            let a = x.isBoolean ? SQLFragment.cast(x.sql, "BIGINT") : x.sql
            if f == .onesComplement { return .group(.sequence([.sql("~"), a])) }
            let y = numbers[1]
            let b = y.isBoolean ? SQLFragment.cast(y.sql, "BIGINT") : y.sql
            switch f {
            // bigint % raises for 0 and gives 0 for -1, as memory; the
            // remainder has the dividend's sign in both.
            case .modulus: return .group(.binary(a, "%", b))
            case .bitwiseAnd: return .group(.binary(a, "&", b))
            case .bitwiseOr: return .group(.binary(a, "|", b))
            case .bitwiseXor: return .group(.binary(a, "#", b))
            default: return shift(f == .leftshift, a, b)
            }
        default:
            throw refused("it has no PostgreSQL form")
        }
    }

    /// `a << n` or `a >> n` as memory shifts: Swift's smart shifts (a
    /// negative amount shifts the other way), 0 past 63 to the left, the
    /// sign past 63 to the right. PostgreSQL's `<<` and `>>` take an INTEGER
    /// amount and are C's shifts, which are undefined past 63; the CASE
    /// gives them only amounts from 0 to 63.
    private func shift(_ left: Bool, _ a: SQLFragment, _ n: SQLFragment) -> SQLFragment {
        let (forward, backward) = left ? ("<<", ">>") : (">>", "<<")
        let far = left ? SQLFragment.integer(0) : .sequence([
            .sql("CASE WHEN "), .binary(a, "<", .integer(0)), .sql(" THEN -1 ELSE 0 END"),
        ])
        return .group(
            .sequence([
                .sql("CASE WHEN "), .binary(n, ">=", .integer(64)), .sql(" THEN "), far,
                .sql(" WHEN "), .binary(n, "<=", .integer(-64)), .sql(" THEN 0"),
                .sql(" WHEN "), .binary(n, ">=", .integer(0)), .sql(" THEN "),
                .binary(a, forward, .cast(n, "INTEGER")),
                .sql(" ELSE "), .binary(a, backward, .cast(.sequence([.sql("-"), .group(n)]), "INTEGER")), .sql(" END"),
            ]))
    }

    /// `lowercase:`, `uppercase:` or `length:` of a string column that is
    /// never nil. Memory holds the case mappings to no length limit
    /// (``Filter/maximumFunctionResultLength`` bounds the strings `FUNCTION`
    /// makes, not these, which are at most three times as long as their
    /// argument), so neither does SQL.
    private func stringFunction(
        _ f: BuiltinFunction, _ o: Operand, _ e: ExpressionNode, _ text: String, _ scope: SelectScope, range: SourceRange?
    ) throws(SQLLoweringError) -> Column {
        let c: Column
        switch o {
        case .column(let column): c = column
        case .toMany(let many): throw keys.toManyError(many.key, owner: many.owner, range: e.range)
        case .constant(let v):
            // Only beside another argument, which these functions have not.
            throw error(.typeMismatch, "\(text) needs a string, got \(v.typeName)", entity: scope.entity, range: range)
        }
        guard c.type == .string, !c.isRelationship else {
            throw error(
                .typeMismatch, "\(text) needs a string; \(c.key) is \(c.isRelationship ? "a relationship" : c.type.name)",
                entity: scope.entity, key: c.key, range: e.range)
        }
        guard !c.nullable else {
            throw error(
                .unsupported,
                "\(text): \(c.key) may be nil, and \(f.rawValue) of nil is an error in memory where SQL gives NULL; "
                    + "give it a value first (in Swift, ?? \"\")",
                entity: scope.entity, key: c.key, range: e.range)
        }
        let type: AttributeType = f == .length ? .integer : .string
        if hooks.computesArithmetic {
            return Column(sql: .function(SQLiteFunctions.function, [.integer(f.code), c.sql]), type: type, nullable: false, key: text)
        }
        guard f == .length else {
            throw error(
                .unsupported,
                "\(text) has no PostgreSQL form: lower() and upper() follow the database's collation and map one character "
                    + "to one (ß stays ß, where memory's uppercase: gives SS)",
                entity: scope.entity, range: range)
        }
        // UTF-16 code units: one for each code point, and one more for each
        // beyond U+FFFF (a surrogate pair), counted by removing all others.
        let supplementary = SQLFragment.function(
            "REGEXP_REPLACE", [c.sql, ctx.bind(.text("[^\\U00010000-\\U0010FFFF]")), ctx.bind(.text("")), ctx.bind(.text("g"))])
        let sql = SQLFragment.group(
            .binary(.function("CHAR_LENGTH", [c.sql]), "+", .function("CHAR_LENGTH", [supplementary])))
        return Column(sql: sql, type: type, nullable: false, key: text)
    }

    // MARK: - CAST

    /// `CAST(value, "type")`: a constant cast now, as memory casts it; a
    /// column only where SQL gives memory's value: a number as `NSNumber`
    /// (itself) and a date stored as seconds since 2001 (those seconds); a
    /// string or an integer as `NSString`; an integer or a date as `NSDate`.
    /// A cast gives nil for nil, as memory does, so the column may be nil.
    func cast(_ e: ExpressionNode, _ value: ExpressionNode, _ type: String, _ scope: SelectScope)
        throws(SQLLoweringError) -> Operand
    {
        let text = FormatPrinter.format(e)
        let c: Column
        switch try operand(value, scope) {
        case .constant(let v):
            do throws(ArithmeticFailure) {
                return .constant(try v.cast(to: type))
            } catch {
                throw self.error(.typeMismatch, "\(text): \(error.message)", entity: scope.entity, range: e.range)
            }
        case .toMany(let many):
            throw keys.toManyError(many.key, owner: many.owner, range: value.range)
        case .column(let column):
            c = column
        }
        func refused(_ why: String) -> SQLLoweringError {
            error(.unsupported, "\(text) has no SQL form: \(why)", entity: scope.entity, key: c.key, range: e.range)
        }
        guard !c.isRelationship else { throw refused("\(c.key) is a relationship") }
        func column(_ sql: SQLFragment, _ t: AttributeType) -> Operand {
            .column(Column(sql: sql, type: t, nullable: c.nullable, key: text, nanIsNull: c.nanIsNull))
        }
        switch (type, c.type) {
        case ("NSNumber", .integer), ("NSNumber", .double), ("NSNumber", .decimal), ("NSNumber", .boolean),
            ("NSString", .string), ("String", .string), ("NSDate", .date), ("Date", .date):
            return .column(c)
        case ("NSNumber", .date(.referenceSeconds)):
            return column(c.sql, .double)
        case ("NSString", .integer), ("String", .integer), ("NSString", .boolean), ("String", .boolean):
            // Memory writes the decimal digits (a Boolean as 1 or 0), as
            // SQL's cast of an integer to text does.
            return column(.cast(numeric(c), "TEXT"), .string)
        case ("NSDate", .integer), ("Date", .integer), ("NSDate", .boolean), ("Date", .boolean):
            // Seconds since 2001 as a double, as memory's doubleValue.
            return column(.cast(numeric(c), hooks.columnType(.double)), .date(.referenceSeconds))
        case ("NSNumber", _):
            throw refused(
                c.type == .string ? "memory reads the number in the string as Foundation does, which SQL cannot"
                    : "\(c.key) is \(c.type.name), whose number is not stored as seconds since 2001")
        case ("NSString", _), ("String", _):
            throw refused("memory writes \(c.type.name) as Swift does (1e+20, 0.1), which SQL's text differs from")
        case ("NSDate", .double), ("Date", .double):
            throw refused("a double may be NaN, which SQLite stores as nil, where memory makes a date of it")
        case ("NSDate", _), ("Date", _):
            throw refused("memory makes a date only of a number or a date; \(c.key) is \(c.type.name)")
        default:
            throw refused("only casts to NSNumber, NSString and NSDate have one")
        }
    }
}
