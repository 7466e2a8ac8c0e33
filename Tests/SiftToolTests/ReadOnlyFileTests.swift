import Foundation
import GRDB
import SiftSQL
import Synchronization
@testable import SiftSQLite
import Testing

/// Reading a SQLite file, by the library and by `sift query`, `sift schema`,
/// `sift repl FILE` and `:load`, leaves its folder as it was (every file's
/// size, modification time and content) and sees every committed row, in
/// each state a database can be found in.
struct ReadOnlyFileTests {
    /// What lies next to the database `t.sqlite`, a table `t` of rows
    /// 1, 2, 3 of which a log may hold 2 and 3.
    enum State: String, CaseIterable, CustomTestStringConvertible {
        /// Rollback-journal mode, no other file.
        case rollbackJournal
        /// WAL mode: rows 2 and 3 only in the `-wal`, with its `-shm`.
        case logAndIndex
        /// WAL mode: rows 2 and 3 only in the `-wal`, no `-shm` (a store
        /// copied without it).
        case logWithoutIndex
        /// WAL mode after a checkpoint: an empty `-wal` and its `-shm`.
        case emptyLog
        /// WAL mode, the database file alone.
        case noLog

        var testDescription: String { rawValue }

        /// The rows a reader must see.
        var rows: Int { self == .emptyLog || self == .noLog ? 1 : 3 }

        /// How the library opens it where SQLite reads URI filenames, on a
        /// medium that may be written or (`readOnlyMedium`) that may not.
        func access(readOnlyMedium: Bool = false) -> ReadOnlyDatabase.Access {
            switch self {
            case .rollbackJournal: return .locking
            case .logAndIndex, .emptyLog: return .readOnlyIndex
            case .logWithoutIndex: return .privateCopy
            case .noLog: return readOnlyMedium ? .immutable : .privateCopy
            }
        }
    }

