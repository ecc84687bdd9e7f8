import Zoetrope

/// At most `limit` downloads on the network at once; the others wait, the most urgent
/// first, then in the order they asked. A waiting download can be raised (a more urgent
/// request joined it), moved either way (`AnimatedImageLoader.setPriority`) or withdrawn
/// (every request left).
final class DownloadQueue: Sendable {
    let limit: Int
    private let state = Locked(State())

    private struct Waiting {
        var id: ObjectIdentifier
        var priority: ImageRequest.Priority
        var order: Int
        var continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var running: Set<ObjectIdentifier> = []
        var waiting: [Waiting] = []
        var order = 0
        /// Withdrawn before they asked for a place.
        var withdrawn: Set<ObjectIdentifier> = []
    }

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a place for `id`; true once it has one, false when it was withdrawn.
    func acquire(_ id: ObjectIdentifier, priority: ImageRequest.Priority) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let answer = state.withLock { s -> Bool? in
                if s.withdrawn.remove(id) != nil { return false }
                if s.running.count < limit {
                    s.running.insert(id)
                    return true
                }
                s.order += 1
                s.waiting.append(Waiting(id: id, priority: priority, order: s.order, continuation: continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }

    /// Moves a waiting `id` up to `priority` (never down).
    func raise(_ id: ObjectIdentifier, to priority: ImageRequest.Priority) {
        state.withLock { s in
            if let i = s.waiting.firstIndex(where: { $0.id == id }), s.waiting[i].priority < priority {
                s.waiting[i].priority = priority
            }
        }
    }

    /// Moves a waiting `id` to `priority`, up or down.
    func move(_ id: ObjectIdentifier, to priority: ImageRequest.Priority) {
        state.withLock { s in
            if let i = s.waiting.firstIndex(where: { $0.id == id }) { s.waiting[i].priority = priority }
        }
    }

    /// `id` is done: its place goes to the most urgent waiting download; a waiting `id`
    /// is told it was withdrawn.
    func release(_ id: ObjectIdentifier) {
        var resumed: [(CheckedContinuation<Bool, Never>, Bool)] = []
        state.withLock { s in
            if s.running.remove(id) != nil {
                if let next = s.waiting.indices.max(by: { Self.before(s.waiting[$1], s.waiting[$0]) }) {
                    let waiting = s.waiting.remove(at: next)
                    s.running.insert(waiting.id)
                    resumed.append((waiting.continuation, true))
                }
            } else if let i = s.waiting.firstIndex(where: { $0.id == id }) {
                resumed.append((s.waiting.remove(at: i).continuation, false))
            } else {
                s.withdrawn.insert(id)
            }
        }
        for (continuation, answer) in resumed { continuation.resume(returning: answer) }
    }

    /// Downloads on the network and waiting.
    var counts: (running: Int, waiting: Int) {
        state.withLock { ($0.running.count, $0.waiting.count) }
    }

    /// Whether `a` goes before `b`: more urgent, or as urgent and asked earlier.
    private static func before(_ a: Waiting, _ b: Waiting) -> Bool {
        a.priority != b.priority ? a.priority > b.priority : a.order < b.order
    }
}
