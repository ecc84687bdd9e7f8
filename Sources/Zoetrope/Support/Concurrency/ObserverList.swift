/// Observers of one kind of value, called in subscription order outside the lock (so an
/// observer may subscribe or cancel from inside its call). Shared by the player's events
/// and the memory-pressure signal.
final class ObserverList<Value>: Sendable {
    private struct Entry {
        var id: Int
        var handler: @Sendable (Value) -> Void
    }
    private let state = Locked<(nextID: Int, entries: [Entry])>((0, []))

    init() {}

    /// Adds `handler` until the returned observation is cancelled (or deallocated).
    func add(_ handler: @escaping @Sendable (Value) -> Void) -> Observation {
        let id = state.withLock { s -> Int in
            let id = s.nextID
            s.nextID += 1
            s.entries.append(Entry(id: id, handler: handler))
            return id
        }
        return Observation(cancel: { [weak self] in
            self?.state.withLock { $0.entries.removeAll { $0.id == id } }
        })
    }

    /// Calls every handler with each value, in order.
    func deliver(_ values: [Value]) {
        guard !values.isEmpty else { return }
        let handlers = state.withLock { s in s.entries.map(\.handler) }
        for value in values { for handler in handlers { handler(value) } }
    }
}
