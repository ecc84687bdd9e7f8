import CWebP
import Zoetrope

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes WebP, still (VP8, VP8L, VP8X) and animated, over libwebp.
public struct WebPCoder: AnimatedImageCoder {
    /// A stateless coder; register it with a `CoderRegistry`.
    public init() {}

    /// The formats this coder reports.
    public var formats: [ImageFormat] { [.webp] }

    /// How many leading bytes `sniff` needs to decide.
    public var minimumSniffLength: Int { 21 }

    /// `RIFF` size `WEBP`, then the first chunk: `VP8 `/`VP8L` are stills; `VP8X` is
    /// animated when its animation flag (bit 1 of byte 20) is set.
    public func sniff(_ prefix: Data) -> SniffResult {
        let riff = Array("RIFF".utf8), webp = Array("WEBP".utf8)
        let n = prefix.count
        guard ByteSignature.matches(prefix, Array(riff.prefix(min(n, 4)))) else { return .noMatch }
        if n < 12 {
            guard n <= 8 || ByteSignature.matches(prefix, Array(webp.prefix(n - 8)), at: 8) else { return .noMatch }
            return .needMoreData(minimumLength: 21)
        }
        guard ByteSignature.matches(prefix, webp, at: 8) else { return .noMatch }
        guard let chunk = ByteSignature.fourCC(prefix, at: 12) else { return .needMoreData(minimumLength: 21) }
        switch chunk {
        case "VP8 ", "VP8L": return .match(.webp, .still)
        case "VP8X":
            guard let flags = ByteSignature.byte(prefix, at: 20) else { return .needMoreData(minimumLength: 21) }
            return .match(.webp, flags & 0x02 != 0 ? .animated : .still)
        default: return .match(.webp, .unknown)
        }
    }

    /// Indexes the file and returns a session that decodes frames with libwebp.
    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try WebPFrameSource(data: data, options: options)
    }
}
