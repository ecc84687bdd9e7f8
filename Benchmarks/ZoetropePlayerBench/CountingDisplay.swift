import Synchronization
import Zoetrope

/// A display that only counts the frames it is given.
nonisolated final class CountingDisplay: ConcurrentAnimationDisplay {
    private let shown = Atomic<Int>(0)
    func show(_ frame: PixelBuffer, index: Int) { shown.add(1, ordering: .relaxed) }
    var isVisible: Bool { true }
    var framesShown: Int { shown.load(ordering: .relaxed) }
}
