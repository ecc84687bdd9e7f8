import Zoetrope

/// A source over another that breaks one promise of `FrameSource` on purpose (or none), so
/// the contract checker can be shown to catch it.
final class MisbehavingSource: FrameSource {
    enum Fault: Sendable {
        /// Keeps every promise: decodes through the wrapped source.
        case none
        /// An index past the end decodes a frame (index modulo the count) instead of throwing.
        case noRangeCheck
        /// A seek backwards hands back the frame decoded last (a canvas not restarted).
        case staleBackwardSeek
    }

    private let base: any FrameSource
    private let fault: Fault
    private let last = Locked<(index: Int, frame: PixelBuffer)?>(nil)

    init(_ base: any FrameSource, fault: Fault) {
        self.base = base
        self.fault = fault
    }

    var info: AnimationInfo { base.info }
    var options: DecodingOptions { base.options }
    var retainedByteCount: Int { base.retainedByteCount }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        switch fault {
        case .none:
            try base.decodeFrame(at: index, into: &buffer)
        case .noRangeCheck:
            try base.decodeFrame(at: index >= info.frameCount ? index % info.frameCount : index, into: &buffer)
        case .staleBackwardSeek:
            if let previous = last.withLock({ $0 }), index < previous.index {
                buffer = previous.frame
                return
            }
            try base.decodeFrame(at: index, into: &buffer)
            let frame = buffer
            last.withLock { $0 = (index, frame) }
        }
    }
}
