/// Frames come from a `SharedFrameCache`: players of the same image at the same size and
/// alpha mode decode each frame once between them, and each keeps `framesAhead + 1`
/// frames leased from the cache.
///
/// Which image is "the same" comes from the image itself unless the application names it:
/// with `imageKey` nil (the default) a player keys the cache by its image's identity —
/// for an `AnimatedImage`, a SHA-256 of its bytes plus its decoding options
/// (`AnimatedImage.sharedCacheKey`); for a bare `FrameSource`, that source object. Two
/// different images then never share frames, the same bytes decoded the same way do, and
/// a player that `load`s another image keys it anew. An explicit `imageKey` (a URL, a
/// content hash the app already has) is used as given, for every image the player shows
/// unless `load` passes another: the application then answers for it naming one image.
public struct SharedBufferPolicy: FrameBufferPolicy {
    /// The cache shared with the other players.
    package let cache: SharedFrameCache
    /// The image's name in the cache, or nil to derive it from the image.
    package let imageKey: String?
    /// Frames leased ahead of the one shown.
    package let framesAhead: Int

    /// Shares frames through `cache` under `imageKey` (nil: the image's own identity),
    /// leasing `framesAhead` frames past the shown one.
    package init(cache: SharedFrameCache, imageKey: String? = nil, framesAhead: Int = 1) {
        self.cache = cache
        self.imageKey = imageKey
        self.framesAhead = max(1, framesAhead)
    }

    public func windowSize(in context: FrameBufferContext) -> Int { framesAhead + 1 }
    public var name: String { "shared" }

    /// Frames leased from `cache` under `imageKey`.
    public var frameSharing: FrameSharing? { FrameSharing(cache: cache, imageKey: imageKey) }

    /// The same cache and window, naming the image `imageKey`.
    public func sharingImage(named imageKey: String?) -> any FrameBufferPolicy {
        SharedBufferPolicy(cache: cache, imageKey: imageKey, framesAhead: framesAhead)
    }
}
