import Zoetrope

/// The display behind `playFrames`: forwards each frame to a closure, on the thread that
/// produced it (no main actor needed).
nonisolated final class FrameCallbackDisplay: ConcurrentAnimationDisplay {
    private let body: @Sendable (DeliveredFrame) -> Void
    private struct WeakHandle { weak var value: PlaybackHandle? }
    // Weak: the handle owns the player and this display.
    private let handle = Locked(WeakHandle())

    init(_ body: @escaping @Sendable (DeliveredFrame) -> Void) { self.body = body }

    func attach(_ h: PlaybackHandle) { handle.withLock { $0.value = h } }

    func show(_ frame: PixelBuffer, index: Int) {
        guard let h = handle.withLock({ $0.value }), !h.isStopped else { return }
        body(DeliveredFrame(pixels: frame, index: index, playback: h))
    }

    var isVisible: Bool { true }
}
