import Foundation
import GRDB

/// Opening a SQLite file for reading only, in a way that leaves its folder
/// as it was: no file created, none written, not even the shared-memory
/// index (`-shm`) that SQLite writes on every read of a database in WAL mode.
///
/// ```swift
/// let db = try ReadOnlyDatabase.open(path: "Library.sqlite")
/// let schema = try db.read { try StoreSchema.read(from: $0) }
/// ```
///
/// SQLite's own read-only mode still creates `-wal` and `-shm` files next to
/// a database in WAL mode and writes to an existing `-shm`, and in a
/// read-only folder it cannot open a database whose `-wal` has no `-shm`. So
/// the file is opened according to what lies next to it:
///
/// - No write-ahead log, or an empty one: a database in rollback-journal
///   mode is opened read-only with SQLite's usual locking (a process writing
///   at the same time is respected); one in WAL mode is opened `immutable`
///   (no locks, no files), since everything committed is in the database
///   file itself.
/// - A log and its index (`-wal` and `-shm`): opened with `readonly_shm`,
///   which maps the index read-only. When no other connection keeps the
///   index up to date, SQLite reads the log's frames into private memory, so
///   rows committed only in the log are seen; a process writing at the same
///   time is respected.
/// - A log without an index (a store copied without it, or on read-only
///   media): the database and its log are copied into a private folder in
///   the temporary directory (`TMPDIR`), which needs as much room as the two
///   files for a moment: the copy is opened, read once (which opens the log
///   and builds its index in that folder) and deleted, the connection
///   keeping the open files. Opening the file `immutable` instead would
///   ignore the log and answer silently from stale data.
///
/// The `-wal`, `-shm` and `-journal` next to the database must be regular
/// files when they exist, as the database must: anything else (a FIFO, a
/// directory, a device, a symbolic link) is refused, naming it, since SQLite
/// would block for ever opening a FIFO, or read a log that is not there.
///
/// The copy also serves where SQLite was built without URI filenames, which
/// the other ways need.
public enum ReadOnlyDatabase {
    /// The ways of opening a file for reading (see ``ReadOnlyDatabase``).
    enum Access: Sendable, Equatable {
        /// Read-only with SQLite's locking: a database in rollback-journal mode.
        case locking
        /// `immutable`: a database in WAL mode whose log holds nothing.
        case immutable
        /// `readonly_shm`: a log and its index, both read, neither written.
        case readOnlyIndex
        /// A copy of the database and its log in a private folder.
        case privateCopy
    }

    /// Opens the SQLite file at `path` for reading (`configuration` is used
    /// with `readonly` set). Fails when the file cannot be read, is not a
    /// regular file (a symbolic link is followed: opening a FIFO with no
    /// writer would block for ever, and a device never ends), has a `-wal`,
    /// `-shm` or `-journal` that is not a regular file, or is not a
    /// database.
    public static func open(path: String, configuration: Configuration = .sift) throws -> DatabaseQueue {
        try open(path: path, configuration: configuration, uriFilenames: uriFilenames)
    }

