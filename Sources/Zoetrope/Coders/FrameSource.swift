/// One decoding session over one image.
///
/// A source reports `info` up front and decodes frame *i* as a fully composited canvas
/// into a buffer the caller provides. Decoding frames in order is the fast path: one frame
/// per call, each building on the last. Random access works: the built-in sources reach
/// frame *i* by the cheaper of continuing from the frame they decoded last and restarting
/// from the nearest earlier frame that needs no predecessor (a key frame: `KeyFrameTable`
/// for formats that composite rectangles, the sync samples for AVIF), so a seek costs at
/// most the frames since that key frame. (A GIF frame whose data stops early is only found
/// out by decoding it; the seek that finds it decodes the frames before it once more.) A
/// new coder gets the same behaviour by adopting `CanvasRendering`.
///
/// A source is used by one owner at a time; implementations are `Sendable` so that owner
/// may move it between threads (the player decodes on a background executor).
public protocol FrameSource: AnyObject, Sendable {
    /// What the image is. Known before any frame is decoded.
    var info: AnimationInfo { get }
    /// The options this source decodes with.
    var options: DecodingOptions { get }
    /// Decodes frame `index` into `buffer`, reshaping it to `outputSize` in
    /// `options.pixelFormat`. Throws `AnimatedImageError` (`.frameOutOfRange`, `.truncated`,
    /// `.invalidData`, …) and leaves the source usable for other frames where it can.
    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws
    /// Bytes this session holds for decoding (canvas, saved regions, codec state),
    /// not counting the caller's buffers.
    var retainedByteCount: Int { get }
}

extension FrameSource {
    /// The size frames are delivered at, after any downsampling in `options`.
    public var outputSize: PixelSize { options.outputSize(forCanvas: info.canvasSize) }

    /// Decodes frame `index` into a new buffer.
    public func decodeFrame(at index: Int) throws -> PixelBuffer {
        var buffer = PixelBuffer()
        try decodeFrame(at: index, into: &buffer)
        return buffer
    }

    /// Throws `.frameOutOfRange` or the recorded truncation for an index past the frames that decode.
    public func checkFrameIndex(_ index: Int) throws {
        guard index >= 0, index < info.frameCount else {
            if index >= info.frameCount, let truncation = info.truncation { throw truncation }
            throw AnimatedImageError.frameOutOfRange(index: index, frameCount: info.frameCount)
        }
    }
}
