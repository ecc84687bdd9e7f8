/// An action that runs at most once, whichever thread asks first: the cancel step behind
/// `ClockSubscription` and `Observation`.
final class OnceAction: Sendable {
    private let action: Locked<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) { self.action = Locked(action) }

    /// Runs the action unless it already ran.
    func run() {
        let pending = action.withLock { a -> (@Sendable () -> Void)? in
            defer { a = nil }
            return a
        }
        pending?()
    }

    /// Whether `run` has been called.
    var hasRun: Bool { action.withLock { $0 == nil } }
}
