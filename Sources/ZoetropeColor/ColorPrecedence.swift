import Zoetrope

/// Which declaration wins when a file declares its colour more than one way.
public enum ColorPrecedence: Hashable, Sendable {
    /// An ICC profile, then PNG `sRGB`, then code points, then `gAMA` (with `cHRM`): AVIF
    /// (a `colr` `prof` box over `nclx`, as libavif and Chromium read it), WebP and GIF.
    case profileFirst
    /// Code points, then an ICC profile, then `sRGB`, then `gAMA` (with `cHRM`): PNG (the
    /// third edition: a decoder that knows `cICP` ignores `iCCP`, `sRGB`, `gAMA` and `cHRM`).
    case codePointsFirst
}

extension ColorPrecedence {
    /// The rule of `format`: `.codePointsFirst` for PNG and APNG, `.profileFirst` otherwise.
    public static func rule(for format: ImageFormat) -> ColorPrecedence {
        format == .png || format == .apng ? .codePointsFirst : .profileFirst
    }
}
