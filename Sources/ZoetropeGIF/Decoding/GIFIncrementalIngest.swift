import Zoetrope
import ZoetropeColor

/// The receiving side of a `GIFIncrementalSource`, behind its lock: the bytes, the
/// parser, and the snapshot kept up to date frame by frame.
struct GIFIncrementalIngest: IncrementalIngesting {
    var bytes = IncrementalByteBuffer()
    var parser: GIFIndexParser
    var snapshot = IncrementalSnapshot()
    /// The frames that decode: the parser's, or the final index's once complete.
    var frames: [GIFFrameRecord] = []
    /// The final index, once the parser is complete or `finish()` was called.
    var final: GIFIndex?
    var failure: AnimatedImageError?
    /// The most indices drawing one of the frames so far holds, for the allocation budget.
    var lineBytes = 0
    /// The colour conversion, settled when frame 0 is first reported (whole or partial), and
    /// the warning it gave.
    var colorTransform: (any ColorTransform)?
    private var settledColor: ColorInfo?, colorWarning: String?
    static let format = ImageFormat.gif
    let options: DecodingOptions

    init(options: DecodingOptions) {
        self.options = options
        parser = GIFIndexParser(limits: options.limits)
    }

    mutating func advanceParser() throws(AnimatedImageError) -> Bool {
        try bytes.withBytes { raw throws(AnimatedImageError) in try parser.advance(raw) }
        return parser.isComplete
    }

    /// Brings the snapshot up to the parser's frames, checking the session's allocation
    /// budget for them.
    mutating func update() throws(AnimatedImageError) {
        if snapshot.format == nil, parser.position >= 13 { snapshot.format = .gif }
        snapshot.canvasSize = try parser.checkedCurrentCanvas()
        if let loop = parser.storedLoopCount, loop != snapshot.storedLoopValue {
            snapshot.storedLoopValue = loop
            snapshot.loopCount = GIFIndex.loopCount(stored: loop)
        }
        if options.showsPartialFirstFrame, frames.isEmpty, let partial = parser.partialFirstImage {
            // Frame 0 while it arrives: counted, drawn from what is there.
            settleColor()
            snapshot.showPartialFirstFrame(lasting: partial.record.duration)
            return
        }
        snapshot.endPartialFirstFrame()
        let known = frames.count
        guard parser.frames.count > known else { return }
        settleColor()
        for record in parser.frames[known...] {
            frames.append(record)
            lineBytes = max(lineBytes, GIFDecodeState.lineByteCount(record))
            snapshot.frameDurations.append(record.duration)
        }
        let canvas = parser.currentCanvas ?? parser.screenSize
        try GIFIndex.checkBudget(canvas: canvas, frameCount: frames.count, lineBytes: lineBytes, limits: options.limits)
        let first = frames[0].rect
        let covers =
            first.intersection(PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height))
            == PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height)
        snapshot.hasAlpha = !covers || parser.anyFrameClears ? true : nil
        snapshot.warnings = parser.warnings + (colorWarning.map { [$0] } ?? [])
        snapshot.truncation = parser.truncation
    }

    /// Reads the colour profile found so far (the usual place of `ICCRGBG1` is before the
    /// first image) and makes the conversion, once, before frame 0 is reported.
    private mutating func settleColor() {
        guard settledColor == nil else { return }
        let color = ColorInfo(iccProfile: parser.iccProfile.map(ICCProfile.init(data:)))
        (colorTransform, colorWarning) = ColorManagement.prepare(color, options: options)
        settledColor = color
        snapshot.color = color
    }

    /// Makes the index final (the parser completed, or the data ended).
    mutating func complete() throws(AnimatedImageError) {
        let index = try parser.finish(receivedByteCount: bytes.count, partialFirstFrame: options.showsPartialFirstFrame)
        try GIFIndex.checkBudget(
            canvas: index.canvasSize, frameCount: index.frames.count,
            lineBytes: index.frames.map(GIFDecodeState.lineByteCount).max() ?? 0, limits: options.limits)
        final = index
        frames = index.frames
        snapshot = IncrementalSnapshot(
            state: .complete, receivedByteCount: bytes.count, format: .gif, canvasSize: index.canvasSize,
            frameDurations: index.frames.map(\.duration), loopCount: index.loopCount,
            storedLoopValue: index.storedLoopCount, hasAlpha: index.hasAlpha, truncation: index.truncation,
            warnings: index.warnings, revision: 0)
        snapshot.firstFrameIsPartial = index.partialFirstFrameEnd != nil
        // The whole file's colour and its warnings (a profile that cannot be converted). A
        // profile found only after frame 0 changes the frames already reported: they are
        // withdrawn and decoded again, converted.
        let color = ColorInfo(iccProfile: index.iccProfile)
        (colorTransform, colorWarning) = ColorManagement.prepare(color, options: options)
        if let settledColor, settledColor != color { snapshot.revision = 1 }
        settledColor = color
        snapshot.color = color
        if let colorWarning { snapshot.warnings.append(colorWarning) }
    }

    /// Frame 0 while its data arrives (or as the file cut it), when the options show it.
    var partialFirstFrame: (record: GIFFrameRecord, dataEnd: Int)? {
        guard options.showsPartialFirstFrame else { return nil }
        if let final {
            return final.partialFirstFrameEnd.map { (final.frames[0], $0) }
        }
        return failure == nil ? parser.partialFirstImage : nil
    }
}
