import CLCMS2
import Zoetrope

/// lcms2 profiles for each kind of declaration (the caller closes them).
enum LCMSProfile {
    /// Largest ICC profile opened: far above any real one (a few KiB to a few hundred).
    static let maxProfileBytes = 4 << 20

    /// The profile a `ColorSource` describes, or the reason there is none.
    static func make(_ source: ColorSource) -> Result<cmsHPROFILE, ColorConversionError> {
        switch source {
        case .profile(let bytes):
            return open(bytes)
        case .codePoints(let primaries, let transfer):
            return codePoints(primaries: primaries, transfer: transfer)
        case .chromaticities(let c, let gamma):
            guard gamma > 0 else {
                return .failure(ColorConversionError(reason: "gAMA 0 is invalid: cHRM and gAMA ignored, values taken as sRGB"))
            }
            let white = (Double(c.whiteX) / 100_000, Double(c.whiteY) / 100_000)
            let primaries = [(Double(c.redX), Double(c.redY)), (Double(c.greenX), Double(c.greenY)), (Double(c.blueX), Double(c.blueY))]
                .map { ($0.0 / 100_000, $0.1 / 100_000) }
            guard let profile = rgb(white: white, primaries: primaries, curve: .gamma(100_000 / Double(gamma))) else {
                return .failure(
                    ColorConversionError(reason: "cHRM chromaticities are not a usable RGB space: cHRM and gAMA ignored, values taken as sRGB"))
            }
            return .success(profile)
        case .gamma(let gamma):
            guard gamma > 0 else {
                return .failure(ColorConversionError(reason: "gAMA 0 is invalid: ignored, values taken as sRGB"))
            }
            guard let sRGB = primaries(1), let profile = rgb(white: sRGB.white, primaries: sRGB.rgb, curve: .gamma(100_000 / Double(gamma)))
            else {
                return .failure(ColorConversionError(reason: "gAMA \(gamma) makes no RGB profile: ignored, values taken as sRGB"))
            }
            return .success(profile)
        }
    }

    /// Why a profile of `byteCount` bytes does not open.
    static func invalidProfile(byteCount: Int) -> ColorConversionError {
        ColorConversionError(reason: "the ICC profile (\(byteCount) bytes) is not a valid profile: values left as stored")
    }

    /// Opens an embedded profile: an RGB profile as it is, a grey one as the RGB profile
    /// that treats each channel as that grey (`greyAsRGB`); any other kind does not convert.
    static func open(_ bytes: [UInt8]) -> Result<cmsHPROFILE, ColorConversionError> {
        guard bytes.count >= 132, bytes.count <= maxProfileBytes,
            let profile = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
        else {
            return .failure(invalidProfile(byteCount: bytes.count))
        }
        switch cmsGetColorSpace(profile) {
        case cmsSigRgbData:
            return .success(profile)
        case cmsSigGrayData:
            defer { cmsCloseProfile(profile) }
            guard let rgb = greyAsRGB(profile) else {
                return .failure(ColorConversionError(reason: "the grey ICC profile has no usable grey curve: values left as stored"))
            }
            return .success(rgb)
        default:
            cmsCloseProfile(profile)
            return .failure(ColorConversionError(reason: "the ICC profile is neither an RGB nor a grey profile: values left as stored"))
        }
    }

    /// A grey profile (allowed by PNG for grey images, which decode to R = G = B) as an RGB
    /// profile with its grey curve on every channel and sRGB's primaries: a neutral value v
    /// becomes the neutral of luminance curve(v), exactly what the grey profile gives it.
    static func greyAsRGB(_ grey: cmsHPROFILE) -> cmsHPROFILE? {
        guard let tag = cmsReadTag(grey, cmsSigGrayTRCTag), let sRGB = primaries(1) else { return nil }
        return rgb(white: sRGB.white, primaries: sRGB.rgb, tone: OpaquePointer(tag))
    }

    enum Curve {
        case gamma(Double)
        /// lcms2 parametric type 4: Y = (aX + b)^g for X ≥ d, cX below; [g, a, b, c, d].
        case piecewise([Double])

