import Zoetrope

extension GIFFrameSource: SessionForking {
    /// Sessions over the same bytes from this one's final index (completed now if the open
    /// walked it in two steps): each has its own canvas and decodes from frame 0.
    func sessionMaker() -> @Sendable () throws -> any FrameSource {
        let complete = complete, data = data, options = options
        return { GIFFrameSource(data: data, options: options, complete: complete) }
    }
}
