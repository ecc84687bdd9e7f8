import CLCMS2
import CZoetropeColorKernels
import Testing
import Zoetrope
import ZoetropeColorTestSupport

@testable import ZoetropeColor

/// The RGBA8 kernels of the fast path: every one this processor runs gives the portable
/// kernel's bytes, at every width, and the chosen one stays within 1 of lcms2.
@Suite("Matrix-shaper kernels")
struct MatrixShaperKernelTests {
    /// The kernels this processor runs, portable first.
    static let kernels = (0...zoetrope_shaper8_best_kernel()).map { Int32($0) }

    static func transform(_ i: Int) throws -> MatrixShaperTransform {
        let (name, source) = MatrixShaperTransformTests.cases[i]
        let profile = try LCMSProfile.make(source).get()
        defer { cmsCloseProfile(profile) }
        return try #require(MatrixShaper.read(profile).flatMap(MatrixShaperTransform.init), "\(name)")
    }

    /// `pixels` converted by `kernel` in rows of `width`, `padding` bytes after each row.
    static func converted(
        _ pixels: [UInt8], by transform: MatrixShaperTransform, kernel: Int32, width: Int, padding: Int = 0
    ) -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBytes { raw in
            transform.convert(
                raw.baseAddress!, width: width, height: pixels.count / (width * 4 + padding),
                bytesPerRow: width * 4 + padding, kernel: kernel)
        }
        return out
    }

    @Test("Each kernel gives the portable kernel's bytes for every 8-bit RGB value", arguments: 0..<6)
    func everyValue(_ i: Int) throws {
        let transform = try Self.transform(i)
        #expect(Self.kernels.first == Int32(ZOETROPE_SHAPER8_PORTABLE))
        for red in stride(from: 0, to: 256, by: 1) {
            var pixels = [UInt8](repeating: 0, count: 65_536 * 4)
            for j in 0..<65_536 {
                pixels[j * 4] = UInt8(red)
                pixels[j * 4 + 1] = UInt8(j >> 8)
                pixels[j * 4 + 2] = UInt8(j & 0xff)
                pixels[j * 4 + 3] = UInt8(truncatingIfNeeded: j &* 7)
            }
            let portable = Self.converted(pixels, by: transform, kernel: 0, width: 65_536)
            for kernel in Self.kernels.dropFirst() {
                let ours = Self.converted(pixels, by: transform, kernel: kernel, width: 65_536)
                guard ours == portable else {
                    let j = ours.indices.first { ours[$0] != portable[$0] }!
                    Issue.record("kernel \(kernel), red \(red): byte \(j) is \(ours[j]), portable \(portable[j])")
                    return
                }
            }
        }
    }

    @Test("Every width from 1 to 40 and bytes past a row's end: the same bytes, nothing written outside")
    func widths() throws {
        let transform = try Self.transform(1)
        var state: UInt64 = 12_345
        let long = (0..<40 * 3 * 4).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        let reference = Self.converted(long, by: transform, kernel: 0, width: long.count / 4)
        for kernel in Self.kernels {
            for width in 1...40 {
                // Three rows of `width` pixels, each followed by 12 bytes that must stay.
                var rows = [UInt8](), expected = [UInt8]()
                for y in 0..<3 {
                    rows += long[(y * 40 * 4)..<(y * 40 * 4 + width * 4)] + [UInt8](repeating: 0xa5, count: 12)
                    expected += reference[(y * 40 * 4)..<(y * 40 * 4 + width * 4)] + [UInt8](repeating: 0xa5, count: 12)
                }
                #expect(
                    Self.converted(rows, by: transform, kernel: kernel, width: width, padding: 12) == expected,
                    "kernel \(kernel), width \(width)")
            }
        }
    }

    /// Two declarations as files carry them: an ICC profile, and PNG's gAMA and cHRM.
    static let declarations: [(ColorInfo, ColorPrecedence)] = [
        (
            ColorInfo(
                iccProfile: ICCProfile(
                    data: LCMSProfiles.rgb(
                        primaries: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)], curve: MatrixShaperTransformTests.srgbCurve))),
            .profileFirst
        ),
        (
            ColorInfo(
                gamma: 45455,
                chromaticities: Chromaticities(
                    whiteX: 31270, whiteY: 32900, redX: 64000, redY: 33000, greenX: 30000, greenY: 60000, blueX: 15000,
                    blueY: 6000)),
            .codePointsFirst
        ),
    ]

    @Test("The kernel in use is within 1 of lcms2 over every 8-bit RGB value", arguments: 0..<2)
    func againstLCMS(_ i: Int) throws {
        let (color, precedence) = Self.declarations[i]
        let report = try #require(FastPathReport.measure(color, precedence: precedence, seconds: 0.001))
        #expect(report.usesFastPath)
        #expect(report.largestDifference == 1)
    }
}
