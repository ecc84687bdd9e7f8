import CAVIF
import Dispatch

/// Decodes the next AV1 frame on another thread while the caller converts the current one.
///
/// libavif 0.11 runs dav1d with frame threading off, so on two cores a sequence decodes
/// fastest when frame *i+1*'s AV1 decode overlaps frame *i*'s YUV → RGB conversion.
/// `wait()` also reports how long the decode took on the worker and how long the caller
/// blocked for it, which `AVIFPipelineGauge` weighs.
final class AVIFPrefetch: @unchecked Sendable {
    // Safe to share: the worker touches `decoder`, `result` and `decodeNanos` only between
    // `start` and the group's `leave`; the owner reads them and touches the decoder only
    // after `wait()` returns (or before `start`), and the dispatch group orders those accesses.
    // `index` is only read and written by the owner.
    private let decoder: UnsafeMutablePointer<avifDecoder>
    private let queue = DispatchQueue(label: "zoetrope.avif.prefetch")
    private let group = DispatchGroup()
    private var result = AVIF_RESULT_OK
    private var decodeNanos: Int64 = 0
    private var index: Int?

    init(decoder: UnsafeMutablePointer<avifDecoder>) {
        self.decoder = decoder
    }

    /// Starts `avifDecoderNextImage`, which will leave frame `index` in `decoder.image`.
    func start(index: Int) {
        precondition(self.index == nil, "one prefetch at a time")
        self.index = index
        group.enter()
        queue.async {
            let began = AVIFPrefetch.now()
            self.result = avifDecoderNextImage(self.decoder)
            self.decodeNanos = AVIFPrefetch.now() - began
            self.group.leave()
        }
    }

    /// Waits for the prefetch in flight, if any, and returns which frame it decoded, how it
    /// went, the decode's wall time on the worker and how long this call blocked.
    func wait() -> (index: Int, result: avifResult, decodeNanos: Int64, blockedNanos: Int64)? {
        guard let i = index else { return nil }
        let waited = AVIFPrefetch.now()
        group.wait()
        let blocked = AVIFPrefetch.now() - waited
        index = nil
        return (i, result, decodeNanos, blocked)
    }

    /// Monotonic nanoseconds.
    static func now() -> Int64 {
        Int64(clamping: DispatchTime.now().uptimeNanoseconds)
    }
}
