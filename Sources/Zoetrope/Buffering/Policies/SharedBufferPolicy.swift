/// Frames come from a `SharedFrameCache`: players of the same image at the same size and
/// alpha mode decode each frame once between them, and each keeps `framesAhead + 1`
/// frames leased from the cache.
///
/// The key names one image: when a player `load`s another image, pass its key as
/// `sharedImageKey` (without one, the player decodes the new image privately, keeping the
/// same window).
public struct SharedBufferPolicy: FrameBufferPolicy, SupplyingBufferPolicy {
    /// The cache shared with the other players.
    public let cache: SharedFrameCache
    /// The image's name in the cache (a URL, a content hash…).
    public let imageKey: String
    /// Frames leased ahead of the one shown.
    public let framesAhead: Int

    /// Shares `imageKey`'s frames through `cache`, leasing `framesAhead` frames past the shown one.
    public init(cache: SharedFrameCache, imageKey: String, framesAhead: Int = 1) {
        self.cache = cache
        self.imageKey = imageKey
        self.framesAhead = max(1, framesAhead)
    }

    public func windowSize(in context: FrameBufferContext) -> Int { framesAhead + 1 }
    public var name: String { "shared" }

    func makeSupply(size: PixelSize, pixelFormat: PixelFormat) -> any FrameSupply {
        SharedFrameSupply(cache: cache, key: SharedFrameKey(imageKey: imageKey, size: size, pixelFormat: pixelFormat))
    }
}
