import Foundation
import Zoetrope

/// A decoding session over one WebP file, still or animated.
///
/// Frames are decoded one at a time with libwebp's still decoder and composited by
/// Zoetrope's `Compositor`: memory is one canvas plus one frame-sized scratch raster,
/// whatever the frame count. Decoding is single-threaded unless `DecodingOptions.threadCount`
/// asks for more (measured on a shared 2-core machine, libwebp's worker thread cost more
/// than it saved). Frames that overwrite their rectangle (key frames, "do not
/// blend", opaque lossy) decode straight into the canvas; a full-canvas key frame followed
/// by another (a file of independent frames) decodes straight into the caller's buffer,
/// with no canvas copy at all.
///
/// Random access restarts from the nearest earlier key frame (precomputed when the file
/// is indexed), or continues from the frame last decoded when that is closer, so seeking
/// to frame *i* costs at most the frames from its key frame to *i*.
final class WebPFrameSource: FrameSource {
    let info: AnimationInfo
    let options: DecodingOptions
    private let data: Data
    private let frames: [WebPFrameEntry]
    private let state: Locked<WebPDecodingState>

    init(data: Data, options: DecodingOptions) throws {
        let index = try WebPFrameIndex(data: data, limits: options.limits)
        // Checked before anything is allocated: the canvas, the scratch raster for the
        // largest blending frame, and libwebp's working memory for the largest frame,
        // estimated as one RGBA raster of it (what its lossless decoder holds; lossy needs less).
        let scratchPixels = index.frames.lazy.filter { !$0.drawsBySource }
            .map { $0.rect.width * $0.rect.height }.max() ?? 0
        let largestFrame = index.frames.lazy.map { $0.rect.width * $0.rect.height }.max() ?? 0
        try options.limits.checkAllocation(
            WebPFrameSource.sessionBytes(canvas: index.canvasSize, scratchPixels: scratchPixels, decoderPixels: largestFrame),
            format: .webp)
        self.data = data
        self.options = options
        self.frames = index.frames
        self.info = AnimationInfo(
            format: .webp, canvasSize: index.canvasSize,
            frameDurations: index.frames.map { .milliseconds(Int64($0.durationMs)) },
            loopCount: index.loopCount, storedLoopValue: index.storedLoopCount,
            hasAlpha: index.hasAlpha, truncation: index.truncation)
        self.state = Locked(WebPDecodingState(canvasSize: index.canvasSize, scratchPixels: scratchPixels,
                                                  useThreads: (options.threadCount ?? 1) > 1))
    }

    /// Canvas + scratch + decoder estimate in bytes, saturating at `Int.max`.
    static func sessionBytes(canvas: PixelSize, scratchPixels: Int, decoderPixels: Int) -> Int {
        let canvasBytes = canvas.rgbaByteCount ?? .max
        let (a, o1) = canvasBytes.addingReportingOverflow(scratchPixels * 4)
        let (b, o2) = a.addingReportingOverflow(decoderPixels * 4)
        return o1 || o2 ? .max : b
    }

    var retainedByteCount: Int { state.withLock { $0.byteCount } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let size = outputSize, format = options.pixelFormat
        let direct = size == info.canvasSize && format.alphaMode == .straight
        try state.withLock { s in
            if direct && s.current != index && s.canDecodeDirectly(index, frames: frames) {
                try s.decodeDirectly(index, frames: frames, data: data, into: &buffer)
            } else {
                try s.advance(to: index, frames: frames, data: data)
                s.compositor.copyCanvas(into: &buffer, size: size, format: format)
            }
        }
    }

    /// How many frames decoding `index` next would decode (for tests and the benchmark):
    /// 0 when it is the frame already on the canvas.
    func framesToDecode(for index: Int) -> Int {
        state.withLock { s in
            if s.current == index { return 0 }
            return s.plan(for: index, frames: frames).count
        }
    }
}
