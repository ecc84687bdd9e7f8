/// Pixel buffers a player reuses, so that steady-state playback allocates none: the
/// private `FrameSupply`, where every frame is decoded by its player.
///
/// A frame leaving the window gives its buffer back; the next decode takes it and
/// `PixelBuffer.reshape` keeps its storage. Idle buffers are bounded by `maxIdle`.
package struct FramePool: Sendable {
    private var idle: [PixelBuffer] = []
    /// The most idle buffers kept.
    package var maxIdle: Int
    /// Buffers created because none was idle: constant in steady state.
    package private(set) var buffersCreated = 0
    /// Buffers handed out again instead of created.
    package private(set) var buffersReused = 0

    /// A pool that keeps at most `maxIdle` unused buffers.
    package init(maxIdle: Int = 2) { self.maxIdle = maxIdle }

    /// An idle buffer (its storage kept), or a new empty one.
    package mutating func take() -> PixelBuffer {
        if let b = idle.popLast() {
            buffersReused += 1
            return b
        }
        buffersCreated += 1
        return PixelBuffer()
    }

    /// Keeps `buffer` for reuse unless `maxIdle` are already idle.
    package mutating func give(_ buffer: PixelBuffer) {
        if idle.count < maxIdle, buffer.byteCount > 0 { idle.append(buffer) }
    }

    /// Drops idle buffers down to `count`.
    package mutating func trim(to count: Int) {
        if idle.count > count { idle.removeLast(idle.count - max(0, count)) }
    }

    /// Idle buffers held.
    package var idleCount: Int { idle.count }
    /// Bytes of idle buffers held.
    package var idleBytes: Int { idle.reduce(0) { $0 + $1.byteCount } }
}

extension FramePool: FrameSupply {
    mutating func acquire(_ index: Int, waiter: @escaping @Sendable () -> Void) -> FrameLookup { .decodeHere(take()) }
    mutating func release(_ index: Int, buffer: PixelBuffer) { give(buffer) }
    func outlet(for index: Int) -> DecodeOutlet { .player }
    mutating func trimIdle(to count: Int) { trim(to: count) }
    mutating func dropIdleBuffers() { trim(to: 0) }
    mutating func reset() { self = FramePool(maxIdle: maxIdle) }
    func isSame(as other: any FrameSupply) -> Bool { other is FramePool }
}
