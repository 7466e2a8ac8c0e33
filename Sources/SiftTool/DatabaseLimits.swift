import Foundation
import SiftSQLite

extension ReadOnlyDatabase.Limits {
    /// The limits of reading a SQLite file, set by the environment:
    /// `SIFT_BUSY_TIMEOUT`, the seconds to wait for a writer's lock (5 by
    /// default), and `SIFT_MAX_COPY_SIZE`, the most bytes copied to
    /// `$TMPDIR` to read a WAL store that no connection has open (1 GiB,
    /// 1073741824, by default). A value that is not a number, 0 or more, is
    /// an error naming the variable.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Self {
        var limits = Self()
        if let text = environment["SIFT_BUSY_TIMEOUT"] {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0,
                seconds <= ReadOnlyDatabase.Limits.longestBusyTimeout
            else {
                throw CommandFailure(
                    "SIFT_BUSY_TIMEOUT must be a number of seconds from 0 to 2000000, not '\(text)'")
            }
            limits.busyTimeout = seconds
        }
        if let text = environment["SIFT_MAX_COPY_SIZE"] {
            guard let bytes = Int(text), bytes >= 0 else {
                throw CommandFailure("SIFT_MAX_COPY_SIZE must be a number of bytes, 0 or more, not '\(text)'")
            }
            limits.maximumCopySize = bytes
        }
        return limits
    }
}
