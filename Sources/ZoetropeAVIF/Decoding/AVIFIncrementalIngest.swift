import CAVIF
import Zoetrope
import ZoetropeColor

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The receiving side of an `AVIFIncrementalSource`, behind its lock: the bytes, the
/// resumable top-level scan, the metadata once parsed, and the snapshot.
///
/// The format is known once `ftyp` names `avif` or `avis`. When the boxes libavif's parse
/// reads are all in (`AVIFTopLevelScanner.parsePoint`), Zoetrope's own reading of them
/// (`AVIFIndex`) and libavif's parse run once: the canvas, the frame count, the alpha, the
/// plays and the limits are known from then on, and frame *k* is added once the bytes it
/// needs (libavif's extent for it, the same test the whole-file source applies to a file
/// cut short) have all arrived. Metadata that `AVIFIndex` or libavif refuses shows no frame;
/// `finish()` then gives the whole-file error. `finish()` opens the whole-file source over
/// the bytes received, whose info and frames are the session's from then on.
struct AVIFIncrementalIngest: IncrementalIngesting {
    var bytes = IncrementalByteBuffer()
    var scanner = AVIFTopLevelScanner()
    var snapshot = IncrementalSnapshot()
    /// The whole-file source over the bytes received, once the data is complete.
    var final: AVIFFrameSource?
    var failure: AnimatedImageError?
    static let format = ImageFormat.avif
    let options: DecodingOptions
    /// What the decoding side needs, once the metadata is parsed.
    var plan: AVIFIncrementalPlan?
    private var metadata: AVIFMetadataDecoder?
    /// The metadata could not be read: nothing shows before `finish()`.
    private var deferred = false
    /// Bytes of the YUV(A) planes per frame (0 before the metadata), for the allocation budget.
    private var planeBytesEach = 0
    /// Where the bytes the next frame needs end (nil: not asked yet).
    private var nextFrameEnd: Int?
    /// `meta`/`moov` payload bytes read by the metadata parse (once).
    private var metadataBytes = 0

    init(options: DecodingOptions) {
        self.options = options
    }

    /// Bytes examined so far: box headers, `ftyp`, and `meta`/`moov` once parsed.
    var bytesExamined: Int { scanner.bytesExamined + metadataBytes }

    mutating func advanceParser() throws(AnimatedImageError) -> Bool {
        try bytes.withBytes { raw throws(AnimatedImageError) in try scanner.advance(raw) }
        return false  // AVIF has no end marker: the data ends when `finish()` says so.
    }

    mutating func update() throws(AnimatedImageError) {
        if snapshot.format == nil, scanner.isAVIF { snapshot.format = .avif }
        guard !deferred else { return }
        if metadata == nil {
            guard let point = scanner.parsePoint else { return }
            try openMetadata(upTo: point)
        }
        guard let metadata, let plan else { return }
        try checkBudget(canvas: plan.canvas)
        while snapshot.frameCount < plan.frameCount {
            let index = snapshot.frameCount
            if nextFrameEnd == nil { nextFrameEnd = metadata.extentEnd(of: index) ?? .max }
            guard nextFrameEnd! <= bytes.count else { return }
            nextFrameEnd = nil
            snapshot.frameDurations.append(plan.isSequence ? try metadata.duration(of: index) : .zero)
        }
    }

