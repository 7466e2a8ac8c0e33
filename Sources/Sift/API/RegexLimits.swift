/// What one `MATCHES` may cost: how long its pattern may be and how much
/// work and memory one match may take. Going over any of them is an
/// ``EvaluationError`` with the code ``EvaluationError/Code/regexLimit``
/// (in SQLite, an error from `sift_matches`), never a hang.
///
/// ```swift
/// let filter = try Filter("name MATCHES %@", userPattern)
/// let strict = filter.compiled(regexLimits: RegexLimits(maximumPatternLength: 200, matchLimit: 100_000))
/// ```
public struct RegexLimits: Sendable, Hashable {
    /// The longest pattern accepted, in UTF-8 bytes. Independently of it,
    /// a pattern that compiles to more than PCRE2 can hold (such as
    /// `(?:ab){30000}`) is refused with the same error code.
    public var maximumPatternLength: Int
    /// The most backtracking steps one match may take (PCRE2's match limit):
    /// what stops a catastrophic pattern such as `(a+)+$`.
    public var matchLimit: Int
    /// The deepest nesting of backtracking points one match may reach
    /// (PCRE2's depth limit): long subjects against `(a|b)*` reach it.
    public var depthLimit: Int
    /// The most heap memory one match may use for backtracking, in
    /// kibibytes (PCRE2's heap limit).
    public var heapLimit: Int

    /// Limits; each defaults to the value in ``default``.
    public init(
        maximumPatternLength: Int = 10_000, matchLimit: Int = 10_000_000, depthLimit: Int = 100_000,
        heapLimit: Int = 64 * 1024
    ) {
        self.maximumPatternLength = maximumPatternLength
        self.matchLimit = matchLimit
        self.depthLimit = depthLimit
        self.heapLimit = heapLimit
    }

    /// Patterns up to 10,000 bytes, 10,000,000 backtracking steps, a depth of 100,000, and 64 MiB a
    /// match.
    public static let `default` = RegexLimits()
}
