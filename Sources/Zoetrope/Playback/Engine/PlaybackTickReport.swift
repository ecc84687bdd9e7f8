/// What one clock tick did, for traces and diagnostics.
public struct PlaybackTickReport: Hashable, Sendable {
    /// The tick's target time, in nanoseconds.
    public var targetNanoseconds: Int64
    /// The frame on the display after the tick, or nil when none is shown yet.
    public var frameShown: Int?
    /// Whether a frame was due but not decoded (or nothing could be shown yet).
    public var stalled: Bool
    /// Frames passed over at this tick (catch-up only).
    public var skipped: Int
    /// Pixel buffers the player holds: poster, decoded frames, the one being decoded, idle pooled ones.
    public var framesHeld: Int
    /// Their bytes.
    public var bytesHeld: Int
}
