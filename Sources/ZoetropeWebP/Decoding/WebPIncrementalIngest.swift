import Zoetrope
import ZoetropeColor

/// The receiving side of a `WebPIncrementalSource`, behind its lock: the bytes, the
/// resumable chunk walker, and the frames that decode now with the snapshot describing them.
///
/// Frames are the walker's, each added once its `ANMF` chunk (or the still image's chunk)
/// is complete, with the limits and the allocation budget checked as they arrive. The index
/// is made final from the bytes received, once, with the whole-file `WebPIndex`: when the
/// RIFF end arrives, when the data ends (`finish()`), or as soon as a chunk the demuxer
/// rejects is complete and the whole-file diagnosis of the bytes through it names that
/// chunk (which the bytes after it cannot change).
struct WebPIncrementalIngest: IncrementalIngesting {
    var bytes = IncrementalByteBuffer()
    var walker = WebPChunkWalker()
    var snapshot = IncrementalSnapshot()
    /// The frames that decode: the walker's, or the final index's once complete.
    var frames: [WebPFrameRecord] = []
    var final: WebPIndex?
    var failure: AnimatedImageError?
    /// The whole-file outcome found from the bytes through a rejected chunk.
    private var early: Result<WebPIndex, AnimatedImageError>?
    /// The restart rule over the frames so far, for the budget's scratch raster.
    private var keyFrames: KeyFrameTable?
    private var scratchPixels = 0, largestFrame = 0
    /// Set when a limit was passed on bytes whose whole-file outcome is another error: no
    /// more frames are reported, and the whole-file index decides at the end.
    private var limitDeferred = false
    /// Frame 0 while its image chunk arrives (`DecodingOptions.showsPartialFirstFrame`).
    var partialFirstFrame: WebPFrameRecord?
    /// The colour conversion, settled when frame 0 is first reported (whole or partial): the
    /// `ICCP` chunk comes before the image data.
    var colorTransform: (any ColorTransform)?
    private var settledColor: ColorInfo?
    static let format = ImageFormat.webp
    let options: DecodingOptions

    init(options: DecodingOptions) {
        self.options = options
    }

    mutating func advanceParser() throws(AnimatedImageError) -> Bool {
        try bytes.withBytes { raw throws(AnimatedImageError) in try walker.advance(raw) }
        if case .rejected(let through) = walker.mode {
            if let outcome = bytes.withBytes({ diagnose(UnsafeRawBufferPointer(rebasing: $0[..<through])) }) {
                early = outcome
                return true
            }
            walker.stopReporting()
        }
        return walker.isComplete(received: bytes.count)
    }

    /// The whole-file outcome for a file whose first bytes are `prefix`, ending with a chunk
    /// the demuxer rejects, when the diagnosis names a chunk of `prefix` (so no later byte
    /// changes it); nil when it does not.
    private func diagnose(_ prefix: UnsafeRawBufferPointer) -> Result<WebPIndex, AnimatedImageError>? {
        func named(_ error: AnimatedImageError?) -> Bool {
            guard case .invalidData(_, let reason)? = error else { return false }
            // A chunk reaching past the data is named with the data's length: not decided yet.
            return reason != WebPChunkScanner.genericReason && !reason.contains(WebPChunkScanner.pastTheEnd)
        }
        do {
            let index = try WebPIndex(bytes: prefix, limits: options.limits)
            return named(index.truncation) ? .success(index) : nil
        } catch let error as AnimatedImageError {
            return named(error) ? .failure(error) : nil
        } catch {
            return nil
        }
    }

    /// Brings the frames and the snapshot up to the walker (`updateFrames`). A passed limit
    /// fails the session at once when the whole-file source reports a limit for the bytes
    /// so far too. It checks limits only on a file libwebp's demuxer takes, so when it
    /// reports another error (a chunk the demuxer refuses) the limit is not the file's error:
    /// no more frames are reported, and the whole-file index decides at the end.
    mutating func update() throws(AnimatedImageError) {
        guard !limitDeferred else { return }
        do {
            try updateFrames()
        } catch {
            guard case .limitExceeded = error, !wholeFileReportsALimit() else { throw error }
            limitDeferred = true
            walker.stopReporting()
            if snapshot.endPartialFirstFrame() { partialFirstFrame = nil }
        }
    }

    /// Whether the whole-file source (index, then budget, as `complete()`) fails the bytes
    /// received with a passed limit.
    private func wholeFileReportsALimit() -> Bool {
        let limits = options.limits
        return bytes.withBytes { raw -> Bool in
            do {
                let index = try WebPIndex(bytes: raw, limits: limits)
                let (scratch, largest) = index.budgetPixels()
                try WebPFrameSource.checkBudget(
                    canvas: index.canvasSize, scratchPixels: scratch, largestFrame: largest,
                    limits: limits)
                return false
            } catch AnimatedImageError.limitExceeded {
                return true
            } catch {
                return false
            }
        }
    }

