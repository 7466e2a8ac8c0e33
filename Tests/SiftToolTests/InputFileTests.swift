import Foundation
import Testing

/// Files named on the command line that are not regular files.
extension CommandLineTests {
    /// A FIFO in a fresh temporary directory, removed by the caller.
    static func fifo() throws -> (directory: String, path: String) {
        let directory = temporaryPath("fifo")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        let path = directory + "/data.json"
        #expect(mkfifo(path, 0o600) == 0)
        return (directory, path)
    }

    /// Opening a FIFO that has no writer blocks for ever; the commands that
    /// read a whole file or open a database refuse it at once instead.
    @Test func fifosAreRefusedNotWaitedOn() throws {
        let (directory, fifo) = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let expected = "error: \(fifo) is a FIFO (named pipe); expected a regular file\n"
        for arguments in [
            ["query", fifo, "Book", "year > 1"],
            ["repl", fifo],
            ["check", fifo],
            ["schema", fifo],
            ["sql", "year > 1", "--schema", fifo],
        ] {
            let run = try sift(arguments, timeout: 20)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr == expected, "\(arguments)")
        }
        // The REPL's :load reports it and goes on.
        let load = try sift(["repl"], input: ":load \(fifo)\n:use Book\n", timeout: 20)
        #expect(load.status == 0)
        #expect(load.stderr == expected)
        #expect(load.stdout.contains("Book: 20 rows"))
        // A directory is not read either.
        let dir = try sift(["repl", directory], timeout: 20)
        #expect(dir.status == 2)
        #expect(dir.stderr == "error: \(directory) is a directory; expected a regular file\n")
    }

    /// `filter` reads a stream, so a FIFO with a writer is input like any
    /// other (`sift filter P <(command)` passes one).
    @Test func filterReadsAFIFO() throws {
        let (directory, fifo) = try Self.fifo()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let writer = Thread {
            // Opening for writing waits for the reader, `sift filter`.
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data("{\"a\":1}\n{\"a\":2}\n".utf8))
            try? handle.close()
        }
        writer.start()
        let run = try sift(["filter", "a == 2", fifo], timeout: 20)
        #expect(run.status == 0)
        #expect(run.stdout == "{\"a\":2}\n")
    }
}
