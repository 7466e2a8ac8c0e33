import Sift

/// Limits on the SQL a fetch request lowers to.
public struct SQLLoweringOptions: Sendable, Hashable {
    /// The most values one statement may bind. SQLite refuses more than
    /// 32766 parameters (its default `SQLITE_MAX_VARIABLE_NUMBER`) and
    /// PostgreSQL more than 65535; the default stays well below both. A list
    /// (`IN {…}`) is bound as one value, except on SQLite up to 32 members.
    public var maximumBindings: Int
    /// The limits a MATCHES pattern is checked against before any SQL is
    /// made: those that SQLite's `sift_matches` runs it with
    /// (`registerSiftFunctions(regexLimits:)` in SiftSQLite).
    public var regexLimits: RegexLimits
    /// Whether the SQLite connection has Sift's collations (`sift_compare`,
    /// …), which sorts by a string need. SiftSQLite registers them; a
    /// driver that can install functions but not collations (sqlite-nio,
    /// through SiftSQLKit) sets this to false, and such sorts are refused.
    package var siftCollations = true

    /// Options; each defaults to the value in ``default``.
    public init(maximumBindings: Int = 10_000, regexLimits: RegexLimits = .default) {
        self.maximumBindings = maximumBindings
        self.regexLimits = regexLimits
    }

    /// At most 10,000 bound values, and the default `RegexLimits`.
    public static let `default` = SQLLoweringOptions()
}
