import CAVIF
import Foundation
import Zoetrope

extension AVIFCoder {
    /// libavif's `maxThreads` when `DecodingOptions.threadCount` is nil, by frame size.
    ///
    /// Measured on two cores in one alternating run (Docs/Benchmarks.md): below about a
    /// megapixel, dav1d's second thread costs 1.5–1.9× the CPU and loses (128×128: 2384 fps
    /// at 1 thread vs 1387 at 2; 756×304: 1774 vs 1193); at 1920×1080 it wins (187 vs 147).
    /// With two or more threads, sequences of at least `pipelineMinimumPixels` pixels also
    /// convert each frame to RGBA while the next one decodes on a separate thread (libavif
    /// 0.11 runs dav1d without frame threading, so this is the overlap it leaves unused).
    package static func defaultThreadCount(forFramePixels pixels: Int) -> Int {
        pixels >= multithreadMinimumPixels ? 2 : 1
    }

    /// Frames of at least this many pixels decode with two threads by default.
    package static let multithreadMinimumPixels = 1_000_000

    /// Below this many pixels per frame the RGBA conversion is too small a share of the
    /// work to win back the cost of handing frames between threads (measured: 128×128 loses).
    package static let pipelineMinimumPixels = 256 * 256

    func makeAVIFFrameSource(data: Data, options: DecodingOptions) throws(AnimatedImageError) -> AVIFFrameSource {
        let limits = options.limits
        guard !data.isEmpty else { throw .insufficientData(format: .avif, needed: 16, available: 0) }
        let parsed = data.withUnsafeBytes { raw in
            Result { () throws(AnimatedImageError) -> AVIFContainer in try AVIFContainer.parse(raw) }
        }
        let container = try parsed.get()
        // A file cut inside its last box (normally mdat) is padded with zeros to the size the
        // box declares, because libavif 0.11 refuses sample tables that point past the end.
        // Only frames whose data was really there are offered (see below).
        let storedSize = max(data.count, container.cutBox?.end ?? 0)
        try limits.checkAllocation(storedSize, format: .avif)
        let file = data.withUnsafeBytes { AVIFFileBytes(copying: $0, count: storedSize) }
        for track in container.tracksToHide { file.hideBox(at: track.box.start) }

        // A sequence wins over a still item in the same file; a still-only file is a still.
        let isSequence = container.colourTrack != nil
        if let colour = container.colourTrack {
            // Typed limit errors before libavif (whose own limits are a backstop) allocates anything.
            try limits.checkSize(width: colour.width, height: colour.height, format: .avif)
            try limits.checkFrameCount(colour.sampleCount, format: .avif)
        }
        let pixels = (container.colourTrack?.width ?? 0) * (container.colourTrack?.height ?? 0)
        let threads = options.threadCount ?? AVIFCoder.defaultThreadCount(forFramePixels: pixels)
        // With two or more threads, a sequence of large frames pipelines: frame i converts to
        // RGBA on the caller's thread while libavif decodes frame i+1 on another.
        let pipelined = isSequence && threads >= 2 && (container.colourTrack?.sampleCount ?? 0) > 1
            && pixels >= AVIFCoder.pipelineMinimumPixels
        let session = try AVIFDecoderSession(file: file, source: isSequence ? AVIF_DECODER_SOURCE_TRACKS : AVIF_DECODER_SOURCE_PRIMARY_ITEM,
                                             threads: threads, limits: limits)
        let decoder = session.decoder.pointee
        let image = decoder.image.pointee
        let canvas = PixelSize(width: Int(image.width), height: Int(image.height))
        guard canvas.width > 0, canvas.height > 0 else {
            throw .invalidData(format: .avif, reason: "the image has no size (\(canvas))")
        }
        try limits.checkSize(width: canvas.width, height: canvas.height, format: .avif)
        var count = Int(decoder.imageCount)
        try limits.checkFrameCount(count, format: .avif)
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
        let frameBytes = canvas.rgbaByteCount ?? .max
        let downsampling = options.outputSize(forCanvas: canvas) != canvas
        // YUV(A) planes: libavif's, plus Zoetrope's copy of them when pipelining.
        let planeBytes = (canvas.pixelCount ?? .max).multipliedReportingOverflow(by: (image.depth > 8 ? 2 : 1) * 4 * (pipelined ? 2 : 1))
        let total = [storedSize, frameBytes, downsampling ? frameBytes : 0, planeBytes.overflow ? .max : planeBytes.partialValue]
            .reduce(0) { a, b in let (s, o) = a.addingReportingOverflow(b); return o ? .max : s }
        try limits.checkAllocation(total, format: .avif)

        var durations: [FrameDuration] = []
        var loopCount = LoopCount.once
        var stored: Int?
        if isSequence {
            durations.reserveCapacity(count)
            for i in 0..<count {
                var timing = avifImageTiming()
                let r = avifDecoderNthImageTiming(session.decoder, UInt32(i), &timing)
                guard r == AVIF_RESULT_OK else { throw AVIFResultError.make(r, session.decoder, during: "timing of frame \(i)") }
                durations.append(FrameDuration(numerator: Int64(clamping: timing.durationInTimescales),
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
        session.frameCount = count
        session.pipelined = pipelined && count > 1
        let info = AnimationInfo(format: .avif, canvasSize: canvas, frameDurations: durations, loopCount: loopCount,
                                 storedLoopValue: stored, hasAlpha: decoder.alphaPresent == AVIF_TRUE,
                                 truncation: truncation)
        return AVIFFrameSource(info: info, options: options, session: session)
    }
}
