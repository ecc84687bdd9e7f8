/// A source that can start more sessions over the same bytes and options from what it has
/// already read (its index), without reading the file again. `AnimatedImage` keeps what
/// `sessionMaker()` returns, so a player made from an image opens no second index.
package protocol SessionForking: FrameSource {
    /// Makes fresh sessions (a canvas of their own, nothing decoded yet) that share this
    /// source's index. It holds the bytes and the index, not this session's canvas.
    func sessionMaker() -> @Sendable () throws -> any FrameSource
}
