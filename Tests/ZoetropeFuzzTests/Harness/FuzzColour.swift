import CLCMS2
import Foundation

@testable import Zoetrope
@testable import ZoetropeColor

/// The colour path on its own: a declaration read from the input, the transform built for it
/// (lcms2's profile parse, `MatrixShaper.read`, the fast path's tables and its agreement
/// probe, the choice between them), then RGBA8 and RGBA16 pixels converted by it.
///
/// The first byte picks the declaration: 0–1 an ICC profile (the rest of the input), 2 H.273
/// code points (two big-endian 16-bit values), 3 PNG `gAMA` (4 bytes) with `cHRM` when 32 more
/// bytes follow. Each input builds its transform afresh (a cache that keeps nothing), so the
/// same profile is parsed every time. A fast-path transform must agree with lcms2 within 1 on
/// a cube of 8-bit values: a larger difference is a problem, as a trap is.
enum FuzzColour {
    static func run(_ data: Data) -> FuzzOutcome {
        var outcome = FuzzOutcome()
        guard let kind = data.first, let source = ColorSource(declaration(kind, Array(data.dropFirst())), precedence: .profileFirst)
        else { return outcome }
        let transform: (any ColorTransform)?
        do throws(ColorConversionError) {
            transform = try TransformCache(capacity: 1, byteLimit: 0).transform(for: source)
        } catch {
            // A declaration that cannot be converted: the frames keep their stored values.
            return outcome
        }
        outcome.opened = true
        guard let transform else { return outcome }
        var eight = cube
        eight.withUnsafeMutableBytes { transform.convert($0.baseAddress!, width: 64, height: 8, bytesPerRow: 64 * 4) }
        var deep = cube.map { UInt16($0) &* 257 }
        deep.withUnsafeMutableBytes { transform.convert16($0.baseAddress!, width: 64, height: 8, bytesPerRow: 64 * 8) }
        outcome.framesDecoded = 1
        if transform is MatrixShaperTransform, let difference = differenceFromLCMS(eight, source: source), difference > 1 {
            outcome.problem = "the fast path differs from lcms2 by \(difference) on an 8-bit value"
        }
        return outcome
    }

    /// The declaration `kind` picks, read from `bytes`.
    static func declaration(_ kind: UInt8, _ bytes: [UInt8]) -> ColorInfo {
        func be(_ at: Int, _ count: Int) -> UInt32 {
            (at..<at + count).reduce(0) { $0 << 8 | UInt32(at + count <= bytes.count ? bytes[$1] : 0) }
        }
        switch kind % 4 {
        case 2:
            return ColorInfo(
                codePoints: ColorCodePoints(primaries: UInt16(be(0, 2)), transfer: UInt16(be(2, 2)), matrix: 0, fullRange: true))
        case 3:
            let chromaticities =
                bytes.count >= 36
                ? Chromaticities(
                    whiteX: be(4, 4), whiteY: be(8, 4), redX: be(12, 4), redY: be(16, 4), greenX: be(20, 4), greenY: be(24, 4),
                    blueX: be(28, 4), blueY: be(32, 4)) : nil
            return ColorInfo(gamma: be(0, 4), chromaticities: chromaticities)
        default:
            return ColorInfo(iccProfile: ICCProfile(data: bytes))
        }
    }

    /// 512 RGBA8 pixels: every combination of 8 levels per channel (the extremes included),
    /// alpha varying.
    static let cube: [UInt8] = (0..<512).flatMap { (i: Int) -> [UInt8] in
        let level = { (v: Int) in UInt8(min(255, v * 255 / 7 + (v % 3) * 3)) }
        return [level(i & 7), level(i >> 3 & 7), level(i >> 6), UInt8(i % 256)]
    }

    /// The largest difference between `converted` and lcms2's transform of `cube`.
    private static func differenceFromLCMS(_ converted: [UInt8], source: ColorSource) -> Int? {
        guard case .success(let profile) = LCMSProfile.make(source) else { return nil }
        defer { cmsCloseProfile(profile) }
        guard let lcms = LCMSTransform(from: profile) else { return nil }
        var theirs = cube
        theirs.withUnsafeMutableBytes { lcms.convert($0.baseAddress!, width: 64, height: 8, bytesPerRow: 64 * 4) }
        return zip(converted, theirs).enumerated().reduce(0) { largest, item in
            item.offset % 4 == 3 ? largest : max(largest, abs(Int(item.element.0) - Int(item.element.1)))
        }
    }
}
