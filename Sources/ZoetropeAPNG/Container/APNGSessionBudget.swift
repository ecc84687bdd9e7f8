import Zoetrope

/// What an APNG decoding session holds, added up frame by frame as `APNGFrameSource`
/// counts it: the canvas, the largest region saved for PREVIOUS, the largest OVER scratch,
/// the largest frame stream, libpng's row buffers and the key-frame table.
struct APNGSessionBudget: Sendable {
    private var saved = 0, scratch = 0, stream = 0, rows = 0
    private(set) var frameCount = 0

    /// Counts one more frame of `index` (frames lie inside the canvas, whose RGBA size
    /// `check` proves fits an `Int`).
    mutating func add(_ f: APNGFrameRecord, index: APNGIndex) {
        let area = f.rect.width * f.rect.height * 4
        if f.dispose == .previous { saved = max(saved, area) }
        if f.blend == .over, frameCount > 0 { scratch = max(scratch, area) }
        stream = max(stream, PNGFrameStream.byteCount(for: f, index: index))
        rows = max(rows, index.header.rowBufferBytes(width: f.rect.width))
        frameCount += 1
    }

    /// Throws when the session would pass `options.limits` (at the depth it decodes to), with the error
    /// `APNGFrameSource` throws for the same frames.
    func check(canvas: PixelSize, format: ImageFormat, options: DecodingOptions) throws(AnimatedImageError) {
        // Deep sessions hold 16-bit pixels: twice the RGBA8 bytes of every pixel part.
        let deep = options.pixelFormat.channelDepth.bytesPerChannel
        try options.limits.checkCanvases(canvas, count: deep, format: format)
        var budget = AllocationBudget(limits: options.limits, format: format)
        for part in [canvas.rgbaByteCount, saved, scratch] { budget.reserve(deep, bytesEach: part) }
        for part in [stream, rows, 65_536] { budget.reserve(part) }
        budget.reserve(KeyFrameTable.byteCount(frames: frameCount))
        try budget.check()
        var output = AllocationBudget(limits: options.limits, format: format)
        output.reserve(deep, bytesEach: options.outputSize(forCanvas: canvas).rgbaByteCount)
        try output.check()
    }
}
