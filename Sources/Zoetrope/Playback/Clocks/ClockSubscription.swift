/// A live subscription to a `FrameClock`. Cancelling is idempotent; a subscription that is
/// deallocated is cancelled too.
public final class ClockSubscription: Sendable {
    private let cancellation: OnceAction
    private let onUpdate: @Sendable (Duration?) -> Void

    /// A subscription that calls `cancel` once when cancelled and `updateInterval` when the
    /// subscriber's preferred interval changes. For `FrameClock` implementations.
    package init(cancel: @escaping @Sendable () -> Void, updateInterval: @escaping @Sendable (Duration?) -> Void = { _ in }) {
        cancellation = OnceAction(cancel)
        onUpdate = updateInterval
    }

    /// Stops the ticks.
    public func cancel() { cancellation.run() }

    /// Whether `cancel` has run.
    package var isCancelled: Bool { cancellation.hasRun }

    /// Tells the clock the subscriber's new preferred interval (after a rate change).
    public func updatePreferredInterval(_ interval: Duration?) {
        if !isCancelled { onUpdate(interval) }
    }

    deinit { cancel() }
}