    /// Brings the frames and the snapshot up to the walker, checking the limits and the
    /// allocation budget before each frame is added (a frame past a limit is not added).
    private mutating func updateFrames() throws(AnimatedImageError) {
        let limits = options.limits
        if walker.riffEnd != nil { snapshot.format = .webp }
        if snapshot.canvasSize == nil { snapshot.canvasSize = walker.canvas }
        if walker.isStill {
            snapshot.loopCount = .once
        } else if let loop = walker.storedLoopCount, snapshot.storedLoopValue == nil {
            snapshot.storedLoopValue = loop
            snapshot.loopCount = loop == 0 ? .infinite : .plays(loop)
        }
        if options.showsPartialFirstFrame, frames.isEmpty, walker.frames.isEmpty,
            let partial = bytes.withBytes({ walker.partialFirstFrame($0) }), let canvas = walker.canvas
        {
            // Frame 0 while it arrives: counted, drawn from the rows decoded so far.
            try limits.checkSize(width: canvas.width, height: canvas.height, format: .webp)
            settleColor()
            partialFirstFrame = partial
            snapshot.showPartialFirstFrame(lasting: .milliseconds(Int64(partial.durationMs)))
            return
        }
        if snapshot.endPartialFirstFrame() { partialFirstFrame = nil }
        guard walker.frames.count > frames.count, let canvas = walker.canvas else { return }
        // The canvas limit is checked with the first frame, once the demuxer would take the
        // file so far (the whole-file source checks it then, and reports a refused file's
        // error instead).
        if frames.isEmpty {
            try limits.checkSize(width: canvas.width, height: canvas.height, format: .webp)
            settleColor()
        }
        var table = keyFrames ?? KeyFrameTable([], canvasSize: canvas, keyFramesReplace: true)
        // A throw leaves `keyFrames` as it was: the session then fails or reports no more frames.
        for record in walker.frames[frames.count...] {
            let i = frames.count
            try limits.checkFrameCount(i + 1, format: .webp)
            try limits.checkPixelsPerPlay(frameCount: i + 1, canvas: canvas, format: .webp)
            table.append(
                FramePlacement(
                    rect: record.rect, dispose: record.dispose, blend: record.blend,
                    isOpaque: !record.hasAlpha))
            let pixels = record.rect.width * record.rect.height
            let largest = max(largestFrame, pixels)
            let scratch = record.drawsBySource(isKeyFrame: table.isKeyFrame(i)) ? scratchPixels : max(scratchPixels, pixels)
            try WebPFrameSource.checkBudget(canvas: canvas, scratchPixels: scratch, largestFrame: largest, limits: limits)
            (largestFrame, scratchPixels) = (largest, scratch)
            frames.append(record)
            snapshot.frameDurations.append(.milliseconds(Int64(record.durationMs)))
            if record.hasAlpha { snapshot.hasAlpha = true }
        }
        keyFrames = table
        if snapshot.hasAlpha == nil { snapshot.hasAlpha = false }
    }

    /// Makes the index final: the whole-file index of the bytes received (or of the bytes
    /// through the rejected chunk that decided it), with the whole-file source's budget.
    mutating func complete() throws(AnimatedImageError) {
        partialFirstFrame = nil
        let index: WebPIndex
        if let early {
            index = try early.get()
        } else {
            let limits = options.limits, keepsPartial = options.showsPartialFirstFrame
            // A file cut inside its first frame keeps that frame as far as it arrived, when asked.
            (index, partialFirstFrame) = try bytes.withBytes { raw throws(AnimatedImageError) in
                try WebPIndex.index(bytes: raw, limits: limits, keepsCutFirstFrame: keepsPartial)
            }
        }
        let (scratch, largest) = index.budgetPixels()
        try WebPFrameSource.checkBudget(
            canvas: index.canvasSize, scratchPixels: scratch, largestFrame: largest,
            limits: options.limits)
        // Frames reported that the whole-file index does not have (the walker could not tell):
        // withdrawn, as an APNG falling back to its still image withdraws them.
        var revision = snapshot.revision
        if !frames.isEmpty,
            index.frames.count < frames.count || Array(index.frames[..<frames.count]) != frames
                || index.canvasSize != snapshot.canvasSize
        {
            revision += 1
        }
        final = index
        frames = index.frames
        let cutFirstFrame = partialFirstFrame != nil
        snapshot = IncrementalSnapshot(
            state: .complete, receivedByteCount: bytes.count, format: .webp, canvasSize: index.canvasSize,
            frameDurations: index.frames.map { .milliseconds(Int64($0.durationMs)) }, loopCount: index.loopCount,
            storedLoopValue: index.storedLoopCount, hasAlpha: index.hasAlpha, truncation: index.truncation,
            revision: revision)
        snapshot.firstFrameIsPartial = cutFirstFrame
        // The whole file's colour and its warnings (a profile that cannot be converted). A
        // profile found only past the frames changes the frames already reported: they are
        // withdrawn and decoded again, converted.
        let color = index.metadataChunks.color
        let (transform, warning) = ColorManagement.prepare(color, options: options)
        if let settledColor, settledColor != color { snapshot.revision += 1 }
        settledColor = color
        colorTransform = transform
        snapshot.color = color
        if let warning { snapshot.warnings.append(warning) }
        snapshot.metadata = index.metadataChunks.metadata
    }

    /// Reads the colour the file declares so far and makes the conversion, once, before
    /// frame 0 is reported.
    private mutating func settleColor() {
        guard settledColor == nil else { return }
        let color = bytes.withBytes { WebPMetadataChunks(bytes: $0).color }
        let (transform, warning) = ColorManagement.prepare(color, options: options)
        settledColor = color
        colorTransform = transform
        snapshot.color = color
        if let warning { snapshot.warnings.append(warning) }
    }
}
