import Foundation
import Synchronization
import Zoetrope

/// A `FrameClock` on the wall clock, for `zoetrope play`: a thread that ticks at up to
/// 60 Hz (no faster than the smallest interval a subscriber asks for) while anyone is
/// subscribed. Tick targets are the scheduled times, not when the thread woke, so a late
/// wake-up does not shift the animation; after a long stall the schedule restarts.
final class RealTimeClock: FrameClock {
    private struct State {
        var subscribers: [Int: (interval: Duration?, handler: @Sendable (FrameTick) -> Void)] = [:]
        var nextID = 0
        var running = false
        var sequence = 0
    }
    private let state = Mutex(State())
    private let origin = ContinuousClock.now
    /// The fastest the clock ticks.
    static let shortestInterval = Duration.milliseconds(1000) / 60

    func subscribe(preferredInterval: Duration?, _ handler: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription {
        let (id, start) = state.withLock { s -> (Int, Bool) in
            let id = s.nextID
            s.nextID += 1
            s.subscribers[id] = (preferredInterval, handler)
            defer { s.running = true }
            return (id, !s.running)
        }
        if start {
            let thread = Thread { [self] in run() }
            thread.name = "zoetrope.clock"
            thread.start()
        }
        return ClockSubscription(
            cancel: { [weak self] in self?.state.withLock { s in _ = s.subscribers.removeValue(forKey: id) } },
            updateInterval: { [weak self] interval in
                self?.state.withLock { s in s.subscribers[id]?.interval = interval }
            })
    }

    /// Nanoseconds since the clock was made.
    func nowNanoseconds() -> Int64 {
        let c = (ContinuousClock.now - origin).components
        return c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000
    }

    private func run() {
        var target = nowNanoseconds()
        while true {
            let step: (interval: Int64, handlers: [@Sendable (FrameTick) -> Void], sequence: Int)? = state.withLock { s in
                guard !s.subscribers.isEmpty else { s.running = false; return nil }
                let preferred = s.subscribers.values.compactMap(\.interval).min() ?? Self.shortestInterval
                let interval = max(Duration.milliseconds(1000) / 120, min(preferred, Self.shortestInterval))
                let c = interval.components
                s.sequence += 1
                return (max(1, c.seconds * 1_000_000_000 + c.attoseconds / 1_000_000_000),
                        Array(s.subscribers.values.map(\.handler)), s.sequence - 1)
            }
            guard let step else { return }
            let tick = FrameTick(targetNanoseconds: target, sequence: step.sequence)
            for h in step.handlers { h(tick) }
            target += step.interval
            let now = nowNanoseconds()
            if now > target + 10 * step.interval {
                target = now  // fell far behind (the process was stopped): restart the schedule
            } else if target > now {
                Thread.sleep(forTimeInterval: Double(target - now) / 1e9)
            }
        }
    }
}
