/// The layout of decoded pixels: RGBA in that channel order, 8 bits per channel (one byte
/// each) by default or 16 (a `UInt16` each, in the machine's byte order).
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// Straight or premultiplied alpha.
    public var alphaMode: AlphaMode
    /// Bits per channel: 8 (the default) or 16.
    public var channelDepth: ChannelDepth

    /// Creates an RGBA8 layout with the given alpha mode.
    package init(alphaMode: AlphaMode) {
        self.init(alphaMode: alphaMode, channelDepth: .eight)
    }

    /// Creates an RGBA layout with the given alpha mode and channel depth.
    public init(alphaMode: AlphaMode, channelDepth: ChannelDepth) {
        self.alphaMode = alphaMode
        self.channelDepth = channelDepth
    }

    /// Bytes per pixel: 4 for RGBA8, 8 for RGBA16.
    package var bytesPerPixel: Int { channelDepth.bytesPerPixel }

    /// This layout with straight alpha (the form canvases keep).
    package var straight: PixelFormat { PixelFormat(alphaMode: .straight, channelDepth: channelDepth) }

    /// RGBA8, straight alpha: the default.
    public static let rgba8 = PixelFormat(alphaMode: .straight)
    /// RGBA8, premultiplied alpha.
    public static let rgba8Premultiplied = PixelFormat(alphaMode: .premultiplied)
    /// RGBA16, straight alpha: deep pixels (16-bit PNG, 10- and 12-bit AVIF) without rounding.
    public static let rgba16 = PixelFormat(alphaMode: .straight, channelDepth: .sixteen)
    /// RGBA16, premultiplied alpha.
    public static let rgba16Premultiplied = PixelFormat(alphaMode: .premultiplied, channelDepth: .sixteen)

    /// "RGBA8", "RGBA16", with " (premultiplied)" for premultiplied alpha.
    public var description: String {
        "RGBA\(channelDepth.rawValue)" + (alphaMode == .straight ? "" : " (premultiplied)")
    }
}
