import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Frame 0 of a big GIF, drawn while opening walks the rest of the file.
///
/// A two-step open (`GIFProvisionalIndex`) walks every block before it returns, so that
/// limits fail at open; for a 50 MB file that walk and frame 0's scan take half as long as
/// drawing frame 0. Frame 0 does not need them: its record and the canvas are known once
/// its data has been walked. So the opening thread draws it while another walks, and the
/// source starts from that canvas (`GIFDecodeState.adoptFirstFrame`). When the open falls
/// back to one step, the drawing is dropped.
enum GIFFirstFrameDraw {
    /// Draws `record` (frame 0) of `data` onto a fresh `canvasSize` canvas and returns it,
    /// its disposal pending; nil when the canvas and its indices do not fit `limits`
    /// (the whole-file budget reserves more) or the frame's data fails or stops early (the
    /// one-frame path then draws it and reports what is wrong).
    static func draw(_ record: GIFFrameRecord, canvasSize: PixelSize, data: Data, limits: Limits) -> Compositor? {
        var budget = AllocationBudget(limits: limits, format: .gif)
        budget.reserve(2, bytesEach: canvasSize.rgbaByteCount)
        budget.reserve(GIFDecodeState.lineByteCount(record))
        guard (try? budget.check()) != nil else { return nil }
        var state = GIFDecodeState(canvasSize: canvasSize, keyFrames: KeyFrameTable([record.placement], canvasSize: canvasSize))
        state.ensureCanvas()
        let rendered = data.withUnsafeBytes { bytes in (try? state.render(0, input: (bytes, [record]))) != nil }
        guard rendered, state.partialFrames.isEmpty, state.shownFrame == 0 else { return nil }
        return state.compositor
    }
}

extension GIFDecodeState {
    /// Starts from `canvas`, which shows frame 0 drawn whole (`GIFFirstFrameDraw`): the
    /// state of a fresh source after drawing frame 0, without drawing it again. Returns
    /// false, changing nothing, when this state has drawn already or its canvas differs.
    mutating func adoptFirstFrame(_ canvas: Compositor) -> Bool {
        guard decodedFrameCount == 0, canvas.canvas.size == canvasSize else { return false }
        compositor = canvas
        shownFrame = 0
        decodedFrameCount = 1
        return true
    }
}
