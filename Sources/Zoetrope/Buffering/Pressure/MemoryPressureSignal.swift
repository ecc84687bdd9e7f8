/// The memory-pressure level players watch. The application sends levels (from its
/// platform's warnings), or a `LinuxMemoryPressureMonitor` sends them from the kernel.
///
/// Under pressure every player drops to two frames at once; after the level has been
/// normal for the player's calm delay, it grows its window back.
public final class MemoryPressureSignal: Sendable {
    /// The signal players use unless configured otherwise.
    public static let shared = MemoryPressureSignal()

    private let currentLevel = Locked(MemoryPressureLevel.normal)
    private let observers = ObserverList<MemoryPressureLevel>()

    /// A signal at `.normal` with no observer; `shared` is the one players follow by default.
    public init() {}

    /// The current level.
    public var level: MemoryPressureLevel { currentLevel.withLock { $0 } }

    /// Sets the level and tells every observer (on the caller's thread) if it changed.
    public func send(_ level: MemoryPressureLevel) {
        let changed = currentLevel.withLock { current -> Bool in
            defer { current = level }
            return current != level
        }
        if changed { observers.deliver([level]) }
    }

    /// Calls `observer` on every change until the observation is cancelled.
    public func observe(_ observer: @escaping @Sendable (MemoryPressureLevel) -> Void) -> Observation {
        observers.add(observer)
    }
}
