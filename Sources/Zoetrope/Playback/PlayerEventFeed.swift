/// Feeds one `AnimationPlayer.events` stream. The player's observer list holds it; when the
/// player is freed (or the observation cancelled) the feed goes with it and finishes the
/// stream, so a `for await` over a freed player's events ends instead of waiting forever.
final class PlayerEventFeed: Sendable {
    private let continuation: AsyncStream<PlayerEvent>.Continuation

    init(_ continuation: AsyncStream<PlayerEvent>.Continuation) { self.continuation = continuation }

    func send(_ event: PlayerEvent) { continuation.yield(event) }

    deinit { continuation.finish() }
}
