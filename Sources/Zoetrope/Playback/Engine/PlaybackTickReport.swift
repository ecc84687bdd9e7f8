/// What one clock tick did, for traces and diagnostics.
package struct PlaybackTickReport: Hashable, Sendable {
    /// The tick's target time, in nanoseconds.
    package var targetNanoseconds: Int64
    /// The frame on the display after the tick, or nil when none is shown yet.
    package var frameShown: Int?
    /// Whether a frame was due but not decoded (or nothing could be shown yet).
    package var stalled: Bool
    /// Frames passed over at this tick (catch-up only).
    package var skipped: Int
    /// Pixel buffers the player holds: poster, decoded frames, the one being decoded, idle pooled ones.
    package var framesHeld: Int
    /// Their bytes.
    package var bytesHeld: Int
}
