/// One frame as `AnimatedImage.frames()` delivers it: which frame, its pixels and how long
/// it shows.
public struct AnimatedFrame: Sendable {
    /// The frame's index, from 0.
    public let index: Int
    /// The fully composited canvas, at the image's decoding options. The element owns it:
    /// no later frame writes into it.
    public let pixels: PixelBuffer
    /// How long the frame shows: the stored duration after the sequence's `DelayPolicy`
    /// (`.default` turns 10 ms or less into 100 ms; `.exact` keeps the stored value).
    public let duration: FrameDuration

    /// Creates a frame value.
    package init(index: Int, pixels: PixelBuffer, duration: FrameDuration) {
        self.index = index
        self.pixels = pixels
        self.duration = duration
    }
}
