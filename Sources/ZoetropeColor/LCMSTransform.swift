import CLCMS2
import Zoetrope

/// An lcms2 transform from a file's RGB space to sRGB, on straight RGBA8 or RGBA16 in place
/// (alpha copied), relative colorimetric. Built without lcms2's one-pixel cache, so that one
/// transform serves several threads at once.
final class LCMSTransform: ColorTransform, @unchecked Sendable {
    // Immutable after init; lcms2 reads a cache-less transform only.
    private let handle: cmsHTRANSFORM
    /// The same conversion on 16-bit channels, which keeps deep pixels deep.
    private let handle16: cmsHTRANSFORM

    /// A transform from `source` to sRGB, or nil when lcms2 cannot make one.
    init?(from source: cmsHPROFILE) {
        guard let srgb = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(srgb) }
        func make(_ format: cmsUInt32Number) -> cmsHTRANSFORM? {
            cmsCreateTransform(
                source, format, srgb, format, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                clcms2_flags_copy_alpha() | clcms2_flags_no_cache())
        }
        guard let handle = make(clcms2_type_rgba_8()) else { return nil }
        guard let handle16 = make(clcms2_type_rgba_16()) else {
            cmsDeleteTransform(handle)
            return nil
        }
        self.handle = handle
        self.handle16 = handle16
    }

    deinit {
        cmsDeleteTransform(handle)
        cmsDeleteTransform(handle16)
    }

    func convert16(_ pixels: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int) {
        guard width > 0, height > 0 else { return }
        for y in 0..<height {
            let row = pixels + y * bytesPerRow
            cmsDoTransform(handle16, row, row, cmsUInt32Number(width))
        }
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
