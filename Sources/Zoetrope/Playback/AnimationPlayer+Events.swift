extension AnimationPlayer {
    /// The player's events as an `AsyncStream`, beside `observe(_:)`: every event from the
    /// moment this is read, in the order the player sends them. The stream ends when the
    /// player is freed; a consumer that stops iterating (or whose task is cancelled) ends
    /// the observation. Each read makes a new stream; events are buffered until consumed,
    /// so iterate it.
    ///
    /// ```swift
    /// for await event in player.events {
    ///     if case .finished = event { break }
    /// }
    /// ```
    public var events: AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream()
        let feed = PlayerEventFeed(continuation)
        let observation = observe { event in feed.send(event) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
