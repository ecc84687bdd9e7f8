/// The frames of one image (at one size and pixel format) in a `SharedFrameCache`, as a
/// player's `FrameSupply`: every frame a player holds is a lease on the cache's copy.
struct SharedFrameSupply: FrameSupply {
    let cache: SharedFrameCache
    let key: SharedFrameKey

    func acquire(_ index: Int, waiter: @escaping @Sendable () -> Void) -> FrameLookup {
        cache.acquire(key, frame: index, waiter: waiter)
    }

    func release(_ index: Int, buffer: PixelBuffer) { cache.release(key, frame: index) }

    func outlet(for index: Int) -> DecodeOutlet {
        let cache = cache, key = key
        return DecodeOutlet(publish: { result in
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
        return o.cache === cache && o.key == key
    }
}
