import CZoetropeJPEG
import Zoetrope

/// One libjpeg-turbo decompressor in buffered-image mode over a file still arriving (the C
/// shim `CZoetropeJPEG`): it reads the bytes it is given, suspends where they end, and draws
/// the picture of the scans complete so far.
///
/// `@unchecked Sendable` is safe because the stream is only used by the incremental
/// session's receiving side, behind that session's lock: one thread at a time.
final class JPEGScanStream: @unchecked Sendable {
    /// What a step of the stream reached.
    enum Step {
        /// More bytes are needed.
        case suspended
        /// The header is read, up to the first scan's data.
        case header
        /// A scan's data is complete, and the next scan's header read.
        case scan
        /// The end-of-image marker is read.
        case end
    }

    /// More scans than this is an error, as TurboJPEG's `TJFLAG_LIMITSCANS` says: a crafted
    /// file of thousands of tiny scans would take minutes.
    static let maxScans: Int32 = 500

    private let stream: OpaquePointer

    init() throws(AnimatedImageError) {
        guard let stream = zoetrope_jpeg_stream_create(Self.maxScans) else {
            throw .codecFailure(format: .jpeg, library: TurboJPEGDecoder.library, message: "could not create a decompressor")
        }
        self.stream = stream
    }

    deinit { zoetrope_jpeg_stream_destroy(stream) }

    private var status: zoetrope_jpeg_status { zoetrope_jpeg_stream_status(stream).pointee }

    /// The stored size libjpeg-turbo read from the frame header.
    var size: PixelSize { PixelSize(width: Int(status.width), height: Int(status.height)) }
    var components: Int { Int(status.components) }
    var isProgressive: Bool { status.progressive != 0 }
    var isCMYK: Bool { status.cmyk != 0 }
    /// Bytes of the file libjpeg-turbo has read.
    var consumed: Int { status.consumed }
    /// Scans whose data has all been read.
    var scansComplete: Int { Int(status.scans_complete) }
    /// libjpeg-turbo's first warning, if any.
    var warning: String? {
        var s = status
        guard s.warned != 0 else { return nil }
        return withUnsafeBytes(of: &s.warning) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// libjpeg-turbo's error as the whole-file decoder reports it.
    private var failure: AnimatedImageError {
        var s = status
        let text = withUnsafeBytes(of: &s.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return .invalidData(format: .jpeg, reason: text.isEmpty ? "unknown error" : text)
    }

    private func step(_ code: Int32) throws(AnimatedImageError) -> Step {
        switch code {
        case Int32(ZOETROPE_JPEG_HEADER): return .header
        case Int32(ZOETROPE_JPEG_SCAN): return .scan
        case Int32(ZOETROPE_JPEG_END): return .end
        case Int32(ZOETROPE_JPEG_SUSPENDED): return .suspended
        default: throw failure
        }
    }

    /// Reads the header from `file` (the bytes so far): `.header` once it is in.
    func readHeader(_ file: UnsafeRawBufferPointer) throws(AnimatedImageError) -> Step {
        try step(zoetrope_jpeg_read_header(stream, file.bindMemory(to: UInt8.self).baseAddress, file.count))
    }

    /// Allocates the whole-image coefficients, libjpeg-turbo allowed `maxMemory` bytes in all.
    func start(maxMemory: Int) throws(AnimatedImageError) {
        _ = try step(zoetrope_jpeg_start(stream, maxMemory))
    }

    /// Reads on through `file` to the header of the scan after a completed one, the end of
    /// the image, or the end of the bytes.
    func consume(_ file: UnsafeRawBufferPointer) throws(AnimatedImageError) -> Step {
        try step(zoetrope_jpeg_consume(stream, file.bindMemory(to: UInt8.self).baseAddress, file.count))
    }

    /// The data has ended: an end-of-image marker is supplied where the bytes stop.
    func endData() { zoetrope_jpeg_set_data_ended(stream) }

    /// Draws the scans complete so far into `pixels` (RGBA8, or CMYK for a CMYK file).
    func render(_ file: UnsafeRawBufferPointer, into pixels: UnsafeMutableRawPointer, bytesPerRow: Int) throws(AnimatedImageError) {
        _ = try step(
            zoetrope_jpeg_render(
                stream, file.bindMemory(to: UInt8.self).baseAddress, file.count,
                pixels.assumingMemoryBound(to: UInt8.self), bytesPerRow))
    }
}