        static let sRGB = Curve.piecewise([2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
    }

    /// An RGB profile from CIE xy chromaticities (white, then red, green, blue) and one curve.
    static func rgb(white: (Double, Double), primaries: [(Double, Double)], curve: Curve) -> cmsHPROFILE? {
        guard white.1 > 0, primaries.allSatisfy({ $0.1 > 0 }) else { return nil }
        let tone: OpaquePointer?
        switch curve {
        case .gamma(let g): tone = cmsBuildGamma(nil, g)
        case .piecewise(let p): tone = p.withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, 4, $0.baseAddress) }
        }
        guard let tone else { return nil }
        defer { cmsFreeToneCurve(tone) }
        return rgb(white: white, primaries: primaries, tone: tone)
    }

    /// An RGB profile from CIE xy chromaticities with `tone` (the caller's) on every channel.
    static func rgb(white: (Double, Double), primaries: [(Double, Double)], tone: OpaquePointer) -> cmsHPROFILE? {
        var whitePoint = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: primaries[0].0, y: primaries[0].1, Y: 1),
            Green: cmsCIExyY(x: primaries[1].0, y: primaries[1].1, Y: 1),
            Blue: cmsCIExyY(x: primaries[2].0, y: primaries[2].1, Y: 1))
        var curves: [OpaquePointer?] = [tone, tone, tone]
        return curves.withUnsafeMutableBufferPointer { cmsCreateRGBProfile(&whitePoint, &triple, $0.baseAddress) }
    }

    static let d65 = (0.3127, 0.3290)

    /// ITU-T H.273 colour primaries: white point and red, green, blue xy.
    static func primaries(_ code: UInt16) -> (white: (Double, Double), rgb: [(Double, Double)])? {
        switch code {
        case 1, 2: (d65, [(0.64, 0.33), (0.30, 0.60), (0.15, 0.06)])
        case 4: ((0.310, 0.316), [(0.67, 0.33), (0.21, 0.71), (0.14, 0.08)])
        case 5: (d65, [(0.64, 0.33), (0.29, 0.60), (0.15, 0.06)])
        case 6, 7: (d65, [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070)])
        case 8: ((0.310, 0.316), [(0.681, 0.319), (0.243, 0.692), (0.145, 0.049)])
        case 9: (d65, [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046)])
        case 11: ((0.314, 0.351), [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)])
        case 12: (d65, [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)])
        case 22: (d65, [(0.630, 0.340), (0.295, 0.605), (0.155, 0.077)])
        default: nil
        }
    }

    /// ITU-T H.273 transfer characteristics as a decoding curve. BT.709's family (1, 6, 14,
    /// 15) decodes with BT.1886's display gamma 2.4, not the inverse of its camera curve:
    /// what a display shows, and what Chromium 156 shows (Scripts/chromium-colour.py).
    static func transfer(_ code: UInt16) -> Curve? {
        switch code {
        case 2, 13: .sRGB
        case 1, 6, 14, 15: .gamma(2.4)
        case 4: .gamma(2.2)
        case 5: .gamma(2.8)
        case 8: .gamma(1)
        default: nil
        }
    }

    static func codePoints(primaries: UInt16, transfer: UInt16) -> Result<cmsHPROFILE, ColorConversionError> {
        if transfer == 16 || transfer == 18 {
            return .failure(
                ColorConversionError(
                    reason:
                        "\(transfer == 16 ? "PQ" : "HLG") transfer (H.273 \(transfer)) is high dynamic range, not tone-mapped: values left as stored")
            )
        }
        guard let p = self.primaries(primaries) else {
            return .failure(ColorConversionError(reason: "colour primaries H.273 \(primaries) are not supported: values left as stored"))
        }
        guard let curve = self.transfer(transfer) else {
            return .failure(ColorConversionError(reason: "transfer characteristics H.273 \(transfer) are not supported: values left as stored"))
        }
        guard let profile = rgb(white: p.white, primaries: p.rgb, curve: curve) else {
            return .failure(ColorConversionError(reason: "code points \(primaries)/\(transfer) make no RGB profile: values left as stored"))
        }
        return .success(profile)
    }
}
