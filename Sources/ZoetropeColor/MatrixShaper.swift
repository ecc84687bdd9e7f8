import CLCMS2
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An RGB profile that lcms2 converts to sRGB as three tone curves, one 3×3 matrix and
/// sRGB's encoding: what `MatrixShaperTransform` evaluates without lcms2. Read from the
/// profile's `rTRC`/`gTRC`/`bTRC` and colorant tags, the same tags lcms2 builds its pipeline
/// from (colorants are in the D50 PCS already, Bradford-adapted by whoever made the
/// profile; relative colorimetric adds nothing to a matrix-shaper pair).
struct MatrixShaper {
    /// Samples per curve for 16-bit input (`linear16`): knots at i/4096, one repeated at the
    /// end so that interpolation may read the knot after the last.
    static let knots = 4096

    /// Each channel's curve at v/255 for v in 0...255: red, then green, then blue.
    var linear8: [Float]
    /// Each channel's curve at i/4096 for i in 0...4096, plus the last again: 4098 a channel.
    var linear16: [Float]
    /// Source-linear RGB to sRGB-linear RGB, row-major.
    var matrix: [Double]

    /// sRGB's encoding of a linear value, clamped to 0...1: the inverse of lcms2's sRGB
    /// curve (parametric type 4: 12.92x up to 0.0031308, then 1.055x^(1/2.4) − 0.055),
    /// which lcms2 inverts analytically too.
    static func encode(_ linear: Double) -> Double {
        let x = min(max(linear, 0), 1)
        return x <= 0.003_130_8 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055
    }

    /// The profile's curves and matrix, or nil when lcms2 would not convert it as a matrix
    /// shaper: not RGB, a PCS other than XYZ, a device link or abstract profile, any AToB or
    /// DToB table (lcms2 prefers those), missing or non-finite tags.
    static func read(_ profile: cmsHPROFILE) -> MatrixShaper? {
        guard cmsGetColorSpace(profile) == cmsSigRgbData, cmsGetPCS(profile) == cmsSigXYZData,
            cmsIsMatrixShaper(profile) != 0
        else { return nil }
        let deviceClass = cmsGetDeviceClass(profile)
        guard
            deviceClass == cmsSigInputClass || deviceClass == cmsSigDisplayClass || deviceClass == cmsSigOutputClass
                || deviceClass == cmsSigColorSpaceClass
        else { return nil }
        let tables: [cmsTagSignature] = [
            cmsSigAToB0Tag, cmsSigAToB1Tag, cmsSigAToB2Tag, cmsSigDToB0Tag, cmsSigDToB1Tag, cmsSigDToB2Tag,
        ]
        guard !tables.contains(where: { cmsIsTag(profile, $0) != 0 }) else { return nil }
        guard let source = colorants(profile), let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        guard let target = colorants(srgb), let inverse = invert(target) else { return nil }
        let matrix = multiply(inverse, source)
        guard matrix.allSatisfy({ $0.isFinite && abs($0) < 64 }) else { return nil }

        var linear8 = [Float](), linear16 = [Float]()
        linear8.reserveCapacity(3 * 256)
        linear16.reserveCapacity(3 * (knots + 2))
        for tag in [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            let curve = OpaquePointer(raw)
            for v in 0...255 { linear8.append(cmsEvalToneCurveFloat(curve, Float(v) / 255)) }
            for i in 0...knots { linear16.append(cmsEvalToneCurveFloat(curve, Float(i) / Float(knots))) }
            linear16.append(linear16[linear16.count - 1])
        }
        guard linear8.allSatisfy({ $0.isFinite && abs($0) < 64 }), linear16.allSatisfy({ $0.isFinite && abs($0) < 64 }) else {
            return nil
        }
        return MatrixShaper(linear8: linear8, linear16: linear16, matrix: matrix)
    }

    /// The profile's colorants as a row-major RGB → XYZ matrix (columns red, green, blue).
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        var columns: [cmsCIEXYZ] = []
        for tag in [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag] {
            guard let raw = cmsReadTag(profile, tag) else { return nil }
            columns.append(raw.assumingMemoryBound(to: cmsCIEXYZ.self).pointee)
        }
        let m = [
            columns[0].X, columns[1].X, columns[2].X,
            columns[0].Y, columns[1].Y, columns[2].Y,
            columns[0].Z, columns[1].Z, columns[2].Z,
        ]
        return m.allSatisfy(\.isFinite) ? m : nil
    }

    private static func invert(_ m: [Double]) -> [Double]? {
        let c00 = m[4] * m[8] - m[5] * m[7], c01 = m[5] * m[6] - m[3] * m[8], c02 = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02
        guard det.isFinite, abs(det) > 1e-9 else { return nil }
        return [
            c00 / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
            c01 / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
            c02 / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det,
        ]
    }

    private static func multiply(_ a: [Double], _ b: [Double]) -> [Double] {
        (0..<9).map { i in
            let r = i / 3, c = i % 3
            return a[r * 3] * b[c] + a[r * 3 + 1] * b[3 + c] + a[r * 3 + 2] * b[6 + c]
        }
    }
}
