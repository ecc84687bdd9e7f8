import ZoetropeCodecs

/// A @MainActor view that records the frames it was shown, the colour of each frame's
/// top-left pixel, and what `probe` said when the first frame came.
@MainActor final class RecordingView: AnimationDisplay {
    var shown: [Int] = []
    var topLeft: [[UInt8]] = []
    var probedAtFirstFrame: Int?
    let probe: @MainActor () -> Int
    var isVisible = true

    init(probe: @escaping @MainActor () -> Int = { 0 }) {
        self.probe = probe
    }

    func show(_ frame: PixelBuffer, index: Int) {
        if probedAtFirstFrame == nil { probedAtFirstFrame = probe() }
        shown.append(index)
        topLeft.append(frame.pixel(x: 0, y: 0))
    }
}