    /// Reads the metadata (the boxes before `point` are all in) the way the whole-file
    /// source does, and checks the limits as soon as each value is known.
    private mutating func openMetadata(upTo point: Int) throws(AnimatedImageError) {
        let prefix = bytes.prefix
        let parsed = prefix.withBytes { raw in
            Result { () throws(AnimatedImageError) -> AVIFIndex in try AVIFIndex.parse(UnsafeRawBufferPointer(rebasing: raw[0..<point])) }
        }
        guard case .success(let container) = parsed else {
            deferred = true
            return
        }
        let limits = options.limits
        if let colour = container.colourTrack {
            try limits.checkSize(width: colour.width, height: colour.height, format: .avif)
            try limits.checkFrameCount(colour.sampleCount, format: .avif)
        }
        let isSequence = container.colourTrack != nil
        var loopCount = LoopCount.once
        var stored: Int?
        if isSequence {
            guard let plays = try? container.loopCount() else {
                deferred = true
                return
            }
            loopCount = plays
            if container.colourTrack?.editList != nil { stored = plays.finitePlays.map { $0 - 1 } ?? -1 }
        }
        let overlays = AVIFGrowingIO.overlays(for: container)
        try LibAVIF.load()
        let parsedMetadata: AVIFMetadataDecoder
        switch AVIFMetadataDecoder.parse(prefix, overlays: overlays, sequence: isSequence, limits: limits) {
        case .parsed(let m): parsedMetadata = m
        case .waiting: return
        case .failed:
            deferred = true
            return
        }
        let decoder = parsedMetadata.decoder.pointee
        let image = decoder.image.pointee
        let canvas = PixelSize(width: Int(image.width), height: Int(image.height))
        let count = Int(decoder.imageCount)
        guard canvas.width > 0, canvas.height > 0 else {
            deferred = true
            return
        }
        try limits.checkSize(width: canvas.width, height: canvas.height, format: .avif)
        try limits.checkFrameCount(count, format: .avif)
        try limits.checkPixelsPerPlay(frameCount: count, canvas: canvas, format: .avif)
        guard count > 0 else {
            deferred = true
            return
        }
        let pixels = (container.colourTrack?.width ?? 0) * (container.colourTrack?.height ?? 0)
        let threads = options.threadCount ?? AVIFCoder.defaultThreadCount(forFramePixels: pixels, tuning: options.tuning)
        planeBytesEach = (image.depth > 8 ? 2 : 1) * 4
        metadataBytes = metadataPayloadBytes(upTo: point)
        metadata = parsedMetadata
        // The colour the whole-file source reads from the same parse (an ICC profile before nclx).
        let color = AVIFImageDescription.color(of: image)
        let (transform, warning) = ColorManagement.prepare(color, options: options)
        plan = AVIFIncrementalPlan(
            overlays: overlays, isSequence: isSequence, threads: threads, canvas: canvas, frameCount: count,
            colorTransform: transform)
        snapshot.color = color
        snapshot.bitsPerChannel = Int(image.depth)
        if let warning { snapshot.warnings.append(warning) }
        snapshot.format = .avif
        snapshot.canvasSize = canvas
        snapshot.hasAlpha = decoder.alphaPresent == AVIF_TRUE
        snapshot.loopCount = loopCount
        snapshot.storedLoopValue = stored
    }

    /// The payloads of the `meta` and `moov` boxes before `point`, read by the metadata parse.
    private func metadataPayloadBytes(upTo point: Int) -> Int {
        bytes.withBytes { raw in
            let top =
                (try? ISOBoxScanner.boxes(
                    in: UnsafeRawBufferPointer(rebasing: raw[0..<point]), range: 0..<point,
                    parent: "file", tolerateTruncation: true
                ).boxes) ?? []
            return top.filter { $0.type == ISOBox.code("meta") || $0.type == ISOBox.code("moov") }.reduce(0) { $0 + $1.payload.count }
        }
    }

    /// The whole-file source's allocation budget, with the bytes received so far as the file.
    private func checkBudget(canvas: PixelSize) throws(AnimatedImageError) {
        var budget = AllocationBudget(limits: options.limits, format: .avif)
        budget.reserve(bytes.count)
        budget.reserve(options.outputSize(forCanvas: canvas) != canvas ? 2 : 1, bytesEach: canvas.rgbaByteCount)
        budget.reserve(canvas.pixelCount ?? 0, bytesEach: planeBytesEach)
        try budget.check()
    }

    /// Ends the data: the whole-file source over the bytes received.
    mutating func complete() throws(AnimatedImageError) {
        let options = self.options
        let source = try bytes.prefix.withBytes { raw throws(AnimatedImageError) -> AVIFFrameSource in
            let data =
                raw.isEmpty
                ? Data()
                : Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: raw.baseAddress!), count: raw.count, deallocator: .none)
            return try AVIFCoder().makeAVIFFrameSource(data: data, options: options)
        }
        let info = source.info
        var revision = snapshot.revision
        if info.frameCount < snapshot.frameCount { revision += 1 }
        final = source
        snapshot = IncrementalSnapshot(
            state: .complete, receivedByteCount: bytes.count, format: info.format, canvasSize: info.canvasSize,
            frameDurations: info.frameDurations, loopCount: info.loopCount, storedLoopValue: info.storedLoopValue,
            hasAlpha: info.hasAlpha, truncation: info.truncation, warnings: info.warnings, revision: revision)
        snapshot.color = info.color
        snapshot.metadata = info.metadata
        snapshot.bitsPerChannel = info.bitsPerChannel
    }
}
