/// A clock that ticks only when told to: for tests, simulations (`zoetrope trace`) and
/// hosts that drive ticks from their own display refresh (`HostDrivenClock`).
///
/// `tick(atNanoseconds:)` first runs the clock's pre-tick actions (a
/// `SimulatedDecodeExecutor` finishes the decodes due by then), then calls every
/// subscriber on the calling thread.
public final class ManualClock: FrameClock {
    private let subscribers = TickSubscribers()
    private let preTick = TickSubscribers()
    private let sequence = SequenceCounter()

    /// A clock with no subscriber.
    public init() {}

    public func subscribe(preferredInterval: Duration?, _ handler: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription {
        subscribers.add(interval: preferredInterval, handler)
    }

    /// Runs `action` before the subscribers at every tick, with the tick.
    public func addPreTickAction(_ action: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription {
        preTick.add(interval: nil, action)
    }

    /// Delivers one tick whose frame is meant to appear at `targetNanoseconds`.
    /// Timestamps should not go backwards; a player treats a backwards step as zero time.
    public func tick(atNanoseconds targetNanoseconds: Int64) {
        let tick = FrameTick(targetNanoseconds: targetNanoseconds, sequence: sequence.next())
        preTick.deliver(tick)
        subscribers.deliver(tick)
    }

    /// Delivers one tick at `target` since the clock's origin.
    public func tick(at target: Duration) {
        let (s, atto) = target.components
        tick(atNanoseconds: s * 1_000_000_000 + atto / 1_000_000_000)
    }

    /// Ticks `pattern` from time 0 while the target time is below `duration`, calling
    /// `after` after each tick (a test checks what was shown). Returns the tick count.
    @discardableResult
    public func run(_ pattern: RefreshPattern, for duration: Duration, after: (FrameTick) -> Void = { _ in }) -> Int {
        let (s, atto) = duration.components
        let end = s * 1_000_000_000 + atto / 1_000_000_000
        var k = 0
        while true {
            let t = pattern.nanoseconds(ofTick: k)
            if t >= end { break }
            tick(atNanoseconds: t)
            after(FrameTick(targetNanoseconds: t, sequence: k))
            k += 1
        }
        return k
    }

    /// How many subscribers are ticking.
    public var subscriberCount: Int { subscribers.count }
}

/// A host that owns a display refresh callback drives a `ManualClock`, calling
/// `tick(atNanoseconds:)` with the refresh's target presentation time.
public typealias HostDrivenClock = ManualClock
