import SiftSQL

/// The PostgreSQL versions SiftPostgres runs on: 13 and newer. The lowered
/// SQL folds strings with `normalize()` (the `[d]` and unfolded string forms,
/// sorts by strings), which PostgreSQL 13 added; on an older server those
/// statements would fail only when they run, so a connection is checked once,
/// when it is made (``SiftPostgresQueryRunner/checkServerVersion()``).
public struct PostgresServerVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The oldest major version SiftPostgres runs on.
    public static let minimumMajor = 13

    /// The major version (15 for 15.4; 9 for 9.6.24).
    public var major: Int
    /// The minor version (4 for 15.4; 6 for 9.6.24, whose major is 9.6).
    public var minor: Int
    /// The patch level of a version older than 10 (24 for 9.6.24); 0 from 10 on.
    public var patch: Int

    /// The version that `server_version_num` says, such as `150004`
    /// (15.4) or `90624` (9.6.24); nil if the text is not such a number.
    public init?(serverVersionNumber text: String) {
        guard let n = Int(text), n >= 10000 else { return nil }
        // From 10 on, major * 10000 + minor; before, each part has two digits.
        if n >= 100_000 {
            (major, minor, patch) = (n / 10000, n % 10000, 0)
        } else {
            (major, minor, patch) = (n / 10000, n / 100 % 100, n % 100)
        }
    }

    /// As PostgreSQL writes it: `15.4`, `9.6.24`.
    public var description: String { major >= 10 ? "\(major).\(minor)" : "\(major).\(minor).\(patch)" }

    /// Whether SiftPostgres runs on this version (``minimumMajor`` or newer).
    public var isSupported: Bool { major >= Self.minimumMajor }

    /// Whether `a` is an older version than `b`.
    public static func < (a: Self, b: Self) -> Bool { (a.major, a.minor, a.patch) < (b.major, b.minor, b.patch) }
}

extension SiftPostgresQueryRunner {
    /// The server's version (`SHOW server_version_num`), or an error of
    /// kind `.unsupportedServer` naming it when it is older than
    /// PostgreSQL 13 (``PostgresServerVersion/minimumMajor``). `sift` checks
    /// every connection it makes; a program that makes its own connections
    /// calls this once on each.
    @discardableResult
    public func checkServerVersion() async throws(SiftPostgresError) -> PostgresServerVersion {
        let sql = "SELECT current_setting('server_version_num')"
        let rows = try await rows(BoundStatement(sql: sql, bindings: []))
        guard case .text(let text)? = rows.first?.first, let version = PostgresServerVersion(serverVersionNumber: text) else {
            throw SiftPostgresError(.server, "the server did not say its version (server_version_num)", sql: sql)
        }
        try version.check()
        return version
    }
}

extension PostgresServerVersion {
    /// Throws `.unsupportedServer` when this version is older than ``minimumMajor``.
    public func check() throws(SiftPostgresError) {
        guard isSupported else {
            throw SiftPostgresError(
                .unsupportedServer,
                "PostgreSQL \(self) is not supported: Sift needs PostgreSQL \(Self.minimumMajor) or newer "
                    + "(its SQL folds strings with normalize(), which PostgreSQL \(Self.minimumMajor) added)")
        }
    }
}
