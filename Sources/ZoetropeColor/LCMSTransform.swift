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

    /// An estimate of the bytes lcms2 holds for the pair: 154 KiB (8-bit) and 215 KiB (16-bit,
    /// a 33-point grid) measured with `mallinfo2` for a matrix-shaper profile, plus twice the
    /// profile's size for the tables a LUT-based profile brings.
    let retainedByteCount: Int

    /// A transform from `source` (a profile of `profileByteCount` bytes, 0 when built from
    /// declared values) to sRGB, or nil when lcms2 cannot make one.
    init?(from source: cmsHPROFILE, profileByteCount: Int = 0) {
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
        retainedByteCount = 370 << 10 + 2 * profileByteCount
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

    /// Whether the transform leaves every probed value as it is (`ColorProbe`).
    var isIdentity: Bool {
        ColorProbe.converted(ColorProbe.rgba8, by: self) == ColorProbe.rgba8
    }
}
