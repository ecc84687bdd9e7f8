#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Zoetrope

/// A GIF decoding session: the index from the first pass, the file's bytes, and one
/// canvas composited frame by frame with giflib.
///
/// Memory is the file, the canvas, the region "restore to previous" saves, one row of
/// palette indices and giflib's LZW tables — never the whole animation. Decoding in order
/// costs one frame per call. Any other frame is reached by the cheaper of continuing from
/// the frame the canvas shows and restarting from the nearest earlier key frame (the shared
/// rule of `KeyFrameTable`: the first frame, one after a frame that leaves the canvas
/// transparent, one that covers the canvas opaquely), so a seek costs at most the frames
/// since that key frame.
final class GIFFrameSource: SeekCostReporting {
    let info: AnimationInfo
    let options: DecodingOptions
    let data: Data
    let index: GIFIndex
    /// Pixels of the largest image: the most indices a bulk run's payload holds.
    let largestImagePixels: Int
    private let state: Locked<GIFDecodeState>

    init(data: Data, options: DecodingOptions) throws {
        let index = try data.withUnsafeBytes { raw in try GIFIndex.parse(raw, limits: options.limits) }
        // The canvas, plus at most a canvas saved for "restore to previous", a row of
        // indices, the index itself and its key-frame table.
        var budget = AllocationBudget(limits: options.limits, format: .gif)
        budget.reserve(2, bytesEach: index.canvasSize.rgbaByteCount)
        budget.reserve(index.frames.map(\.rect.width).max() ?? 0)
        budget.reserve(index.frames.count, bytesEach: MemoryLayout<GIFFrameRecord>.stride)
        budget.reserve(KeyFrameTable.byteCount(frames: index.frames.count))
        try budget.check()
        self.data = data
        self.index = index
        largestImagePixels = index.frames.lazy.map { $0.rect.width * $0.rect.height }.max() ?? 0
        self.options = options
        self.info = AnimationInfo(format: .gif, canvasSize: index.canvasSize,
                                  frameDurations: index.frames.map(\.duration),
                                  loopCount: index.loopCount, storedLoopValue: index.storedLoopCount,
                                  hasAlpha: index.hasAlpha, truncation: index.truncation, warnings: index.warnings)
        self.state = Locked(GIFDecodeState(canvasSize: index.canvasSize,
                                           keyFrames: KeyFrameTable(index.placements, canvasSize: index.canvasSize)))
    }

    var retainedByteCount: Int {
        state.withLock { $0.compositor.byteCount + $0.line.capacity + $0.palette.capacity * 4 }
            + index.frames.capacity * MemoryLayout<GIFFrameRecord>.stride
    }

    var decodedFrameCount: Int { state.withLock { $0.decodedFrameCount } }

    func restartFrame(for index: Int) -> Int { state.withLock { $0.keyFrames.restartFrame(for: index) } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        try deliver(index, into: &buffer) { state in
            // On failure the canvas shows no known frame, and the next call rebuilds it.
            try data.withUnsafeBytes { bytes in try state.render(index, input: (bytes, self.index.frames)) }
        }
    }

    /// Brings the canvas to frame `index` with `draw` and hands it to the caller.
    func deliver(_ index: Int, into buffer: inout PixelBuffer, draw: (inout GIFDecodeState) throws -> Void) throws {
        let size = outputSize, format = options.pixelFormat
        // Full size, straight alpha: the caller's buffer becomes the canvas itself
        // (copy-on-write), so a frame costs no copy when the caller passes that buffer back.
        let direct = size == info.canvasSize && format.alphaMode == .straight
        try state.withLock { state in
            state.ensureCanvas()
            if direct { state.reclaim(&buffer) }
            try draw(&state)
            if direct {
                buffer = state.compositor.canvas
                state.canvasShared = true
            } else {
                state.compositor.copyCanvas(into: &buffer, size: size, format: format)
            }
        }
    }
}
