import Foundation
import Zoetrope

/// A GIF decoding session: the index from the first pass, the file's bytes, and one
/// canvas composited frame by frame with giflib.
///
/// Memory is the file, the canvas, the region "restore to previous" saves, one row of
/// palette indices and giflib's LZW tables — never the whole animation. Decoding in order
/// costs one frame per call; an earlier frame restarts from the nearest frame that needs
/// no predecessor (the first, one after a frame that clears the whole canvas, or one that
/// covers the canvas opaquely), so a seek costs at most the frames since that one.
final class GIFFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    private let data: Data
    private let index: GIFIndex
    private let state: Locked<GIFDecoderState>

    init(data: Data, options: DecodingOptions) throws {
        let index = try data.withUnsafeBytes { raw in try GIFIndex.parse(raw, limits: options.limits) }
        // The canvas, plus at most a canvas saved for "restore to previous", a row of
        // indices and the index itself.
        let rowBytes = index.frames.map(\.rect.width).max() ?? 0
        let indexBytes = index.frames.count * MemoryLayout<GIFFrameRecord>.stride
        let canvasBytes = index.canvasSize.rgbaByteCount ?? .max
        let (twoCanvases, overflow) = canvasBytes.multipliedReportingOverflow(by: 2)
        try options.limits.checkAllocation(overflow ? .max : twoCanvases &+ rowBytes &+ indexBytes, format: .gif)
        self.data = data
        self.index = index
        self.options = options
        self.info = AnimationInfo(format: .gif, canvasSize: index.canvasSize,
                                  frameDurations: index.frames.map(\.duration),
                                  loopCount: index.loopCount, storedLoopValue: index.storedLoopCount,
                                  hasAlpha: index.hasAlpha, truncation: index.truncation)
        self.state = Locked(GIFDecoderState(canvasSize: index.canvasSize))
    }

    var retainedByteCount: Int {
        state.withLock { $0.compositor.byteCount + $0.line.capacity + $0.palette.capacity * 4 }
            + index.frames.capacity * MemoryLayout<GIFFrameRecord>.stride
    }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let size = outputSize, format = options.pixelFormat
        // Full size, straight alpha: the caller's buffer becomes the canvas itself
        // (copy-on-write), so a frame costs no copy when the caller passes that buffer back.
        let direct = size == info.canvasSize && format.alphaMode == .straight
        try state.withLock { state in
            if direct { state.reclaim(&buffer) }
            try data.withUnsafeBytes { bytes in
                do {
                    try state.render(index, index: self.index, bytes: bytes)
                } catch {
                    // The canvas is half drawn: the next call rebuilds it.
                    state.current = nil
                    throw error
                }
            }
            if direct {
                buffer = state.compositor.canvas
                state.canvasShared = true
            } else {
                state.compositor.copyCanvas(into: &buffer, size: size, format: format)
            }
        }
    }
}
