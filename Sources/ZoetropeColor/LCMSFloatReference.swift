import CLCMS2
import Zoetrope

/// lcms2's conversion of a profile to sRGB evaluated in floating point (`TYPE_RGBA_FLT`):
/// the unoptimised pipeline, against which `MatrixShaperTransform`'s 16-bit results are
/// checked. (lcms2's own 16-bit transform interpolates a 33-point grid, which is up to
/// 6,000 of 65,535 off where a colour leaves sRGB's gamut inside a grid cell.)
enum LCMSFloatReference {
    /// `pixels` (RGBA16) converted from `profile` to sRGB, rounded to 16 bits; nil when
    /// lcms2 cannot make the transform.
    static func converted16(_ pixels: [UInt16], from profile: cmsHPROFILE) -> [UInt16]? {
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        guard
            let transform = cmsCreateTransform(
                profile, clcms2_type_rgba_flt(), srgb, clcms2_type_rgba_flt(), cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                clcms2_flags_copy_alpha() | clcms2_flags_no_cache())
        else { return nil }
        defer { cmsDeleteTransform(transform) }
        var values = pixels.map { Float($0) / 65_535 }
        values.withUnsafeMutableBytes { raw in
            cmsDoTransform(transform, raw.baseAddress, raw.baseAddress, cmsUInt32Number(pixels.count / 4))
        }
        return values.map { UInt16(min(max($0, 0), 1) * 65_535 + 0.5) }
    }
}
