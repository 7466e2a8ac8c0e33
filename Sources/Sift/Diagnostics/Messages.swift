/// The texts of errors that more than one phase raises, so that each is
/// written once (substitution and evaluation both report a variable with
/// no value).
enum Messages {
    /// A `$VARIABLE` given no value.
    static func noValue(forVariable name: String) -> String { "no value for the variable $\(name)" }
}
