import CAVIF
import Zoetrope
import ZoetropeColor

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension AVIFCoder {
    /// libavif's `maxThreads` when `DecodingOptions.threadCount` is nil, by frame size
    /// (`DecoderTuning.avifThreads(forFramePixels:availableCores:)`), never more than the
    /// cores the process may use.
    package static func defaultThreadCount(
        forFramePixels pixels: Int, tuning: DecoderTuning = .standard,
        availableCores: Int = ProcessorBudget.availableCores
    ) -> Int {
        tuning.avifThreads(forFramePixels: pixels, availableCores: availableCores)
    }

    func makeAVIFFrameSource(data: Data, options: DecodingOptions) throws(AnimatedImageError) -> AVIFFrameSource {
        let limits = options.limits
        guard !data.isEmpty else { throw .insufficientData(format: .avif, needed: 16, available: 0) }
        let parsed = data.withUnsafeBytes { raw in
            Result { () throws(AnimatedImageError) -> AVIFIndex in try AVIFIndex.parse(raw) }
        }
        let container = try parsed.get()
        // A file cut inside its last box (normally mdat, or a trailing free box whose header
        // claims far more than is there) has that box clamped to the end of the file in
        // Zoetrope's copy, because libavif 0.11 refuses a box that reaches past the end; for a
        // sequence, libavif's reader reports the size the box claimed, which its sample tables
        // are checked against (AVIFFileIO). Memory is the file's size, never the size a header
        // claims; only frames whose data is really there are offered (see below).
        let storedSize = data.count
        try limits.checkAllocation(storedSize, format: .avif)
        let file = data.withUnsafeBytes { AVIFFileBytes(copying: $0) }
        if let cut = container.cutBox { file.clampBox(cut) }
        for track in container.tracksToHide { file.hideBox(at: track.box.start) }
        for patch in container.patches { file.apply(patch) }

        // A sequence wins over a still item in the same file; a still-only file is a still.
        let isSequence = container.colourTrack != nil
        if let colour = container.colourTrack {
            // Typed limit errors before libavif (whose own limits are a backstop) allocates anything.
            try limits.checkSize(width: colour.width, height: colour.height, format: .avif)
            try limits.checkFrameCount(colour.sampleCount, format: .avif)
        }
        let pixels = (container.colourTrack?.width ?? 0) * (container.colourTrack?.height ?? 0)
        let threads = options.threadCount ?? AVIFCoder.defaultThreadCount(forFramePixels: pixels, tuning: options.tuning)
        // Stills read their item through libavif's extent merging, which allocates what the
        // extents claim: their hint stays the real size.
        let sizeHint = isSequence ? max(data.count, container.cutBox?.end ?? 0) : data.count
        let session: AVIFDecodeState
        let source = isSequence ? AVIF_DECODER_SOURCE_TRACKS : AVIF_DECODER_SOURCE_PRIMARY_ITEM
        do throws(AnimatedImageError) {
            // With the Exif and XMP items (`AnimationInfo.metadata`). An item libavif cannot
            // read fails its parse: the file then opens without them (the parse that
            // skips them), as browsers show it.
            session = try AVIFDecodeState(
                file: file, sizeHint: sizeHint, source: source, threads: threads, limits: limits,
                readsMetadata: true)
        } catch {
            do throws(AnimatedImageError) {
                session = try AVIFDecodeState(file: file, sizeHint: sizeHint, source: source, threads: threads, limits: limits)
            } catch {
                throw AVIFCoder.explainParseFailure(error, data: data, isCut: container.cutBox != nil)
            }
        }
        let decoder = session.decoder.pointee
        let image = decoder.image.pointee
        let canvas = PixelSize(width: Int(image.width), height: Int(image.height))
        guard canvas.width > 0, canvas.height > 0 else {
            throw .invalidData(format: .avif, reason: "the image has no size (\(canvas))")
        }
        try limits.checkSize(width: canvas.width, height: canvas.height, format: .avif)
        var count = Int(decoder.imageCount)
        try limits.checkFrameCount(count, format: .avif)
        try limits.checkPixelsPerPlay(frameCount: count, canvas: canvas, format: .avif)
        guard count > 0 else { throw .invalidData(format: .avif, reason: "the file holds no image") }
        // A file cut short: keep the frames whose samples (and those they depend on) are all there.
        var truncation: AnimatedImageError?
        if container.cutBox != nil {
            for i in 0..<count {
                var extent = avifExtent()
                let r = avifDecoderNthImageMaxExtent(session.decoder, UInt32(i), &extent)
                let (end, overflow) = Int(clamping: extent.offset).addingReportingOverflow(extent.size)
                if r != AVIF_RESULT_OK || overflow || end > data.count {
                    let reason = "the file ends (at \(data.count) bytes) inside the data of frame \(i) of \(count)"
                    guard i > 0 else { throw .truncated(format: .avif, completeFrames: 0, reason: reason) }
                    truncation = .truncated(format: .avif, completeFrames: i, reason: reason)
                    count = i
                    break
                }
            }
        }
        // The file copy, one RGBA frame (two when downsampling), and libavif's YUV(A) planes.
        var budget = AllocationBudget(limits: limits, format: .avif)
        budget.reserve(storedSize)
        // Deep output: 16-bit RGBA, twice the bytes.
        let deep = options.pixelFormat.channelDepth.bytesPerChannel
        budget.reserve((options.outputSize(forCanvas: canvas) != canvas ? 2 : 1) * deep, bytesEach: canvas.rgbaByteCount)
        // libavif's YUV(A) planes.
        // (When the pixel count does not fit, the frame bytes above already overflowed.)
        budget.reserve(canvas.pixelCount ?? 0, bytesEach: (image.depth > 8 ? 2 : 1) * 4)
        try budget.check()

        var durations: [FrameDuration] = []
        var loopCount = LoopCount.once
        var stored: Int?
        if isSequence {
            durations.reserveCapacity(count)
            for i in 0..<count {
                var timing = avifImageTiming()
                let r = avifDecoderNthImageTiming(session.decoder, UInt32(i), &timing)
                guard r == AVIF_RESULT_OK else { throw AVIFResultError.make(r, session.decoder, during: "timing of frame \(i)") }
                durations.append(
                    FrameDuration(
                        numerator: Int64(clamping: timing.durationInTimescales),
                        denominator: Int64(clamping: timing.timescale)))
            }
            loopCount = try container.loopCount()
            if container.colourTrack?.editList != nil {
                stored = loopCount.finitePlays.map { $0 - 1 } ?? -1
            }
        } else {
            // A still has no stored duration.
            durations = Array(repeating: .zero, count: count)
        }
        session.setFrameCount(count)
        var info = AnimationInfo(
            format: .avif, canvasSize: canvas, frameDurations: durations, loopCount: loopCount,
            storedLoopValue: stored, hasAlpha: decoder.alphaPresent == AVIF_TRUE,
            truncation: truncation, color: AVIFImageDescription.color(of: image),
            metadata: AVIFImageDescription.metadata(of: image), bitsPerChannel: Int(image.depth))
        // Whatever colour the info declares (an ICC profile before nclx, as libavif and Chromium).
        session.colorTransform = ColorManagement.prepare(&info, options: options)
        return AVIFFrameSource(info: info, options: options, session: session)
    }

    /// libavif reports "Truncated data" when it reaches the end of a file without finding
    /// what it needs. For a file that is not cut short, that is the wrong word: say what is
    /// wrong instead (boxes nested too deep, a box past its parent's end), or at least that
    /// the file is complete but holds no structure libavif can use.
    static func explainParseFailure(_ error: AnimatedImageError, data: Data, isCut: Bool) -> AnimatedImageError {
        guard !isCut, case .truncated(_, 0, let reason) = error else { return error }
        let problem = data.withUnsafeBytes { ISOBoxNesting.problem(in: $0, range: 0..<$0.count) }
        return .invalidData(
            format: .avif,
            reason: problem
                ?? "the file is complete, but libavif found no image structure it can use in it (it says: \(reason))")
    }
}
