import Zoetrope

/// The one declaration a `ColorInfo` is converted from, once precedence has chosen it
/// (`TransformKey` files it in the transform cache).
enum ColorSource: Hashable, Sendable {
    case profile([UInt8])
    case codePoints(primaries: UInt16, transfer: UInt16)
    case chromaticities(Chromaticities, gamma: UInt32)
    /// PNG `gAMA` without `cHRM`: sRGB's primaries with that gamma.
    case gamma(UInt32)

    /// The declaration `precedence` picks, or nil when the values are sRGB as declared (or
    /// nothing usable is declared).
    init?(_ color: ColorInfo, precedence: ColorPrecedence) {
        let profile = color.iccProfile.map { ColorSource.profile($0.data) }
        let points = color.codePoints.flatMap(ColorSource.init(codePoints:))
        let codePointsAreSRGB = color.codePoints.map(ColorSource.isSRGB) ?? false
        switch precedence {
        case .codePointsFirst:
            if codePointsAreSRGB { return nil }
            if let points { self = points; return }
            if let profile { self = profile; return }
        case .profileFirst:
            if let profile { self = profile; return }
            if color.srgbRenderingIntent != nil || codePointsAreSRGB { return nil }
            if let points { self = points; return }
        }
        if color.srgbRenderingIntent != nil { return nil }
        // cHRM alone is ignored; gAMA alone near 1/2.2 is sRGB (Chromium's rules).
        guard let g = color.gamma else { return nil }
        if let c = color.chromaticities {
            self = .chromaticities(c, gamma: g)
        } else if ColorSource.gammaIsSRGB(g) {
            return nil
        } else {
            self = .gamma(g)
        }
    }

    /// Whether a `gAMA` without `cHRM` means sRGB: within 5 % of 1/2.2 (45455), as
    /// Chromium 156 shows it (measured: 43182 through 47727 show the stored values).
    static func gammaIsSRGB(_ gamma: UInt32) -> Bool {
        let scaled = UInt64(gamma) * 22
        return scaled >= 950_000 && scaled <= 1_050_000
    }

    private init?(codePoints c: ColorCodePoints) {
        if ColorSource.isSRGB(c) { return nil }
        self = .codePoints(primaries: c.primaries, transfer: c.transfer)
    }

    /// BT.709 primaries (or unspecified) with the sRGB transfer (or unspecified).
    static func isSRGB(_ c: ColorCodePoints) -> Bool {
        (c.primaries == 1 || c.primaries == 2) && (c.transfer == 13 || c.transfer == 2)
    }
}
