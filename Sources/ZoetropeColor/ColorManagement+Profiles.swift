import CLCMS2
import Zoetrope

extension ColorManagement {
    /// `color` as a target that writes `parts` can keep it, so that what the target shows
    /// is what the source shows.
    ///
    /// When the declaration that counts (by `precedence`, the source format's rule) is one
    /// the target does not write but the target writes ICC profiles, the result is an ICC
    /// profile built from that declaration (PNG `gAMA` and `cHRM`, or H.273 code points going
    /// to WebP or GIF, say; lcms2's matrix/TRC profile, version 4, described as what it was
    /// made from). Otherwise `color` is returned as it is: the target writes the
    /// declaration, the values are sRGB, or the target writes no profile either. Throws
    /// when the declaration cannot be expressed (PQ, HLG, unknown code points, degenerate
    /// chromaticities).
    public static func declaration(
        _ color: ColorInfo, writableBy parts: EmbeddedParts, precedence: ColorPrecedence
    ) throws(ColorConversionError) -> ColorInfo {
        guard parts.contains(.iccProfile), let source = ColorSource(color, precedence: precedence) else { return color }
        let description: String
        switch source {
        case .profile:
            return color
        case .codePoints(let primaries, let transfer):
            if parts.contains(.codePoints) { return color }
            description = "H.273 primaries \(primaries), transfer \(transfer)"
        case .chromaticities(_, let gamma):
            if parts.isSuperset(of: [.gamma, .chromaticities]) { return color }
            description = "PNG cHRM with gAMA \(gamma)"
        case .gamma(let gamma):
            if parts.contains(.gamma) { return color }
            description = "PNG gAMA \(gamma)"
        }
        let profile = try LCMSProfile.make(source).get()
        defer { cmsCloseProfile(profile) }
        guard let bytes = LCMSProfile.serialized(profile, description: description) else {
            throw ColorConversionError(reason: "lcms2 cannot write a profile for \(description)")
        }
        return ColorInfo(iccProfile: ICCProfile(data: bytes))
    }
}

extension LCMSProfile {
    /// `profile`'s bytes, its description tag set to `description`.
    static func serialized(_ profile: cmsHPROFILE, description: String) -> [UInt8]? {
        guard let mlu = cmsMLUalloc(nil, 1) else { return nil }
        defer { cmsMLUfree(mlu) }
        guard cmsMLUsetASCII(mlu, "en", "US", description) != 0,
            cmsWriteTag(profile, cmsSigProfileDescriptionTag, UnsafeRawPointer(mlu)) != 0
        else { return nil }
        var size: cmsUInt32Number = 0
        guard cmsSaveProfileToMem(profile, nil, &size) != 0, size > 0, Int(size) <= maxProfileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        guard bytes.withUnsafeMutableBytes({ cmsSaveProfileToMem(profile, $0.baseAddress, &size) }) != 0 else { return nil }
        return bytes
    }
}
