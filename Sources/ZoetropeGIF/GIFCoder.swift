import CGIF
import Foundation
import Zoetrope

/// Decodes GIF87a and GIF89a, still and animated, over giflib.
public struct GIFCoder: AnimatedImageCoder {
    /// A stateless coder; register it with a `CoderRegistry`.
    public init() {}

    /// The formats this coder reports.
    public var formats: [ImageFormat] { [.gif] }

    /// How many leading bytes `sniff` needs to decide.
    public var minimumSniffLength: Int { 6 }

    /// Matches the `GIF87a` or `GIF89a` signature.
    public func sniff(_ prefix: Data) -> SniffResult {
        let n = min(prefix.count, 6)
        for sig in ["GIF87a", "GIF89a"] where ByteSignature.matches(prefix.prefix(n), Array(sig.utf8.prefix(n))) {
            return n < 6 ? .needMoreData(minimumLength: 6) : .match(.gif, .unknown)
        }
        return .noMatch
    }

    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        throw AnimatedImageError.unsupported(format: .gif, feature: "decoding (GIFCoder is being written)")
    }
}
