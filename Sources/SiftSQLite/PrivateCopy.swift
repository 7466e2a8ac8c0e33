import Foundation

extension ReadOnlyDatabase {
    /// Copies the database at `path` and its log (when it has one) into a
    /// new folder only this process uses; `reason` tells why in an error.
    /// Refuses, before copying, when the two files are larger than `limit`
    /// bytes. Returns nil, leaving nothing behind, when the database, its
    /// log or its index changed while they were copied: a writer connected
    /// (it creates the index and keeps it while connected) or wrote, and the
    /// copy may mix two states.
    static func privateCopy(of path: String, because reason: String, limit: Int) throws -> URL? {
        let manager = FileManager.default
        let before = FileStamp.files(of: path)
        let size = (before[0]?.size ?? 0) + (before[1]?.size ?? 0)
        guard size <= limit else {
            throw DatabaseFileError(
                "\(reason), so it is read from a private copy in \(manager.temporaryDirectory.path); the database "
                    + "and its log are \(size) bytes, over the limit of \(limit) bytes "
                    + "(ReadOnlyDatabase.Limits.maximumCopySize; SIFT_MAX_COPY_SIZE for the sift command)")
        }
        let folder = manager.temporaryDirectory.appendingPathComponent("sift-read-\(UUID().uuidString)")
        let name = URL(fileURLWithPath: path).lastPathComponent
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try manager.copyItem(atPath: path, toPath: folder.appendingPathComponent(name).path)
            if before[1] != nil {
                try manager.copyItem(atPath: path + "-wal", toPath: folder.appendingPathComponent(name + "-wal").path)
            }
        } catch {
            try? manager.removeItem(at: folder)
            throw DatabaseFileError(
                "\(reason), so it is read from a private copy in \(manager.temporaryDirectory.path), which failed: "
                    + error.localizedDescription)
        }
        guard FileStamp.files(of: path) == before else {
            try? manager.removeItem(at: folder)
            return nil
        }
        return folder
    }
}

/// What tells one state of a file from another: its device and inode, size,
/// and times of last modification and status change (to the nanosecond).
struct FileStamp: Hashable {
    var size: Int
    var identity: [Int]

    /// The stamp of the file at `path`, a symbolic link not followed; nil
    /// when there is none.
    init?(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        size = Int(info.st_size)
        identity = [
            Int(truncatingIfNeeded: info.st_dev), Int(truncatingIfNeeded: info.st_ino),
            Int(truncatingIfNeeded: info.st_mode), Int(modified.tv_sec), Int(modified.tv_nsec),
            Int(changed.tv_sec), Int(changed.tv_nsec),
        ]
    }

    /// The stamps of the database at `path`, its `-wal` and its `-shm`.
    static func files(of path: String) -> [FileStamp?] {
        ["", "-wal", "-shm"].map { FileStamp(path + $0) }
    }
}
