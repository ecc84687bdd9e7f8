/// Pixel buffers a player reuses, so that steady-state playback allocates none.
///
/// A frame leaving the window gives its buffer back; the next decode takes it and
/// `PixelBuffer.reshape` keeps its storage. Idle buffers are bounded by `maxIdle`.
public struct FramePool: Sendable {
    private var idle: [PixelBuffer] = []
    /// The most idle buffers kept.
    public var maxIdle: Int
    /// Buffers created because none was idle: constant in steady state.
    public private(set) var buffersCreated = 0
    /// Buffers handed out again instead of created.
    public private(set) var buffersReused = 0

    public init(maxIdle: Int = 2) { self.maxIdle = maxIdle }

    /// An idle buffer (its storage kept), or a new empty one.
    public mutating func take() -> PixelBuffer {
        if let b = idle.popLast() {
            buffersReused += 1
            return b
        }
        buffersCreated += 1
        return PixelBuffer()
    }

    /// Keeps `buffer` for reuse unless `maxIdle` are already idle.
    public mutating func give(_ buffer: PixelBuffer) {
        if idle.count < maxIdle, buffer.byteCount > 0 { idle.append(buffer) }
    }

    /// Drops idle buffers down to `count`.
    public mutating func trim(to count: Int) {
        if idle.count > count { idle.removeLast(idle.count - max(0, count)) }
    }

    /// Idle buffers held.
    public var idleCount: Int { idle.count }
    /// Bytes of idle buffers held.
    public var idleBytes: Int { idle.reduce(0) { $0 + $1.byteCount } }
}
