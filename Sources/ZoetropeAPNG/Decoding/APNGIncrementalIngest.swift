import Zoetrope
import ZoetropeColor

/// The receiving side of an `APNGIncrementalSource`, behind its lock: the bytes, the
/// resumable chunk walker, and the frames that decode now with the snapshot describing them.
///
/// While the animation chunks are valid the frames are the animation's, each added once
/// its data is complete (frame 0 from IDAT when its IDAT run ends, any other frame at the
/// next fcTL or IEND). Once they turn out broken (a bad fcTL/fdAT, a sequence error, more
/// frames than acTL says, frame 0's data damaged, or at the end a count below acTL's) the
/// file is its still image, as the whole-file source shows it, and `revision` increases if
/// animation frames had been reported.
struct APNGIncrementalIngest: IncrementalIngesting {
    var bytes = IncrementalByteBuffer()
    var walker: APNGChunkWalker
    var snapshot = IncrementalSnapshot()
    /// The frames that decode now (nil before IHDR).
    var index: APNGIndex?
    /// The frames reported are the animation's (false: the still image, or none yet).
    var isAnimation = false
    var firstFrameDamaged = false
    var firstFrameChecked = false
    var budget = APNGSessionBudget()
    var opaqueFrames = false
    var final: APNGIndex?
    var failure: AnimatedImageError?
    /// Frame 0 while its data arrives (`DecodingOptions.showsPartialFirstFrame`).
    var partialFirstFrame: APNGFrameRecord?
    /// The colour conversion, settled once the colour chunks are behind (`settleColor`).
    var colorTransform: (any ColorTransform)?
    private var colorSettled = false
    static let format = ImageFormat.png
    let options: DecodingOptions

    init(options: DecodingOptions) {
        self.options = options
        walker = APNGChunkWalker(limits: options.limits)
    }

    mutating func advanceParser() throws(AnimatedImageError) -> Bool {
        try bytes.withBytes { raw throws(AnimatedImageError) in try walker.advance(raw) }
        return walker.isComplete
    }

    /// Brings the frames and the snapshot up to the walker.
    mutating func update() throws(AnimatedImageError) {
        if walker.offset >= 8 { snapshot.format = snapshot.format ?? .png }
        guard let header = walker.header else { return }
        if index == nil {
            index = APNGIndex(
                header: header, palette: nil, transparency: nil, frames: [], format: .png,
                numPlays: nil, fallbackReason: nil, truncation: nil)
            snapshot.canvasSize = header.size
        }
        if walker.idatState != .before { settleColor() }
        if walker.numFrames == nil, walker.idatState == .before { return }  // not known yet whether animated
        // PLTE and tRNS count only before IDAT, so they are final once a frame is.
        index!.palette = walker.palette
        index!.transparency = walker.transparency
        checkFirstFrame()
        if options.showsPartialFirstFrame, index!.frames.isEmpty, let partial = walker.partialFirstFrame {
            // Frame 0 while its IDAT run arrives: counted, drawn from the chunks so far.
            let animating = !walker.animationIgnored && walker.numFrames != nil && walker.animationError == nil
            snapshot.format = animating ? .apng : .png
            partialFirstFrame = partial
            snapshot.showPartialFirstFrame(lasting: partial.duration)
            return
        }
        if snapshot.endPartialFirstFrame() { partialFirstFrame = nil }
        let animating =
            !walker.animationIgnored && walker.numFrames != nil && walker.animationError == nil
            && !firstFrameDamaged && walker.frames.count <= Int(walker.numFrames!)
        if animating {
            snapshot.format = .apng
            snapshot.storedLoopValue = Int(walker.numPlays)
            snapshot.loopCount = walker.numPlays == 0 ? .infinite : .plays(Int(walker.numPlays))
            isAnimation = true
            var complete = walker.frames
            if complete.isEmpty, let p = walker.pending, p.usesIDAT, walker.idatState == .after { complete = [p] }
            try add(complete, format: .apng)
        } else {
            if isAnimation {
                // The animation is broken: the file is its still image from now on.
                if !index!.frames.isEmpty { snapshot.revision += 1 }
                isAnimation = false
                index!.frames = []
                snapshot.frameDurations = []
                budget = APNGSessionBudget()
            }
            snapshot.format = .png
            snapshot.loopCount = .once
            snapshot.storedLoopValue = nil
            guard walker.idatState == .after else { return }
            let still = APNGFrameRecord(
                rect: PixelRect(x: 0, y: 0, width: header.width, height: header.height),
                duration: .zero, dispose: .none, blend: .source, usesIDAT: true, chunks: [])
            try add([still], format: .png)
        }
    }

