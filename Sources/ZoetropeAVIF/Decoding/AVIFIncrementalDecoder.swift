import CAVIF
import Zoetrope

/// The decoding side of an `AVIFIncrementalSource` while the file arrives: one libavif
/// decoder over the bytes received (`AVIFGrowingIO`), kept from frame to frame so that each
/// frame decodes once, in order, as in the whole-file source (AV1 frames depend on the ones
/// before them, back to a key frame).
///
/// The received bytes may move when the session's buffer grows, so before each decode the
/// reader is pointed at the bytes received then; libavif's reader is not persistent, so it
/// copies each compressed sample it reads instead of keeping a pointer into them.
final class AVIFIncrementalDecoder {
    private let reader: AVIFGrowingIO
    private let state: AVIFDecodeState
    private let canvas: PixelSize

    /// Opens libavif over `prefix` with `plan`'s settings (the metadata is in: the receiving
    /// side parsed it from the same bytes).
    init(plan: AVIFIncrementalPlan, prefix: IncrementalBytePrefix, limits: Limits) throws(AnimatedImageError) {
        reader = AVIFGrowingIO(prefix: prefix, overlays: plan.overlays)
        state = try AVIFDecodeState(
            io: reader.makeIO(limits: limits), reader: reader, fileByteCount: 0,
            source: plan.isSequence ? AVIF_DECODER_SOURCE_TRACKS : AVIF_DECODER_SOURCE_PRIMARY_ITEM,
            threads: plan.threads, limits: limits)
        state.setFrameCount(plan.frameCount)
        state.colorTransform = plan.colorTransform
        canvas = plan.canvas
    }

    /// Bytes held (the file's bytes belong to the session).
    var retainedByteCount: Int { state.retainedByteCount }

    /// Decodes frame `index`, whose bytes are all within `prefix`.
    func decode(
        _ index: Int, prefix: IncrementalBytePrefix, into buffer: inout PixelBuffer, size: PixelSize,
        format: PixelFormat
    ) throws(AnimatedImageError) {
        reader.prefix = prefix
        try state.decode(index, canvasSize: canvas, into: &buffer, size: size, format: format)
    }
}
