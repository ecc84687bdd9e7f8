import Zoetrope

extension APNGFrameSource: SessionForking {
    /// Sessions over the same bytes from this one's index: each has its own canvas and
    /// decodes from frame 0.
    func sessionMaker() -> @Sendable () throws -> any FrameSource {
        let index = index, data = data, options = options
        return { try APNGFrameSource(data: data, options: options, index: index, firstFrame: nil) }
    }
}
