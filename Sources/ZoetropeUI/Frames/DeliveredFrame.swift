import Zoetrope

/// One frame handed to a `AnimationPlayer.playFrames` closure, on time.
public struct DeliveredFrame: Sendable {
    /// The composited frame. Copy it to keep it past the closure.
    public let pixels: PixelBuffer
    /// Its index in the animation.
    public let index: Int
    /// The playback, to stop it from inside the closure.
    package let playback: PlaybackHandle

    /// Stops the playback: no more frames are delivered.
    public func stop() { playback.stop() }
}
