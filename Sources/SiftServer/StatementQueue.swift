import Dispatch
import Foundation
import Sift
import Synchronization

/// Runs the served database's statements one at a time on a thread of its
/// own (the database's calls block, and must not hold the threads of Swift's
/// concurrency pool), with the server's two bounds: at most
/// ``ServerSettings/maximumConcurrentRequests`` requests admitted at once
/// (one more is refused at once), and a timeout per request, counted from
/// when its first statement starts, after which its statement is
/// interrupted. One statement at a time is also what makes the interrupt
/// exact: it can only stop the statement of the request that timed out.
final class StatementQueue: Sendable {
    private let queue = DispatchQueue(label: "sift.serve.statements")
    private let database: ServedDatabase
    private let timeout: Duration
    private let maximum: Int
    private struct State {
        var admitted = 0
        var nextJob = 0
        var running: Int?
        var timedOut: Set<Int> = []
    }
    private let state = Mutex(State())

    init(database: ServedDatabase, settings: ServerSettings) {
        self.database = database
        self.timeout = settings.timeout
        self.maximum = settings.maximumConcurrentRequests
    }

    /// A request's admission: its statements run through it, and the
    /// request leaves the count when the admission ends.
    final class Admission: Sendable {
        fileprivate let queue: StatementQueue
        fileprivate let job: Int
        private let started = Mutex<DispatchTime?>(nil)

        fileprivate init(queue: StatementQueue, job: Int) {
            self.queue = queue
            self.job = job
        }

        deinit { queue.state.withLock { $0.admitted -= 1; $0.timedOut.remove(job) } }

        /// The time left, and when the request started if it has not yet.
        fileprivate func deadline() -> DispatchTime {
            started.withLock { start in
                if start == nil { start = .now() }
                let (seconds, attoseconds) = queue.timeout.components
                return start! + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
            }
        }

        /// Runs `body` with the database on the statement thread; a
        /// ``ServerProblem/timeout(_:)`` when the request ran out of time.
        func run<T: Sendable>(_ body: @escaping @Sendable (ServedDatabase) throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                queue.queue.async { [self] in
                    continuation.resume(with: Result { try self.runHere(body) })
                }
            }
        }

        /// Runs `body` on the calling thread, which must be the statement
        /// thread, under the request's deadline.
        fileprivate func runHere<T>(_ body: (ServedDatabase) throws -> T) throws -> T {
            let deadline = deadline()
            let (database, job) = (queue.database, self.job)
            if DispatchTime.now() >= deadline { throw ServerProblem.timeout(queue.timeout) }
            queue.state.withLock { $0.running = job }
            let timer = DispatchWorkItem { [queue] in
                let current = queue.state.withLock { state -> Bool in
                    guard state.running == job else { return false }
                    state.timedOut.insert(job)
                    return true
                }
                if current { database.interrupt() }
            }
            DispatchQueue.global().asyncAfter(deadline: deadline, execute: timer)
            defer {
                timer.cancel()
                queue.state.withLock { $0.running = nil }
            }
            do {
                return try body(database)
            } catch {
                if queue.state.withLock({ $0.timedOut.contains(job) }) { throw ServerProblem.timeout(queue.timeout) }
                throw error
            }
        }

        /// Runs `produce` on the statement thread, handing what it yields to
        /// `consume` on the caller's task, at most `bound` pieces ahead: so
        /// that a page of rows is written as it is read, in constant memory.
        /// A piece that cannot be handed within the request's time ends the
        /// production with a timeout.
        func stream(
            bound: Int, produce: @escaping @Sendable (ServedDatabase, (String) throws -> Void) throws -> Void,
            consume: (String) async throws -> Void
        ) async throws {
            let (stream, continuation) = AsyncStream<String>.makeStream()
            let slots = DispatchSemaphore(value: bound)
            let stopped = Mutex(false)
            let outcome = Mutex<(any Error)?>(nil)
            queue.queue.async { [self] in
                do {
                    try runHere { database in
                        try produce(database) { piece in
                            let deadline = deadline()
                            if slots.wait(timeout: deadline) == .timedOut { throw ServerProblem.timeout(queue.timeout) }
                            if stopped.withLock({ $0 }) { throw CancellationError() }
                            continuation.yield(piece)
                        }
                    }
                } catch {
                    outcome.withLock { $0 = error }
                }
                continuation.finish()
            }
            do {
                for await piece in stream {
                    try await consume(piece)
                    slots.signal()
                }
            } catch {
                stopped.withLock { $0 = true }
                slots.signal()
                throw error
            }
            if let error = outcome.withLock({ $0 }) { throw error }
        }
    }

    /// An admission for one request, or a ``ServerProblem/busy(_:)`` when
    /// the server already has its most.
    func admit() throws(RequestProblem) -> Admission {
        let job = state.withLock { state -> Int? in
            guard state.admitted < maximum else { return nil }
            state.admitted += 1
            state.nextJob += 1
            return state.nextJob
        }
        guard let job else { throw ServerProblem.busy(maximum) }
        return Admission(queue: self, job: job)
    }
}
