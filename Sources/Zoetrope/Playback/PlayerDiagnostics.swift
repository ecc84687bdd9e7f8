/// Counters a player keeps about itself.
package struct PlayerDiagnostics: Hashable, Sendable {
    /// Frames the player showed: handed to its display, which receives them in order
    /// except for `framesSkippedByDisplay`.
    package var framesShown = 0
    /// Shown frames a main-actor display never received: when more than 8 wait for a busy
    /// main actor, the oldest waiting are skipped (see `AnimationDisplay`). Always 0 for a
    /// `ConcurrentAnimationDisplay`.
    package var framesSkippedByDisplay = 0
    /// Ticks at which a frame was due but not decoded.
    package var stalledTicks = 0
    /// Runs of consecutive stalled ticks.
    package var stallEpisodes = 0
    /// Frames passed over to keep time (catch-up).
    package var skippedFrames = 0
    /// Loops completed.
    package var loopsCompleted = 0
    /// Frames decoded (each decode counted, including re-decodes in later loops).
    package var framesDecoded = 0
    /// Frames taken ready-made from a shared cache.
    package var framesFromSharedCache = 0
    /// Median wall-clock decode time of recent decodes.
    package var medianDecodeTime: Duration = .zero
    /// The slowest decode so far.
    package var worstDecodeTime: Duration = .zero
    /// Pixel buffers held now (poster, decoded frames, in-flight decode, idle pooled).
    package var framesHeld = 0
    /// Bytes of those buffers now.
    package var bytesHeld = 0
    /// The most bytes held at once.
    package var peakBytesHeld = 0
    /// Pixel buffers the player's pool had to create (constant in steady state).
    package var buffersCreated = 0

    /// All counters at zero.
    package init() {}
}
