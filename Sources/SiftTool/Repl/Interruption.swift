import CSiftEdit
import Dispatch
import Foundation
import Synchronization

/// SIGINT caught while a piece of work runs, instead of ending the process:
/// while at least one catcher is alive, the signal handler writes a byte
/// into a pipe (all it may do), and a dispatch source calls the handler of
/// every live catcher for it.
final class InterruptCatcher: Sendable {
    private let id: Int

    private init(id: Int) { self.id = id }

    /// Catches SIGINT into `handler` until ``stop()``; nil when the pipe
    /// or the handler cannot be set up (SIGINT then ends the process as
    /// before).
    static func start(_ handler: @escaping @Sendable () -> Void) -> InterruptCatcher? {
        InterruptHub.shared.add(handler).map(InterruptCatcher.init(id:))
    }

    /// Stops calling this catcher's handler; after the last live catcher,
    /// SIGINT's handling is put back.
    func stop() { InterruptHub.shared.remove(id) }
}

/// The one pipe and dispatch source behind every ``InterruptCatcher``.
/// SIGINT's disposition is the process's, and catchers come and go on
/// several threads at once (REPL sessions, waits for a server): each
/// catcher that installed and put back the handler on its own closed the
/// pipe of another, and then a file descriptor the process had reused for
/// something else. So the hub, under one lock, installs the handler for
/// the first live catcher and puts it back after the last.
private final class InterruptHub: Sendable {
    static let shared = InterruptHub()

    private struct State {
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
        var source: (any DispatchSourceRead)?
    }

    private let state = Mutex(State())

    /// Registers `handler`, installing the SIGINT handler if no catcher is
    /// live: the handler's id, or nil when the pipe or the handler cannot
    /// be set up.
    func add(_ handler: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state -> Int? in
            if state.source == nil {
                let pipe = sift_interrupts_catch()
                guard pipe >= 0 else { return nil }
                let source = DispatchSource.makeReadSource(fileDescriptor: pipe, queue: .global())
                source.setEventHandler { [self] in
                    var byte: UInt8 = 0
                    if read(pipe, &byte, 1) == 1 { interrupted() }
                }
                // The read end is closed once the source no longer reads it.
                source.setCancelHandler { close(pipe) }
                source.resume()
                state.source = source
            }
            let id = state.nextID
            state.nextID += 1
            state.handlers[id] = handler
            return id
        }
    }

    /// Unregisters the handler `id`; after the last, puts SIGINT back (so
    /// that no signal writes to the pipe) and stops reading it.
    func remove(_ id: Int) {
        let stopped: (any DispatchSourceRead)? = state.withLock { state in
            state.handlers[id] = nil
            guard state.handlers.isEmpty, let source = state.source else { return nil }
            sift_interrupts_release()
            state.source = nil
            return source
        }
        stopped?.cancel()
    }

    /// Calls every live catcher's handler, outside the lock.
    private func interrupted() {
        for handler in state.withLock({ Array($0.handlers.values) }) { handler() }
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
