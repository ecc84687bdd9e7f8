import Zoetrope

/// The mutable part of an `APNGFrameSource`, kept behind its lock.
struct APNGDecodeState: Sendable {
    /// The canvas and what disposal still has to undo.
    var compositor: Compositor
    /// Frames drawn onto the canvas in the current play (frame `drawn − 1` is showing).
    var drawn = 0
    /// The frame's PNG stream as libpng reads it, reused across frames.
    var stream = PNGFrameStream()
    /// Decoded pixels of an OVER frame before they are blended.
    var scratch: [UInt8] = []

    var byteCount: Int { compositor.byteCount + stream.byteCount + scratch.capacity }
}
