import Foundation
import GRDB

/// Opening a SQLite file for reading only, in a way that leaves its folder
/// as it was (no file created, none written, not even the shared-memory
/// index, `-shm`, that SQLite writes on every read of a database in WAL
/// mode) while every read sees one committed state of the database, a
/// process writing it at the same time included.
///
/// ```swift
/// let db = try ReadOnlyDatabase.open(path: "Library.sqlite")
/// let schema = try db.read { try StoreSchema.read(from: $0) }
/// ```
///
/// SQLite's own read-only mode still creates `-wal` and `-shm` files next to
/// a database in WAL mode and writes to an existing `-shm`, and in a
/// read-only folder it cannot open a database whose `-wal` has no `-shm`;
/// opening a file `immutable` takes no locks and ignores the log, so a
/// writer checkpointing meanwhile tears what is read. A connection that
/// writes a database in WAL mode keeps its `-wal` (empty after a truncating
/// checkpoint) and its `-shm` for as long as it is open. So the file is
/// opened according to what lies next to it:
///
/// - Rollback-journal mode (no `-wal`, and a header that does not say WAL):
///   read-only with SQLite's usual locking. A process writing at the same
///   time is waited for, up to ``Limits/busyTimeout``.
/// - A log and its index (`-wal`, of any size, and a readable `-shm`):
///   opened with `readonly_shm`, which maps the index read-only and takes
///   SQLite's read locks, so a writer connected now or later cannot tear a
///   read (a long read holds back its checkpoints, as any reader does, not
///   its commits). When no connection keeps the index up to date, SQLite
///   reads the log's frames into private memory.
/// - WAL mode without a log and its index: no connection has it open now,
///   but one may start writing at any moment, and a reader cannot take the
///   locks without creating the index. On a read-only medium, where nothing
///   can write, a database whose log is empty or missing is opened
///   `immutable`. Otherwise the database and its log are copied into a
///   private folder in the temporary directory (`TMPDIR`), at most
///   ``Limits/maximumCopySize`` bytes: the copy is opened, read once (which
///   opens the log and builds its index in that folder) and deleted, the
///   connection keeping the open files. A copy during which a file changed
///   (a writer connected) is dropped and the choice made again, as it is
///   when the last writer closes between the look and a `readonly_shm`
///   open, taking the log and its index with it. (SQLite's failed open
///   has then created an empty `-wal`, as a read-only connection may: it
///   is left, empty and harmless, as the next writer would make it;
///   removing it could remove the log of a writer starting that instant.)
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
        /// `immutable`: a database in WAL mode on a read-only medium whose log
        /// holds nothing.
        case immutable
        /// `readonly_shm`: a log and its index, both read, neither written.
        case readOnlyIndex
        /// A copy of the database and its log in a private folder.
        case privateCopy
    }

    /// How many times a private copy is taken again when a file changed
    /// while it was copied, before giving up.
    static let copyAttempts = 3

    /// Opens the SQLite file at `path` for reading (`configuration` is used
    /// with `readonly` set, and its `busyMode` replaced by a timeout of
    /// `limits.busyTimeout`, kept between 0 and
    /// ``Limits/longestBusyTimeout``). Fails when the file cannot be read, is not a
    /// regular file (a symbolic link is followed: opening a FIFO with no
    /// writer would block for ever, and a device never ends), has a `-wal`,
    /// `-shm` or `-journal` that is not a regular file, would be copied past
    /// `limits.maximumCopySize`, stays locked by a writer past
    /// `limits.busyTimeout`, or is not a database.
    public static func open(
        path: String, configuration: Configuration = .sift, limits: Limits = Limits()
    ) throws -> DatabaseQueue {
        try open(path: path, configuration: configuration, limits: limits, uriFilenames: uriFilenames)
    }

    /// `uriFilenames` says whether SQLite reads `file:` names as URIs;
    /// `readOnlyMedium`, when given, replaces the look at the file system;
    /// `afterLooking` runs between each look at the folder and the open
    /// that follows it (where tests close a writer).
    static func open(
        path: String, configuration: Configuration, limits: Limits = Limits(), uriFilenames: Bool,
        readOnlyMedium: Bool? = nil, afterLooking: () -> Void = {}
    ) throws -> DatabaseQueue {
        guard FileManager.default.fileExists(atPath: path) else { throw DatabaseFileError("no such file: \(path)") }
        _ = try regularFileSize(atPath: path, followingLinks: true)
        var configuration = configuration
        configuration.readonly = true
        // GRDB multiplies by 1,000 into a 32-bit integer: kept in its range.
        let timeout = limits.busyTimeout.isNaN ? 0 : min(max(limits.busyTimeout, 0), Limits.longestBusyTimeout)
        configuration.busyMode = .timeout(timeout)
        // SQLite finds the log and the index next to the file a link leads to.
        let absolute = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var vanished: DatabaseError?
        for _ in 0..<copyAttempts {
            let access = try access(path: absolute, uriFilenames: uriFilenames, readOnlyMedium: readOnlyMedium)
            afterLooking()
            var name: String
            var copy: URL?
            switch access {
            case .locking: name = uriFilenames ? uri(absolute, "mode=ro") : absolute
            case .immutable: name = uri(absolute, "mode=ro&immutable=1")
            case .readOnlyIndex: name = uri(absolute, "mode=ro&readonly_shm=1")
            case .privateCopy:
                let reason = uriFilenames
                    ? "\(absolute) is in WAL mode without a readable -wal and -shm (no connection has it open, "
                        + "but one may start writing)"
                    : "this SQLite library does not read URI filenames"
                guard let folder = try privateCopy(of: absolute, because: reason, limit: limits.maximumCopySize)
                else { continue }
                copy = folder
                name = folder.appendingPathComponent(URL(fileURLWithPath: absolute).lastPathComponent).path
                if uriFilenames { name = uri(name, "mode=ro") }
            }
            defer { if let copy { try? FileManager.default.removeItem(at: copy) } }
            do {
                return try connect(name, configuration: configuration, limits: limits, path: path)
            } catch let error as DatabaseError where access == .readOnlyIndex && error.resultCode == .SQLITE_CANTOPEN {
                // The last connection writing the database closed between the
                // look and the open, removing the log and its index, which
                // `readonly_shm` cannot create: look again.
                vanished = error
            }
        }
        if let vanished { throw vanished }
        throw DatabaseFileError(
            "\(path) changed each of the \(copyAttempts) times it was copied to be read: a writer is starting; try again")
    }

    /// A connection to `name`, read once: the first read opens the log and
    /// its index, so it fails here rather than at the caller's first
    /// statement, and lets a private copy go. A lock held past the busy
    /// timeout is reported naming the setting.
    static func connect(_ name: String, configuration: Configuration, limits: Limits, path: String) throws -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(path: name, configuration: configuration)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            throw DatabaseFileError(
                "\(path) stayed locked by a writer for longer than the busy timeout of \(limits.busyTimeout) s "
                    + "(ReadOnlyDatabase.Limits.busyTimeout; SIFT_BUSY_TIMEOUT for the sift command)")
        }
    }

    /// How to open the database at the absolute `path` without writing next
    /// to it. Throws when a `-wal`, `-shm` or `-journal` is not a regular
    /// file. `readOnlyMedium`, when given, replaces the look at the file
    /// system.
    static func access(path: String, uriFilenames: Bool, readOnlyMedium: Bool? = nil) throws -> Access {
        let log = try sideFileSize(path, "-wal")
        let index = try sideFileSize(path, "-shm")
        _ = try sideFileSize(path, "-journal")
        // SQLite reads the database in WAL mode whenever a -wal exists.
        guard log != nil || isWALMode(path) else { return .locking }
        guard uriFilenames else { return .privateCopy }
        if log != nil && index != nil && FileManager.default.isReadableFile(atPath: path + "-shm") {
            return .readOnlyIndex
        }
        if (log ?? 0) == 0 && (readOnlyMedium ?? isOnReadOnlyMedium(path)) { return .immutable }
        return .privateCopy
    }

    /// The size of the file SQLite keeps next to the database `path`, named
    /// `path` + `suffix`; nil when there is none. Throws when it is not a
    /// regular file (a symbolic link included): SQLite would block opening
    /// a FIFO, and take a missing log for an empty one.
    static func sideFileSize(_ path: String, _ suffix: String) throws -> Int? {
        try regularFileSize(atPath: path + suffix, followingLinks: false, missingIsNil: true)
    }

    /// Whether `path` lies on a file system mounted read-only, where no
    /// process can write it.
    static func isOnReadOnlyMedium(_ path: String) -> Bool {
        var info = statvfs()
        return statvfs(path, &info) == 0 && UInt(info.f_flag) & UInt(ST_RDONLY) != 0
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
