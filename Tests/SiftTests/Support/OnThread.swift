import Foundation

/// Runs a closure on a new thread with the given stack size and waits for it.
enum OnThread {
    final class Result<T>: @unchecked Sendable {
        var value: T?
    }

    static func run<T>(stackSize: Int, _ body: @escaping @Sendable () -> T) -> T? {
        let result = Result<T>()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result.value = body()
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        return result.value
    }
}
