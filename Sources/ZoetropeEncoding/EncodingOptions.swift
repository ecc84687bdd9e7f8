import Zoetrope

/// Settings every `AnimatedImageEncoder` understands. Format-specific settings (AVIF speed,
/// GIF dithering, WebP effort) are properties of the encoders themselves.
public struct EncodingOptions: Hashable, Sendable {
    /// Total plays to store; nil keeps the source's plays when converting
    /// (`AnimatedImage.encoded(with:options:targetSize:description:)`), and plays forever for a writer
    /// opened without a source.
    public var loopCount: LoopCount?
    /// 0–100 for lossy formats; nil asks for lossless where the format has it (PNG and GIF
    /// ignore it: APNG is always lossless, GIF is exact up to 256 colours per frame).
    public var quality: Int?
    /// Every frame is fully opaque (alpha 255): an encoder that stores alpha apart from
    /// colour (`AnimatedImageEncoder.storesAlphaSeparately`: AVIF) then writes none, and
    /// refuses a frame that is not opaque (`.invalidArgument`). `AnimatedImage.encoded(with:options:targetSize:description:)`
    /// and `zoetrope convert` set it when every frame of the source is opaque.
    public var framesAreOpaque: Bool
    /// The colour space the frames' values are in, written into the file where the format
    /// can hold it (`.unspecified`: nothing is written, the values are sRGB).
    public var color: ColorInfo
    /// Exif and XMP to write where the format can hold them.
    public var metadata: EmbeddedMetadata

    /// Options for a file that plays `loopCount` times (nil: as the source does, see
    /// `loopCount`), lossless unless `quality` is given, with no colour profile or metadata.
    public init(
        loopCount: LoopCount? = nil, quality: Int? = nil, framesAreOpaque: Bool = false,
        color: ColorInfo = .unspecified, metadata: EmbeddedMetadata = .none
    ) {
        self.loopCount = loopCount
        self.quality = quality
        self.framesAreOpaque = framesAreOpaque
        self.color = color
        self.metadata = metadata
    }

    /// Throws `.invalidArgument` unless `quality` is nil or 0…100.
    package func checkQuality() throws(AnimatedImageError) {
        if let q = quality, !(0...100).contains(q) {
            throw .invalidArgument("quality is 0…100, got \(q)")
        }
    }
}
