import Zoetrope

/// Colour management over lcms2: turns the `ColorInfo` a file declares into a conversion to
/// sRGB, as a colour-managed browser (Chromium) shows the file.
///
/// A coder calls `prepare(_:options:precedence:)` once per decoding session and hands the
/// result to its `Compositor`; every frame it delivers is then converted in one pass: an
/// RGB profile made of three curves and a matrix (sRGB-like, Display P3, Adobe RGB, BT.2020,
/// PNG `gAMA`/`cHRM`, code points) through curve tables, a 3×3 matrix and sRGB's encoding
/// without lcms2 (within 1 of lcms2's result), any other through lcms2.
/// Which declaration is used, in `ColorPrecedence.profileFirst` order (PNG uses
/// `.codePointsFirst`):
///
/// - an ICC profile (RGB profiles; relative colorimetric intent);
/// - PNG `sRGB`: the values are sRGB, nothing to do;
/// - H.273 code points (PNG `cICP`, AVIF `nclx`): primaries 1 (BT.709/sRGB), 4, 5, 6, 7, 8,
///   9 (BT.2020), 11 (DCI-P3), 12 (Display P3), 22; transfer 13 (sRGB), 1/6/14/15 (BT.709,
///   decoded with BT.1886's gamma 2.4), 4 (gamma 2.2), 5 (gamma 2.8), 8 (linear); 2
///   (unspecified) reads as sRGB. PQ (16) and HLG (18) are not tone-mapped: the stored
///   values are kept and a warning says so;
/// - PNG `cHRM` with `gAMA`; `gAMA` alone with sRGB's primaries, unless it is within 5 % of
///   1/2.2 (then the values are taken as sRGB); `cHRM` alone is ignored. These are
///   Chromium's rules.
///
/// A declaration that converts every probed colour to itself (an sRGB ICC profile, code
/// points 1/13) needs no conversion: its transform is nil, as for an untagged file.
/// Transforms are cached (at most 64 of them and 8 MiB, keyed by the profile's SHA-256 or
/// the declared values; a declaration that cannot be converted is not kept), so opening
/// many sessions over one image builds one.
public enum ColorManagement {
    /// The conversion of `color`'s values to sRGB; nil when they are sRGB already (nothing
    /// declared, PNG `sRGB`, sRGB code points, a profile equal to sRGB). Throws when the
    /// declaration cannot be converted (an invalid or unsupported profile, PQ or HLG, code
    /// points this does not know).
    public static func transform(
        for color: ColorInfo,
        precedence: ColorPrecedence = .profileFirst
    ) throws(ColorConversionError) -> (any ColorTransform)? {
        guard let source = ColorSource(color, precedence: precedence) else { return nil }
        return try TransformCache.shared.transform(for: source)
    }

    /// The transform a decoding session with `options` applies to a file with `info`: nil
    /// when `options.colorOutput` is `.stored`, when nothing is declared, or when the values
    /// are sRGB already. It converts a big frame in bands on up to `options.threadCount`
    /// threads (nil: every core the process may use). A declaration that cannot be
    /// converted adds a line to `info.warnings` and gives nil (the frames hold the stored
    /// values; decoding never fails over colour).
    public static func prepare(
        _ info: inout AnimationInfo, options: DecodingOptions,
        precedence: ColorPrecedence = .profileFirst
    ) -> (any ColorTransform)? {
        let (transform, warning) = prepare(info.color, options: options, precedence: precedence)
        if let warning { info.warnings.append(warning) }
        return transform
    }

    /// The transform a decoding session with `options` applies to frames whose colour is
    /// `color`, and the warning to report when the declaration cannot be converted (as
    /// `prepare(_:options:precedence:)`, for an incremental session's snapshot).
    public static func prepare(_ color: ColorInfo, options: DecodingOptions, precedence: ColorPrecedence = .profileFirst)
        -> (transform: (any ColorTransform)?, warning: String?)
    {
        guard options.colorOutput == .sRGB, color.isDeclared else { return (nil, nil) }
        do {
            guard let base = try transform(for: color, precedence: precedence) else { return (nil, nil) }
            return (BandedColorTransform(base, tuning: options.tuning, threads: options.threadCount), nil)
        } catch {
            return (nil, error.reason)
        }
    }
}
