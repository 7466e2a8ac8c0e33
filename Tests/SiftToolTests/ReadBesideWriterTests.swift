import Foundation
import GRDB
import SiftSQLite
import Synchronization
import Testing

/// Reading a database while another connection writes it, through the
/// library and through `sift query`: every read sees one committed state,
/// a lock is waited for, and reading creates no file.
extension CommandLineTests {
    /// A new folder holding `t.sqlite` in WAL mode: a table `acct` of 20,000
    /// rows padded to span some 700 pages, exactly 1,000 of them flagged.
    static func flaggedStore() throws -> (folder: URL, path: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sift-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let path = folder.appendingPathComponent("t.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.inTransaction {
                try db.execute(sql: """
                    CREATE TABLE acct (id INTEGER PRIMARY KEY, flag INTEGER NOT NULL, pad TEXT);
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
                    INSERT INTO acct SELECT i, i % 20 = 0, printf('%0120d', i) FROM n;
                    """)
                return .commit
            }
        }
        try queue.close()
        return (folder, path)
    }

    /// Keeps exactly 1,000 rows of `acct` flagged until `deadline`: each
    /// transaction unflags 50 flagged rows and flags 50 others, chosen at
    /// random across the table, and a checkpoint follows each commit, as
    /// apps and Core Data make them: alternately PASSIVE (the log keeps its
    /// frames) and TRUNCATE (the log is left empty). `connected` is
    /// signalled once the writer has the database open. Returns the number
    /// of commits.
    static func keepFlagged(_ path: String, until deadline: Date, connected: DispatchSemaphore) throws -> Int {
        let writer = try DatabaseQueue(path: path)
        defer { try? writer.close() }
        // No fsync, so that commits and checkpoints come often.
        try writer.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0; PRAGMA synchronous = OFF") }
        connected.signal()
        var flagged = Set(stride(from: 20, through: 20_000, by: 20))
        var commits = 0
        while Date() < deadline {
            let off = flagged.shuffled().prefix(50)
            let on = (1...20_000).lazy.filter { !flagged.contains($0) }.shuffled().prefix(50)
            flagged.subtract(off)
            flagged.formUnion(on)
            try writer.writeWithoutTransaction { db in
                try db.inTransaction {
                    try db.execute(sql: "UPDATE acct SET flag = 0 WHERE id IN (\(off.map(String.init).joined(separator: ",")))")
                    try db.execute(sql: "UPDATE acct SET flag = 1 WHERE id IN (\(on.map(String.init).joined(separator: ",")))")
                    return .commit
                }
                try db.execute(sql: "PRAGMA wal_checkpoint(\(commits % 2 == 0 ? "TRUNCATE" : "PASSIVE"))")
            }
            commits += 1
        }
        return commits
    }

    /// A writer keeps 1,000 rows flagged and checkpoints after each commit
    /// for 4 s; meanwhile one thread opens the database afresh through
    /// `ReadOnlyDatabase.open` for each five counts, and another runs
    /// `sift query --count` (another process). Every count is 1,000, none fails, and
    /// reading creates no file. (Opened `immutable` whenever the log was
    /// empty, reads were torn: in three runs, counts of 992 to 1,009 from
    /// both readers; `sift query` has also reported "database disk image
    /// is malformed".)
    @Test func everyReadSeesOneCommittedState() throws {
        let (folder, path) = try Self.flaggedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let deadline = Date() + 4
        let connected = DispatchSemaphore(value: 0)
        let written = DispatchSemaphore(value: 0)
        let writer = Mutex<(commits: Int, error: String?)>((0, nil))
        Thread.detachNewThread {
            do {
                let commits = try Self.keepFlagged(path, until: deadline, connected: connected)
                writer.withLock { $0.commits = commits }
            } catch {
                writer.withLock { $0.error = "\(error)" }
                connected.signal()
            }
            written.signal()
        }
        connected.wait()
        let counts = Mutex<[String: Int]>([:])
        let files = Mutex<Set<String>>([])
        DispatchQueue.concurrentPerform(iterations: 2) { reader in
            while Date() < deadline {
                var answer: String
                if reader == 0 {
                    // Several reads on one connection, as `sift query` reads
                    // the schema, then counts.
                    do {
                        let queue = try ReadOnlyDatabase.open(path: path)
                        answer = try (0..<5).map { _ in
                            "\(try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM acct WHERE flag = 1") ?? -1 })"
                        }.joined(separator: " ")
                        try queue.close()
                    } catch {
                        answer = "\(error)"
                    }
                } else {
                    do {
                        let run = try sift(["query", path, "acct", "flag == 1", "--count"], timeout: 60)
                        answer = run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) + run.stderr
                    } catch {
                        answer = "\(error)"
                    }
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                files.withLock { $0.formUnion(names) }
                counts.withLock { $0[(reader == 0 ? "library: " : "sift: ") + answer, default: 0] += 1 }
            }
        }
        #expect(written.wait(timeout: .now() + 60) == .success, "the writer did not stop")
        let (commits, error) = writer.withLock { $0 }
        #expect(error == nil)
        #expect(commits > 0)
        let answers = counts.withLock { $0 }
        #expect(answers.keys.sorted() == ["library: 1000 1000 1000 1000 1000", "sift: 1000"], "\(answers.sorted { $0.value > $1.value })")
        #expect(files.withLock { $0 }.isSubset(of: ["t.sqlite", "t.sqlite-wal", "t.sqlite-shm"]))
    }

    /// A database in rollback-journal mode is locked while a writer commits:
    /// a read waits for the lock (up to `Limits.busyTimeout`) instead of
    /// failing at once with "database is locked", and sees the commit; with
    /// no time to wait, the error names the setting.
    @Test func readsWaitForARollbackJournalWriter() throws {
        let folder = try ReadOnlyFileTests.folder(.rollbackJournal)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("t.sqlite").path
        for wait in [true, false] {
            let locked = DispatchSemaphore(value: 0)
            let committed = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                do {
                    let writer = try DatabaseQueue(path: path)
                    try writer.writeWithoutTransaction { db in
                        try db.execute(sql: "BEGIN EXCLUSIVE; INSERT INTO t VALUES (4)")
                        locked.signal()
                        Thread.sleep(forTimeInterval: 1)
                        try db.execute(sql: "COMMIT")
                    }
                    try writer.close()
                } catch {
                    Issue.record("the writer failed: \(error)")
                    locked.signal()
                }
                committed.signal()
            }
            #expect(locked.wait(timeout: .now() + 20) == .success)
            if wait {
                let queue = try ReadOnlyDatabase.open(path: path)
                #expect(try ReadOnlyFileTests.read(queue).rows == 4)
                try queue.close()
            } else {
                #expect(throws: DatabaseFileError(
                    "\(path) stayed locked by a writer for longer than the busy timeout of 0.0 s "
                        + "(ReadOnlyDatabase.Limits.busyTimeout; SIFT_BUSY_TIMEOUT for the sift command)")
                ) {
                    try ReadOnlyDatabase.open(path: path, limits: .init(busyTimeout: 0))
                }
            }
            #expect(committed.wait(timeout: .now() + 20) == .success)
        }
    }
}
