import CLCMS2

/// ICC profiles made with lcms2 directly, independently of ZoetropeColor's own profile
/// building: the tests' reference profiles.
public enum LCMSProfiles {
    /// The serialised bytes of `profile`.
    public static func save(_ profile: cmsHPROFILE) -> [UInt8] {
        var size: cmsUInt32Number = 0
        _ = cmsSaveProfileToMem(profile, nil, &size)
        var bytes = [UInt8](repeating: 0, count: Int(size))
        _ = cmsSaveProfileToMem(profile, &bytes, &size)
        return bytes
    }

    /// An RGB profile from D65 and xy `primaries` with one curve for the three channels
    /// (`curve`: a pure gamma, or lcms2's parametric type 4 [g, a, b, c, d]), described as
    /// `description` when given. The caller closes it.
    public static func rgbProfile(
        primaries: [(Double, Double)], curve params: [Double],
        description: String? = nil
    ) -> cmsHPROFILE {
        var white = cmsCIExyY(x: 0.3127, y: 0.3290, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: primaries[0].0, y: primaries[0].1, Y: 1),
            Green: cmsCIExyY(x: primaries[1].0, y: primaries[1].1, Y: 1),
            Blue: cmsCIExyY(x: primaries[2].0, y: primaries[2].1, Y: 1))
        let curve =
            params.count == 1
            ? cmsBuildGamma(nil, params[0])!
            : params.withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }!
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        let profile = curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&white, &triple, $0.baseAddress) }!
        if let description {
            let mlu = cmsMLUalloc(nil, 1)!
            defer { cmsMLUfree(mlu) }
            _ = cmsMLUsetASCII(mlu, "en", "US", description)
            _ = cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu))
        }
        return profile
    }

    /// The bytes of `rgbProfile(primaries:curve:description:)`.
    public static func rgb(primaries: [(Double, Double)], curve: [Double], description: String? = nil) -> [UInt8] {
        let profile = rgbProfile(primaries: primaries, curve: curve, description: description)
        defer { cmsCloseProfile(profile) }
        return save(profile)
    }

    /// Straight RGBA8 `pixels` converted from `profile` to sRGB by lcms2 (relative
    /// colorimetric, alpha copied): the reference conversion decoders are held to.
    public static func toSRGB(_ pixels: [UInt8], from profile: cmsHPROFILE) -> [UInt8] {
        let srgb = cmsCreate_sRGBProfile()!
        defer { cmsCloseProfile(srgb) }
        let t = cmsCreateTransform(
            profile, clcms2_type_rgba_8(), srgb, clcms2_type_rgba_8(),
            cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), clcms2_flags_copy_alpha())!
        defer { cmsDeleteTransform(t) }
        var out = pixels
        cmsDoTransform(t, pixels, &out, cmsUInt32Number(pixels.count / 4))
        return out
    }

    /// `toSRGB(_:from:)` from a serialised profile.
    public static func toSRGB(_ pixels: [UInt8], fromProfile bytes: [UInt8]) -> [UInt8] {
        let profile = bytes.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) }!
        defer { cmsCloseProfile(profile) }
        return toSRGB(pixels, from: profile)
    }

    /// A grey profile (D50 white) with a pure-gamma curve.
    public static func grey(gamma: Double) -> [UInt8] {
        var white = cmsCIExyY(x: 0.3457, y: 0.3585, Y: 1)
        let curve = cmsBuildGamma(nil, gamma)!
        defer { cmsFreeToneCurve(curve) }
        let profile = cmsCreateGrayProfile(&white, curve)!
        defer { cmsCloseProfile(profile) }
        return save(profile)
    }

    /// Adobe RGB (1998)'s primaries: 0.64/0.33, 0.21/0.71, 0.15/0.06 (gamma 563/256, D65).
    public static let adobePrimaries = [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)]

    /// Adobe RGB (1998), described as `description`.
    public static func adobeRGB(description: String? = nil) -> [UInt8] {
        rgb(primaries: adobePrimaries, curve: [563.0 / 256], description: description)
    }

    /// An sRGB profile as lcms2 builds it.
    public static var sRGB: [UInt8] {
        let profile = cmsCreate_sRGBProfile()!
        defer { cmsCloseProfile(profile) }
        return save(profile)
    }
}
