/// The subscriber list every clock keeps: handlers in subscription order, each with its
/// preferred interval. Safe to use from any thread.
final class TickSubscribers: Sendable {
    private struct Entry {
        var id: Int
        var interval: Duration?
        var handler: @Sendable (FrameTick) -> Void
    }
    private let state = Locked<(nextID: Int, entries: [Entry])>((0, []))
    /// Called after the list or an interval changed (a timer clock wakes up).
    private let onChange: @Sendable () -> Void

    init(onChange: @escaping @Sendable () -> Void = {}) {
        self.onChange = onChange
    }

    func add(interval: Duration?, _ handler: @escaping @Sendable (FrameTick) -> Void) -> ClockSubscription {
        let id = state.withLock { s -> Int in
            let id = s.nextID
            s.nextID += 1
            s.entries.append(Entry(id: id, interval: interval, handler: handler))
            return id
        }
        onChange()
        return ClockSubscription(
            cancel: { [weak self] in
                guard let self else { return }
                self.state.withLock { $0.entries.removeAll { $0.id == id } }
                self.onChange()
            },
            updateInterval: { [weak self] interval in
                guard let self else { return }
                self.state.withLock { s in
                    if let i = s.entries.firstIndex(where: { $0.id == id }) { s.entries[i].interval = interval }
                }
                self.onChange()
            })
    }

    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }
    var count: Int { state.withLock { $0.entries.count } }

    /// The greatest common divisor of the preferred intervals in whole nanoseconds (the
    /// slowest tick that lands on every subscriber's beat), or nil when none states one.
    var commonInterval: Duration? {
        let ns = state.withLock { s in s.entries.compactMap(\.interval).map(\.wholeNanoseconds) }
        guard let first = ns.first else { return nil }
        return .nanoseconds(ns.dropFirst().reduce(max(1, first)) { FrameDuration.gcd($0, max(1, $1)) })
    }

    /// Calls every handler (outside the lock, so handlers may subscribe or cancel).
    func deliver(_ tick: FrameTick) {
        let handlers = state.withLock { s in s.entries.map(\.handler) }
        for handler in handlers { handler(tick) }
    }
}
