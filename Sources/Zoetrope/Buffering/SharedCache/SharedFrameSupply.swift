/// The frames of one image (at one size and pixel format) in a `SharedFrameCache`, as a
/// player's `FrameSupply`: every frame a player holds is a lease on the cache's copy.
///
/// While the image's name is still being computed (an `AnimatedImage`'s content hash),
/// every frame asked for is `.inProgress`: the player waits as for a frame another player
/// decodes, and asks again when the name is known. No frame is leased before then.
struct SharedFrameSupply: FrameSupply {
    let cache: SharedFrameCache
    let name: SharedImageName
    let size: PixelSize
    let pixelFormat: PixelFormat

    /// The cache key, once the image's name is known.
    private var knownKey: SharedFrameKey? {
        name.knownName.map { SharedFrameKey(imageKey: $0, size: size, pixelFormat: pixelFormat) }
    }

    func acquire(_ index: Int, waiter: @escaping @Sendable () -> Void) -> FrameLookup {
        guard let imageKey = name.resolve(orWhenKnown: waiter) else { return .inProgress }
        return cache.acquire(
            SharedFrameKey(imageKey: imageKey, size: size, pixelFormat: pixelFormat), frame: index,
            waiter: waiter)
    }

    /// Only leased frames come back, and a lease needs the name.
    func release(_ index: Int, buffer: PixelBuffer) {
        if let key = knownKey { cache.release(key, frame: index) }
    }

    func outlet(for index: Int) -> DecodeOutlet {
        // A decode is only handed out under a known name (`acquire`).
        guard let key = knownKey else { return .player }
        let cache = cache
        return DecodeOutlet(
            publish: { result in
                switch result {
                case .success(let b): cache.publish(key, frame: index, buffer: b)
                case .failure: cache.abandon(key, frame: index)
                }
            }, discard: { cache.release(key, frame: index) })
    }

    /// The cache's idle buffers belong to all its players: the window never trims them.
    func trimIdle(to count: Int) {}
    func dropIdleBuffers() { cache.trim() }
    func reset() {}
    var idleCount: Int { 0 }
    var idleBytes: Int { 0 }
    var buffersCreated: Int { 0 }

    func isSame(as other: any FrameSupply) -> Bool {
        guard let o = other as? SharedFrameSupply else { return false }
        return o.cache === cache && o.size == size && o.pixelFormat == pixelFormat && o.name.isSame(as: name)
    }
}
