import Zoetrope

/// One animation frame as the file describes it: where it draws, for how long, how it
/// blends and is disposed, and where its compressed data lives.
struct APNGFrameRecord: Sendable, Hashable {
    var rect: PixelRect
    var duration: FrameDuration
    /// The effective disposal (PREVIOUS on the first frame already turned into BACKGROUND).
    var dispose: DisposeMode
    var blend: BlendMode
    /// The frame's data is the file's IDAT run (the default image is frame 0).
    var usesIDAT: Bool
    /// The compressed data, in order: the IDAT chunks when `usesIDAT`, else the fdAT payloads.
    var chunks: [APNGDataChunk]

    /// Bytes of compressed data.
    var dataByteCount: Int { chunks.reduce(0) { $0 + $1.range.count } }
}
