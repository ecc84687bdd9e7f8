/// A live observation of a player's events (`Player.observe`) or of a memory-pressure
/// signal (`MemoryPressureSignal.observe`). Cancelling is idempotent; an observation that
/// is deallocated is cancelled too, so keep it as long as you want the calls.
public final class Observation: Sendable {
    private let cancellation: OnceAction

    init(cancel: @escaping @Sendable () -> Void) { cancellation = OnceAction(cancel) }

    /// Stops the calls. The observer may still be running on another thread when this returns.
    public func cancel() { cancellation.run() }

    /// Whether `cancel` has run.
    package var isCancelled: Bool { cancellation.hasRun }

    deinit { cancel() }
}