    /// `uriFilenames` says whether SQLite reads `file:` names as URIs.
    static func open(path: String, configuration: Configuration, uriFilenames: Bool) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseFileError("no such file: \(path)") }
        _ = try regularFileSize(atPath: path, followingLinks: true)
        var configuration = configuration
        configuration.readonly = true
        // SQLite finds the log and the index next to the file a link leads to.
        let absolute = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var copy: URL?
        defer { if let copy { try? FileManager.default.removeItem(at: copy) } }
        var name: String
        switch try access(path: absolute, uriFilenames: uriFilenames) {
        case .locking: name = uriFilenames ? uri(absolute, "mode=ro") : absolute
        case .immutable: name = uri(absolute, "mode=ro&immutable=1")
        case .readOnlyIndex: name = uri(absolute, "mode=ro&readonly_shm=1")
        case .privateCopy:
            let reason = uriFilenames
                ? "the database has a write-ahead log (\(absolute)-wal) but no readable shared-memory index "
                    + "(\(absolute)-shm)"
                : "this SQLite library does not read URI filenames"
            let folder = try privateCopy(of: absolute, because: reason)
            copy = folder
            name = folder.appendingPathComponent(URL(fileURLWithPath: absolute).lastPathComponent).path
            if uriFilenames { name = uri(name, "mode=ro") }
        }
        let queue = try DatabaseQueue(path: name, configuration: configuration)
        // The first read opens the log and its index: fail here rather than
        // at the caller's first statement, and let a private copy go.
        _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        return queue
    }

    /// How to open the database at the absolute `path` without writing next
    /// to it. Throws when a `-wal`, `-shm` or `-journal` is not a regular
    /// file.
    static func access(path: String, uriFilenames: Bool) throws -> Access {
        let log = try sideFileSize(path, "-wal") ?? 0
        let index = try sideFileSize(path, "-shm")
        _ = try sideFileSize(path, "-journal")
        if log == 0 {
            guard isWALMode(path) else { return .locking }
            return uriFilenames ? .immutable : .privateCopy
        }
        return uriFilenames && index != nil && FileManager.default.isReadableFile(atPath: path + "-shm")
            ? .readOnlyIndex : .privateCopy
    }

    /// The size of the file SQLite keeps next to the database `path`, named
    /// `path` + `suffix`; nil when there is none. Throws when it is not a
    /// regular file (a symbolic link included): SQLite would block opening
    /// a FIFO, and take a missing log for an empty one.
    static func sideFileSize(_ path: String, _ suffix: String) throws -> Int? {
        try regularFileSize(atPath: path + suffix, followingLinks: false, missingIsNil: true)
    }

    /// Whether the header of the database at `path` says WAL mode (file
    /// format versions 2 at offsets 18 and 19).
    static func isWALMode(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        let header = [UInt8](handle.readData(ofLength: 20))
        return header.count == 20 && header.starts(with: Array("SQLite format 3\0".utf8))
            && (header[18] == 2 || header[19] == 2)
    }

    /// A `file:` URI for the absolute `path`, every byte but unreserved
    /// ones and `/` percent-encoded (so `?`, `#` and `%` in names are kept).
    static func uri(_ path: String, _ parameters: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if byte < 0x80 && (c.isLetter || c.isNumber || "/-._~".contains(c)) {
                encoded.append(c)
            } else {
                encoded += String(format: "%%%02X", byte)
            }
        }
        return "file://" + encoded + "?" + parameters
    }

    /// Copies the database at `path` and its log (when it has one) into a
    /// new folder only this process uses; `reason` tells why in the error.
    static func privateCopy(of path: String, because reason: String) throws -> URL {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("sift-read-\(UUID().uuidString)")
        let name = URL(fileURLWithPath: path).lastPathComponent
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try manager.copyItem(atPath: path, toPath: folder.appendingPathComponent(name).path)
            if manager.fileExists(atPath: path + "-wal") {
                try manager.copyItem(atPath: path + "-wal", toPath: folder.appendingPathComponent(name + "-wal").path)
            }
        } catch {
            try? manager.removeItem(at: folder)
            throw DatabaseFileError(
                "\(reason), so it is read from a private copy in \(manager.temporaryDirectory.path), which failed: "
                    + error.localizedDescription)
        }
        return folder
    }

    /// Whether this SQLite library reads `file:` names as URIs.
    static let uriFilenames: Bool = {
        let answer = try? DatabaseQueue().read { try Bool.fetchOne($0, sql: "SELECT sqlite_compileoption_used('USE_URI')") }
        return (answer ?? nil) ?? false
    }()
}

/// A database file that cannot be opened for reading.
public struct DatabaseFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, naming the file.
    public var message: String
    /// An error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}

/// The size of the regular file at `path` (a symbolic link followed); nil
/// when there is none, or it is not a regular file.
func regularFileSize(atPath path: String) -> Int? {
    (try? regularFileSize(atPath: path, followingLinks: true)) ?? nil
}

/// The size of the regular file at `path`; nil when there is none and
/// `missingIsNil`. Throws when it is a FIFO, a directory, a device, or
/// (unless `followingLinks`) a symbolic link, naming what it is. Reading a
/// file whole or opening it as a database needs a regular one: a FIFO with
/// no writer blocks the open for ever, and a device never ends.
func regularFileSize(atPath path: String, followingLinks: Bool, missingIsNil: Bool = false) throws -> Int? {
    var info = stat()
    guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else {
        let code = errno
        if code == ENOENT && missingIsNil { return nil }
        throw DatabaseFileError("cannot read \(path): \(String(cString: strerror(code)))")
    }
    let kind: String
    switch info.st_mode & S_IFMT {
    case S_IFREG: return Int(info.st_size)
    case S_IFIFO: kind = "a FIFO (named pipe)"
    case S_IFDIR: kind = "a directory"
    case S_IFLNK: kind = "a symbolic link"
    case S_IFCHR, S_IFBLK: kind = "a device"
    default: kind = "a socket"
    }
    throw DatabaseFileError("\(path) is \(kind), not a regular file")
}
