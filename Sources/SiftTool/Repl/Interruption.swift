import CSiftEdit
import Dispatch
import Foundation
import Synchronization

/// Ctrl-C while the REPL evaluates in memory: the query stops at the next
/// record and the session goes on (on PostgreSQL the statement is
/// cancelled by the server instead).
final class Interruption: Sendable {
    private let flag = Mutex(false)

    /// Whether Ctrl-C was pressed.
    var happened: Bool { flag.withLock { $0 } }

    /// The error a query stopped by Ctrl-C ends with.
    struct Stopped: Error, CustomStringConvertible {
        var description: String { "interrupted (Ctrl-C): the query stopped; the session goes on" }
    }

    /// Runs `body` with SIGINT caught into an ``Interruption`` it can poll,
    /// SIGINT's previous handling put back afterwards.
    static func catching<T>(_ body: (Interruption) throws -> T) rethrows -> T {
        let interruption = Interruption()
        let pipe = sift_interrupts_catch()
        guard pipe >= 0 else { return try body(interruption) }
        let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: .global())
        source.setEventHandler {
            var byte: UInt8 = 0
            if read(pipe, &byte, 1) == 1 { interruption.flag.withLock { $0 = true } }
        }
        source.setCancelHandler { close(pipe) }
        source.resume()
        defer {
            // SIGINT back first: a signal now must not write to a closed pipe.
            sift_interrupts_release()
            source.cancel()
        }
        return try body(interruption)
    }
}
