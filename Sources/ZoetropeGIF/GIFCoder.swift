import CGIF
import Foundation
import Zoetrope

/// Decodes GIF87a and GIF89a, still and animated, over giflib.
public struct GIFCoder: AnimatedImageCoder {
    public init() {}

    public var formats: [ImageFormat] { [.gif] }

    public var minimumSniffLength: Int { 6 }

    public func sniff(_ prefix: Data) -> SniffResult {
        let n = min(prefix.count, 6)
        for sig in ["GIF87a", "GIF89a"] where ByteSignature.matches(prefix.prefix(n), Array(sig.utf8.prefix(n))) {
            return n < 6 ? .needMoreData(minimumLength: 6) : .match(.gif, .unknown)
        }
        return .noMatch
    }

    /// Indexes every frame (offsets, rectangles, delays, disposal, transparency, loop
    /// block) without decoding pixels, checks `options.limits`, and returns a session
    /// that decodes frames one at a time with giflib. Throws when the header is unusable,
    /// a limit is passed, or no frame is complete; a file that breaks later keeps its
    /// complete frames and reports the break in `AnimationInfo.truncation`.
    public func makeFrameSource(data: Data, options: DecodingOptions) throws -> any FrameSource {
        try GIFFrameSource(data: data, options: options)
    }
}
