import Sift

/// The state of one lowering: the schema, the dialect, the bound values and
/// the table aliases handed out so far.
final class LoweringContext {
    let schema: StoreSchema
    let dialect: Dialect
    let source: String
    let options: SQLLoweringOptions
    /// The longest string a FUNCTION or custom selector may make when a
    /// comparison of constants is answered now: the filter's
    /// ``Filter/maximumFunctionResultLength``, as memory evaluates it.
    let functionResultLimit: Int
    /// The values bound so far, in the order they were made: for the
    /// limit on their number and the check for NUL characters.
    private(set) var bindings: [SQLValue] = []
    private var aliasCount = 0
    /// The TERNARY operands distributed so far (``Lowering/maximumDistributions``).
    var ternaryDistributions = 0

    init(
        schema: StoreSchema, dialect: Dialect, source: String, options: SQLLoweringOptions,
        functionResultLimit: Int = Filter.defaultMaximumFunctionResultLength
    ) {
        self.schema = schema
        self.dialect = dialect
        self.source = source
        self.options = options
        self.functionResultLimit = functionResultLimit
    }

    /// Whether more values are bound than ``SQLLoweringOptions/maximumBindings``.
    var bindingsOverLimit: Bool { bindings.count > options.maximumBindings }

    /// `value` as a parameter; its placeholder is numbered when the
    /// statement is rendered.
    func bind(_ value: SQLValue) -> SQLFragment {
        bindings.append(value)
        return .parameter(SQLParameter(id: bindings.count, value: value))
    }

    /// A fresh table alias: `t0`, `t1`, …
    func alias() -> String {
        defer { aliasCount += 1 }
        return "t\(aliasCount)"
    }

    /// The dialect's hooks.
    var hooks: any DialectHooks { dialect.hooks }

    func entity(_ name: String) -> Entity? { schema.entity(named: name) }
}
