import Zoetrope

/// The colours a transform is checked on when it is built: 17 levels per channel in all
/// combinations (0, 15, …, 255) and every grey, opaque RGBA8.
enum ColorProbe {
    static let rgba8: [UInt8] = {
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
        return probe
    }()

    /// `rgba8` widened to 16 bits (v × 257).
    static let rgba16: [UInt16] = rgba8.map { UInt16($0) &* 257 }

    /// `pixels` (RGBA8, one row) converted by `transform`.
    static func converted(_ pixels: [UInt8], by transform: any ColorTransform) -> [UInt8] {
        var out = pixels
        out.withUnsafeMutableBytes { raw in
            transform.convert(raw.baseAddress!, width: pixels.count / 4, height: 1, bytesPerRow: pixels.count)
        }
        return out
    }

    /// `pixels` (RGBA16, one row) converted by `transform`.
    static func converted16(_ pixels: [UInt16], by transform: any ColorTransform) -> [UInt16] {
        var out = pixels
        out.withUnsafeMutableBytes { raw in
            transform.convert16(raw.baseAddress!, width: pixels.count / 4, height: 1, bytesPerRow: pixels.count * 2)
        }
        return out
    }

    /// The largest difference between two conversions of the same pixels, channel by channel.
    static func largestDifference<T: FixedWidthInteger>(_ a: [T], _ b: [T]) -> Int {
        zip(a, b).reduce(0) { Swift.max($0, abs(Int($1.0) - Int($1.1))) }
    }
}
