import Foundation
import Zoetrope

/// Threads that spin on every core until `stop()`, for tests that must hold on a loaded
/// machine: a scenario run while they spin has to get by with what the scheduler leaves it.
public final class BusyThreads: Sendable {
    private let state = Locked((stopping: false, running: 0))

    /// Starts `count` spinning threads (by default one per active core).
    public init(count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        state.withLock { $0.running = count }
        for _ in 0..<count {
            Thread.detachNewThread { [state] in
                var x: UInt64 = 1
                while !state.withLock({ $0.stopping }) {
                    // Work between looks at the flag, so that the lock is not what spins.
                    for _ in 0..<200_000 { x = x &* 6364136223846793005 &+ 1442695040888963407 }
                }
                state.withLock { $0.running -= 1 }
                if x == 0 { print("") }  // keeps the loop's work
            }
        }
    }

    /// Threads still spinning.
    public var running: Int { state.withLock { $0.running } }

    /// Asks every thread to stop and waits (up to 120 s) until they have.
    public func stop() {
        state.withLock { $0.stopping = true }
        let clock = ContinuousClock(), deadline = clock.now + .seconds(120)
        while running > 0, clock.now < deadline { Thread.sleep(forTimeInterval: 0.005) }
    }
}
