/// A decode the engine asks the player to run: which frame, into which buffer.
struct DecodeRequest: Sendable {
    var index: Int
    /// The buffer to decode into, taken out exactly once by the job.
    var buffer: BufferHandoff
    var generation: Int
    var isPoster: Bool
    /// What the job does with the result before the player sees it (publish to a shared cache).
    var outlet: DecodeOutlet
}
