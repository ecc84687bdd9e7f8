/// A decode the engine asks the player to run: which frame, into which buffer.
struct DecodeRequest: Sendable {
    var index: Int
    /// The buffer to decode into, taken out exactly once by the job.
    var buffer: BufferHandoff
    var generation: Int
    var isPoster: Bool
    /// Set when the frame goes to a shared cache (the player publishes it).
    var sharedKey: SharedFrameKey?
    /// The cache `sharedKey` belongs to.
    var cache: SharedFrameCache?
}
