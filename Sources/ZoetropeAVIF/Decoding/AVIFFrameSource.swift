import CAVIF
import Zoetrope

/// A `FrameSource` over libavif: an image sequence frame by frame, or a still as one frame.
///
/// AVIF sequence frames are whole pictures (no compositing). Sequential decoding is the
/// fast path; random access asks libavif for frame *i*, which decodes from the nearest
/// key frame (sync sample) before it, or on from the frame it holds when that is nearer,
/// so a seek costs at most the frames since that key frame.
final class AVIFFrameSource: SeekCostReporting {
    let info: AnimationInfo
    let options: DecodingOptions
    // The libavif decoder is not thread-safe; one owner at a time reaches it through the lock.
    let session: Locked<AVIFDecodeState>

    init(info: AnimationInfo, options: DecodingOptions, session: consuming sending AVIFDecodeState) {
        self.info = info
        self.options = options
        self.session = Locked(session)
    }

    var retainedByteCount: Int { session.withLock { $0.retainedByteCount } }

    var decodedFrameCount: Int { session.withLock { $0.decodedFrameCount } }

    func restartFrame(for index: Int) -> Int { session.withLock { $0.restartFrames[index] } }

    func decodeFrame(at index: Int, into buffer: inout PixelBuffer) throws {
        try checkFrameIndex(index)
        let canvas = info.canvasSize, size = outputSize, format = options.pixelFormat
        try session.withLock { (s: inout AVIFDecodeState) throws(AnimatedImageError) in
            try s.decode(index, canvasSize: canvas, into: &buffer, size: size, format: format)
        }
    }
}
