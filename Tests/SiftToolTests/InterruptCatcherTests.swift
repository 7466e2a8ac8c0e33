import Foundation
import Synchronization
import Testing

@testable import SiftTool

/// SIGINT's catchers come and go on several threads at once (REPL sessions,
/// waits for a server). Each used to install the handler and put it back on
/// its own, with a pipe and a dispatch read source of its own: one
/// catcher's stop closed another's pipe, and test runs crashed in
/// libdispatch's event loop (`_dispatch_event_loop_drain`) as read sources
/// were made and cancelled over descriptors closed and reused. Now one pipe
/// and one reading thread serve every catcher for the process's life.
struct InterruptCatcherTests {
    /// Threads start and stop catchers while each keeps a pipe of its own
    /// open and checks, every round, that its pipe still carries its bytes:
    /// no catcher closes a descriptor that is not its own.
    @Test func catchersOnManyThreadsCloseOnlyTheirOwnPipes() throws {
        let threads = 8
        let rounds = 3_000
        let failures = Mutex<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<threads {
            done.enter()
            // Threads of their own, not tasks: the cooperative pool has as
            // many threads as cores, and the race needs stops at once.
            Thread.detachNewThread {
                defer { done.leave() }
                for round in 0..<rounds {
                    var ends: [Int32] = [0, 0]
                    guard pipe(&ends) == 0 else {
                        failures.withLock { $0.append("thread \(thread), round \(round): no pipe") }
                        return
                    }
                    let catcher = InterruptCatcher.start {}
                    var sent = UInt8(truncatingIfNeeded: thread &* 31 &+ round)
                    let expected = sent
                    var got: UInt8 = 0
                    let wrote = write(ends[1], &sent, 1)
                    catcher?.stop()
                    let read = Foundation.read(ends[0], &got, 1)
                    let closedRead = close(ends[0])
                    let closedWrite = close(ends[1])
                    if wrote != 1 || read != 1 || got != expected || closedRead != 0 || closedWrite != 0 {
                        failures.withLock {
                            $0.append("thread \(thread), round \(round): wrote \(wrote), read \(read) (\(got) for \(expected)), closed \(closedRead), \(closedWrite)")
                        }
                        return
                    }
                }
            }
        }
        done.wait()
        let found = failures.withLock { $0 }
        #expect(found.isEmpty, "\(found.prefix(5))")
    }

    /// While a catcher is live, SIGINT no longer ends the process.
    @Test func aLiveCatcherHoldsSIGINT() throws {
        let catcher = try #require(InterruptCatcher.start {})
        defer { catcher.stop() }
        var action = sigaction()
        sigaction(SIGINT, nil, &action)
        #if canImport(Glibc)
        #expect(action.__sigaction_handler.sa_handler != nil)
        #else
        #expect(action.__sigaction_u.__sa_handler != nil)
        #endif
    }
}
