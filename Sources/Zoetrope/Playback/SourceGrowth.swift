/// What a player of a source still arriving last took from its session.
struct SourceGrowth: Sendable {
    let session: any IncrementalFrameSource
    /// The name of the session's frames in a shared cache.
    let identity: String
    /// The snapshot revision the engine's frames belong to.
    var revision: Int
    /// Whether the engine plays the session's info yet (false: a placeholder before the
    /// format and the canvas are known).
    var hasInfo: Bool
    /// The bytes received when the engine's frame 0 was drawn still arriving
    /// (`IncrementalSnapshot.firstFrameIsPartial`); nil once frame 0 is complete.
    var partialFrameBytes: Int?
}
