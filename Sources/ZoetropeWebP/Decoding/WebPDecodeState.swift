import Zoetrope

/// The mutable part of a `WebPFrameSource`: the composited canvas, which frame it shows,
/// and the scratch raster for frames that blend.
struct WebPDecodeState: Sendable, CanvasRendering {
    /// The canvas; allocated by the first decode (`ensureCanvas`), so opening a file to read
    /// its info allocates no canvas.
    var compositor = Compositor(size: PixelSize(width: 0, height: 0))
    private let canvasSize: PixelSize
    /// The frame whose composited canvas `compositor` holds, nil after a failure, before
    /// the first decode, or after a frame decoded straight into the caller's buffer.
    var shownFrame: Int?
    /// Where decoding restarts: libwebp's rule.
    var keyFrames: KeyFrameTable
    var decodedFrameCount = 0
    /// Allocated at the first blending frame, at the size the limits were checked for
    /// (the largest blending frame), so files that never blend never pay for it.
    private var scratch: [UInt8] = []
    private let scratchBytes: Int
    /// libwebp decoder threads (`use_threads`): only when the caller asks for more than one.
    private let useThreads: Bool

    init(canvasSize: PixelSize, keyFrames: KeyFrameTable, scratchPixels: Int, useThreads: Bool) {
        self.canvasSize = canvasSize
        self.keyFrames = keyFrames
        scratchBytes = scratchPixels * 4
        self.useThreads = useThreads
    }

    var byteCount: Int { compositor.byteCount + scratch.count }

    /// Allocates the (transparent) canvas on first use, holding only where the frames
    /// indexed so far draw (frames indexed later grow it).
    mutating func ensureCanvas() { prepareCanvas(size: canvasSize) }

    /// Draws frame `index` (`CanvasRendering`); the input is the file and the index's entries.
    mutating func drawFrame(_ index: Int, input: (file: UnsafeRawBufferPointer, frames: [WebPFrameRecord])) throws -> FrameDrawResult {
        let frame = input.frames[index]
        try render(
            frame, previous: index > 0 ? input.frames[index - 1] : nil, index: index, file: input.file,
            bySource: frame.drawsBySource(isKeyFrame: keyFrames.isKeyFrame(index)))
        return .complete
    }

    var decodesFullFrames: Bool { true }

    /// Decodes a full-canvas key frame straight into the caller's buffer (`CanvasRendering`).
    mutating func decodeFullFrame(
        _ index: Int, input: (file: UnsafeRawBufferPointer, frames: [WebPFrameRecord]),
        into pixels: UnsafeMutableRawPointer, bytesPerRow: Int
    ) throws {
        let frame = input.frames[index]
        let payload = try WebPDecodeState.payload(of: frame, index: index, in: input.file)
        try WebPBitstreamDecoder.decode(
            payload, width: frame.rect.width, height: frame.rect.height,
            into: pixels, bytesPerRow: bytesPerRow, frame: index, threads: useThreads)
    }

    static func payload(of frame: WebPFrameRecord, index: Int, in file: UnsafeRawBufferPointer) throws -> UnsafeRawBufferPointer {
        guard frame.payloadOffset >= 0, frame.payloadCount >= 0,
            frame.payloadOffset + frame.payloadCount <= file.count
        else {
            throw AnimatedImageError.invalidData(format: .webp, reason: "frame \(index): image data outside the file")
        }
        return UnsafeRawBufferPointer(rebasing: file[frame.payloadOffset..<frame.payloadOffset + frame.payloadCount])
    }

    private mutating func render(
        _ frame: WebPFrameRecord, previous: WebPFrameRecord?, index: Int,
        file: UnsafeRawBufferPointer, bySource: Bool
    ) throws {
        let payload = try WebPDecodeState.payload(of: frame, index: index, in: file)
        let rect = compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
        guard rect == frame.rect else {
            throw AnimatedImageError.invalidData(format: .webp, reason: "frame \(index): \(frame.rect) reaches outside the canvas")
        }
        if bySource {
            try compositor.withPixels(in: rect) { canvas, stride in
                try WebPBitstreamDecoder.decode(
                    payload, width: rect.width, height: rect.height, into: canvas,
                    bytesPerRow: stride, frame: index, threads: useThreads)
            }
        } else {
            let rowBytes = rect.width * 4
            if scratch.count < rowBytes * rect.height {
                // Sized from the index (an incremental source's grows with its frames, whose
                // budget it checked).
                scratch = [UInt8](repeating: 0, count: max(scratchBytes, rowBytes * rect.height))
            }
            try scratch.withUnsafeMutableBytes { raw in
                try WebPBitstreamDecoder.decode(
                    payload, width: rect.width, height: rect.height,
                    into: raw.baseAddress!, bytesPerRow: rowBytes, frame: index, threads: useThreads)
            }
            // libwebp's blend, not the compositor's exact one (see WebPBlend). A blending
            // frame is never a key frame, so `previous` is the frame just drawn.
            let unblended = previous?.dispose == .background ? previous?.rect : nil
            let pixels = scratch
            pixels.withUnsafeBytes { raw in
                compositor.withPixels(in: rect) { canvas, stride in
                    WebPBlend.draw(raw, bytesPerRow: rowBytes, rect: rect, unblended: unblended, onto: canvas, canvasBytesPerRow: stride)
                }
            }
        }
    }

    /// Disposes the previous frame and draws frame `index` from its pixels decoded ahead
    /// (`rowBytes` apart), exactly as `render` draws it from its bitstream. The frame lies
    /// inside the canvas (the bulk path checks that before decoding).
    mutating func drawDecoded(_ index: Int, pixels: UnsafeRawBufferPointer, frames: [WebPFrameRecord]) {
        let frame = frames[index]
        let rect = compositor.beginFrame(rect: frame.rect, dispose: frame.dispose)
        let rowBytes = rect.width * 4
        if frame.drawsBySource(isKeyFrame: keyFrames.isKeyFrame(index)) {
            compositor.draw(pixels, bytesPerRow: rowBytes, rect: rect, blend: .source)
        } else {
            let previous = index > 0 ? frames[index - 1] : nil
            let unblended = previous?.dispose == .background ? previous?.rect : nil
            compositor.withPixels(in: rect) { canvas, stride in
                WebPBlend.draw(pixels, bytesPerRow: rowBytes, rect: rect, unblended: unblended, onto: canvas, canvasBytesPerRow: stride)
            }
        }
    }
}
