import Zoetrope

extension WebPFrameSource: SessionForking {
    /// Sessions over the same bytes from this one's index: each has its own canvas and
    /// decodes from frame 0.
    func sessionMaker() -> @Sendable () throws -> any FrameSource {
        let index = index, data = data, options = options, cut = partialFirstFrame
        return { try WebPFrameSource(data: data, options: options, index: index, partialFirstFrame: cut) }
    }
}
