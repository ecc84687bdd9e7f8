
/// The memory-pressure level players watch. The application sends levels (from its
/// platform's warnings), or a `LinuxMemoryPressureMonitor` sends them from the kernel.
///
/// Under pressure every player drops to two frames at once; after the level has been
/// normal for the player's calm delay, it grows its window back.
public final class MemoryPressureSignal: Sendable {
    /// The signal players use unless configured otherwise.
    public static let shared = MemoryPressureSignal()

    private struct State {
        var level = MemoryPressureLevel.normal
        var nextID = 0
        var observers: [Int: @Sendable (MemoryPressureLevel) -> Void] = [:]
    }
    private let state = Locked(State())

    public init() {}

    /// The current level.
    public var level: MemoryPressureLevel { state.withLock { $0.level } }

    /// Sets the level and tells every observer (on the caller's thread) if it changed.
    public func send(_ level: MemoryPressureLevel) {
        let observers = state.withLock { s -> [@Sendable (MemoryPressureLevel) -> Void] in
            guard s.level != level else { return [] }
            s.level = level
            return Array(s.observers.values)
        }
        for o in observers { o(level) }
    }

    /// Calls `observer` on every change until the subscription is cancelled.
    public func observe(_ observer: @escaping @Sendable (MemoryPressureLevel) -> Void) -> ClockSubscription {
        let id = state.withLock { s -> Int in
            let id = s.nextID
            s.nextID += 1
            s.observers[id] = observer
            return id
        }
        return ClockSubscription(cancel: { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        })
    }
}
