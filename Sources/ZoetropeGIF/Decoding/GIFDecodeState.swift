import CGIF
import Zoetrope

/// The mutable part of a GIF decoding session: the canvas, which frame it shows, and the
/// giflib decoder. Held behind the frame source's lock.
struct GIFDecodeState: CanvasRendering {
    var compositor: Compositor
    /// The frame the canvas shows (its disposal still pending), or nil when it must be rebuilt.
    var shownFrame: Int?
    /// Where decoding restarts (the shared rule, with frames whose data stops early struck out).
    var keyFrames: KeyFrameTable
    var decodedFrameCount = 0
    var handle: GIFLibHandle?
    /// Palette indices: one row, or a batch of rows (`batchIndexBytes`).
    var line: [UInt8] = []
    /// Palette index → RGBA8 as a 32-bit word in memory order.
    var palette = [UInt32](repeating: 0, count: 256)
    /// Frames whose LZW data ended before their last pixel: they leave holes that show the
    /// frames under them, so they do not cover the canvas (`KeyFrameTable.markIncomplete`).
    var partialFrames: Set<Int> = []
    /// The canvas storage was handed to the caller as its frame buffer (shared, copy-on-write).
    var canvasShared = false
    /// The data was cut where bytes stopped arriving (`GIFPartialFrame`): its end, which
    /// giflib reports as a defect, is where the pixels stop, as an early end code is.
    var dataIsCut = false

    /// The canvas size; the canvas itself is allocated by the first decode (`ensureCanvas`),
    /// so opening a file to read its info allocates no pixels.
    let canvasSize: PixelSize

    init(canvasSize: PixelSize, keyFrames: KeyFrameTable) {
        self.canvasSize = canvasSize
        compositor = Compositor(size: PixelSize(width: 0, height: 0))
        self.keyFrames = keyFrames
    }

    /// Allocates the (transparent) canvas on first use, holding only where the frames
    /// indexed so far draw (frames indexed later grow it).
    mutating func ensureCanvas() { prepareCanvas(size: canvasSize) }

    /// Draws frame `index` (`CanvasRendering`); the input is the file and the index's records.
    mutating func drawFrame(_ index: Int, input: (bytes: UnsafeRawBufferPointer, frames: [GIFFrameRecord])) throws -> FrameDrawResult {
        try composite(index, record: input.frames[index], bytes: input.bytes)
        return partialFrames.contains(index) ? .incomplete : .complete
    }

    /// Takes back the canvas storage a previous call handed out in `buffer`, or, when the
    /// caller kept that frame and passes other storage, moves the canvas into it (one copy,
    /// no allocation), so that drawing the next frame never copies-on-write behind its back.
    mutating func reclaim(_ buffer: inout PixelBuffer) {
        let same = buffer.bytes.withUnsafeBufferPointer { b in
            compositor.canvas.bytes.withUnsafeBufferPointer { c in b.baseAddress == c.baseAddress }
        }
        if same {
            buffer = PixelBuffer()
            canvasShared = false
            return
        }
        guard canvasShared, buffer.byteCount > 0 else { return }
        var fresh = buffer
        buffer = PixelBuffer()
        compositor.canvas.copy(into: &fresh, size: compositor.canvas.size, format: .rgba8)
        compositor.withCanvas { $0 = fresh }
        canvasShared = false
    }

    /// Gives the caller the frame the canvas shows: when `direct` (full size, straight alpha,
    /// no conversion) and the canvas is held whole, the canvas storage itself (copy-on-write,
    /// taken back by `reclaim`); otherwise a copy at `size` in `format`.
    mutating func handOut(into buffer: inout PixelBuffer, direct: Bool, size: PixelSize, format: PixelFormat) {
        if direct, compositor.holdsWholeCanvas {
            buffer = compositor.canvas
            canvasShared = true
        } else {
            compositor.copyCanvas(into: &buffer, size: size, format: format)
        }
    }

