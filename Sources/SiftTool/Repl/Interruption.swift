import CSiftEdit
import Foundation
import Synchronization

/// SIGINT caught while a piece of work runs, instead of ending the process:
/// while at least one catcher is alive, the signal handler writes a byte
/// into a pipe (all it may do), and a thread reading the pipe calls the
/// handler of every live catcher for it.
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

/// The one pipe behind every ``InterruptCatcher``, and the thread that
/// reads it. SIGINT's disposition is the process's, and catchers come and
/// go on several threads at once (REPL sessions, waits for a server): each
/// catcher that installed and put back the handler on its own closed the
/// pipe of another, and then a descriptor the process had reused. So the
/// hub, under one lock, installs the handler for the first live catcher
/// and puts it back after the last; the pipe and its reader, made for the
/// first, stay for the process's life. The reader is a thread of its own,
/// not a dispatch source: test runs that started and cancelled a read
/// source for each live period crashed in libdispatch's event loop
/// (`_dispatch_event_loop_drain`), its epoll registrations out of step
/// with descriptors closed and reused.
private final class InterruptHub: Sendable {
    static let shared = InterruptHub()

    private struct State {
        var handlers: [Int: @Sendable () -> Void] = [:]
        var nextID = 0
        /// The pipe's read end once made (-1: it could not be).
        var pipe: Int32?
        var installed = false
    }

    private let state = Mutex(State())

    /// Registers `handler`, installing the SIGINT handler if no catcher is
    /// live: the handler's id, or nil when the pipe or the handler cannot
    /// be set up.
    func add(_ handler: @escaping @Sendable () -> Void) -> Int? {
        state.withLock { state -> Int? in
            if state.pipe == nil {
                let pipe = sift_interrupts_open()
                state.pipe = pipe
                if pipe >= 0 { Thread.detachNewThread { [self] in read(pipe) } }
            }
            guard let pipe = state.pipe, pipe >= 0 else { return nil }
            if !state.installed {
                guard sift_interrupts_catch() == 0 else { return nil }
                state.installed = true
            }
            let id = state.nextID
            state.nextID += 1
            state.handlers[id] = handler
            return id
        }
    }

    /// Unregisters the handler `id`; after the last, puts SIGINT back.
    func remove(_ id: Int) {
        state.withLock { state in
            state.handlers[id] = nil
            guard state.handlers.isEmpty, state.installed else { return }
            sift_interrupts_release()
            state.installed = false
        }
    }

    /// Reads the pipe for the process's life: each byte, an interrupt,
    /// calls every live catcher's handler, outside the lock.
    private func read(_ pipe: Int32) {
        var byte: UInt8 = 0
        while true {
            let n = Foundation.read(pipe, &byte, 1)
            if n < 0, errno == EINTR { continue }
            guard n == 1 else { return }
            for handler in state.withLock({ Array($0.handlers.values) }) { handler() }
        }
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
