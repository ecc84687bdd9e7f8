/// Where a `FrameBufferPolicy` says a player's frames come from when not from the player's
/// own buffers: the frames of one image in a `SharedFrameCache`, leased by every player
/// of that image (see `FrameBufferPolicy.frameSharing`).
public struct FrameSharing: Sendable {
    /// The cache the frames are leased from.
    public var cache: SharedFrameCache
    /// The image's name in the cache, or nil to name it by the image itself (an
    /// `AnimatedImage`'s bytes and options; a bare `FrameSource`'s object identity).
    public var imageKey: String?

    /// Frames leased from `cache` under `imageKey` (nil: the image's own identity).
    public init(cache: SharedFrameCache, imageKey: String? = nil) {
        self.cache = cache
        self.imageKey = imageKey
    }
}