    /// Disposes the previous frame and draws frame `i` over the canvas.
    ///
    /// A non-interlaced image is decoded many rows per giflib call (`batchIndexBytes` of
    /// indices at a time): giflib's per-call cost was a tenth of decoding small frames row
    /// by row. Should a batch fail, the image is decoded again row by row from its start,
    /// which finds how far the data goes (redrawing the rows already drawn changes nothing).
    private mutating func composite(_ i: Int, record: GIFFrameRecord, bytes: UnsafeRawBufferPointer) throws {
        let clip = compositor.beginFrame(rect: record.rect, dispose: record.disposal)
        // An empty image, or one wholly outside the canvas, changes nothing.
        guard !clip.isEmpty else { return }
        let handle = try beginImage(i, record: record, bytes: bytes)
        let width = record.rect.width
        let rows = record.interlaced ? record.rect.height : min(record.rect.height, clip.y + clip.height - record.rect.y)
        let batchRows = GIFDecodeState.batchRows(width: width, rows: rows, interlaced: record.interlaced)
        if line.count < batchRows * width { line = [UInt8](repeating: 0, count: batchRows * width) }
        if batchRows > 1, drawBatches(record: record, rows: rows, batchRows: batchRows, clip: clip, handle: handle) { return }
        let rowHandle = batchRows > 1 ? try beginImage(i, record: record, bytes: bytes) : handle
        try drawRows(i, record: record, rows: rows, clip: clip, handle: rowHandle, bytes: bytes)
    }

    /// Indices decoded per giflib call on the batched path (one row of a wider image).
    static let batchIndexBytes = 64 << 10

    /// Rows decoded per giflib call: one for an interlaced image, else as many of `rows` as
    /// `batchIndexBytes` holds.
    static func batchRows(width: Int, rows: Int, interlaced: Bool) -> Int {
        interlaced ? 1 : max(1, min(rows, batchIndexBytes / max(1, width)))
    }

    /// The most bytes of indices drawing `record` holds at once (the budget's share for it).
    static func lineByteCount(_ record: GIFFrameRecord) -> Int {
        record.rect.width * batchRows(width: record.rect.width, rows: record.rect.height, interlaced: record.interlaced)
    }

    /// Positions the decoder at frame `i`'s image and loads its palette.
    private mutating func beginImage(_ i: Int, record: GIFFrameRecord, bytes: UnsafeRawBufferPointer) throws -> GIFLibHandle {
        let handle = try openHandle(bytes)
        do {
            try handle.beginImage(at: record.descriptorOffset)
        } catch {
            self.handle = nil
            throw GIFDecodeState.frameError(error, frame: i)
        }
        loadPalette(handle.colorMap)
        return handle
    }

    /// Draws the first `rows` rows of a non-interlaced image `batchRows` at a time. False,
    /// with the handle dropped, when giflib fails on a batch.
    private mutating func drawBatches(
        record: GIFFrameRecord, rows: Int, batchRows: Int, clip: PixelRect,
        handle: GIFLibHandle
    ) -> Bool {
        var line = self.line, palette = self.palette
        self.line = []
        self.palette = []
        defer { self.line = line; self.palette = palette }
        let width = record.rect.width, transparent = record.transparentIndex
        let from = clip.x - record.rect.x
        let decoded = compositor.withPixels(in: clip) { canvas, stride in
            line.withUnsafeMutableBufferPointer { lineBuffer in
                palette.withUnsafeBufferPointer { lut in
                    var r = 0
                    while r < rows {
                        let n = min(batchRows, rows - r)
                        guard handle.readLine(lineBuffer.baseAddress!, count: n * width) == nil else { return false }
                        for k in 0..<n {
                            let cy = record.rect.y + r + k
                            guard cy >= clip.y else { continue }
                            GIFDecodeState.drawRow(
                                lineBuffer.baseAddress! + k * width + from, to: canvas + (cy - clip.y) * stride,
                                count: clip.width, lut: lut.baseAddress!, transparent: transparent)
                        }
                        r += n
                    }
                    return true
                }
            }
        }
        if !decoded { self.handle = nil }
        return decoded
    }

