/// What a `FrameBufferPolicy` knows when it sizes a player's window of decoded frames.
public struct FrameBufferContext: Hashable, Sendable {
    /// Frames in the animation.
    public var frameCount: Int
    /// Bytes of one decoded frame at the player's output size.
    public var frameByteCount: Int
    /// Whether memory pressure is in effect (players then hold two frames).
    public var underMemoryPressure: Bool

    /// A context; for policies' tests.
    package init(frameCount: Int, frameByteCount: Int, underMemoryPressure: Bool = false) {
        self.frameCount = frameCount
        self.frameByteCount = frameByteCount
        self.underMemoryPressure = underMemoryPressure
    }
}
