import SiftPostgres
import SiftTestSupport
import Testing

/// SiftPostgres refuses a server older than PostgreSQL 13 when it connects,
/// rather than failing later on `normalize()`.
struct ServerVersionTests {
    @Test func testVersionNumbersAsPostgreSQLWritesThem() throws {
        let cases: [(String, String, Bool)] = [
            ("150018", "15.18", true), ("130000", "13.0", true), ("180001", "18.1", true),
            ("120022", "12.22", false), ("100023", "10.23", false), ("90624", "9.6.24", false), ("80417", "8.4.17", false),
        ]
        for (number, written, supported) in cases {
            let version = try #require(PostgresServerVersion(serverVersionNumber: number), "\(number)")
            #expect(version.description == written)
            #expect(version.isSupported == supported, "\(written)")
            if supported {
                #expect(throws: Never.self) { try version.check() }
            } else {
                let error = #expect(throws: SiftPostgresError.self) { try version.check() }
                #expect(error?.kind == .unsupportedServer)
                #expect(error?.message == "PostgreSQL \(written) is not supported: Sift needs PostgreSQL 13 or newer "
                    + "(its SQL folds strings with normalize(), which PostgreSQL 13 added)")
            }
        }
        #expect(PostgresServerVersion(serverVersionNumber: "150018")! > PostgresServerVersion(serverVersionNumber: "90624")!)
        for text in ["", "15.4", "x", "999", " 150004"] {
            #expect(PostgresServerVersion(serverVersionNumber: text) == nil, "\(text)")
        }
    }

    /// The server of the tests (PostgreSQL 15) passes the check.
    @Test func testTheServerPasses() async throws {
        guard let db = try await PostgresServer.connect() else {
            try Test.cancel("SIFT_POSTGRES is not set (run the tests with scripts/postgres.sh run …)")
        }
        defer { PostgresServer.close(db) }
        let version = try await db.checkServerVersion()
        #expect(version.major >= PostgresServerVersion.minimumMajor)
    }
}
