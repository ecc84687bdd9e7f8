/// Settings every `AnimatedImageEncoder` understands. Format-specific settings (AVIF speed,
/// GIF dithering, WebP effort) are properties of the encoders themselves.
public struct EncodingOptions: Hashable, Sendable {
    /// Total plays to store.
    public var loopCount: LoopCount
    /// 0–100 for lossy formats; nil asks for lossless where the format has it (PNG and GIF
    /// ignore it: APNG is always lossless, GIF is exact up to 256 colours per frame).
    public var quality: Int?

    /// Options for a file that plays `loopCount` times, lossless unless `quality` is given.
    public init(loopCount: LoopCount = .infinite, quality: Int? = nil) {
        self.loopCount = loopCount
        self.quality = quality
    }

    /// Throws `.invalidArgument` unless `quality` is nil or 0…100.
    public func checkQuality() throws(AnimatedImageError) {
        if let q = quality, !(0...100).contains(q) {
            throw .invalidArgument("quality is 0…100, got \(q)")
        }
    }
}