    /// Reads the colour chunks (all before the image data) into the snapshot and makes the
    /// conversion, as the whole-file source does at open.
    private mutating func settleColor() {
        guard !colorSettled else { return }
        colorSettled = true
        let color = walker.colorChunks.color
        let (transform, warning) = ColorManagement.prepare(color, options: options, precedence: .rule(for: .png))
        colorTransform = transform
        snapshot.color = color
        snapshot.bitsPerChannel = walker.header?.bitDepth == 16 ? 16 : 8
        snapshot.warnings += walker.colorChunks.warnings + (warning.map { [$0] } ?? [])
    }

    /// Adds the records of `complete` past those already reported.
    private mutating func add(_ complete: [APNGFrameRecord], format: ImageFormat) throws(AnimatedImageError) {
        let known = index!.frames.count
        guard complete.count > known else { return }
        let header = index!.header
        index!.format = format
        opaqueFrames = !header.hasAlphaChannel && index!.transparency == nil
        let full = PixelRect(x: 0, y: 0, width: header.width, height: header.height)
        for var record in complete[known...] {
            if record.usesIDAT { record.chunks = walker.idatChunks }
            index!.frames.append(record)
            budget.add(record, index: index!)
            snapshot.frameDurations.append(record.duration)
            if !opaqueFrames || index!.frames[0].rect != full || record.dispose == .background { snapshot.hasAlpha = true }
        }
        if snapshot.hasAlpha == nil { snapshot.hasAlpha = false }
        try budget.check(canvas: header.size, format: format, options: options)
    }

    /// Checks the CRCs of frame 0's fdAT data once the frame is complete: a damaged chunk
    /// there means there is no animation to show (the whole-file rule).
    private mutating func checkFirstFrame() {
        guard !firstFrameChecked, let first = walker.frames.first else { return }
        firstFrameChecked = true
        guard !first.usesIDAT else { return }
        firstFrameDamaged = bytes.withBytes { file in
            first.chunks.contains { $0.idatCRC(data: UnsafeRawBufferPointer(rebasing: file[$0.range])) == nil }
        }
    }

    /// Makes the index final (IEND was read, or the data ended): the whole-file result.
    mutating func complete() throws(AnimatedImageError) {
        var walker = self.walker
        walker.keepsCutFirstFrame = options.showsPartialFirstFrame
        partialFirstFrame = nil
        let final = try bytes.withBytes { raw throws(AnimatedImageError) in try walker.finish(raw) }
        var budget = APNGSessionBudget()
        for f in final.frames { budget.add(f, index: final) }
        try budget.check(canvas: final.header.size, format: final.format, options: options)
        if isAnimation, final.format == .png, !(index?.frames.isEmpty ?? true) { snapshot.revision += 1 }
        self.final = final
        index = final
        snapshot = IncrementalSnapshot(
            state: .complete, receivedByteCount: bytes.count, format: final.format, canvasSize: final.header.size,
            frameDurations: final.frames.map(\.duration),
            loopCount: final.numPlays.map { $0 == 0 ? .infinite : .plays(Int($0)) } ?? .once,
            storedLoopValue: final.numPlays.map(Int.init), hasAlpha: APNGFrameSource.hasAlpha(final),
            truncation: final.truncation, revision: snapshot.revision)
        // The whole-file info's colour and warnings (colour chunks out of place after the
        // image data add warnings at the end).
        let (transform, warning) = ColorManagement.prepare(final.color, options: options, precedence: .rule(for: .png))
        if !colorSettled { colorTransform = transform }
        colorSettled = true
        snapshot.color = final.color
        snapshot.bitsPerChannel = final.header.bitDepth == 16 ? 16 : 8
        snapshot.warnings = final.colorWarnings + (warning.map { [$0] } ?? [])
        snapshot.metadata = final.metadata
    }
}
