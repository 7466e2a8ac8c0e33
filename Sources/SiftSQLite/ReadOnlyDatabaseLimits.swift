import Foundation

extension ReadOnlyDatabase {
    /// The settings of ``ReadOnlyDatabase/open(path:configuration:limits:)``:
    /// how long a read waits for a writer.
    ///
    /// The `sift` command reads them from the environment:
    /// `SIFT_BUSY_TIMEOUT` (seconds).
    public struct Limits: Sendable, Hashable {
        /// How long, in seconds, opening and each read wait for a lock that
        /// a writer holds (a database in rollback-journal mode is locked
        /// while a transaction commits; one in WAL mode for a moment while
        /// a writer recovers its log) before failing with "database is
        /// locked". 5 seconds by default; 0 fails at once.
        public var busyTimeout: TimeInterval

        /// Limits with the given values, by default 5 seconds.
        public init(busyTimeout: TimeInterval = 5) {
            self.busyTimeout = busyTimeout
        }
    }
}
