/// One GIF image decoded ahead by a bulk run: its palette indices, rows in display order
/// (interlacing undone), only as many rows as reach the canvas, and the palette they index.
struct GIFFramePayload: Sendable {
    /// `rows` rows of `width` indices.
    var indices: [UInt8]
    /// Palette index → RGBA8 word, 256 entries.
    var palette: [UInt32]
    /// Rows decoded (the first `rows` rows of the image).
    var rows: Int
}

/// A bulk-run worker's giflib decoder, rebound to the file's bytes for each frame.
final class GIFPayloadContext {
    var handle: GIFLibHandle?
}
