import Zoetrope

extension APNGChunkWalker {
    /// Indexes `bytes` (a whole file).
    static func index(
        _ bytes: UnsafeRawBufferPointer, limits: Limits,
        keepsCutFirstFrame: Bool = false
    ) throws(AnimatedImageError) -> APNGIndex {
        var walker = APNGChunkWalker(limits: limits)
        walker.keepsCutFirstFrame = keepsCutFirstFrame
        try walker.advance(bytes)
        return try walker.finish(bytes)
    }
}
