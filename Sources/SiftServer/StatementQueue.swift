import Dispatch
import Foundation
import Sift
import Synchronization

/// Runs the served database's statements on threads of their own (the
/// database's calls block, and must not hold the threads of Swift's
/// concurrency pool): one lane a connection, each running its statements
/// one at a time, a statement going to the lane with the fewest waiting.
/// With the server's two bounds: at most
/// ``ServerSettings/maximumConcurrentRequests`` requests admitted at once
/// (one more is refused at once), and a timeout per request, counted from
/// when its first statement starts, after which its statement is
/// interrupted. One statement at a time on a connection is also what makes
/// the interrupt exact: it can only stop the statement of the request that
/// timed out.
final class StatementQueue: Sendable {
    /// A connection and the thread its statements run on.
    private struct Lane: Sendable {
        let queue: DispatchQueue
        let database: ServedDatabase
    }
    private let lanes: [Lane]
    private let timeout: Duration
    private let maximum: Int
    private struct State {
        var admitted = 0
        var nextJob = 0
        /// The job whose statement each lane runs.
        var running: [Int?]
        /// The statements each lane has to run, the running one included.
        var waiting: [Int]
        var timedOut: Set<Int> = []
        /// Whether each lane's timer is interrupting its statement (a
        /// PostgreSQL cancel request under way).
        var interrupting: [Bool]
    }
    private let state: Mutex<State>

    /// A queue over `databases`, connections to one database (at least one).
    init(databases: [ServedDatabase], settings: ServerSettings) {
        precondition(!databases.isEmpty, "a server needs a connection")
        lanes = databases.indices.map { i in
            Lane(queue: DispatchQueue(label: "sift.serve.statements.\(i)"), database: databases[i])
        }
        state = Mutex(State(
            running: Array(repeating: nil, count: databases.count), waiting: Array(repeating: 0, count: databases.count),
            interrupting: Array(repeating: false, count: databases.count)))
        self.timeout = settings.timeout
        self.maximum = settings.maximumConcurrentRequests
    }

    /// The lane with the fewest statements to run, which now has one more.
    private func takeLane() -> Int {
        state.withLock { state in
            let lane = state.waiting.indices.min { state.waiting[$0] < state.waiting[$1] }!
            state.waiting[lane] += 1
            return lane
        }
    }

    private func leave(_ lane: Int) { state.withLock { $0.waiting[lane] -= 1 } }

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

        private let ended = Mutex(false)

        deinit { end() }

        /// Ends the admission (once; its end is also when it goes away): a
        /// streamed response calls it before its last bytes, so that the
        /// client's next request, which may come as soon as they arrive,
        /// finds the request gone from the count.
        func end() {
            guard ended.withLock({ e in defer { e = true }; return !e }) else { return }
            queue.state.withLock { $0.admitted -= 1; $0.timedOut.remove(job) }
        }

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
            let lane = queue.takeLane()
            return try await withCheckedThrowingContinuation { continuation in
                queue.lanes[lane].queue.async { [self] in
                    continuation.resume(with: Result { try self.runHere(lane, body) })
                    queue.leave(lane)
                }
            }
        }

        /// Runs `body` on the calling thread, which must be `lane`'s
        /// statement thread, under the request's deadline.
        fileprivate func runHere<T>(_ lane: Int, _ body: (ServedDatabase) throws -> T) throws -> T {
            let deadline = deadline()
            let (database, job) = (queue.lanes[lane].database, self.job)
            if DispatchTime.now() >= deadline { throw ServerProblem.timeout(queue.timeout) }
            queue.state.withLock { $0.running[lane] = job }
            let timer = DispatchWorkItem { [queue] in
                let current = queue.state.withLock { state -> Bool in
                    guard state.running[lane] == job else { return false }
                    state.timedOut.insert(job)
                    state.interrupting[lane] = true
                    return true
                }
                if current {
                    database.interrupt()
                    queue.state.withLock { $0.interrupting[lane] = false }
                }
            }
            DispatchQueue.global().asyncAfter(deadline: deadline, execute: timer)
            defer {
                timer.cancel()
                queue.state.withLock { $0.running[lane] = nil }
                // An interrupt under way (a cancel request being sent to
                // PostgreSQL) ends before the lane's next statement, which
                // it would otherwise stop in this request's place.
                while queue.state.withLock({ $0.interrupting[lane] }) { usleep(1_000) }
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
            let lane = queue.takeLane()
            queue.lanes[lane].queue.async { [self] in
                defer { queue.leave(lane) }
                do {
                    try runHere(lane) { database in
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
