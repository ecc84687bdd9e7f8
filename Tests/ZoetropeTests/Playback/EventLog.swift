@testable import Zoetrope

/// Collects a player's events (frames shown excepted).
final class EventLog: Sendable {
    private let events = Locked<[PlayerEvent]>([])
    private let subscription = Locked<Observation?>(nil)
    init(_ player: AnimationPlayer) {
        let s = player.observe { [weak self] e in self?.record(e) }
        subscription.withLock { $0 = s }
    }
    private func record(_ e: PlayerEvent) {
        if case .frameShown = e { return }
        events.withLock { $0.append(e) }
    }
    var all: [PlayerEvent] { events.withLock { $0 } }
}
