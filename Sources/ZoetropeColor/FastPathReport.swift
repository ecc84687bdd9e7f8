import CLCMS2
import Zoetrope

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The matrix-shaper fast path measured against lcms2 for one declaration
/// (`zoetrope-colour-bench`, Docs/Benchmarks.md "Colour").
package struct FastPathReport: Sendable {
    /// Whether `TransformCache` would use the fast path for it.
    package var usesFastPath: Bool
    /// The largest difference, any channel, between the fast path's RGBA8 result and lcms2's
    /// over every 8-bit RGB value (2^24 of them).
    package var largestDifference: Int
    /// How many of the 2^24 values differ at all.
    package var differingValues: Int
    /// Megapixels per second converting RGBA8 in place on one thread: the fast path, lcms2.
    package var fastMegapixelsPerSecond: Double
    package var lcmsMegapixelsPerSecond: Double

    /// Measures `color` (as `precedence` reads it); nil when it needs no conversion or the
    /// fast path cannot express it.
    package static func measure(_ color: ColorInfo, precedence: ColorPrecedence, seconds: Double = 0.5) -> FastPathReport? {
        guard let source = ColorSource(color, precedence: precedence), case .success(let profile) = LCMSProfile.make(source) else {
            return nil
        }
        defer { cmsCloseProfile(profile) }
        guard let lcms = LCMSTransform(from: profile), let shaper = MatrixShaper.read(profile),
            let fast = MatrixShaperTransform(shaper)
        else { return nil }
        var largest = 0, differing = 0
        var ours = [UInt8](repeating: 255, count: 65_536 * 4)
        for red in 0..<256 {
            for i in 0..<65_536 {
                ours[i * 4] = UInt8(red)
                ours[i * 4 + 1] = UInt8(i >> 8)
                ours[i * 4 + 2] = UInt8(i & 0xff)
            }
            var theirs = ours
            ours.withUnsafeMutableBytes { fast.convert($0.baseAddress!, width: 65_536, height: 1, bytesPerRow: 65_536 * 4) }
            theirs.withUnsafeMutableBytes { lcms.convert($0.baseAddress!, width: 65_536, height: 1, bytesPerRow: 65_536 * 4) }
            for i in 0..<65_536 {
                let d = max(
                    abs(Int(ours[i * 4]) - Int(theirs[i * 4])), abs(Int(ours[i * 4 + 1]) - Int(theirs[i * 4 + 1])),
                    abs(Int(ours[i * 4 + 2]) - Int(theirs[i * 4 + 2])))
                largest = max(largest, d)
                if d > 0 { differing += 1 }
            }
        }
        return FastPathReport(
            usesFastPath: fast.agrees(with: lcms, profile: profile), largestDifference: largest, differingValues: differing,
            fastMegapixelsPerSecond: speed(fast, seconds: seconds), lcmsMegapixelsPerSecond: speed(lcms, seconds: seconds))
    }

    /// Megapixels per second of CPU converting a 1024×768 frame of varied colours in place.
    private static func speed(_ transform: any ColorTransform, seconds: Double) -> Double {
        let width = 1024, height = 768
        var state: UInt64 = 0x9e37_79b9
        var frame = (0..<width * height * 4).map { _ -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        var pixels = 0, spent = 0.0
        while spent < seconds {
            let start = cpuSeconds()
            frame.withUnsafeMutableBytes {
                transform.convert($0.baseAddress!, width: width, height: height, bytesPerRow: width * 4)
            }
            spent += cpuSeconds() - start
            pixels += width * height
        }
        return Double(pixels) / spent / 1e6
    }

    private static func cpuSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
