import Foundation
import SiftSQLite

extension ReadOnlyDatabase.Limits {
    /// The limits of reading a SQLite file, set by the environment:
    /// `SIFT_BUSY_TIMEOUT`, the seconds to wait for a writer's lock (5 by
    /// default). A value that is not a number, 0 or more, is an error naming
    /// the variable.
    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Self {
        var limits = Self()
        if let text = environment["SIFT_BUSY_TIMEOUT"] {
            guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else {
                throw CommandFailure("SIFT_BUSY_TIMEOUT must be a number of seconds, 0 or more, not '\(text)'")
            }
            limits.busyTimeout = seconds
        }
        return limits
    }
}
