/// The layout of decoded pixels. Zoetrope decodes to 8-bit RGBA, in byte order R, G, B, A.
public struct PixelFormat: Hashable, Sendable, CustomStringConvertible {
    /// Straight or premultiplied alpha.
    public var alphaMode: AlphaMode

    /// Creates an RGBA8 layout with the given alpha mode.
    public init(alphaMode: AlphaMode) {
        self.alphaMode = alphaMode
    }

    /// Bytes per pixel: always 4.
    public var bytesPerPixel: Int { 4 }

    /// RGBA8, straight alpha: the default.
    public static let rgba8 = PixelFormat(alphaMode: .straight)
    /// RGBA8, premultiplied alpha.
    public static let rgba8Premultiplied = PixelFormat(alphaMode: .premultiplied)

    /// "RGBA8" or "RGBA8 (premultiplied)".
    public var description: String { alphaMode == .straight ? "RGBA8" : "RGBA8 (premultiplied)" }
}
