import Zoetrope

/// What the chunk walker learned: the header, the chunks every frame stream repeats, and
/// the frames to decode (the animation, or the still image alone).
struct APNGIndex: Sendable {
    var header: PNGHeader
    /// Whole PLTE / tRNS chunks (length, type, data, CRC) to copy into each frame stream.
    var palette: Range<Int>?
    var transparency: Range<Int>?
    /// The frames that decode: the animation's, or one full-canvas frame for a still image
    /// (or a fallback from a broken animation).
    var frames: [APNGFrameRecord]
    /// `.apng` when the animation is valid, `.png` otherwise.
    var format: ImageFormat
    /// acTL's num_plays, when the animation is used.
    var numPlays: UInt32?
    /// Why the animation chunks were ignored, when the file has some but they are broken.
    var fallbackReason: String?
    /// Set when the file ends before IEND (or breaks) after `frames`.
    var truncation: AnimatedImageError?
    /// What the colour chunks declare (`PNGColorChunks`), and the ones ignored and why.
    var color = ColorInfo.unspecified
    var colorWarnings: [String] = []
    /// The file's Exif (`eXIf`) and XMP (`iTXt`), read before the walk stopped.
    var metadata = EmbeddedMetadata.none
}
