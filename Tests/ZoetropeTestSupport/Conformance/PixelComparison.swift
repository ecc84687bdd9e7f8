import Zoetrope

/// Pixel comparisons as the corpus checker makes them: colour premultiplied by alpha, so
/// opaque pixels compare exactly and the colour under zero alpha does not count.
public enum PixelComparison {
    /// The largest channel difference between two straight-alpha pixels.
    public static func difference(_ e: [UInt8], _ g: [UInt8]) -> Int {
        let ea = Int(e[3]), ga = Int(g[3])
        var d = abs(ea - ga)
        if ea == 255 && ga == 255 {
            for k in 0..<3 { d = max(d, abs(Int(e[k]) - Int(g[k]))) }
            return d
        }
        var worst = Double(d)
        for k in 0..<3 {
            worst = max(worst, abs(Double(Int(e[k]) * ea) - Double(Int(g[k]) * ga)) / 255)
        }
        return Int(worst + 0.5)
    }

    /// nil when every pixel is within `tolerance`, else a description of the worst one.
    public static func firstMismatch(expected: PixelBuffer, got: PixelBuffer, tolerance: Int) -> String? {
        guard expected.size == got.size else { return "size \(got.size) != expected \(expected.size)" }
        var worst: (x: Int, y: Int, d: Int, e: [UInt8], g: [UInt8])?
        for y in 0..<expected.height {
            for x in 0..<expected.width {
                let eo = y * expected.bytesPerRow + x * 4, go = y * got.bytesPerRow + x * 4
                if expected.bytes[eo..<eo + 4].elementsEqual(got.bytes[go..<go + 4]) { continue }
                let e = Array(expected.bytes[eo..<eo + 4]), g = Array(got.bytes[go..<go + 4])
                let d = difference(e, g)
                if d > tolerance, d > (worst?.d ?? -1) { worst = (x, y, d, e, g) }
            }
        }
        guard let w = worst else { return nil }
        return "max difference \(w.d) > \(tolerance) at (\(w.x),\(w.y)): expected \(w.e), got \(w.g)"
    }

    /// The largest difference of one channel between two RGBA16 buffers of one size, all
    /// four channels compared as stored.
    public static func maxChannelDifference16(_ a: PixelBuffer, _ b: PixelBuffer) -> Int {
        precondition(a.size == b.size && a.format.channelDepth == .sixteen && b.format.channelDepth == .sixteen)
        var worst = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                for (p, q) in zip(a.pixel16(x: x, y: y), b.pixel16(x: x, y: y)) { worst = max(worst, abs(Int(p) - Int(q))) }
            }
        }
        return worst
    }

    /// How many rows of `partial`, from the top, equal `whole`'s, when every pixel after
    /// them is transparent (a frame drawn from the rows that have arrived); nil when the
    /// sizes differ or a later pixel is not transparent.
    public static func decodedRows(_ partial: PixelBuffer, of whole: PixelBuffer) -> Int? {
        let row = partial.bytesPerRow
        guard partial.bytes.count == whole.bytes.count, partial.height == whole.height else { return nil }
        var n = 0
        while n < partial.height, partial.bytes[n * row..<(n + 1) * row] == whole.bytes[n * row..<(n + 1) * row] { n += 1 }
        for y in n..<partial.height {
            for x in 0..<partial.width where partial.bytes[y * row + x * 4 + 3] != 0 { return nil }
        }
        return n
    }
}
