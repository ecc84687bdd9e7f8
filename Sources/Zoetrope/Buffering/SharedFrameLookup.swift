/// What a `SharedFrameCache` answers a player asking for a frame.
public enum SharedFrameLookup: Sendable {
    /// The frame is decoded; the caller now holds a lease on it.
    case ready(PixelBuffer)
    /// Nobody has it: the caller decodes into this buffer, then `publish`es (or `abandon`s).
    /// The caller holds a lease.
    case decodeHere(PixelBuffer)
    /// Another player is decoding it; the waiter runs when it is published or abandoned.
    case inProgress
}
