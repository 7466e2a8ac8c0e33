import Foundation
import Synchronization

/// Work spread over threads, for `sift filter` (``ParallelChunks``) and the
/// REPL's JSON records.
enum Parallel {
    /// Starts `count` threads, thread `k` running `body(k)`. They get the
    /// main thread's stack size (8 MiB): decoding JSON recurses per level
    /// of nesting, up to the depth limit, as it does on the main thread.
    static func startThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
        for k in 0..<count {
            let thread = Thread { body(k) }
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// `body(i)` for `i` in `0..<count`, on `jobs` threads (the calling one
    /// alone when `jobs` is 1 or there is one item), the results in order of
    /// `i`.
    static func map<T: Sendable>(_ count: Int, jobs: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
        if jobs <= 1 || count <= 1 { return (0..<count).map(body) }
        let state = Mutex((next: 0, results: [T?](repeating: nil, count: count)))
        let group = DispatchGroup()
        let threads = min(jobs, count)
        for _ in 0..<threads { group.enter() }
        startThreads(threads) { _ in
            while true {
                let i = state.withLock { s in
                    defer { s.next += 1 }
                    return s.next
                }
                guard i < count else { break }
                let result = body(i)
                state.withLock { $0.results[i] = result }
            }
            group.leave()
        }
        group.wait()
        return state.withLock { $0.results.map { $0! } }
    }
}
