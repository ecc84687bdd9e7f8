import Zoetrope
import ZoetropeColor

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
/// Random access restarts from the nearest earlier key frame (libwebp's rule, through the
/// shared `KeyFrameTable`), or continues from the frame last decoded when that is closer,
/// so seeking to frame *i* costs at most the frames from its key frame to *i*.
final class WebPFrameSource: SeekCostReporting {
    let info: AnimationInfo
    let options: DecodingOptions
    let data: Data
    let frames: [WebPFrameRecord]
    let state: Locked<WebPDecodeState>
    /// RGBA bytes of the largest frame: the most a bulk run's payload holds.
    let largestFrameBytes: Int
    /// The only frame, cut inside its image data (`DecodingOptions.showsPartialFirstFrame`).
    let partialFirstFrame: WebPFrameRecord?

    /// The index this session reads frames from, shared with the sessions `sessionMaker()` makes.
    let index: WebPIndex
    /// The conversion of the file's colour to sRGB, applied as frames leave the canvas.
    let colorTransform: (any ColorTransform)?

    convenience init(data: Data, options: DecodingOptions) throws {
        // A file cut inside its first frame keeps that frame, from the rows its bytes give, when asked.
        let (index, cut) = try data.withUnsafeBytes { raw throws(AnimatedImageError) in
            try WebPIndex.index(bytes: raw, limits: options.limits, keepsCutFirstFrame: options.showsPartialFirstFrame)
        }
        try self.init(data: data, options: options, index: index, partialFirstFrame: cut)
    }

    /// A session over `data` from its index, read by the open or by another session.
    init(data: Data, options: DecodingOptions, index: WebPIndex, partialFirstFrame cut: WebPFrameRecord?) throws {
        partialFirstFrame = cut
        self.index = index
        // Checked before anything is allocated: the canvas, the scratch raster for the
        // largest blending frame, and libwebp's working memory for the largest frame,
        // estimated as one RGBA raster of it (what its lossless decoder holds; lossy needs less).
        let keyFrames = index.keyFrames
        let (scratchPixels, largestFrame) = index.budgetPixels(keyFrames: keyFrames)
        try WebPFrameSource.checkBudget(
            canvas: index.canvasSize, scratchPixels: scratchPixels, largestFrame: largestFrame,
            limits: options.limits)
        self.data = data
        self.options = options
        self.frames = index.frames
        largestFrameBytes = largestFrame * 4
        var info = AnimationInfo(
            format: .webp, canvasSize: index.canvasSize,
            frameDurations: index.frames.map { .milliseconds(Int64($0.durationMs)) },
            loopCount: index.loopCount, storedLoopValue: index.storedLoopCount,
            hasAlpha: index.hasAlpha, truncation: index.truncation,
            color: index.metadataChunks.color, metadata: index.metadataChunks.metadata)
        colorTransform = ColorManagement.prepare(&info, options: options)
        self.info = info
        var state = WebPDecodeState(
            canvasSize: index.canvasSize, keyFrames: keyFrames, scratchPixels: scratchPixels,
            useThreads: (options.threadCount ?? 1) > 1)
        state.compositor.colorTransform = colorTransform
        self.state = Locked(state)
    }

    /// Checks the allocation limit for a session decoding frames onto `canvas`, blending
    /// frames of up to `scratchPixels` pixels and decoding frames of up to `largestFrame`.
    static func checkBudget(canvas: PixelSize, scratchPixels: Int, largestFrame: Int, limits: Limits) throws(AnimatedImageError) {
        var budget = AllocationBudget(limits: limits, format: .webp)
        budget.reserve(canvas.rgbaByteCount)
        budget.reserve(scratchPixels, bytesEach: 4)
        budget.reserve(largestFrame, bytesEach: 4)
        try budget.check()
    }

    var retainedByteCount: Int { state.withLock { $0.byteCount } }

    var decodedFrameCount: Int { state.withLock { $0.decodedFrameCount } }

    func restartFrame(for index: Int) -> Int { state.withLock { $0.keyFrames.restartFrame(for: index) } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        if let partialFirstFrame {
            let canvas = info.canvasSize, options = options
            try data.withUnsafeBytes { file in
                try WebPPartialFrame.decode(
                    partialFirstFrame, file: file, canvas: canvas, options: options,
                    colorTransform: colorTransform, into: &buffer)
            }
            return
        }
        let size = outputSize, format = options.pixelFormat
        try state.withLock { s in
            s.ensureCanvas()
            try data.withUnsafeBytes { (file: UnsafeRawBufferPointer) in
                try s.renderFrame(index, input: (file, frames), into: &buffer, size: size, format: format)
            }
        }
    }
}
