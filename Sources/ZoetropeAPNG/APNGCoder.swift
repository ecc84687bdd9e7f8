import CPNG
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes APNG and still PNG over libpng. Zoetrope walks the animation chunks itself
/// (Debian's libpng has no APNG support) and hands libpng one plain PNG stream per frame.
public struct APNGCoder: AnimatedImageCoder {
    /// A stateless coder; register it with a `CoderRegistry`.
    public init() {}

    /// The formats this coder reports.
    public var formats: [ImageFormat] { [.apng, .png] }

    /// How many leading bytes `sniff` needs to decide.
    public var minimumSniffLength: Int { 41 }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Matches the PNG signature, then walks chunk headers: `acTL` before the first `IDAT`
    /// makes it an APNG; `IDAT` first (or no `acTL` at all) a still PNG.
    public func sniff(_ prefix: Data) -> SniffResult {
        let n = min(prefix.count, 8)
        guard ByteSignature.matches(prefix, Array(APNGCoder.signature.prefix(n))) else { return .noMatch }
        guard n == 8 else { return .needMoreData(minimumLength: minimumSniffLength) }
        var offset = 8
        while true {
            // A prefix that ends before IDAT is a PNG that may still turn out animated.
            guard let length = ByteSignature.uint32BE(prefix, at: offset),
                let type = ByteSignature.fourCC(prefix, at: offset + 4)
            else { return .match(.png, .unknown) }
            switch type {
            case "acTL": return .match(.apng, .animated)
            case "IDAT", "IEND": return .match(.png, .still)
            default:
                let (next, overflow) = (offset + 12).addingReportingOverflow(Int(length))
                if overflow { return .match(.png, .unknown) }
                offset = next
            }
        }
    }

    /// Indexes the chunks (checking every CRC and APNG rule) and returns a session that
    /// decodes frames on demand. A still PNG is one frame; a PNG whose animation chunks
    /// are broken decodes as its still image with format `.png`. `Limits.maxPixelsPerPlay`
    /// is checked as frames are counted; the canvas is allocated by the first decode. A
    /// frame's data is read only up to its last row (more is ignored); data ending before
    /// it keeps the rows decoded and leaves the rest of the frame transparent. With a second
    /// core, a file of 4 MiB or more draws frame 0 while the rest of its chunks are walked,
    /// so the first `decodeFrame(at: 0)` returns without decoding.
    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try APNGFrameSource(data: data, options: options)
    }
}
