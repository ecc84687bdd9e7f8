import Zoetrope

/// What an incremental AVIF session's decoding side needs to open its own libavif decoder
/// over the bytes received: fixed once the receiving side has parsed the metadata.
struct AVIFIncrementalPlan: Sendable {
    /// The rewrites of the metadata the whole-file source makes (`AVIFGrowingIO.overlays`).
    var overlays: [AVIFIndex.Patch]
    /// The file plays its colour track (else it shows its primary item).
    var isSequence: Bool
    /// libavif's threads, chosen as the whole-file source chooses them.
    var threads: Int
    /// The canvas libavif reports.
    var canvas: PixelSize
    /// Frames in the track (or 1 for a still), whether or not their bytes are in.
    var frameCount: Int
    /// The conversion of the declared colour to sRGB, as the whole-file source makes it.
    var colorTransform: (any ColorTransform)?
}
