import CWebP
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything known about a WebP file before decoding a pixel: the canvas, the loop, and
/// every frame's place and modes (the key frames follow from them: `keyFrames`). Built once per `WebPFrameSource`
/// with libwebp's demuxer, which is then freed (the index keeps byte offsets, not pointers).
struct WebPIndex: Sendable {
    var canvasSize: PixelSize
    var frames: [WebPFrameRecord]
    var isAnimated: Bool
    /// The ANIM loop count as stored, nil for a still image or a missing ANIM chunk.
    var storedLoopCount: Int?
    /// Set when only the frames before a broken or missing part decode.
    var truncation: AnimatedImageError?
    /// The file's `ICCP`, `EXIF` and `XMP ` chunks.
    var metadataChunks = WebPMetadataChunks()

    /// Loop count N → N plays, 0 → forever; a still image or missing ANIM plays once.
    var loopCount: LoopCount {
        guard let n = storedLoopCount else { return .once }
        return n == 0 ? .infinite : .plays(n)
    }

    var hasAlpha: Bool { frames.contains { $0.hasAlpha } }

    /// Indexes `data`, checking `limits` on the canvas and the frame count.
    init(data: Data, limits: Limits) throws {
        self = try data.withUnsafeBytes { try WebPIndex(bytes: $0, limits: limits) }
    }

    /// Indexes the file `bytes` (what `init(data:limits:)` does; an incremental source
    /// indexes the bytes it received this way when they end).
    init(bytes: UnsafeRawBufferPointer, limits: Limits) throws {
        let format = ImageFormat.webp
        // The bytes whose ICCP/EXIF/XMP chunks count: all of them, or those before a broken
        // frame when the frames after it are dropped (what an incremental source has seen
        // when it stops at that frame).
        var describedCount = bytes.count
        let result: WebPIndex = try { () throws -> WebPIndex in
            guard bytes.count >= 12, let base = bytes.baseAddress else {
                throw AnimatedImageError.insufficientData(format: format, needed: 12, available: bytes.count)
            }
            // A VP8X canvas past the limits is refused whatever follows it, before the demuxer
            // judges the chunks (which it does differently as more of them are complete), so a
            // file gives the same error whole and in pieces.
            if let canvas = WebPChunkScanner.extendedCanvas(bytes) {
                try limits.checkSize(width: canvas.width, height: canvas.height, format: format)
            }
            if let index = try WebPIndex.demux(
                base: base, count: bytes.count, fullCount: bytes.count,
                limits: limits, hasAnim: WebPChunkScanner.hasAnimChunk(bytes))
            {
                return index
            }
            // The demuxer refused the file: find out why, and keep the frames before the
            // first broken one by demuxing only the bytes before it (a partial file).
            let problem = WebPChunkScanner.diagnose(bytes)
            let error = AnimatedImageError.invalidData(format: format, reason: problem.reason)
            if let offset = problem.frameOffset, let k = problem.frameIndex, k > 0,
                var index = try WebPIndex.demux(
                    base: base, count: offset, fullCount: bytes.count, limits: limits,
                    hasAnim: WebPChunkScanner.hasAnimChunk(bytes)),
                index.frames.count == k
            {
                index.truncation = error
                describedCount = offset
                return index
            }
            throw error
        }()
        self = result
        metadataChunks = WebPMetadataChunks(bytes: UnsafeRawBufferPointer(rebasing: bytes[..<describedCount]))
    }

    /// Indexes the file `bytes`; when `keepsCutFirstFrame` (`DecodingOptions.showsPartialFirstFrame`)
    /// and the file is cut inside its first frame, the index of that frame as far as it
    /// arrived, returned with the frame. Throws what `init(bytes:limits:)` throws otherwise.
    static func index(
        bytes: UnsafeRawBufferPointer, limits: Limits,
        keepsCutFirstFrame: Bool
    ) throws(AnimatedImageError) -> (index: WebPIndex, cutFirstFrame: WebPFrameRecord?) {
        do {
            return (try WebPIndex(bytes: bytes, limits: limits), nil)
        } catch let error as AnimatedImageError {
            if keepsCutFirstFrame, case .truncated(_, 0, _) = error,
                let cut = partialFirstFrame(bytes: bytes, truncation: error, limits: limits)
            {
                return (cut.index, cut.frame)
            }
            throw error
        } catch {
            throw .invalidData(format: .webp, reason: "\(error)")
        }
    }

