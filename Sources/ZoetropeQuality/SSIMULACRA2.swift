import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// SSIMULACRA2 (Jon Sneyers, 2022): a perceptual score of a distorted image against a
/// reference: 100 for identical, about 90 visually lossless, 70 high quality, 50 medium,
/// lower is worse (negative possible).
///
/// Follows libjxl's `tools/ssimulacra2` (the April 2023 weights): XYB planes, a 1.5-sigma blur,
/// SSIM / ringing / blurring maps at up to six scales, 1- and 4-norms, 108 weights.
///
/// Alpha is handled as libjxl's tool handles RGBA inputs: each image is composited (straight alpha,
/// on the sRGB-encoded values) over a dark grey (0.1) and over a light grey (0.9) background, the
/// metric is computed for both, and the lower score is returned. When every alpha byte of both
/// images is 255 the composite changes nothing, so a single pass is made.
public enum SSIMULACRA2 {
    /// The score of `distorted` against `reference`, both `width`×`height` straight-alpha
    /// RGBA8 in sRGB, rows `width * 4` bytes apart. Nil when the size is below 8×8 (the
    /// metric needs room for its scales) or a buffer has the wrong length.
    public static func score(reference: [UInt8], distorted: [UInt8], width: Int, height: Int) -> Double? {
        guard width >= 8, height >= 8 else { return nil }
        let (pixels, overflow1) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: 4)
        guard !overflow1, !overflow2, reference.count == bytes, distorted.count == bytes else { return nil }

        let translucent = hasTranslucency(reference) || hasTranslucency(distorted)
        return reference.withUnsafeBufferPointer { ref in
            distorted.withUnsafeBufferPointer { dist in
                guard let r = ref.baseAddress, let d = dist.baseAddress else { return nil }
                let work = SSIMULACRA2Workspace(reference: r, distorted: d, width: width, height: height, translucent: translucent)
                if !translucent {
                    return work.run(background: nil)
                }
                return min(work.run(background: 0.1), work.run(background: 0.9))
            }
        }
    }

    private static func hasTranslucency(_ rgba: [UInt8]) -> Bool {
        var i = 3
        while i < rgba.count {
            if rgba[i] != 255 { return true }
            i += 4
        }
        return false
    }
}