    /// A new folder holding `t.sqlite` in `state`. Its name has the
    /// characters a URI filename must escape.
    static func folder(_ state: State) throws -> URL {
        let manager = FileManager.default
        let folder = manager.temporaryDirectory.appendingPathComponent("sift-\(UUID().uuidString) a?b#c%41é")
        try manager.createDirectory(at: folder, withIntermediateDirectories: false)
        let database = folder.appendingPathComponent("t.sqlite")
        if state == .rollbackJournal {
            let queue = try DatabaseQueue(path: database.path)
            try queue.write { try $0.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)") }
            try queue.close()
            return folder
        }
        // A writer in a scratch folder; the state is a copy of its files
        // taken while it is open, as a crash or a copy of a live store
        // leaves them.
        let scratch = folder.appendingPathComponent("scratch")
        try manager.createDirectory(at: scratch, withIntermediateDirectories: false)
        let writer = try DatabaseQueue(path: scratch.appendingPathComponent("t.sqlite").path)
        func take(_ suffixes: [String]) throws {
            for suffix in suffixes {
                try manager.copyItem(
                    at: scratch.appendingPathComponent("t.sqlite" + suffix),
                    to: folder.appendingPathComponent("t.sqlite" + suffix))
            }
        }
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)")
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            switch state {
            case .emptyLog: try take(["", "-wal", "-shm"])
            case .noLog: try take([""])
            default: break
            }
            try db.execute(sql: "INSERT INTO t VALUES (2); INSERT INTO t VALUES (3)")
            switch state {
            case .logAndIndex: try take(["", "-wal", "-shm"])
            case .logWithoutIndex: try take(["", "-wal"])
            default: break
            }
        }
        try writer.close()
        try manager.removeItem(at: scratch)
        return folder
    }

    /// Every file of `folder` with its size, modification time and content.
    static func listing(_ folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let path = folder.appendingPathComponent(name).path
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let size = attributes[.size] as? Int ?? -1
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSinceReferenceDate ?? -1
            let content = try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString()
            files[name] = "\(size) bytes, modified \(modified): \(content)"
        }
        return files
    }

    /// The count of rows of `t` and the names of the inferred entities.
    static func read(_ queue: DatabaseQueue) throws -> (rows: Int, entities: [String]) {
        try queue.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM t") ?? -1, try StoreSchema.read(from: db).entities.map(\.name))
        }
    }

    /// Runs `body` with the path of a database in `state`, then checks that
    /// its folder is as it was.
    static func reading(_ state: State, _ body: (String) throws -> Void) throws {
        let folder = try Self.folder(state)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try Self.listing(folder)
        try body(folder.appendingPathComponent("t.sqlite").path)
        #expect(try Self.listing(folder) == before)
    }

    @Test(arguments: State.allCases)
    func libraryLeavesTheFolderAsItWas(_ state: State) throws {
        try Self.reading(state) { path in
            #expect(try ReadOnlyDatabase.access(path: path, uriFilenames: true, readOnlyMedium: false) == state.access())
            let queue = try ReadOnlyDatabase.open(path: path)
            let (rows, entities) = try Self.read(queue)
            #expect(rows == state.rows)
            #expect(entities == ["t"])
            try queue.close()
            #expect(try StoreSchema.read(sqliteFile: path).entities.map(\.name) == ["t"])
        }
    }

    /// What `ReadOnlyDatabase.open(path:)` throws (nil when it opens the
    /// file). Should it block for 20 s, the test opens `fifo` for writing
    /// itself, which lets it go on, and fails.
    static func error(opening path: String, unblocking fifo: String) -> String? {
        let done = DispatchSemaphore(value: 0)
        let thrown = Mutex<String?>(nil)
        Thread.detachNewThread {
            do { try ReadOnlyDatabase.open(path: path).close() } catch { thrown.withLock { $0 = "\(error)" } }
            done.signal()
        }
        if done.wait(timeout: .now() + 20) == .timedOut {
            Issue.record("ReadOnlyDatabase.open blocked on \(path)")
            let writer = open(fifo, O_WRONLY)
            done.wait()
            close(writer)
        }
        return thrown.withLock { $0 }
    }

    /// The library refuses a FIFO, a directory and a device at once: reading
    /// a FIFO's header (to tell WAL mode) would block until a writer came.
    @Test func libraryRefusesWhatIsNotARegularFile() throws {
        let (directory, fifo) = try CommandLineTests.fifo()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        for (path, kind) in [(fifo, "a FIFO (named pipe)"), (directory, "a directory"), ("/dev/zero", "a device")] {
            #expect(Self.error(opening: path, unblocking: fifo) == "\(path) is \(kind), not a regular file")
        }
    }

    /// A `-wal`, `-shm` or `-journal` that is a FIFO, a directory or a
    /// symbolic link is refused, naming it: SQLite would take a FIFO `-wal`
    /// for an empty log (the rows in it unseen), block for ever opening a
    /// FIFO `-shm` next to a non-empty log, and open a `-journal` FIFO.
    @Test(arguments: [
        (State.noLog, "-wal"), (.logAndIndex, "-wal"), (.logAndIndex, "-shm"), (.emptyLog, "-shm"),
        (.logWithoutIndex, "-shm"), (.rollbackJournal, "-journal"),
    ])
    func sideFilesMustBeRegular(_ state: State, _ suffix: String) throws {
        for kind in ["a FIFO (named pipe)", "a directory", "a symbolic link"] {
            let folder = try Self.folder(state)
            defer { try? FileManager.default.removeItem(at: folder) }
            let path = folder.appendingPathComponent("t.sqlite").path
            let side = path + suffix
            try? FileManager.default.removeItem(atPath: side)
            switch kind {
            case "a directory": try FileManager.default.createDirectory(atPath: side, withIntermediateDirectories: false)
            case "a symbolic link": try FileManager.default.createSymbolicLink(atPath: side, withDestinationPath: path)
            default: #expect(mkfifo(side, 0o600) == 0)
            }
            let fifo = kind == "a FIFO (named pipe)" ? side : "/dev/null"
            #expect(Self.error(opening: path, unblocking: fifo) == "\(side) is \(kind), not a regular file")
        }
    }

    /// On a read-only medium nothing can write, so a WAL database without a
    /// log is opened `immutable`; a log and its index still take the index.
    @Test(arguments: State.allCases)
    func readOnlyMedium(_ state: State) throws {
        try Self.reading(state) { path in
            #expect(try ReadOnlyDatabase.access(path: path, uriFilenames: true, readOnlyMedium: true)
                == state.access(readOnlyMedium: true))
            let queue = try ReadOnlyDatabase.open(path: path, configuration: .sift, uriFilenames: true, readOnlyMedium: true)
            #expect(try Self.read(queue).rows == state.rows)
            try queue.close()
        }
    }

    /// A private copy larger than `maximumCopySize` is refused before
    /// anything is copied, saying the size, the limit and the settings. The
    /// `-wal` is sparse: 64 MiB long, nothing on disk.
    @Test func privateCopyIsBounded() throws {
        let folder = try Self.folder(.noLog)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: nil))
        let log = try #require(FileHandle(forWritingAtPath: path + "-wal"))
        try log.truncate(atOffset: 16 << 20)
        try log.close()
        let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0) + (16 << 20)
        let error = #expect(throws: DatabaseFileError.self) {
            try ReadOnlyDatabase.open(path: path, limits: .init(maximumCopySize: size - 1))
        }
        let message = error?.message ?? ""
        #expect(message.contains("are \(size) bytes, over the limit of \(size - 1) bytes"), "\(message)")
        #expect(message.contains("ReadOnlyDatabase.Limits.maximumCopySize; SIFT_MAX_COPY_SIZE"), "\(message)")
        let copy = try ReadOnlyDatabase.open(path: path, limits: .init(maximumCopySize: size))
        #expect(try Self.read(copy).rows == 1)
        try copy.close()
    }

    /// Without URI filenames every state is read from a private copy, which
    /// is gone once the connection is open.
    @Test(arguments: State.allCases)
    func privateCopyLeavesNothingBehind(_ state: State) throws {
        try Self.reading(state) { path in
            let expected: ReadOnlyDatabase.Access = state == .rollbackJournal ? .locking : .privateCopy
            #expect(try ReadOnlyDatabase.access(path: path, uriFilenames: false) == expected)
            let queue = try ReadOnlyDatabase.open(path: path, configuration: .sift, uriFilenames: false)
            if expected == .privateCopy {
                #expect(queue.path != path)
                let copy = URL(fileURLWithPath: queue.path).deletingLastPathComponent().path
                #expect(!FileManager.default.fileExists(atPath: copy))
            }
            #expect(try Self.read(queue).rows == state.rows)
            try queue.close()
        }
    }

    /// A process writing in WAL mode at the same time: each read sees what
    /// it has committed.
    @Test func readsBesideAWriter() throws {
        let folder = try Self.folder(.noLog)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let writer = try DatabaseQueue(path: path)
        defer { try? writer.close() }
        try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
        let reader = try ReadOnlyDatabase.open(path: path)
        #expect(try Self.read(reader).rows == 2)
        try writer.write { try $0.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(try Self.read(reader).rows == 3)
        try reader.close()
    }

    /// The last connection writing a database in WAL mode closes between
    /// the look at its folder (a log and its index: `readonly_shm`) and the
    /// open, and takes the log and the index with it: the open looks again
    /// and reads the database, rather than failing with "unable to open
    /// database file" (which `sift query` once answered beside a writer that
    /// was closing, in `everyReadSeesOneCommittedState`).
    @Test func writerClosingBetweenTheLookAndTheOpen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-closing-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let writer = try DatabaseQueue(path: path)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2), (3)")
        }
        #expect(try ReadOnlyDatabase.access(path: path, uriFilenames: ReadOnlyDatabase.uriFilenames) == .readOnlyIndex)
        var looks = 0
        let queue = try ReadOnlyDatabase.open(
            path: path, configuration: .sift, uriFilenames: ReadOnlyDatabase.uriFilenames,
            afterLooking: {
                looks += 1
                try? writer.close()
            })
        #expect(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 3)
        try queue.close()
        #expect(looks == 2, "one look before the writer closed, one after")
        // SQLite's failed open created an empty log (a read-only connection
        // may create one): left as it is, empty, as the next writer would
        // create it.
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["t.sqlite"] || left == ["t.sqlite", "t.sqlite-wal"], "\(left)")
        #expect(regularFileSize(atPath: path + "-wal") ?? 0 == 0)
    }

    @Test func missingFile() {
        #expect(throws: DatabaseFileError("no such file: /nonexistent/t.sqlite")) {
            try ReadOnlyDatabase.open(path: "/nonexistent/t.sqlite")
        }
    }
}