    /// What the allocation budget needs of this index: the largest frame that blends (its
    /// scratch raster) and the largest frame, in pixels. `table` is its `keyFrames`, when
    /// the caller has made it already.
    func budgetPixels(keyFrames table: KeyFrameTable? = nil) -> (scratch: Int, largest: Int) {
        let table = table ?? keyFrames
        let scratch =
            frames.indices.lazy.filter { !frames[$0].drawsBySource(isKeyFrame: table.isKeyFrame($0)) }
            .map { frames[$0].rect.width * frames[$0].rect.height }.max() ?? 0
        return (scratch, frames.lazy.map { $0.rect.width * $0.rect.height }.max() ?? 0)
    }

    /// The index of a file cut inside its first frame: that frame as far as it arrived
    /// (`WebPChunkWalker.partialFirstFrame`), with `truncation`; nil when the bytes do not
    /// get that far (no canvas, no frame header).
    static func partialFirstFrame(
        bytes b: UnsafeRawBufferPointer, truncation: AnimatedImageError,
        limits: Limits
    ) -> (index: WebPIndex, frame: WebPFrameRecord)? {
        var walker = WebPChunkWalker()
        guard (try? walker.advance(b)) != nil, walker.frames.isEmpty, let canvas = walker.canvas,
            (try? limits.checkSize(width: canvas.width, height: canvas.height, format: .webp)) != nil,
            let frame = walker.partialFirstFrame(b)
        else { return nil }
        var index = WebPIndex(
            canvasSize: canvas, frames: [frame], isAnimated: !walker.isStill,
            storedLoopCount: walker.isStill ? nil : walker.storedLoopCount, truncation: truncation)
        index.metadataChunks = WebPMetadataChunks(bytes: b)
        return (index, frame)
    }

    private init(
        canvasSize: PixelSize, frames: [WebPFrameRecord], isAnimated: Bool, storedLoopCount: Int?,
        truncation: AnimatedImageError?
    ) {
        self.canvasSize = canvasSize
        self.frames = frames
        self.isAnimated = isAnimated
        self.storedLoopCount = storedLoopCount
        self.truncation = truncation
    }

