import CSiftEdit
import Dispatch
import Foundation
import Synchronization

/// SIGINT caught while a piece of work runs, instead of ending the process:
/// the signal handler writes a byte into a pipe (all it may do), and a
/// dispatch source calls `handler` for it. One catcher at a time: SIGINT's
/// handling is the process's.
final class InterruptCatcher {
    private let source: any DispatchSourceRead

    private init(source: any DispatchSourceRead) { self.source = source }

    /// Catches SIGINT into `handler` until ``stop()``; nil when the pipe
    /// or the handler cannot be set up (SIGINT then ends the process as
    /// before).
    static func start(_ handler: @escaping @Sendable () -> Void) -> InterruptCatcher? {
        let pipe = sift_interrupts_catch()
        guard pipe >= 0 else { return nil }
        let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: .global())
        source.setEventHandler {
            var byte: UInt8 = 0
            if read(pipe, &byte, 1) == 1 { handler() }
        }
        source.setCancelHandler { close(pipe) }
        source.resume()
        return InterruptCatcher(source: source)
    }

    /// Puts SIGINT's handling back, then stops reading (a signal now must
    /// not write to a closed pipe).
    func stop() {
        sift_interrupts_release()
        source.cancel()
    }
}

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

    /// Runs `body` with SIGINT caught into an ``Interruption`` it can poll.
    static func catching<T>(_ body: (Interruption) throws -> T) rethrows -> T {
        let interruption = Interruption()
        let catcher = InterruptCatcher.start { interruption.flag.withLock { $0 = true } }
        defer { catcher?.stop() }
        return try body(interruption)
    }
}
