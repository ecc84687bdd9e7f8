extension AnimationPlayer {
    /// The player's events as an `AsyncStream`, beside `observe(_:)`: every event from the
    /// moment this is read, in the order the player sends them, until the stream's consumer
    /// stops iterating (or the task is cancelled), which ends the observation. Each read
    /// makes a new stream; events are buffered without bound until consumed, so iterate it.
    ///
    /// ```swift
    /// for await event in player.events {
    ///     if case .finished = event { break }
    /// }
    /// ```
    public var events: AsyncStream<PlayerEvent> {
        let (stream, continuation) = AsyncStream<PlayerEvent>.makeStream()
        let observation = observe { event in continuation.yield(event) }
        continuation.onTermination = { _ in observation.cancel() }
        return stream
    }
}