    /// Runs the demuxer over the first `count` bytes (a prefix of `fullCount`). Returns nil
    /// when libwebp rejects them; throws for limits and for files with no complete frame.
    private static func demux(
        base: UnsafeRawPointer, count: Int, fullCount: Int, limits: Limits,
        hasAnim: Bool
    ) throws -> WebPIndex? {
        let format = ImageFormat.webp
        var data = WebPData(bytes: base.assumingMemoryBound(to: UInt8.self), size: count)
        var state = WEBP_DEMUX_PARSING_HEADER
        // WebPDemuxPartial() is a static inline over this entry point; allow_partial = 1 so
        // a truncated file still yields its complete frames.
        guard let demuxer = WebPDemuxInternal(&data, 1, &state, WEBP_DEMUX_ABI_VERSION) else { return nil }
        defer { WebPDemuxDelete(demuxer) }
        guard state != WEBP_DEMUX_PARSING_HEADER else {
            throw AnimatedImageError.truncated(
                format: format, completeFrames: 0,
                reason: "the file ends inside its header (\(count) bytes)")
        }
        let canvas = PixelSize(
            width: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_WIDTH)),
            height: Int(WebPDemuxGetI(demuxer, WEBP_FF_CANVAS_HEIGHT)))
        try limits.checkSize(width: canvas.width, height: canvas.height, format: format)
        let flags = WebPDemuxGetI(demuxer, WEBP_FF_FORMAT_FLAGS)
        let isAnimated = flags & UInt32(ANIMATION_FLAG.rawValue) != 0
        let declaredFrames = Int(WebPDemuxGetI(demuxer, WEBP_FF_FRAME_COUNT))
        try limits.checkFrameCount(declaredFrames, format: format)
        // Total work per play (frames × canvas), refused before any frame is indexed.
        try limits.checkPixelsPerPlay(frameCount: declaredFrames, canvas: canvas, format: format)

        var frames: [WebPFrameRecord] = []
        frames.reserveCapacity(declaredFrames)
        var iter = WebPIterator()
        if WebPDemuxGetFrame(demuxer, 1, &iter) != 0 {
            defer { WebPDemuxReleaseIterator(&iter) }
            repeat {
                guard iter.complete != 0, let fragment = iter.fragment.bytes, iter.fragment.size >= 8 else { break }
                let offset = UnsafeRawPointer(fragment) - base
                // The image chunks start with "VP8 " only for lossy data without an ALPH chunk.
                let lossyOpaque = fragment[0] == 0x56 && fragment[1] == 0x50 && fragment[2] == 0x38 && fragment[3] == 0x20
                let entry = WebPFrameRecord(
                    payloadOffset: offset, payloadCount: iter.fragment.size,
                    rect: PixelRect(
                        x: Int(iter.x_offset), y: Int(iter.y_offset),
                        width: Int(iter.width), height: Int(iter.height)),
                    durationMs: isAnimated ? Int(iter.duration) : 0,
                    blend: iter.blend_method == WEBP_MUX_NO_BLEND ? .source : .over,
                    dispose: iter.dispose_method == WEBP_MUX_DISPOSE_BACKGROUND ? .background : .none,
                    hasAlpha: iter.has_alpha != 0,
                    isOpaqueLossy: lossyOpaque)
                // Frames must lie inside the canvas (the demuxer checks; this keeps the
                // compositor's input honest whatever the library version).
                guard entry.rect.x >= 0, entry.rect.y >= 0, entry.rect.width > 0, entry.rect.height > 0,
                    entry.rect.x + entry.rect.width <= canvas.width,
                    entry.rect.y + entry.rect.height <= canvas.height
                else {
                    throw AnimatedImageError.invalidData(
                        format: format, reason: "frame \(frames.count): \(entry.rect) reaches outside the \(canvas) canvas")
                }
                frames.append(entry)
            } while WebPDemuxNextFrame(&iter) != 0
        }

        var truncation: AnimatedImageError?
        if state != WEBP_DEMUX_DONE || count < fullCount {
            let riffEnd = 8 + Int(base.loadUnaligned(fromByteOffset: 4, as: UInt32.self).littleEndian)
            truncation = .truncated(
                format: format, completeFrames: frames.count,
                reason: "the file has \(count) bytes but its RIFF header declares \(riffEnd); "
                    + "frame \(frames.count) onwards is missing or incomplete")
        }
        guard !frames.isEmpty else {
            throw truncation ?? AnimatedImageError.invalidData(format: format, reason: "the file holds no frame")
        }
        let loop: Int? = isAnimated && hasAnim ? Int(WebPDemuxGetI(demuxer, WEBP_FF_LOOP_COUNT)) : nil
        return WebPIndex(
            canvasSize: canvas, frames: frames, isAnimated: isAnimated,
            storedLoopCount: loop, truncation: truncation)
    }

    /// The restart-point rule over these frames: libwebp's (`KeyFrameTable` without
    /// "dispose to previous" is exactly `IsKeyFrame` in libwebp's `anim_decode.c`), with key
    /// frames drawn by replacing their rectangle as libwebp's animation decoder draws them.
    var keyFrames: KeyFrameTable {
        KeyFrameTable(
            frames.map { FramePlacement(rect: $0.rect, dispose: $0.dispose, blend: $0.blend, isOpaque: !$0.hasAlpha) },
            canvasSize: canvasSize, keyFramesReplace: true)
    }
}
