import Zoetrope

/// Which declaration wins when a file declares its colour more than one way.
public enum ColorPrecedence: Hashable, Sendable {
    /// An ICC profile, then PNG `sRGB`, then code points, then `cHRM` with `gAMA`: AVIF
    /// (a `colr` `prof` box over `nclx`, as libavif and Chromium read it), WebP and GIF.
    case profileFirst
    /// Code points, then an ICC profile, then `sRGB`, then `cHRM` with `gAMA`: PNG (the
    /// third edition: a decoder that knows `cICP` ignores `iCCP`, `sRGB`, `gAMA` and `cHRM`).
    case codePointsFirst
}

extension ColorPrecedence {
    /// The rule of `format`: `.codePointsFirst` for PNG and APNG, `.profileFirst` otherwise.
    public static func rule(for format: ImageFormat) -> ColorPrecedence {
        format == .png || format == .apng ? .codePointsFirst : .profileFirst
    }
}
