/// A clock that ticks only when told to: for hosts that drive ticks from their own display
/// refresh (a display link's callback calls `tick(atNanoseconds:)` with the refresh's target
/// presentation time), tests and simulations (`zoetrope trace`).
///
/// A host sets its refresh rate from `preferredTickInterval` / `preferredFramesPerSecond`,
/// the slowest rate that shows every frame of the playing animations on time. Ticked on the
/// main actor, it shows frames on main-actor displays directly, with no hop.
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
    package func addPreTickAction(_ action: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription {
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
    package func tick(at target: Duration) {
        tick(atNanoseconds: target.wholeNanoseconds)
    }

    /// How many subscribers are ticking.
    package var subscriberCount: Int { subscribers.count }

    /// The longest gap between ticks that shows every subscriber's frames on time (the
    /// greatest common divisor of their preferred intervals: a player asks for the GCD of
    /// its frame durations at its rate), or nil when nobody is ticking or states one.
    /// Read it after `play()`, `pause()` or `setRate(_:)` to set a display link's rate.
    public var preferredTickInterval: Duration? { subscribers.commonInterval }

    /// `preferredTickInterval` as ticks per second (100 ms → 10), or nil.
    public var preferredFramesPerSecond: Double? {
        preferredTickInterval.map { 1e9 / Double(max(1, $0.wholeNanoseconds)) }
    }
}
