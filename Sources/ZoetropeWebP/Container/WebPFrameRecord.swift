import Zoetrope

/// One frame of a WebP file as the demuxer indexed it: where its bitstream lies in the
/// file, where it lands on the canvas, and how it combines with what is under it.
struct WebPFrameRecord: Sendable, Hashable {
    /// Byte range of the frame's image chunks (`ALPH` + `VP8 `, or `VP8L`) in the file.
    var payloadOffset: Int
    var payloadCount: Int
    /// Where the frame lands on the canvas (inside it: the demuxer checks bounds).
    var rect: PixelRect
    /// Raw duration in milliseconds (0 for a still image).
    var durationMs: Int
    /// `.over` for WebP "blend", `.source` for "do not blend".
    var blend: BlendMode
    /// `.none` or `.background` (WebP has no "dispose to previous").
    var dispose: DisposeMode
    /// Whether the bitstream may carry transparency (an `ALPH` chunk or the VP8L alpha hint).
    var hasAlpha: Bool
    /// A lossy `VP8 ` bitstream without `ALPH`: every decoded pixel is opaque, so blending
    /// it is the same as overwriting.
    var isOpaqueLossy: Bool

    /// Whether the frame is drawn by overwriting its rectangle, so it may be decoded
    /// straight into the canvas: "do not blend", opaque lossy data, or a key frame (drawn
    /// this way as libwebp's animation decoder draws them, so sequential and random access
    /// give the same pixels).
    func drawsBySource(isKeyFrame: Bool) -> Bool {
        isKeyFrame || blend == .source || isOpaqueLossy
    }
}
