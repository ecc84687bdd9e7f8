/// Forwards to a display until closed; after `close()` returns, nothing more reaches it
/// (a show in progress finishes first, under the lock). `AnimatedContentController` puts
/// one between each player and the view so that a replaced player cannot draw.
final class GatedDisplay: AnimationDisplay {
    private let target: Locked<(any AnimationDisplay)?>

    init(_ display: any AnimationDisplay) { target = Locked(display) }

    func close() { target.withLock { $0 = nil } }

    func show(_ frame: PixelBuffer, index: Int) {
        target.withLock { $0?.show(frame, index: index) }
    }

    var isVisible: Bool { target.withLock { $0?.isVisible ?? false } }
}