extension CommandLineTests {
    /// `sift query`, `sift schema`, `sift repl FILE` and `:load` on the
    /// database at `path`: each sees the rows and writes nothing.
    func readEveryWay(_ path: String, rows: Int, launcher: [String] = []) throws {
        let count = try sift(["query", path, "t", "TRUEPREDICATE", "--count"], launcher: launcher)
        #expect(count.stdout == "\(rows)\n", "\(count.stderr)")
        let schema = try sift(["schema", path], launcher: launcher)
        #expect(schema.status == 0, "\(schema.stderr)")
        #expect(schema.stdout.contains(#""table" : "t""#))
        let repl = try sift(["repl", path], input: ":use t\n:load \(path)\n", launcher: launcher)
        #expect(repl.stdout.contains("t: \(rows) row" + (rows == 1 ? "\n" : "s")), "\(repl.stdout)\(repl.stderr)")
        #expect(repl.stdout.contains("Loaded \(path): t (\(rows))."), "\(repl.stdout)\(repl.stderr)")
    }

    @Test(arguments: ReadOnlyFileTests.State.allCases)
    func readingLeavesTheFolderAsItWas(_ state: ReadOnlyFileTests.State) throws {
        try ReadOnlyFileTests.reading(state) { try readEveryWay($0, rows: state.rows) }
    }

