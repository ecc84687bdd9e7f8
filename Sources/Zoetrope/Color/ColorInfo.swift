/// The colour a file declares for its stored pixel values: an ICC profile, PNG's `sRGB`,
/// `gAMA` and `cHRM` chunks, or coding-independent code points (PNG `cICP`, AVIF `nclx`).
///
/// A file that declares nothing is `.unspecified`, which every format's rule and every
/// browser treats as sRGB.
public struct ColorInfo: Hashable, Sendable {
    /// An embedded ICC profile (PNG `iCCP`, WebP `ICCP`, AVIF `colr` `prof`/`rICC`, GIF
    /// `ICCRGBG1`).
    public var iccProfile: ICCProfile?
    /// PNG `sRGB`: the rendering intent (0 perceptual, 1 relative colorimetric, 2 saturation,
    /// 3 absolute colorimetric). Present means the values are sRGB.
    public var srgbRenderingIntent: UInt8?
    /// PNG `gAMA`: the file gamma times 100,000 (45455 is 1/2.2).
    public var gamma: UInt32?
    /// PNG `cHRM`: the white point and primaries.
    public var chromaticities: Chromaticities?
    /// PNG `cICP` or AVIF `nclx`: primaries, transfer, matrix and range (ITU-T H.273).
    public var codePoints: ColorCodePoints?

    /// Creates a colour description; every part is absent by default.
    public init(
        iccProfile: ICCProfile? = nil, srgbRenderingIntent: UInt8? = nil, gamma: UInt32? = nil,
        chromaticities: Chromaticities? = nil, codePoints: ColorCodePoints? = nil
    ) {
        self.iccProfile = iccProfile
        self.srgbRenderingIntent = srgbRenderingIntent
        self.gamma = gamma
        self.chromaticities = chromaticities
        self.codePoints = codePoints
    }

    /// Nothing declared: the values are taken as sRGB.
    public static let unspecified = ColorInfo()

    /// Whether the file declares anything at all.
    package var isDeclared: Bool { self != .unspecified }
}
