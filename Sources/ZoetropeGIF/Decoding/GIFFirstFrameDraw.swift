#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zoetrope

/// Frame 0 of a big GIF, drawn while opening walks the rest of the file.
///
/// A two-step open (`GIFProvisionalIndex`) walks every block before it returns, so that
/// limits fail at open; for a 50 MB file that walk and frame 0's scan take half as long as
/// drawing frame 0. Frame 0 does not need them: its record and the canvas are known once
/// its data has been walked. So the opening thread draws it while another walks, and the
/// source starts from that canvas (`GIFDecodeState.adoptFirstFrame`). When the open falls
/// back to one step, the drawing is dropped.
final class GIFFirstFrameDraw {
    /// The canvas showing frame 0, its disposal pending, and the frames drawn for it.
    struct Drawn: Sendable {
        var compositor: Compositor
        var decodedFrameCount: Int
    }

    private let data: Data
    private let limits: Limits
    /// Set by `draw` when it drew the whole frame.
    private(set) var drawn: Drawn?

    init(data: Data, limits: Limits) {
        self.data = data
        self.limits = limits
    }

    /// Draws `record` (frame 0) onto a fresh `canvasSize` canvas, if the canvas and a row of
    /// indices fit `limits` (the whole-file budget reserves more). A frame whose data fails
    /// or stops early is left to the one-frame path, which reports it.
    func draw(_ record: GIFFrameRecord, canvasSize: PixelSize) {
        var budget = AllocationBudget(limits: limits, format: .gif)
        budget.reserve(2, bytesEach: canvasSize.rgbaByteCount)
        budget.reserve(record.rect.width)
        guard (try? budget.check()) != nil else { return }
        var state = GIFDecodeState(canvasSize: canvasSize, keyFrames: KeyFrameTable([record.placement], canvasSize: canvasSize))
        state.ensureCanvas()
        let rendered = data.withUnsafeBytes { bytes in (try? state.render(0, input: (bytes, [record]))) != nil }
        guard rendered, state.partialFrames.isEmpty, state.shownFrame == 0 else { return }
        drawn = Drawn(compositor: state.compositor, decodedFrameCount: state.decodedFrameCount)
    }
}

extension GIFDecodeState {
    /// Starts from a canvas showing frame 0 fully drawn (`GIFFirstFrameDraw`), when this
    /// state has drawn nothing yet.
    mutating func adoptFirstFrame(_ drawn: GIFFirstFrameDraw.Drawn) {
        guard decodedFrameCount == 0, shownFrame == nil, drawn.compositor.canvas.size == canvasSize else { return }
        compositor = drawn.compositor
        shownFrame = 0
        decodedFrameCount = drawn.decodedFrameCount
    }
}
