/// What a `FrameSupply` answers a player asking for a frame.
package enum FrameLookup: Sendable {
    /// The frame is decoded; the caller now holds a lease on it.
    case ready(PixelBuffer)
    /// Nobody has it: the caller decodes into this buffer. The caller holds a lease, and the
    /// decode's `DecodeOutlet` publishes (or abandons) the result.
    case decodeHere(PixelBuffer)
    /// Another player is decoding it; the waiter runs when it is published or abandoned.
    case inProgress
}