    /// A folder and files nobody may write, read by a user who is not their
    /// owner: as on read-only media. The tests run as root, who may write
    /// anything, so `sift` runs as `nobody` through `setpriv` (util-linux).
    @Test(arguments: [ReadOnlyFileTests.State.logAndIndex, .logWithoutIndex, .noLog])
    func readOnlyFolder(_ state: ReadOnlyFileTests.State) throws {
        let manager = FileManager.default
        let folder = try ReadOnlyFileTests.folder(state)
        defer {
            try? manager.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try? manager.removeItem(at: folder)
        }
        for name in try manager.contentsOfDirectory(atPath: folder.path) {
            try manager.setAttributes([.posixPermissions: 0o444], ofItemAtPath: folder.appendingPathComponent(name).path)
        }
        try manager.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        var launcher: [String] = []
        if geteuid() == 0 {
            let setpriv = "/usr/bin/setpriv"
            guard manager.isExecutableFile(atPath: setpriv) else {
                Issue.record("cannot drop root's privileges: \(setpriv) (util-linux) is missing; the test did not run")
                return
            }
            launcher = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
        }
        // The folder must really be read-only for the user running sift.
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: launcher.first ?? "/bin/sh")
        probe.arguments = Array(launcher.dropFirst()) + (launcher.isEmpty ? [] : ["/bin/sh"])
            + ["-c", "touch \"$0/probe\" 2>/dev/null", folder.path]
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus != 0 else {
            Issue.record("the user running sift may write in \(folder.path): cannot test a read-only folder")
            return
        }
        let before = try ReadOnlyFileTests.listing(folder)
        try readEveryWay(folder.appendingPathComponent("t.sqlite").path, rows: state.rows, launcher: launcher)
        #expect(try ReadOnlyFileTests.listing(folder) == before)
    }
}

extension CommandLineTests {
    /// `sift query` refuses a FIFO `-shm` next to a non-empty log at once,
    /// naming it, instead of blocking for ever in SQLite's open (it is
    /// killed after 20 s, and the test fails).
    @Test func queryRefusesAFIFOBesideTheDatabase() throws {
        let folder = try ReadOnlyFileTests.folder(.logAndIndex)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        try FileManager.default.removeItem(atPath: path + "-shm")
        #expect(mkfifo(path + "-shm", 0o600) == 0)
        let run = try sift(["query", path, "t", "TRUEPREDICATE", "--count"], timeout: 20)
        #expect(run.status == 2)
        #expect(run.stderr.contains("t.sqlite-shm is a FIFO (named pipe), not a regular file"), "\(run.stderr)")
    }

    /// `SIFT_MAX_COPY_SIZE` bounds the private copy, and the error names it;
    /// a value that is not a number is refused, naming the variable.
    @Test func readingLimitsFromTheEnvironment() throws {
        let folder = try ReadOnlyFileTests.folder(.logWithoutIndex)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        let query = ["query", path, "t", "TRUEPREDICATE", "--count"]
        let bounded = try sift(query, environment: ["SIFT_MAX_COPY_SIZE": "100"])
        #expect(bounded.status == 2)
        #expect(bounded.stderr.contains("over the limit of 100 bytes"), "\(bounded.stderr)")
        #expect(bounded.stderr.contains("SIFT_MAX_COPY_SIZE for the sift command"), "\(bounded.stderr)")
        #expect(try sift(query, environment: ["SIFT_MAX_COPY_SIZE": "1000000"]).stdout == "3\n")
        for text in ["soon", "3000000"] {
            let wrong = try sift(query, environment: ["SIFT_BUSY_TIMEOUT": text])
            #expect(wrong.status == 2)
            #expect(wrong.stderr == "error: SIFT_BUSY_TIMEOUT must be a number of seconds from 0 to 2000000, not '\(text)'\n")
        }
        // SQLite counts the timeout in milliseconds in 32 bits: a larger
        // one (or NaN) is kept in range, not a trap.
        #expect(try sift(query, environment: ["SIFT_BUSY_TIMEOUT": "2000000"]).stdout == "3\n")
        for timeout in [1e12, .nan, -1] {
            let db = try ReadOnlyDatabase.open(path: path, limits: ReadOnlyDatabase.Limits(busyTimeout: timeout))
            #expect(try db.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM t") } == 3)
        }
    }
}
