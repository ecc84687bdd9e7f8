import Synchronization
import Zoetrope

/// A `FrameSource` over the built-in demo. Every frame is drawn from scratch, so random
/// access costs the same as sequential access.
final class DemoFrameSource: SeekCostReporting {
    let info = DemoAnimation.info
    let options: DecodingOptions
    // The full-size canvas reused across frames; the lock makes the source Sendable.
    private let canvas: Locked<PixelBuffer>
    private let decoded = Atomic<Int>(0)

    init(options: DecodingOptions) throws {
        try options.limits.checkCanvases(DemoAnimation.canvasSize, count: 1, format: DemoAnimation.format)
        self.options = options
        canvas = Locked(PixelBuffer(width: DemoAnimation.canvasSize.width, height: DemoAnimation.canvasSize.height))
    }

    var retainedByteCount: Int { canvas.withLock { $0.byteCount } }

    var decodedFrameCount: Int { decoded.load(ordering: .relaxed) }

    /// Every frame is drawn from scratch: each is its own restart frame.
    func restartFrame(for index: Int) -> Int { index }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let size = outputSize, format = options.pixelFormat
        canvas.withLock { c in
            DemoAnimation.render(frame: index, into: &c)
            decoded.add(1, ordering: .relaxed)
            c.copy(into: &buffer, size: size, format: format)
        }
    }
}