    /// Draws the first `rows` rows (in decoding order) one giflib call each, keeping what
    /// decodes of an image whose data stops early.
    private mutating func drawRows(
        _ i: Int, record: GIFFrameRecord, rows: Int, clip: PixelRect, handle: GIFLibHandle,
        bytes: UnsafeRawBufferPointer
    ) throws {
        let width = record.rect.width
        // Moved out (not copied) so the closures below own them without copy-on-write.
        var line = self.line, palette = self.palette
        self.line = []
        self.palette = []
        defer { self.line = line; self.palette = palette }
        let transparent = record.transparentIndex
        var partial = false
        try compositor.withPixels(in: clip) { canvas, stride in
            try line.withUnsafeMutableBufferPointer { lineBuffer in
                try palette.withUnsafeBufferPointer { lut in
                    let src = lineBuffer.baseAddress!
                    var rowOrder = GIFRowOrder(height: record.rect.height, interlaced: record.interlaced)
                    for r in 0..<rows {
                        let y = rowOrder.next()
                        if let transparent { src.update(repeating: UInt8(transparent), count: width) }
                        var valid = width
                        if let code = handle.readLine(src, count: width) {
                            self.handle = nil
                            let cut = dataIsCut && (code == D_GIF_ERR_IMAGE_DEFECT || code == D_GIF_ERR_READ_FAILED)
                            guard code == D_GIF_ERR_EOF_TOO_SOON || cut else {
                                throw GIFDecodeState.frameError(GIFLibHandle.error(code, context: "decoding"), frame: i)
                            }
                            // The LZW data stopped early: keep the pixels it gave. Prefilled
                            // with the transparent index, the rest of the row draws nothing;
                            // otherwise a replay finds where the decoded pixels end.
                            partial = true
                            if transparent == nil {
                                let replay = try GIFDecodeState.partialRow(record: record, ordinal: r, bytes: bytes)
                                valid = replay.count
                                replay.pixels.withUnsafeBufferPointer { src.update(from: $0.baseAddress!, count: width) }
                            }
                        }
                        let cy = record.rect.y + y
                        if cy >= clip.y, cy < clip.y + clip.height {
                            let from = clip.x - record.rect.x
                            let n = min(clip.width, valid - from)
                            if n > 0 {
                                GIFDecodeState.drawRow(
                                    src + from, to: canvas + (cy - clip.y) * stride,
                                    count: n, lut: lut.baseAddress!, transparent: transparent)
                            }
                        }
                        if partial { break }
                    }
                }
            }
        }
        if partial { partialFrames.insert(i) }
    }

    mutating func openHandle(_ bytes: UnsafeRawBufferPointer) throws -> GIFLibHandle {
        if let handle {
            handle.rebind(bytes)
            return handle
        }
        let handle = try GIFLibHandle(bytes: bytes)
        self.handle = handle
        return handle
    }

    /// Fills `palette` from giflib's colour map. Indices past the table (all of them when
    /// the file has neither a local nor a global table) are opaque black, as in Chromium
    /// (Wuffs); the index pass has already put that in `AnimationInfo.warnings`.
    mutating func loadPalette(_ map: UnsafeMutablePointer<ColorMapObject>?) {
        palette.withUnsafeMutableBytes { GIFDecodeState.fillPalette(map, into: $0) }
    }

    /// Writes the 256 palette words for giflib's colour map `map` into `raw` (see `loadPalette`).
    static func fillPalette(_ map: UnsafeMutablePointer<ColorMapObject>?, into raw: UnsafeMutableRawBufferPointer) {
        let colors = map?.pointee.Colors
        let count = colors == nil ? 0 : min(256, max(0, Int(map!.pointee.ColorCount)))
        for i in 0..<256 {
            let o = i * 4
            if i < count, let c = colors?[i] {
                raw[o] = c.Red; raw[o + 1] = c.Green; raw[o + 2] = c.Blue; raw[o + 3] = 255
            } else {
                raw[o] = 0; raw[o + 1] = 0; raw[o + 2] = 0; raw[o + 3] = 255
            }
        }
    }
}
