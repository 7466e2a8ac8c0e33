import Foundation
import GRDB
import SiftSQLite
import Testing

/// The eight real Core Data stores in `../shared/coredata-stores/`, for the
/// tests of the library and of the tool.
package enum RealStores {
    /// The stores' folder: `SIFT_STORES` when set, otherwise
    /// `shared/coredata-stores` beside the package. Absent, the test is
    /// cancelled (reported as skipped, with the reason; never passed); with
    /// `SIFT_REQUIRE_STORES=1` it fails, with ``Missing``.
    package static func folder() throws -> URL {
        let folder = ProcessInfo.processInfo.environment["SIFT_STORES"].map { URL(fileURLWithPath: $0) }
            ?? PackageFolder.url.deletingLastPathComponent().appendingPathComponent("shared/coredata-stores")
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path) else {
            let message = "the Core Data stores are absent (\(folder.path))"
            if ProcessInfo.processInfo.environment["SIFT_REQUIRE_STORES"] == "1" {
                throw Missing(description: message + " and SIFT_REQUIRE_STORES=1")
            }
            try Test.cancel(Comment(rawValue: message + ": skipping the real-store tests; SIFT_REQUIRE_STORES=1 makes this a failure"))
        }
        return folder
    }

    /// The stores are absent and `SIFT_REQUIRE_STORES=1`: the test fails.
    package struct Missing: Error, CustomStringConvertible {
        package var description: String
    }

    /// A store opened read-only (see ``readable(_:)``).
    package static func open(_ path: String) throws -> DatabaseQueue {
        try ReadOnlyDatabase.open(path: try readable(path))
    }

    /// The path of a store to read: the store itself, or for one with a
    /// `-wal`, a copy in a temporary folder, since SQLite writes its `-shm`
    /// even when reading.
    package static func readable(_ path: String) throws -> String {
        let source = try folder().appendingPathComponent(path)
        guard FileManager.default.fileExists(atPath: source.path + "-wal") else { return source.path }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent(source.lastPathComponent)
        for suffix in ["", "-wal", "-shm"] {
            try FileManager.default.copyItem(atPath: source.path + suffix, toPath: copy.path + suffix)
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy.path + suffix)
        }
        return copy.path
    }
}
