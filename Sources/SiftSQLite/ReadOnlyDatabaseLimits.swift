import Foundation

extension ReadOnlyDatabase {
    /// The settings of ``ReadOnlyDatabase/open(path:configuration:limits:)``:
    /// how long a read waits for a writer, and how much it may copy.
    ///
    /// The `sift` command reads them from the environment:
    /// `SIFT_BUSY_TIMEOUT` (seconds) and `SIFT_MAX_COPY_SIZE` (bytes).
    public struct Limits: Sendable, Hashable {
        /// How long, in seconds, opening and each read wait for a lock that
        /// a writer holds (a database in rollback-journal mode is locked
        /// while a transaction commits; one in WAL mode for a moment while
        /// a writer recovers its log) before failing with "database is
        /// locked". 5 seconds by default; 0 fails at once. Taken between 0
        /// and ``longestBusyTimeout`` (SQLite counts it in milliseconds in
        /// a 32-bit integer); NaN counts as 0.
        public var busyTimeout: TimeInterval

        /// The longest busy timeout SQLite can wait: 2,000,000 s (23 days).
        public static let longestBusyTimeout: TimeInterval = 2_000_000

        /// The most bytes (the database and its log) copied into the
        /// temporary directory to read a database in WAL mode that no
        /// connection has open, off read-only media (see
        /// ``ReadOnlyDatabase``). 1 GiB by default. A larger copy is refused
        /// with a ``DatabaseFileError`` that gives the size and this limit,
        /// before anything is copied: a sparse `-wal` of 2 GB takes no room
        /// where it lies, but its copy would take 2 GB.
        public var maximumCopySize: Int

        /// Limits with the given values, by default 5 seconds and 1 GiB.
        public init(busyTimeout: TimeInterval = 5, maximumCopySize: Int = 1 << 30) {
            self.busyTimeout = busyTimeout
            self.maximumCopySize = maximumCopySize
        }
    }
}
