import Dispatch

/// A clock driven by a timer thread, for code without a display refresh to follow.
///
/// `TimerClock.shared` serves every player that does not bring a clock of its own: one
/// thread for all of them, ticking only while some player is playing, at the rate the
/// fastest of them needs. The thread exists only while something subscribes (it ends
/// 200 ms after the last subscriber leaves), so a process whose players are all paused has
/// no clock thread and no ticks.
///
/// `.fixed(hertz:)` ticks on an exact grid (tick k at origin + k/hz, no drift).
/// `.fitting` ticks no faster than its subscribers need: at the greatest common divisor of
/// their preferred intervals (a player asks for the GCD of its frame durations at its
/// rate, the slowest tick that lands on every frame change), never faster than `maxHertz`. A tick that cannot be delivered on
/// time is dropped (the player measures real target times, so nothing drifts) and counted.
public final class TimerClock: FrameClock {
    /// How often the clock ticks.
    public enum Rate: Hashable, Sendable {
        /// Exactly `hertz` ticks a second, on a grid.
        case fixed(hertz: Int)
        /// As fast as the subscribers need, at most `maxHertz`.
        case fitting(maxHertz: Int)
    }

    /// How this clock ticks.
    package let rate: Rate

    /// The clock of every player that is not given one: fitted, at most 120 Hz.
    public static let shared = TimerClock()

    private struct State {
        var threadRunning = false
        var threadsStarted = 0
        var invalidated = false
        var delivered = 0
        var late = 0
        var dropped = 0
        var worstLateness: Int64 = 0
    }
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let sequence = SequenceCounter()
    private let subscribers: TickSubscribers

    /// A clock ticking at `rate` (by default, as fast as the animations need, at most 120 Hz).
    public init(rate: Rate = .fitting(maxHertz: 120)) {
        self.rate = rate
        let wake = self.wake
        subscribers = TickSubscribers(onChange: { wake.signal() })
    }

    deinit { invalidate() }

    public func subscribe(preferredInterval: Duration?, _ handler: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription {
        let subscription = subscribers.add(interval: preferredInterval, handler)
        let start = state.withLock { s -> Bool in
            guard !s.threadRunning, !s.invalidated else { return false }
            s.threadRunning = true
            s.threadsStarted += 1
            return true
        }
        if start {
            NativeThread.detach(name: "zoetrope.clock") { [weak self] in
                // Hold the clock only for one tick at a time, so that it can be released.
                var loop = Loop(origin: TimerClock.now())
                while let clock = self, clock.step(&loop) {}
            }
        }
        return subscription
    }

    /// Stops the timer thread for good.
    public func invalidate() {
        state.withLock { $0.invalidated = true }
        wake.signal()
    }

    /// Timer threads started so far: one per stretch of time with subscribers, whatever
    /// their number.
    package var threadsStarted: Int { state.withLock { $0.threadsStarted } }
    /// Whether the timer thread is running now.
    package var isThreadRunning: Bool { state.withLock { $0.threadRunning } }
    /// Players (and other subscribers) ticking on this clock now.
    package var subscriberCount: Int { subscribers.count }

    /// Ticks delivered.
    package var ticksDelivered: Int { state.withLock { $0.delivered } }
    /// Ticks delivered more than half an interval after their target time.
    package var lateTicks: Int { state.withLock { $0.late } }
    /// Grid points skipped because the previous tick ran past them.
    package var droppedTicks: Int { state.withLock { $0.dropped } }
    /// The latest any tick was delivered after its target.
    package var worstLateness: Duration { .nanoseconds(state.withLock { $0.worstLateness }) }

    static func now() -> Int64 { Int64(DispatchTime.now().uptimeNanoseconds) }

    private func interval() -> Int64 {
        switch rate {
        case .fixed(let hz):
            return 1_000_000_000 / Int64(max(1, hz))
        case .fitting(let maxHz):
            let floor = 1_000_000_000 / Int64(max(1, maxHz))
            guard let preferred = subscribers.commonInterval else { return max(floor, 16_666_667) }
            return max(floor, preferred.wholeNanoseconds)
        }
    }

    private struct Loop {
        var origin: Int64
        var k: Int64 = 0
        var last: Int64
        init(origin: Int64) {
            self.origin = origin
            last = origin
        }
    }

    /// Waits for and delivers one tick. Returns false when the clock is invalidated.
    private func step(_ loop: inout Loop) -> Bool {
        if state.withLock({ $0.invalidated }) {
            state.withLock { $0.threadRunning = false }
            return false
        }
        if subscribers.isEmpty {
            _ = wake.wait(timeout: .now() + .milliseconds(200))
            // Still nobody: the thread ends (a later subscribe starts another). Decided
            // under the state lock, which subscribe takes after adding its subscriber.
            let idle = state.withLock { s -> Bool in
                guard subscribers.isEmpty else { return false }
                s.threadRunning = false
                return true
            }
            loop = Loop(origin: TimerClock.now())
            return !idle
        }
        // The next target: the fixed grid, or one fitted interval after the last.
        var target: Int64
        let step = interval()
        switch rate {
        case .fixed(let hz):
            loop.k += 1
            target = loop.origin + Int64(Int128(loop.k) * 1_000_000_000 / Int128(max(1, hz)))
        case .fitting:
            target = loop.last + step
        }
        var now = TimerClock.now()
        if target < now - step / 2 {
            // Ran past one or more grid points: skip to the next one still ahead.
            let missed = (now - target) / step
            state.withLock { $0.dropped += Int(missed) }
            switch rate {
            case .fixed(let hz):
                loop.k = Int64(Int128(now - loop.origin) * Int128(max(1, hz)) / 1_000_000_000) + 1
                target = loop.origin + Int64(Int128(loop.k) * 1_000_000_000 / Int128(max(1, hz)))
            case .fitting:
                target = now
            }
        }
        while now < target {
            _ = wake.wait(timeout: DispatchTime(uptimeNanoseconds: UInt64(target)))
            if state.withLock({ $0.invalidated }) { return true }
            now = TimerClock.now()
        }
        loop.last = target
        let lateness = now - target
        state.withLock { s in
            s.delivered += 1
            if lateness > step / 2 { s.late += 1 }
            s.worstLateness = max(s.worstLateness, lateness)
        }
        subscribers.deliver(FrameTick(targetNanoseconds: target, sequence: sequence.next()))
        return true
    }
}
