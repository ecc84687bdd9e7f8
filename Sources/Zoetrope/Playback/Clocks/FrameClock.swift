/// A source of frame ticks: a display refresh, a timer, or a test's manual steps.
///
/// Players subscribe while they play and cancel when they stop, so a clock with no
/// subscriber can stop ticking. Handlers run on the clock's own thread (the caller's for
/// `ManualClock`); a player only swaps in frames that were decoded elsewhere.
public protocol FrameClock: AnyObject, Sendable {
    /// Calls `handler` on every tick until the subscription is cancelled.
    ///
    /// `preferredInterval` is the longest gap between ticks the subscriber can use (its
    /// shortest frame duration at its rate); a clock that can adapt ticks no faster than
    /// the smallest preferred interval. nil: no preference.
    func subscribe(preferredInterval: Duration?, _ handler: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription
}
