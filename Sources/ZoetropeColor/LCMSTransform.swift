import CLCMS2
import Zoetrope

/// An lcms2 transform from a file's RGB space to sRGB, on straight RGBA8 in place (alpha
/// copied), relative colorimetric. Built without lcms2's one-pixel cache, so that one
/// transform serves several threads at once.
final class LCMSTransform: ColorTransform, @unchecked Sendable {
    // Immutable after init; lcms2 reads a cache-less transform only.
    private let handle: cmsHTRANSFORM

    /// A transform from `source` to sRGB, or nil when lcms2 cannot make one.
    init?(from source: cmsHPROFILE) {
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        let format = clcms2_type_rgba_8()
        guard
            let handle = cmsCreateTransform(
                source, format, srgb, format, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                clcms2_flags_copy_alpha() | clcms2_flags_no_cache())
        else { return nil }
        self.handle = handle
    }

    deinit {
        cmsDeleteTransform(handle)
    }

    func convert(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        guard width > 0, height > 0 else { return }
        if bytesPerRow == width * 4, let count = cmsUInt32Number(exactly: width * height) {
            cmsDoTransform(handle, pixels, pixels, count)
            return
        }
        for y in 0..<height {
            let row = pixels + y * bytesPerRow
            cmsDoTransform(handle, row, row, cmsUInt32Number(width))
        }
    }

    /// Whether the transform leaves every probed value as it is: each of 17 levels per
    /// channel in all combinations (0, 15, …, 255), and every grey.
    var isIdentity: Bool {
        var probe = [UInt8]()
        probe.reserveCapacity((17 * 17 * 17 + 256) * 4)
        for r in stride(from: 0, through: 255, by: 15) {
            for g in stride(from: 0, through: 255, by: 15) {
                for b in stride(from: 0, through: 255, by: 15) {
                    probe += [UInt8(r), UInt8(g), UInt8(b), 255]
                }
            }
        }
        for v in 0...255 { probe += [UInt8(v), UInt8(v), UInt8(v), 255] }
        var converted = probe
        converted.withUnsafeMutableBytes { raw in
            convert(raw.baseAddress!, width: probe.count / 4, height: 1, bytesPerRow: probe.count)
        }
        return converted == probe
    }
}
