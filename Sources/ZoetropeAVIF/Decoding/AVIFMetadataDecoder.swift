import CAVIF
import Zoetrope

/// The receiving side's libavif decoder over a file that is still arriving: it parses the
/// metadata once (`meta`/`moov` complete) and then only answers questions about it (how
/// many frames, their timing, which bytes each frame needs); it never decodes a frame, so
/// it never waits for the decoding side.
///
/// `@unchecked Sendable` is safe because it is only reached through the session's receiving
/// lock (`AVIFIncrementalIngest` lives behind it): one thread at a time calls into libavif.
final class AVIFMetadataDecoder: @unchecked Sendable {
    let decoder: UnsafeMutablePointer<avifDecoder>
    private let reader: AVIFGrowingIO
    private let io: UnsafeMutablePointer<avifIO>

    /// How a parse attempt ended.
    enum Outcome {
        /// The metadata is parsed.
        case parsed(AVIFMetadataDecoder)
        /// libavif wants bytes that have not arrived (item data it reads while parsing,
        /// such as a grid's description stored in `mdat`): try again with more bytes.
        case waiting
        /// libavif refused the metadata; the whole-file source gives the error at `finish()`.
        case failed
    }

    private init(decoder: UnsafeMutablePointer<avifDecoder>, reader: AVIFGrowingIO, limits: Limits) {
        self.decoder = decoder
        self.reader = reader
        io = reader.makeIO(limits: limits)
    }

    deinit {
        avifDecoderDestroy(decoder)
        AVIFFileIO.deallocate(io)
    }

    /// Parses the bytes of `prefix` with the settings of the whole-file source
    /// (`AVIFDecodeState`), the metadata rewritten by `overlays`.
    static func parse(
        _ prefix: IncrementalBytePrefix, overlays: [AVIFIndex.Patch], sequence: Bool,
        limits: Limits
    ) -> Outcome {
        guard let decoder = avifDecoderCreate() else { return .failed }
        let state = AVIFMetadataDecoder(decoder: decoder, reader: AVIFGrowingIO(prefix: prefix, overlays: overlays), limits: limits)
        AVIFDecodeState.configure(decoder, limits: limits)
        guard avifDecoderSetSource(decoder, sequence ? AVIF_DECODER_SOURCE_TRACKS : AVIF_DECODER_SOURCE_PRIMARY_ITEM) == AVIF_RESULT_OK else {
            return .failed
        }
        avifDecoderSetIO(decoder, state.io)
        switch avifDecoderParse(decoder) {
        case AVIF_RESULT_OK: return .parsed(state)
        case AVIF_RESULT_WAITING_ON_IO: return .waiting
        default: return .failed
        }
    }

    /// The end of the bytes frame `index` needs (its sample and those it depends on, from
    /// the nearest key frame: libavif's `avifDecoderNthImageMaxExtent`, from the sample
    /// table's `stco`/`co64`, `stsz` and `stsc`, or the item's `iloc`); nil when libavif
    /// cannot say or the end does not fit.
    func extentEnd(of index: Int) -> Int? {
        var extent = avifExtent()
        guard avifDecoderNthImageMaxExtent(decoder, UInt32(index), &extent) == AVIF_RESULT_OK else { return nil }
        let (end, overflow) = Int(clamping: extent.offset).addingReportingOverflow(extent.size)
        return overflow ? nil : end
    }

    /// Frame `index`'s duration, as the whole-file source reads it.
    func duration(of index: Int) throws(AnimatedImageError) -> FrameDuration {
        var timing = avifImageTiming()
        let r = avifDecoderNthImageTiming(decoder, UInt32(index), &timing)
        guard r == AVIF_RESULT_OK else { throw AVIFResultError.make(r, decoder, during: "timing of frame \(index)") }
        return FrameDuration(numerator: Int64(clamping: timing.durationInTimescales), denominator: Int64(clamping: timing.timescale))
    }
}
